% Octave port of examples/hits.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 4000);                   % pages
iters = cmm_port_size ('iters', 30);
cmm_port_start ();
A = double (cmm_port_next_input (n, n) < 0.01); % links
h = ones (n, 1);
for i = 1:iters
  a = A' * h;
  a = a / norm (a, 'fro');
  h = A * a;
  h = h / norm (h, 'fro');
end
cmm_port_print ("a'", a');                       % authority scores
cmm_port_print ("h'", h');                       % hub scores
cmm_port_finish ();
