% Octave port of examples/mm.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 4000);
cmm_port_start ();
A = cmm_port_next_input (n, n);
B = cmm_port_next_input (n, n);
C = A * B;
cmm_port_print ('C', C);
cmm_port_finish ();
