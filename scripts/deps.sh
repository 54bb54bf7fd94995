#!/usr/bin/env bash
# Installs the Debian packages a step needs, only those missing.  Usage: deps.sh demo|test
# Runs as root on Debian bookworm (as README says); uses sudo when not root and available.
set -euo pipefail

build=(g++ cmake ninja-build pkg-config libopenblas-dev)
case "${1:-test}" in
  demo) want=("${build[@]}") ;;
  # The reliability checks (scripts/sanitize.sh) add clang 14 with its sanitizer and libFuzzer
  # runtimes (libclang-rt-14-dev), llvm-symbolizer (llvm-14) for readable fuzzer reports, and
  # abigail-tools (abidw/abidiff) for the ABI check.
  test) want=("${build[@]}" libgtest-dev libbenchmark-dev python3 python3-numpy python3-pytest python3-torch
              python3-pycparser python3-matplotlib nodejs npm swig python3-dev
              clang libclang-rt-14-dev llvm-14 abigail-tools) ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  # Node may come from elsewhere than Debian (and Debian's npm then conflicts with it):
  # a working command is enough.
  case "$p" in
    nodejs) command -v node >/dev/null 2>&1 && continue ;;
    npm) command -v npm >/dev/null 2>&1 && continue ;;
  esac
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

echo "deps: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
