% Octave port of examples/dft.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
n = cmm_port_size ('n', 2048);
b = cmm_port_size ('b', 256);
cmm_port_start ();
x = cmm_port_next_input (n, b);
k = 0:n-1;
JK = mod (k' * k, n);                            % jk mod n: exact integers
C = cos ((2 * pi / n) * JK);
S = -sin ((2 * pi / n) * JK);
Re = C * x;
Im = S * x;
P = Re .^ 2 + Im .^ 2;
cmm_port_print ('P', P);
cmm_port_print ('sum(P) / (n * sum(x .^ 2))', sum (P(:)) / (n * sum ((x .^ 2)(:))));
cmm_port_finish ();
