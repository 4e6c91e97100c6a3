% Octave port of examples/bfs.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 6000);                   % vertices
levels = cmm_port_size ('levels', 12);
cmm_port_start ();
A = double (cmm_port_next_input (n, n) < 3 / n); % about three out-edges per vertex
f = double ((1:n) == 1);                         % frontier: the source (1 x n)
visited = f;
dist = 0 * f;
for level = 1:levels
  f = double ((f * A) > 0) .* (1 - visited);
  visited = visited + f;
  dist = dist + level * f;
end
cmm_port_print ('visited', visited);
cmm_port_print ('dist', dist);
cmm_port_print ('sum(visited)', sum (visited(:)));  % vertices reached
cmm_port_finish ();
