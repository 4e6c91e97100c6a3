function [Q, R] = cmm_port_qr (A)
  % [Q, R] = cmm_port_qr (A): cmm's thin QR, R's diagonal non-negative.
  [Q, R] = qr (A, 0);
  s = 1 - 2 * (diag (R) < 0);
  Q = Q .* s';
  R = R .* s;
end
