"""Random programs over the whole expression surface (operators with
broadcasting, reductions along each dimension, elementwise functions,
powers, solves, transposes, literals, ranges, saves loaded back, printed
compile-time scalars, nested loops with rand; slices with `end`, block
assignments, block literals, hcat/vcat, diag, reshape, dot, compile-time
if/while/break, user functions, and while/if/break/return decided at run
time, with slices and nested loops inside; the dense linear algebra
built-ins, several results included), compiled by cmmc and run under mpirun on NP ranks with small
ragged tiles (some with products as COSMA gang tasks or start-up
sub-tiles), against the reference
interpreter: every printed matrix (--dump-prints) within a relative
Frobenius error of 1e-10 and the same printed labels and shapes.
usage: random_programs.py CMMC NP COUNT SEED WORKDIR
"""

import os
import random
import shutil
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.dirname(__file__))
from run_compiled import ENV, compare, dumps, run, shape_of  # noqa: E402


class Generator:
    """Builds a program statement by statement, tracking every variable's
    shape so each expression is well formed."""

    def __init__(self, rng):
        self.rng = rng
        self.vars = {}  # name -> (rows, cols)
        self.lines = []
        self.count = 0
        self.inputs = []  # (path, shape) of the files the program loads

    def dim(self):
        return self.rng.choice([1, 2, 3, 5, 7, 8])

    def fresh(self, shape, expr):
        name = "v%d" % self.count
        self.count += 1
        self.lines.append("%s = %s" % (name, expr))
        self.vars[name] = shape
        return name

    def of_shape(self, shape):
        """An existing variable of this shape, or a new one from a source."""
        have = [n for n, s in self.vars.items() if s == shape]
        if have and self.rng.random() < 0.7:
            return self.rng.choice(have)
        m, n = shape
        sources = [
            "rand(%d, %d)" % (m, n), "randn(%d, %d)" % (m, n),
            "(rand(%d, %d) .- 0.5)" % (m, n), "fill(%g, %d, %d)" % (
                self.rng.choice([-1.5, 0.25, 2]), m, n),
            "ones(%d, %d)" % (m, n), "rand(%d, %d, %d)" % (
                m, n, self.rng.randrange(1, 100))]
        if m * n <= 12:  # a literal, signs and expressions inside
            sources.append("[" + "; ".join(
                " ".join(self.rng.choice(["1", "-2", "0.5", "3/4", "-1e-3",
                                          "2^3", "pi"])
                         for _ in range(n)) for _ in range(m)) + "]")
        if m == 1:
            a = self.rng.randrange(-3, 4)
            sources.append("(%d:%d)" % (a, a + n - 1))
        if m == n:
            sources.append("eye(%d)" % n)
        return self.fresh(shape, self.rng.choice(sources))

    def any_var(self):
        return self.rng.choice(list(self.vars))

    def expr_for(self, name):
        """A random expression built from `name` (shape s), and its shape."""
        rng = self.rng
        m, n = self.vars[name]
        k = rng.randrange(24)
        if k == 0:
            return "%s'" % name, (n, m)
        if k == 1:
            p = self.dim()
            return "%s * %s" % (name, self.of_shape((n, p))), (m, p)
        if k == 2:
            op = rng.choice(["+", "-", ".*"])
            return "%s %s %s" % (name, op, self.of_shape((m, n))), (m, n)
        if k == 3:  # broadcasting against a row, a column or a 1x1
            other = rng.choice([(1, n), (m, 1), (1, 1)])
            op = rng.choice([".+", ".-", ".*", "./", ".>", ".<=", ".=="])
            rhs = self.of_shape(other)
            if op == "./":
                rhs = "(abs(%s) .+ 1)" % rhs
            return "%s %s %s" % (name, op, rhs), (m, n)
        if k == 4:  # a row against a column gives m x n
            return "%s .+ %s" % (self.of_shape((1, n)),
                                 self.of_shape((m, 1))), (m, n)
        if k == 5:
            d = rng.choice([None, 1, 2])
            f = rng.choice(["sum", "maximum", "minimum", "mean"])
            if d is None:
                return "%s(%s)" % (f, name), (1, 1)
            return "%s(%s, %d)" % (f, name, d), ((1, n) if d == 1 else (m, 1))
        if k == 6:
            return "norm(%s)" % name, (1, 1)
        if k == 7:
            f = rng.choice(["abs", "floor", "round", "sin", "cos", "tanh"])
            return "%s(%s)" % (f, name), (m, n)
        if k == 8:
            return "sqrt(abs(%s))" % name, (m, n)
        if k == 9:
            return "exp(-abs(%s))" % name, (m, n)
        if k == 10:
            return "log(abs(%s) .+ 1)" % name, (m, n)
        if k == 11:
            f = rng.choice(["max", "min"])
            other = rng.choice([(m, n), (1, n), (m, 1), (1, 1)])
            return "%s(%s, %s)" % (f, name, self.of_shape(other)), (m, n)
        if k == 12:
            return "mod(%s, %s)" % (name, rng.choice(["3", "-2", "0.75"])), \
                (m, n)
        if k == 13:
            return "%s * %s" % (rng.choice(["2", "-0.5", "3.25"]), name), (m, n)
        if k == 14:
            return "%s / %s" % (name, rng.choice(["4", "-3", "norm(%s)" %
                                                  self.of_shape((m, n))])), \
                (m, n)
        if k == 15 and m == n:
            return "(%s) ^ %d" % (name, rng.choice([0, 1, 2, 3, 5])), (m, n)
        if k == 16 and m == n:
            # Diagonally dominant: well conditioned, never singular.
            a = "(abs(%s) + %d * eye(%d))" % (name, 2 * m, m)
            if rng.random() < 0.5:
                return "inv%s" % a, (m, m)
            rhs = self.of_shape((m, self.dim()))
            return "%s \\ %s" % (a, rhs), self.vars[rhs]
        if k == 17:
            return "-%s .^ 2" % name, (m, n)
        if k == 18:  # a block, `end` for the last row or column
            r1 = rng.randrange(1, m + 1)
            r2 = rng.randrange(r1, m + 1)
            c1 = rng.randrange(1, n + 1)
            c2 = rng.randrange(c1, n + 1)

            def span(a, b, size):
                if a == 1 and b == size and rng.random() < 0.3:
                    return ":"
                return "%d:%s" % (a, "end" if b == size else str(b))
            return "%s[%s, %s]" % (name, span(r1, r2, m), span(c1, c2, n)), \
                (r2 - r1 + 1, c2 - c1 + 1)
        if k == 19:  # side by side or stacked
            p = self.dim()
            if rng.random() < 0.5:
                return "[%s %s]" % (name, self.of_shape((m, p))), (m, n + p)
            return "vcat(%s, %s)" % (name, self.of_shape((p, n))), (m + p, n)
        if k == 20:  # a 2x2 block matrix
            p, q = self.dim(), self.dim()
            return "[%s %s; %s %s]" % (
                name, self.of_shape((m, q)), self.of_shape((p, n)),
                self.of_shape((p, q))), (m + p, n + q)
        if k == 21:
            if m == n and m > 1:
                return "diag(%s)" % name, (m, 1)
            if m == 1 or n == 1:
                return "diag(%s)" % name, (m * n, m * n)
            return "reshape(%s, %d, %d)" % (name, n, m), (n, m)
        if k == 22:
            return "dot(%s, %s)" % (name, self.of_shape((m, n))), (1, 1)
        if k == 23:
            return self.linalg(name, m, n)
        return "%s + 1" % name, (m, n)

    def linalg(self, name, m, n):
        """A dense linear algebra built-in and its shape. Apart from the
        triangles of `name`, each factors a well-conditioned matrix made
        from a fresh uniform y (m x n, norm at most 1), not from the
        program's values, which may be huge or not finite: the
        factorization cannot fail, and rounding that differs between
        tilings stays within the comparison's tolerance. svd and eig enter
        through their products U diag(S) V' and V diag(w) V' (singular
        vectors of close singular values are not well determined)."""
        rng = self.rng
        j = rng.randrange(10)
        if j == 0:
            return "%s(%s)" % (rng.choice(["tril", "triu"]), name), (m, n)
        y = self.fresh((m, n), "rand(%d, %d, %d) / %d" % (
            m, n, rng.randrange(1, 100), m * n))
        tall = "[eye(%d); %s]" % (n, y)  # singular values in [1, sqrt(2)]
        spd = "(%s' * %s + eye(%d))" % (y, y, n)  # eigenvalues in [1, 2]
        if j == 1:
            return "svdvals(%s)" % y, (min(m, n), 1)
        if j == 2:
            return "chol%s" % spd, (n, n)
        if j == 3:
            return "eigvals(%s - 1.5 * eye(%d))" % (spd, n), (n, 1)
        if j == 4:
            return "det%s" % spd, (1, 1)
        if j == 5:
            return "pinv(%s)" % tall, (n, n + m)
        if j == 6:
            p = self.dim()
            return "%s \\ rand(%d, %d, %d)" % (
                tall, n + m, p, rng.randrange(1, 100)), (n, p)
        tag = self.count
        self.count += 1
        if j == 7:
            q, r = "q%d" % tag, "r%d" % tag
            self.lines.append("%s, %s = qr(%s)" % (q, r, tall))
            self.vars[q], self.vars[r] = (n + m, n), (n, n)
            return "%s * %s" % (q, r), (n + m, n)
        if j == 8:
            u, sv, v = "u%d" % tag, "s%d" % tag, "w%d" % tag
            self.lines.append("%s, %s, %s = svd(%s)" % (u, sv, v, tall))
            return "%s * diag(%s) * %s'" % (u, sv, v), (n + m, n)
        w, vecs = "e%d" % tag, "x%d" % tag
        self.lines.append("%s, %s = eig(%s)" % (w, vecs, spd))
        return "%s * diag(%s) * %s'" % (vecs, w, vecs), (n, n)

    def program(self, statements):
        for _ in range(3):
            m, n = self.dim(), self.dim()
            self.fresh((m, n), self.of_shape((m, n)))
        for _ in range(statements):
            name = self.any_var()
            roll = self.rng.random()
            if roll < 0.05:
                # Saved, then loaded back later (the load reads the save).
                path = "f%d.%s" % (self.count, self.rng.choice(
                    ["npy", "csv", "mtx"]))
                self.lines.append('save("%s", %s)' % (path, name))
                self.fresh(self.vars[name], 'load("%s")' % path)
                continue
            if roll < 0.07:
                # A file that exists before compilation, read at run time.
                m, n = self.vars[name]
                path = "in%d.%s" % (self.count, self.rng.choice(
                    ["npy", "csv", "mtx"]))
                self.inputs.append((path, (m, n)))
                self.fresh((m, n), '%s .+ load("%s")' % (name, path))
                continue
            if roll < 0.09:
                # Compile-time scalars: sizes, arithmetic, printed.
                self.lines.append("print(size(%s, 1) * 10 + size(%s, 2) / 2)"
                                  % (name, name))
                continue
            if roll < 0.12:
                m, n = self.vars[name]
                self.lines.append("for i in 1:2")
                self.lines.append("    for j in i:2")
                self.lines.append("        %s = %s - j * rand(%d, %d) / i" % (
                    name, name, m, n))
                self.lines.append("    end")
                self.lines.append("end")
                continue
            if roll < 0.16:
                # A block assignment: a block, or a scalar filling it.
                m, n = self.vars[name]
                r, c = self.rng.randrange(1, m + 1), self.rng.randrange(1, n + 1)
                value = self.of_shape((1, c)) if self.rng.random() < 0.5 \
                    else "%g" % self.rng.choice([0, -1, 2.5])
                self.lines.append("%s[%d, 1:%d] = %s" % (name, r, c, value))
                continue
            if roll < 0.19:
                # Compile-time while, if and break: 2 iterations traced.
                m, n = self.vars[name]
                self.lines.append("k = 0")
                self.lines.append("while k < 5")
                self.lines.append("    k = k + 1")
                self.lines.append("    if k > 2")
                self.lines.append("        break")
                self.lines.append("    elseif mod(k, 2) == 0")
                self.lines.append("        %s = twice(%s) - %s" % (
                    name, name, self.of_shape((m, n))))
                self.lines.append("    else")
                self.lines.append("        %s = %s .* rand(%d, %d)" % (
                    name, name, m, n))
                self.lines.append("    end")
                self.lines.append("end")
                continue
            if roll < 0.27:
                # A while decided at run time (a 1x1 counter: compiled as
                # segments, docs/planner.md), rand drawing anew each trip.
                m, n = self.vars[name]
                counter = "c%d" % self.count
                self.count += 1
                self.lines.append("%s = [0]" % counter)
                self.lines.append("while %s < %d" % (
                    counter, self.rng.randint(0, 3)))
                self.lines.append("    %s = %s .* rand(%d, %d) .+ %s" % (
                    name, name, m, n, counter))
                self.lines.append("    %s = %s + 1" % (counter, counter))
                if self.rng.random() < 0.4:
                    # A run-time if on a slice, inside the loop, with a
                    # block assignment of a 1x1 matrix.
                    self.lines.append("    if sum(%s[1, :]) > 0" % name)
                    self.lines.append("        %s[1, 1] = %s" % (name, counter))
                    self.lines.append("    else")
                    self.lines.append("        %s = %s - 0.5" % (name, name))
                    self.lines.append("    end")
                if self.rng.random() < 0.3:
                    # A nested run-time loop on a block of the value.
                    inner = "d%d" % self.count
                    self.count += 1
                    self.lines.append("    %s = [0]" % inner)
                    self.lines.append("    while %s < 2" % inner)
                    self.lines.append("        %s[1:1, :] = %s[1:1, :] * 0.5" % (
                        name, name))
                    self.lines.append("        %s = %s + 1" % (inner, inner))
                    self.lines.append("    end")
                if self.rng.random() < 0.5:
                    # A break decided at run time; what follows it in the
                    # body runs only while the loop goes on.
                    self.lines.append("    if sum(%s) > %g" % (
                        name, self.rng.choice([-1, 0, 0.5, 2])))
                    self.lines.append("        break")
                    self.lines.append("    end")
                    self.lines.append("    %s = clip(%s) - 0.25" % (name, name))
                self.lines.append("end")
                continue
            if roll < 0.30:
                # An if decided at run time on a value's sum.
                m, n = self.vars[name]
                other = self.of_shape((m, n))  # may define it: before the if
                self.lines.append("if sum(%s) > 0" % name)
                self.lines.append("    %s = %s * 2 - %s" % (name, name, other))
                self.lines.append("else")
                self.lines.append("    %s = -%s" % (name, name))
                self.lines.append("end")
                continue
            if roll < 0.35:
                # A loop: rand in the body gives new values every iteration.
                m, n = self.vars[name]
                trips = self.rng.randint(1, 3)
                self.lines.append("for i in 1:%d" % trips)
                self.lines.append("    %s = %s .* rand(%d, %d) + i" % (
                    name, name, m, n))
                self.lines.append("end")
                continue
            expr, shape = self.expr_for(name)
            self.fresh(shape, expr)
        for name in self.vars:
            if self.rng.random() < 0.6:
                self.lines.append("print(%s)" % name)
        self.lines.append("print(%s)" % name)
        self.lines.append("function twice(x)")
        self.lines.append("    return 2 * x")
        self.lines.append("end")
        # Returns decided at run time.
        self.lines.append("function clip(x)")
        self.lines.append("    if sum(x) > 1")
        self.lines.append("        return x / sum(x)")
        self.lines.append("    end")
        self.lines.append("    return x")
        self.lines.append("end")
        return "\n".join(self.lines) + "\n"


