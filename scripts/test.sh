#!/usr/bin/env bash
# Builds everything and runs every test suite: C++ core and C API (GoogleTest), the C99
# header and dlopen programs, benchmark smoke runs, the installed library's pkg-config and
# CMake consumers (ctest), pip install . into a fresh venv, the Python tests (pytest), the
# other-language clients; then the reliability checks of scripts/sanitize.sh: ASan+UBSan
# (with LeakSanitizer) over the C++/C suites and the Python tests, the ThreadSanitizer stress
# test, a bounded libFuzzer run (FUZZ_SECONDS, 60) and the ABI check (about 25 minutes on two
# cores, in $BUILD_DIR-sanitize/; SKIP_SANITIZE=1 leaves them out, CI never does).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh test
build=${BUILD_DIR:-build}
# The Python side lives in the venv scripts/deps.sh fills (torch 2.13, NumPy 2, ... pinned in
# requirements.txt); every Python step and client below uses this interpreter.
venv=${CT_VENV:-build/venv}
case $venv in /*) ;; *) venv=$PWD/$venv ;; esac
py=$venv/bin/python
export CT_PYTHON=$py
# Every CMake build below (this one, pip's, the sanitizer builds) compiles through ccache when it
# is there: a rerun finds its objects, and so does pip's Release build of the library when it
# runs the same CMake (CMake 3.25 and 4.x order the flags differently, so objects of one are
# misses for the other).  Release, as scripts/demo.sh and pip build it.
if command -v ccache >/dev/null; then
  export CMAKE_C_COMPILER_LAUNCHER=${CMAKE_C_COMPILER_LAUNCHER:-ccache}
  export CMAKE_CXX_COMPILER_LAUNCHER=${CMAKE_CXX_COMPILER_LAUNCHER:-ccache}
  # Absolute paths hashed as they are: a base_dir would rewrite them relative to each build
  # directory, and pip's (in /tmp) could never match this one.
  export CCACHE_BASEDIR=
fi
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DPython3_EXECUTABLE=$py >/dev/null
cmake --build "$build"
ctest --test-dir "$build" --output-on-failure -j2 --timeout 900
# The README's Python install: pip install . from the root into a fresh venv made from Debian's
# python3, then import ctensor from outside the tree (one more build of the library, -j2).
timeout --kill-after=30 1800 bash tests/install/pip_install.sh /usr/bin/python3
# under timeout: a deadlock must fail with a message, not hang CI until it is killed
# on both cores (pytest-xdist, two worker processes; each test file's state stays in its worker)
CTENSOR_LIB="$PWD/$build/libctensor.so" timeout --kill-after=30 1800 $py -m pytest -q -n 2 tests/python
# Other languages over dlopen (Python ctypes and cffi, LuaJIT, Ruby, Perl), the documented
# snippets, and the Julia package's checks.
timeout --kill-after=30 1800 bash tests/clients/run_all.sh "$PWD/$build/libctensor.so"
if [ "${SKIP_SANITIZE:-0}" != 1 ]; then
  SANITIZE_DIR=${SANITIZE_DIR:-$build-sanitize} bash scripts/sanitize.sh "$build"
fi
echo "all test suites passed"
