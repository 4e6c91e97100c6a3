function X = cmm_port_read_npy (path)
  % X = cmm_port_read_npy (path): read a 2-D float64 .npy file ('<f8', C or
  % Fortran order; format versions 1.0, 2.0 and 3.0) into a double matrix.
  fid = fopen (path, 'r', 'ieee-le');
  if (fid < 0)
    error ('cmm_port: cannot open %s', path);
  end
  cleanup = onCleanup (@() fclose (fid));
  magic = fread (fid, 6, 'uint8=>double')';
  if (numel (magic) ~= 6 || ~isequal (magic, [147 double('NUMPY')]))
    error ('cmm_port: %s is not a .npy file', path);
  end
  ver = fread (fid, 2, 'uint8=>double')';
  if (ver(1) == 1)
    hlen = fread (fid, 1, 'uint16=>double');
  elseif (ver(1) == 2 || ver(1) == 3)
    hlen = fread (fid, 1, 'uint32=>double');
  else
    error ('cmm_port: %s: unsupported .npy version %d.%d', path, ver(1), ver(2));
  end
  header = fread (fid, hlen, 'char=>char')';
  descr = regexp (header, '''descr''\s*:\s*''([^'']*)''', 'tokens', 'once');
  if (isempty (descr) || ~strcmp (descr{1}, '<f8'))
    error ('cmm_port: %s: expected descr ''<f8'' in header %s', path, header);
  end
  fo = regexp (header, '''fortran_order''\s*:\s*(True|False)', 'tokens', 'once');
  if (isempty (fo))
    error ('cmm_port: %s: no fortran_order in header %s', path, header);
  end
  fortran = strcmp (fo{1}, 'True');
  sh = regexp (header, '''shape''\s*:\s*\(([^)]*)\)', 'tokens', 'once');
  if (isempty (sh))
    error ('cmm_port: %s: no shape in header %s', path, header);
  end
  dims = str2double (regexp (sh{1}, '\d+', 'match'));
  if (numel (dims) == 2)
    r = dims(1); c = dims(2);
  elseif (numel (dims) == 1)
    r = 1; c = dims(1);                % a 1-D array reads as a row
  elseif (numel (dims) == 0)
    r = 1; c = 1;                      % a 0-D array reads as 1x1
  else
    error ('cmm_port: %s: a %d-D array (expected 2-D)', path, numel (dims));
  end
  [data, count] = fread (fid, r * c, 'double=>double');
  if (count ~= r * c)
    error ('cmm_port: %s: %d values, expected %d', path, count, r * c);
  end
  if (fortran)
    X = reshape (data, r, c);
  else
    X = reshape (data, c, r)';         % C order: rows are contiguous
  end
end
