% Octave port of examples/pagerank-converge.cmm (line by line; see
% bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
cmm_port_start ();
A = cmm_port_next_input (400, 400);              % A(i, j) = 1: page i links to j
n = rows (A);
alpha = 0.85;
A = max (A, eye (n));                            % self-loops: no dangling pages
T = (A ./ sum (A, 2))';                          % column-stochastic transitions
r = ones (n, 1) / n;
change = 1.0;
trips = 0;
while change > 1e-10
  r2 = alpha * (T * r) + (1 - alpha) / n;
  change = sum (abs (r2 - r)(:));
  r = r2;
  trips = trips + 1;
end
cmm_port_print ('r', r);
cmm_port_print ('trips', trips);
cmm_port_print ('maximum(r)', max (r(:)));
cmm_port_finish ();
