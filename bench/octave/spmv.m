% Octave port of examples/spmv.cmm (line by line; see bench/README-ports.md).
% The sparse matrix is stored densely, as in the cmm program.
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 8000);
density = cmm_port_size ('density', 0.001);
iters = cmm_port_size ('iters', 20);
cmm_port_start ();
A = cmm_port_next_input (n, n) .* double (cmm_port_next_input (n, n) < density);
x = cmm_port_next_input (n, 1);
for i = 1:iters
  x = A * x;
  x = x / norm (x, 'fro');
end
cmm_port_print ("x'", x');
cmm_port_finish ();
