% Octave port of examples/gaussian-process.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2000);                   % training points
t = cmm_port_size ('t', 500);                    % test points
l = cmm_port_size ('l', 0.3);                    % length scale
s2 = cmm_port_size ('s2', 0.01);                 % noise variance
cmm_port_start ();
x = 4 * cmm_port_next_input (n, 1);              % inputs in [0, 4)
y = sin (3 * x) + 0.1 * cmm_port_next_input (n, 1);
xs = 4 * cmm_port_next_input (t, 1);
K = exp (-((x - x') .^ 2) / (2 * l ^ 2)) + s2 * eye (n);
Ks = exp (-((xs - x') .^ 2) / (2 * l ^ 2));
R = chol (K);                                    % K = R' R
alpha = R \ (R' \ y);
mean_s = Ks * alpha;
cmm_port_print ("mean_s'", mean_s');
cmm_port_print ('norm(mean_s - sin(3 * xs)) / sqrt(t)', norm (mean_s - sin (3 * xs), 'fro') / sqrt (t));
fit = -0.5 * (y' * alpha);
complexity = -sum (log (abs (diag (R))));
cmm_port_print ('fit', fit);
cmm_port_print ('complexity', complexity);
cmm_port_print ('fit + complexity - n / 2 * log(2 * pi)', fit + complexity - n / 2 * log (2 * pi));
cmm_port_finish ();
