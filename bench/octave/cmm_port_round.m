function R = cmm_port_round (X)
  % R = cmm_port_round (X): cmm's round, ties to even (Octave's round rounds
  % ties away from zero).
  R = round (X);
  ties = abs (X - fix (X)) == 0.5;
  R(ties) = 2 * round (X(ties) / 2);
end