def write_input(path, shape, rng):
    """A matrix file in the format its suffix names, with values that read
    back exactly (shortest round-trip text)."""
    values = [[rng.uniform(-2, 2) for _ in range(shape[1])]
              for _ in range(shape[0])]
    if path.endswith(".npy"):
        np.save(path, np.array(values))
    elif path.endswith(".csv"):
        with open(path, "w") as f:
            f.write("".join(",".join(repr(v) for v in row) + "\n"
                            for row in values))
    else:
        with open(path, "w") as f:
            f.write("%%%%MatrixMarket matrix array real general\n%d %d\n" %
                    shape)
            f.write("".join(repr(values[i][j]) + "\n"
                            for j in range(shape[1]) for i in range(shape[0])))


def read_saved(path):
    if path.endswith(".npy"):
        return np.load(path)
    if path.endswith(".csv"):
        return np.loadtxt(path, delimiter=",", ndmin=2)
    lines = [l for l in open(path) if not l.startswith("%")]
    rows, cols = (int(x) for x in lines[0].split())
    return np.array([float(x) for x in lines[1:]]).reshape(cols, rows).T


def saved_files(work):
    """The files a run saved (then removed), by name."""
    saved = {}
    for name in os.listdir(work):
        if name.startswith("f") and "." in name:
            saved[name] = read_saved(os.path.join(work, name))
            os.remove(os.path.join(work, name))
    return saved


