% Octave port of examples/reachability.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2000);                   % vertices
squarings = cmm_port_size ('squarings', 11);     % 2^11 >= n: the full closure
cmm_port_start ();
A = double (cmm_port_next_input (n, n) < 1 / n); % about one out-edge per vertex
R = A + eye (n);
for s = 1:squarings
  R = double ((R * R) > 0);
end
cmm_port_print ("sum(R, 2)'", sum (R, 2)');      % vertices reachable from each
cmm_port_print ('sum(R)', sum (R(:)));
cmm_port_finish ();
