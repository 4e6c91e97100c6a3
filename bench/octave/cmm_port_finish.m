function cmm_port_finish ()
  % cmm_port_finish (): print `bench-time <seconds>` to stderr (the wall time
  % since cmm_port_start minus the time spent writing
  % print<N>.npy); fail if the input directory holds inputs never read.
  global CMM_PORT
  elapsed = toc (CMM_PORT.t0) - CMM_PORT.io;
  d = getenv ('CMM_INPUTS');
  if (~isempty (d) && exist (fullfile (d, sprintf ('input%d.npy', CMM_PORT.next_input)), 'file'))
    error ('cmm_port: %s holds more inputs than the program read (%d): the port does not follow the program''s rand order', ...
           d, CMM_PORT.next_input);
  end
  fprintf (stderr, 'bench-time %.6f\n', elapsed);
  fflush (stderr);
end
