function cmm_port_write_npy (path, X)
  % cmm_port_write_npy (path, X): write the 2-D matrix X as a version 1.0
  % .npy file: '<f8', fortran_order False (C order), shape (rows, cols).
  X = double (X);
  [r, c] = size (X);
  dict = sprintf ('{''descr'': ''<f8'', ''fortran_order'': False, ''shape'': (%d, %d), }', r, c);
  % magic (6) + version (2) + length (2) + dict + padding + '\n': a multiple of 64
  pad = mod (64 - mod (10 + numel (dict) + 1, 64), 64);
  header = [dict, repmat(' ', 1, pad), char(10)];
  fid = fopen (path, 'w', 'ieee-le');
  if (fid < 0)
    error ('cmm_port: cannot write %s', path);
  end
  cleanup = onCleanup (@() fclose (fid));
  fwrite (fid, [147 double('NUMPY') 1 0], 'uint8');
  fwrite (fid, numel (header), 'uint16');
  fwrite (fid, header, 'char');
  fwrite (fid, X.', 'double');         % row after row (C order)
end
