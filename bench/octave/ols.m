% Octave port of examples/ols.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 20000);                  % samples
p = cmm_port_size ('p', 200);                    % features
cmm_port_start ();
A = [ones(m, 1) cmm_port_next_input(m, p - 1)];  % an intercept column and features
w = cmm_port_next_input (p, 1);                  % the true weights
y = A * w + 0.1 * cmm_port_next_input (m, 1);
w_ls = A \ y;                                    % least squares
[Q, R] = cmm_port_qr (A);
w_qr = R \ (Q' * y);
w_pinv = cmm_port_pinv (A) * y;
cmm_port_print ("w_ls'", w_ls');
cmm_port_print ('norm(w_ls - w) / norm(w)', norm (w_ls - w, 'fro') / norm (w, 'fro'));
cmm_port_print ('norm(w_qr - w_ls) / norm(w_ls) .< 1e-10', double (norm (w_qr - w_ls, 'fro') / norm (w_ls, 'fro') < 1e-10));
cmm_port_print ('norm(w_pinv - w_ls) / norm(w_ls) .< 1e-10', double (norm (w_pinv - w_ls, 'fro') / norm (w_ls, 'fro') < 1e-10));
r = y - A * w_ls;
cmm_port_print ("norm(A' * r) / (norm(A) * norm(r)) .< 1e-10", double (norm (A' * r, 'fro') / (norm (A, 'fro') * norm (r, 'fro')) < 1e-10));
cmm_port_print ('norm(r) / sqrt(m)', norm (r, 'fro') / sqrt (m));
cmm_port_finish ();
