% Octave port of examples/cg.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2000);
cmm_port_start ();
B = cmm_port_next_input (n, n);
A = B' * B / n + eye (n);                        % symmetric positive definite
b = cmm_port_next_input (n, 1);
x = zeros (n, 1);
r = b - A * x;
p = r;
rs = r' * r;
tol = 1e-10 * norm (b, 'fro');
trips = 0;
while sqrt (rs) > tol
  Ap = A * p;
  alpha = rs ./ (p' * Ap);
  x = x + alpha .* p;
  r = r - alpha .* Ap;
  rs2 = r' * r;
  p = r + (rs2 ./ rs) .* p;
  rs = rs2;
  trips = trips + 1;
end
cmm_port_print ('x', x);
cmm_port_print ('trips', trips);
cmm_port_finish ();
