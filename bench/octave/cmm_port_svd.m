function [U, S, V] = cmm_port_svd (A)
  % [U, S, V] = cmm_port_svd (A): cmm's thin SVD, S a k x 1 column.
  [U, S, V] = svd (A, 'econ');
  S = diag (S);
  [U, V] = cmm_port_largest_positive (U, V);
end
