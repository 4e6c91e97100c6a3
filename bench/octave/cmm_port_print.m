function cmm_port_print (label, X)
  % cmm_port_print (label, X): cmm's print line
  %   label RxC sum=S norm=F [first-row elements ...]
  % on stdout, and X saved as CMM_OUT/print<N>.npy (when CMM_OUT is set).
  global CMM_PORT
  X = double (X);
  if (ndims (X) ~= 2)
    error ('cmm_port: print %s: a %d-D value', label, ndims (X));
  end
  [r, c] = size (X);
  shown = min (4, c);
  first = '';
  for j = 1:shown
    if (j > 1)
      first = [first ' '];
    end
    first = [first cmm_port_fmt(X(1, j))];
  end
  if (c > shown)
    first = [first ' ...'];
  end
  printf ('%s %dx%d sum=%s norm=%s [%s]\n', label, r, c, ...
          cmm_port_fmt (sum (X(:))), cmm_port_fmt (norm (X, 'fro')), first);
  fflush (stdout);
  t = tic ();
  out = getenv ('CMM_OUT');
  if (~isempty (out))
    if (~exist (out, 'dir'))
      mkdir (out);
    end
    cmm_port_write_npy (fullfile (out, sprintf ('print%d.npy', CMM_PORT.next_print)), X);
  end
  CMM_PORT.next_print = CMM_PORT.next_print + 1;
  CMM_PORT.io = CMM_PORT.io + toc (t);
end
