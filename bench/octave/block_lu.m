% Octave port of examples/block-lu.cmm (line by line; see
% bench/README-ports.md).
1;
function M = lu_packed (M)
  % L and U of M packed in one matrix: U on and above the diagonal.
  m = rows (M);
  for j = 1:m - 1
    M(j + 1:m, j) = M(j + 1:m, j) / M(j, j);
    M(j + 1:m, j + 1:m) = M(j + 1:m, j + 1:m) - M(j + 1:m, j) * M(j, j + 1:m);
  end
end
function L = lower_of (P)
  m = rows (P);
  L = P .* double ((1:m)' > (1:m)) + eye (m);
end
function U = upper_of (P)
  m = rows (P);
  U = P .* double ((1:m)' <= (1:m));
end
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 400);
h = n / 2;
cmm_port_start ();
A = cmm_port_next_input (n, n) + n * eye (n);
P11 = lu_packed (A(1:h, 1:h));
L11 = lower_of (P11);
U11 = upper_of (P11);
U12 = L11 \ A(1:h, h + 1:n);
L21 = (U11' \ A(h + 1:n, 1:h)')';
S = A(h + 1:n, h + 1:n) - L21 * U12;             % the Schur complement
P22 = lu_packed (S);
L = [L11 zeros(h, h); L21 lower_of(P22)];
U = [U11 U12; zeros(h, h) upper_of(P22)];
cmm_port_print ('L', L);
cmm_port_print ('U', U);
cmm_port_print ('L * U', L * U);
cmm_port_finish ();
