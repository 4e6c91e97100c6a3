% Octave port of examples/pca.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 20000);                  % samples
d = cmm_port_size ('d', 100);                    % dimensions
k = cmm_port_size ('k', 5);                      % components kept
cmm_port_start ();
Z = cmm_port_next_input (m, k) * (10 * cmm_port_next_input (k, d)) + cmm_port_next_input (m, d);
Xc = Z - mean (Z, 1);                            % centred
[U, S, V] = cmm_port_svd (Xc);
explained = S .^ 2 / (m - 1);
cmm_port_print ("explained'", explained');
cmm_port_print ('sum(explained[1:k, :]) / sum(explained)', sum (explained(1:k, :)) / sum (explained));
scores = Xc * V(:, 1:k);
cmm_port_print ('scores[1:3, :]', scores(1:3, :));
rebuilt = scores * V(:, 1:k)';
cmm_port_print ('norm(Xc - rebuilt) / norm(Xc)', norm (Xc - rebuilt, 'fro') / norm (Xc, 'fro'));
C = Xc' * Xc / (m - 1);
w = cmm_port_eig (C);                            % ascending: the k largest come last
cmm_port_print ('abs(sum(w[d - k + 1:d, :]) - sum(explained[1:k, :])) ./ sum(w) .< 1e-10', ...
                double (abs (sum (w(d - k + 1:d, :)) - sum (explained(1:k, :))) ./ sum (w) < 1e-10));
cmm_port_finish ();
