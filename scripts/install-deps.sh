#!/usr/bin/env bash
# Installs the Debian packages cmm needs, when any is missing. Idempotent and
# quiet when everything is present (run by `make demo` and `make check`).
set -euo pipefail

packages=(
  cmake g++ make ninja-build
  libmlir-22-dev mlir-22-tools llvm-22-dev llvm-22-tools
  libopenblas-dev libopenmpi-dev openmpi-bin
  libgtest-dev libsleef-dev python3 python3-numpy
)

# --bench: also the peers and tools of bench/ (Octave, ScaLAPACK).
if [ "${1:-}" = "--bench" ]; then
  packages+=(octave libscalapack-openmpi-dev)
fi
# --fuzz: clang, its sanitizer and libFuzzer runtimes and its linker (the
# sanitizer build of make check-sanitize and make check-fuzz).
if [ "${1:-}" = "--fuzz" ]; then
  packages+=(clang-22 libclang-rt-22-dev lld-22)
fi

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
