% Octave port of examples/hill.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 1000);                   % key size (letters per block)
L = cmm_port_size ('L', 4000);                   % blocks
rounds = cmm_port_size ('rounds', 4);
cmm_port_start ();
K = floor (26 * cmm_port_next_input (n, n));
M = floor (26 * cmm_port_next_input (n, L));
for r = 1:rounds
  M = mod (K * M, 26);
end
cmm_port_print ('M', M);
cmm_port_print ('sum(M .== 0)', sum (double (M == 0)(:)));  % letters enciphered as 'a'
cmm_port_finish ();
