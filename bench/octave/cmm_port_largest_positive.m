function [U, V] = cmm_port_largest_positive (U, V)
  % [U, V] = cmm_port_largest_positive (U, V): each column of U flipped so
  % that its entry of largest magnitude is positive (the first within a
  % relative 1e-12 of the largest on ties), V's column with it
  % (docs/language.md §15.2). V may be [].
  for j = 1:columns (U)
    col = abs (U(:, j));
    at = find (col >= max (col) * (1 - 1e-12), 1);
    if (U(at, j) < 0)
      U(:, j) = -U(:, j);
      if (! isempty (V))
        V(:, j) = -V(:, j);
      end
    end
  end
end
