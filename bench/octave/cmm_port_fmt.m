function s = cmm_port_fmt (v)
  % s = cmm_port_fmt (v): a number as cmm prints it (C "%.6g", NaN, Inf, -Inf).
  if (isnan (v))
    s = 'NaN';
  elseif (isinf (v))
    if (v > 0)
      s = 'Inf';
    else
      s = '-Inf';
    end
  else
    s = sprintf ('%.6g', v);
  end
end
