function [w, V] = cmm_port_eig (A)
  % [w, V] = cmm_port_eig (A): cmm's symmetric eig, w ascending (n x 1).
  [V, D] = eig ((A + A') / 2);
  [w, order] = sort (diag (D));
  [V, ~] = cmm_port_largest_positive (V(:, order), []);
end
