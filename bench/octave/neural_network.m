% Octave port of examples/neural-network.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 8192);                   % samples
d = cmm_port_size ('d', 512);                    % features
h = cmm_port_size ('h', 512);                    % hidden units
epochs = cmm_port_size ('epochs', 10);
rate = cmm_port_size ('rate', 0.5);
cmm_port_start ();
X = cmm_port_next_input (m, d);
y = tanh (X * cmm_port_next_input (d, 1) / sqrt (d));  % targets
W1 = cmm_port_next_input (d, h) / sqrt (d);
W2 = cmm_port_next_input (h, 1) / sqrt (h);
for e = 1:epochs
  H = tanh (X * W1);                             % m x h
  E = H * W2 - y;                                % m x 1 residual
  G = (E * W2') .* (1 - H .^ 2);                 % back through tanh
  W2 = W2 - rate * (H' * E) / m;
  W1 = W1 - rate * (X' * G) / m;
end
cmm_port_print ('mean(E .^ 2)', mean ((E .^ 2)(:)));  % loss of the last epoch
cmm_port_print ("W2'", W2');
cmm_port_finish ();
