% Octave port of examples/leontief.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 3000);                   % industries
terms = cmm_port_size ('terms', 40);
cmm_port_start ();
A = cmm_port_next_input (n, n) / n;              % column sums about 1/2
d = cmm_port_next_input (n, 1);                  % final demand
x = (eye (n) - A) \ d;
cmm_port_print ("x'", x');
y = d;
for i = 1:terms
  y = A * y + d;
end
cmm_port_print ("y'", y');
cmm_port_print ('norm(x - y) / norm(x) .< 1e-9', ...
                double (norm (x - y, 'fro') / norm (x, 'fro') < 1e-9));  % 1: the series converged to x
cmm_port_finish ();
