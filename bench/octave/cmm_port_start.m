function cmm_port_start ()
  % cmm_port_start (): start the timed region (call after the sizes are read).
  global CMM_PORT
  CMM_PORT = struct ('t0', tic (), 'io', 0, 'next_input', 0, 'next_print', 0);
end
