function v = cmm_port_size (name, default)
  % v = cmm_port_size (name, default): a size scalar of the program: the
  % environment variable NAME if set, else DEFAULT (the value in the .cmm file).
  text = getenv (name);
  if (isempty (strtrim (text)))
    v = default;
  else
    v = str2double (text);
    if (isnan (v) && ~strcmpi (strtrim (text), 'nan'))
      error ('cmm_port: %s=%s is not a number', name, text);
    end
  end
end
