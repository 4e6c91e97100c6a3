% Octave port of examples/spectral.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2000);                   % vertices
p = cmm_port_size ('p', 0.01);                   % edge probability
cmm_port_start ();
B = double (cmm_port_next_input (n, n) < p);
A = max (B, B') .* (1 - eye (n));                % symmetric, no self loops
L = diag (sum (A, 2)) - A;
[w, V] = cmm_port_eig (L);
cmm_port_print ("w[1:4, :]'", w(1:4, :)');       % 0 first: one component
f = V(:, 2);                                     % the Fiedler vector
cmm_port_print ('w[2, 1]', w(2, 1));             % the algebraic connectivity
cmm_port_print ('sum(f .> 0)', sum (double (f > 0)));
cut = sum (sum (A .* (double (f > 0) * double (f <= 0)')));  % edges across the split
cmm_port_print ('cut', cut);
cmm_port_print ('norm(L * f - w[2, 1] * f) .< 1e-8 * norm(L)', double (norm (L * f - w(2, 1) * f, 'fro') < 1e-8 * norm (L, 'fro')));
cmm_port_finish ();
