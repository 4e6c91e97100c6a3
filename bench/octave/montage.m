% Octave port of examples/montage.cmm (line by line; see bench/README-ports.md).
addpath (fileparts (mfilename ('fullpath')));
m = cmm_port_size ('m', 1000);
cmm_port_start ();
i = (1:2*m)';                                    % 2m x 1 row indices
T = double (i == (1:m));                         % 2m x m: rows 1..m (top/left)
U = double (i == ((1:m) + m));                   % rows m+1..2m (bottom/right)
S = double (abs ((1:m)' - (1:m)) <= 1) / 3;      % tridiagonal averaging
for c = 1:3                                      % colour channels
  P1 = S * cmm_port_next_input (m, m) * S';
  P2 = S * cmm_port_next_input (m, m) * S';
  P3 = S * cmm_port_next_input (m, m) * S';
  P4 = S * cmm_port_next_input (m, m) * S';
  P1 = P1 - mean (P1(:));
  P2 = P2 - mean (P2(:));
  P3 = P3 - mean (P3(:));
  P4 = P4 - mean (P4(:));
  mosaic = T * P1 * T' + T * P2 * U' + U * P3 * T' + U * P4 * U';
  cmm_port_print ('mosaic', mosaic);
end
cmm_port_finish ();
