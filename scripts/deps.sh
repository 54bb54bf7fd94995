#!/usr/bin/env bash
# Installs what a step needs, only what is missing.  Usage: deps.sh demo|test
#   demo: the Debian packages that build libctensor and the C demo.
#   test: also the Debian packages of every test suite and reliability check, and the Python
#         side in a virtual environment, $CT_VENV (default build/venv), made from Debian's
#         /usr/bin/python3 (whose headers python3-dev installs, so the SWIG module built by
#         CMake loads in it) with the exact pins of requirements.txt.
# Runs as root on Debian bookworm (as README says); uses sudo when not root and available.
# pip reads the machine's own configuration (index, local wheel folders, caps) as usual.
set -euo pipefail
cd "$(dirname "$0")/.."

build=(g++ cmake ninja-build pkg-config libopenblas-dev zlib1g-dev)
case "${1:-test}" in
  demo) want=("${build[@]}") ;;
  # The Python side (venv + pip) needs python3-venv and python3-dev; SWIG builds the module.
  # The reliability checks (scripts/sanitize.sh) add clang 14 with its sanitizer and libFuzzer
  # runtimes (libclang-rt-14-dev), llvm-symbolizer (llvm-14) for readable fuzzer reports, and
  # abigail-tools (abidw/abidiff) for the ABI check.  The dlopen clients: LuaJIT, Ruby's ffi
  # gem and Perl's FFI::Platypus (tests/clients).  ccache lets reruns (and the pip-install step,
  # when pip runs the same CMake) reuse objects instead of compiling them again.
  test) want=("${build[@]}" ccache libgtest-dev libbenchmark-dev python3 python3-venv python3-dev swig
              clang libclang-rt-14-dev llvm-14 abigail-tools
              luajit ruby ruby-ffi libffi-platypus-perl) ;;
  *) echo "usage: $0 demo|test" >&2; exit 2 ;;
esac

missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "deps: installing ${missing[*]}" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

[ "${1:-test}" = test ] || exit 0
venv=${CT_VENV:-build/venv}
# The venv is (re)made when missing or when requirements.txt changed since it was filled.
stamp="$venv/.requirements.txt"
if [ ! -x "$venv/bin/python" ] || ! cmp -s requirements.txt "$stamp"; then
  echo "deps: filling the Python environment $venv from requirements.txt" >&2
  [ -x "$venv/bin/python" ] || /usr/bin/python3 -m venv "$venv"
  "$venv/bin/python" -m pip install -q --disable-pip-version-check -r requirements.txt
  cp requirements.txt "$stamp"
fi
