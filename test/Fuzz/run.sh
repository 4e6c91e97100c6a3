#!/usr/bin/env bash
# Runs every libFuzzer target of a fuzz build for SECONDS each on its seed
# corpus (docs/reliability.md, "Fuzzing"), and fails on the first finding:
# a crash, a sanitizer report, a hang (-timeout) or an allocation past
# -rss_limit_mb / -malloc_limit_mb. The seeds are files already in the
# repository: the examples, the test inputs, every bad input of the lit
# suite; each target's working corpus (seeds plus what it found) is under
# BUILD/fuzz/corpus/TARGET, its report in BUILD/fuzz/TARGET.log.
# usage: test/Fuzz/run.sh BUILD [SECONDS] [TARGET...]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=$(cd "$1" && pwd)
seconds=${2:-60}
shift $(( $# < 2 ? $# : 2 ))
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(frontend ir machine-model npy mtx csv)

# The seed files of a target (paths relative to the repository root).
# Lit's tests too slow for a sanitizer build (`UNSUPPORTED: sanitize`: one
# traces 10^7 calls to reach its limit) would stop the run as hangs.
seeds() {
  cd "$root"
  case "$1" in
    frontend) find examples test -name '*.cmm' -print0 |
                xargs -0 grep -L 'UNSUPPORTED: sanitize' ;;
    ir) find test -name '*.mlir' ;;
    machine-model) find models test bench -name '*.json' ;;
    npy|mtx|csv) find examples test bench -name "*.$1" -size -1048576c ;;
  esac
}

status=0
for t in "${targets[@]}"; do
  exe="$build/bin/cmm-fuzz-$t"
  [ -x "$exe" ] || { echo "run.sh: $exe is not built (ninja cmm-fuzzers)"; exit 2; }
  corpus="$build/fuzz/corpus/$t"
  artifacts="$build/fuzz/artifacts/$t/"
  mkdir -p "$corpus" "$artifacts"
  rm -f "$corpus"/seed-*
  n=0
  while IFS= read -r f; do
    cp "$root/$f" "$corpus/seed-$(echo "$f" | tr '/' '_')"
    n=$((n + 1))
  done < <(seeds "$t")
  log="$build/fuzz/$t.log"
  echo "fuzz $t: $n seed file(s), ${seconds} s"
  # allow_user_poisoning=0: LLVM's BumpPtrAllocator, shared by our
  # instrumented code and the uninstrumented libMLIR (docs/reliability.md).
  if ! ASAN_OPTIONS="${ASAN_OPTIONS:-detect_leaks=1:allow_user_poisoning=0}" \
       UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}" \
       "$exe" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
         -malloc_limit_mb=1024 -max_len=16384 -print_final_stats=1 \
         -artifact_prefix="$artifacts" "$corpus" > "$log" 2>&1; then
    echo "FAILED: fuzz $t found a problem (input in $artifacts):"
    grep -a -E "ERROR|SUMMARY|==[0-9]+==|Test unit written" "$log" | head -20
    status=1
    continue
  fi
  grep -a -E "^stat::number_of_executed_units|^stat::peak_rss_mb|cov: " "$log" |
    tail -3 | sed "s/^/  /"
done
exit $status
