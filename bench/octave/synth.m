% Octave port of examples/synth.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2000);
steps = cmm_port_size ('steps', 4);
cmm_port_start ();
A = cmm_port_next_input (n, n);
B = cmm_port_next_input (n, n);
for s = 1:steps
  C = A * B + B' * A';
  A = tanh (C / n);
  B = A .* B + 0.5 * B;
end
cmm_port_print ('A', A);
cmm_port_print ('B', B);
cmm_port_finish ();
