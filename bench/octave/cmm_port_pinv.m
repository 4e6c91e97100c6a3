function P = cmm_port_pinv (A)
  % P = cmm_port_pinv (A): cmm's pinv, Julia's tolerance min(m, n) eps max(S).
  P = pinv (A, min (size (A)) * eps * max ([svd(A); 0]));
end
