% Octave port of examples/kmeans-converge.cmm (line by line; see
% bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 5000);                   % points
d = cmm_port_size ('d', 16);                     % dimensions
k = cmm_port_size ('k', 8);                      % clusters
cmm_port_start ();
X = cmm_port_next_input (m, d);
C = X(1:k, :);                                   % initial centroids
A = zeros (m, k);                                % no assignment yet
changed = 1.0;
trips = 0;
while changed > 0
  D = sum (X .^ 2, 2) + sum (C .^ 2, 2)' - 2 * X * C';   % m x k
  A2 = double (D == min (D, [], 2));             % 1 where the centroid is nearest
  changed = sum (abs (A2 - A)(:));
  A = A2;
  C = (A' * X) ./ max (sum (A, 1)', 1);          % empty clusters keep 0
  trips = trips + 1;
end
cmm_port_print ('C', C);
cmm_port_print ('trips', trips);
cmm_port_print ('sum(A, 1)', sum (A, 1));        % points per cluster
cmm_port_finish ();
