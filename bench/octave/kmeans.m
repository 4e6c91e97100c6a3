% Octave port of examples/kmeans.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 20000);                  % points
d = cmm_port_size ('d', 64);                     % dimensions
k = cmm_port_size ('k', 32);                     % clusters
iters = cmm_port_size ('iters', 10);
cmm_port_start ();
X = cmm_port_next_input (m, d);
C = cmm_port_next_input (k, d);                  % initial centroids
for it = 1:iters
  D = sum (X .^ 2, 2) + sum (C .^ 2, 2)' - 2 * X * C';   % m x k
  A = double (D == min (D, [], 2));              % 1 where the centroid is nearest
  C = (A' * X) ./ max (sum (A, 1)', 1);          % empty clusters keep 0
end
cmm_port_print ('C', C);
cmm_port_print ('sum(minimum(D, 2))', sum (min (D, [], 2)(:)));  % within-cluster sum of squares
cmm_port_finish ();
