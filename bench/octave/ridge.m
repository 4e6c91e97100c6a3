% Octave port of examples/ridge.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 10000);                  % samples
p = cmm_port_size ('p', 400);                    % features
cmm_port_start ();
X = cmm_port_next_input (m, p);
w = cmm_port_next_input (p, 1);
y = X * w + 0.5 * cmm_port_next_input (m, 1);
G0 = X' * X;
b = X' * y;
lambda = cmm_port_size ('lambda', 1);
for k = 1:4
  G = G0 + lambda * eye (p);
  R = chol (G);
  w_hat = R \ (R' \ b);
  cmm_port_print ('norm(w_hat - w) / norm(w)', norm (w_hat - w, 'fro') / norm (w, 'fro'));
  cmm_port_print ('norm(y - X * w_hat) / sqrt(m)', norm (y - X * w_hat, 'fro') / sqrt (m));
  lambda = lambda * 10;
end
G = G0 + eye (p);
cmm_port_print ('det(chol(G)) .> 0', double (det (chol (G)) > 0));  % 1: R has a positive diagonal
cmm_port_print ("norm(chol(G) \\ (chol(G)' \\ b) - G \\ b) / norm(G \\ b) .< 1e-10", ...
                double (norm (chol (G) \ (chol (G)' \ b) - G \ b, 'fro') / norm (G \ b, 'fro') < 1e-10));
cmm_port_finish ();