def main():
    cmmc = os.path.abspath(sys.argv[1])
    ranks, count, seed = int(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
    work = os.path.abspath(sys.argv[5])
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    rng = random.Random(seed)
    for index in range(count):
        gen = Generator(rng)
        source = gen.program(rng.randint(6, 14))
        for path, shape in gen.inputs:
            write_input(os.path.join(work, path), shape, rng)
        prog = os.path.join(work, "p%d.cmm" % index)
        with open(prog, "w") as f:
            f.write(source)
        level = rng.choice([[], ["--O0"]])
        ref_dir = os.path.join(work, "ref%d" % index)
        os.makedirs(ref_dir)
        ref_out = run([cmmc, prog, "--interpret", "--dump-prints=" + ref_dir]
                      + level, work)
        ref_saved = saved_files(work)
        tile = rng.choice([2, 3, 4])
        # Also products as COSMA gang tasks, and start-up sub-tiles merged.
        level += rng.choice([[], [], ["--gemm=cosma"],
                             ["--dynamic-tiling=always"]])
        exe = os.path.join(work, "p%d" % index)
        run([cmmc, prog, "-o", exe, "--nodes=%d" % ranks,
             "--tile-sizes=%d" % tile] + level, work)
        out_dir = os.path.join(work, "out%d" % index)
        os.makedirs(out_dir)
        p = subprocess.run(["mpirun", "-np", str(ranks), "--bind-to", "none",
                            exe, "--dump-prints=" + out_dir], cwd=work,
                           capture_output=True, text=True, env=ENV,
                           timeout=300)
        where = "p%d.cmm (tile %d %s, %d rank(s))" % (
            index, tile, " ".join(level), ranks)
        assert p.returncode == 0, "%s: exit %d\n%s\n%s" % (
            where, p.returncode, p.stderr, source)
        assert [shape_of(l) for l in p.stdout.splitlines()] == \
            [shape_of(l) for l in ref_out.splitlines()], \
            "%s: printed lines differ:\n%s\nvs interpreter:\n%s" % (
                where, p.stdout, ref_out)
        got, reference = dumps(out_dir), dumps(ref_dir)
        assert len(got) == len(reference) > 0, where
        for i, (x, y) in enumerate(zip(got, reference)):
            compare(x, y, "%s, print %d" % (where, i))
        got_saved = saved_files(work)
        assert sorted(got_saved) == sorted(ref_saved), where
        for name in ref_saved:
            compare(got_saved[name], ref_saved[name], where + ", " + name)
        os.remove(exe)
    print("random programs: %d on %d rank(s), all equal to the interpreter"
          % (count, ranks))


if __name__ == "__main__":
    main()
