#!/usr/bin/env bash
# cmm as a package: install the build to a fresh prefix outside the build
# tree, build examples/embedding (find_package(CMM), find_package(MLIR))
# against it and run it, then compile and run examples/markov.cmm on 2 MPI
# ranks with the installed cmmc, which must find its runtime in the prefix
# (no source or build path is compiled into it).
# usage: install.sh BUILD_DIR SOURCE_DIR MLIR_DIR LLVM_TOOLS_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
source=$(cd "$2" && pwd)
mlir_dir=$3
filecheck=$4/FileCheck
work=$(mktemp -d /tmp/cmm-install-test.XXXXXX)
trap 'rm -rf "$work"' EXIT
prefix=$work/prefix
# Runs a step with its output in $work/LOG, shown when the step fails.
logged() {
  local log=$work/$1
  shift
  "$@" > "$log" 2>&1 || { echo "FAILED: $*"; cat "$log"; exit 1; }
}

logged install.log cmake --install "$build" --prefix "$prefix"
for f in bin/cmmc bin/cmm-opt bin/cmm-translate bin/cmm-lsp-server \
         lib/cmake/cmm/CMMConfig.cmake lib/cmake/cmm/CMMTargets.cmake \
         lib/libcmmrt.a lib/libcmmrt_mpi.a include/cmmrt/Executor.h \
         include/cmmrt/OpCodes.def include/cmm/InitAll.h \
         include/cmm/Planning/Passes.td include/cmm/Planning/Passes.h.inc; do
  [ -e "$prefix/$f" ] || { echo "FAILED: $f is not installed"; exit 1; }
done
# Nothing installed names the source or the build tree.
if grep -rlaF -e "$source/" -e "$build/" "$prefix" > "$work/paths.txt"; then
  echo "FAILED: installed files name the source or build tree:"
  cat "$work/paths.txt"
  exit 1
fi

# A consumer project, configured and built against the prefix only.
logged configure.log cmake -G Ninja -S "$source/examples/embedding" \
  -B "$work/embed" -DCMAKE_BUILD_TYPE=Release -DMLIR_DIR="$mlir_dir" \
  -DCMM_DIR="$prefix/lib/cmake/cmm"
logged build.log ninja -C "$work/embed"
"$work/embed/cmm-embed" "$source/test/Embedding/product.mlir" \
  | "$filecheck" "$source/test/Embedding/product.mlir"

# The installed cmmc compiles and runs a program away from both trees.
mkdir "$work/run"
cp "$source/examples/markov.cmm" "$work/run/"
cd "$work/run"
"$prefix/bin/cmmc" markov.cmm -D n=200 --interpret > interpreted.txt
"$prefix/bin/cmmc" markov.cmm -D n=200 --run -np 2 > compiled.txt
python3 - <<'PY'
import re
def values(path):
    return [(m.group(1), float(m.group(2))) for m in
            (re.match(r"^(.*) sum=(\S+)", l) for l in open(path)) if m]
a, b = values("interpreted.txt"), values("compiled.txt")
assert a and [x for x, _ in a] == [x for x, _ in b], (a, b)
for (label, x), (_, y) in zip(a, b):
    assert abs(x - y) <= 1e-10 * max(1.0, abs(x)), (label, x, y)
print("installed cmmc: %d outputs equal to the interpreter's" % len(a))
PY
echo "install and embedding: passed"
