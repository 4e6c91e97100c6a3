function X = cmm_port_next_input (rows, cols)
  % X = cmm_port_next_input (rows, cols): the next input matrix,
  % CMM_INPUTS/input<N>.npy (the N-th rand/randn/load value of the cmm
  % program in trace order); its shape must be rows x cols.
  global CMM_PORT
  d = getenv ('CMM_INPUTS');
  if (isempty (d))
    error ('cmm_port: CMM_INPUTS is not set (the directory of input<N>.npy files)');
  end
  path = fullfile (d, sprintf ('input%d.npy', CMM_PORT.next_input));
  if (~exist (path, 'file'))
    error ('cmm_port: missing %s (the program needs more inputs than were dumped)', path);
  end
  X = cmm_port_read_npy (path);
  if (~isequal (size (X), [rows, cols]))
    error ('cmm_port: %s: shape (%d, %d), the program expects (%d, %d)', ...
           path, size (X, 1), size (X, 2), rows, cols);
  end
  CMM_PORT.next_input = CMM_PORT.next_input + 1;
  % Reading an input is this port's `rand`: it stays in the timed region,
  % as cmm's generation of the same values does.
end
