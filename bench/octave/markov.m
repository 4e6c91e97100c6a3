% Octave port of examples/markov.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 10000);
cmm_port_start ();
P = cmm_port_next_input (n, n);
P = P ./ sum (P, 2);                             % row-stochastic
u = cmm_port_next_input (1, n);
M = P;
for i = 1:3
  M = P * M;
end
M = u * M;
cmm_port_print ('M', M);
cmm_port_finish ();
