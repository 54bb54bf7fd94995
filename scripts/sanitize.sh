#!/usr/bin/env bash
# The reliability checks, each in a build directory of its own under $SANITIZE_DIR
# (default build-sanitize/), with every sanitizer run under `timeout` and logged to a file
# (a stray llvm-symbolizer holding a pipe open must not hang CI):
#   1. ASan + UBSan (gcc): the C++ core, C API, C and stress suites (ctest), LeakSanitizer on;
#      then the Python tests with the ASan runtime preloaded into Debian's interpreter.
#   2. TSan (gcc, OpenMP off, see cmake/Sanitizers.cmake): tests/stress with many threads.
#   3. libFuzzer (clang 14): fuzz/fuzz_capi.cpp for $FUZZ_SECONDS seconds from fuzz/corpus, then
#      fuzz/fuzz_torch_load.cpp (the .pt reader) for $PT_FUZZ_SECONDS (30) from fuzz/corpus_pt.
#   4. ABI: abi/selftest.sh, then abi/check.sh against the library of a normal build.
# Usage: scripts/sanitize.sh [normal build dir, for the ABI check; default: build]
# scripts/test.sh runs it after the normal suites (scripts/deps.sh test installs what it needs).
# Environment: SANITIZE_DIR (build-sanitize), SANITIZE_BUDGET (3300 s for all steps),
# FUZZ_SECONDS (60), STRESS_THREADS (8),
# STRESS_OPS (20000 per thread), JOBS (2).
# Needs (Debian): g++ clang-14 (clang, clang++) libclang-rt-14-dev abigail-tools libgtest-dev
# the Python venv of scripts/deps.sh test; the normal build's dependencies.  Sanitizer builds use -O1 -g1
# (what the sanitizers' documentation recommends; much quicker to compile than -O2 -g).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
normal_build=${1:-build}
out=${SANITIZE_DIR:-build-sanitize}
mkdir -p "$out/logs"
out=$(cd "$out" && pwd)
logs=$out/logs
venv=${CT_VENV:-build/venv}
case $venv in /*) ;; *) venv=$root/$venv ;; esac
py=${CT_PYTHON:-$venv/bin/python}  # the venv scripts/deps.sh fills (torch 2.13, NumPy 2, ...)
fuzz_seconds=${FUZZ_SECONDS:-60}
pt_fuzz_seconds=${PT_FUZZ_SECONDS:-30}
stress_threads=${STRESS_THREADS:-8}
stress_ops=${STRESS_OPS:-20000}
jobs=${JOBS:-2}
start=$(date +%s)

say() { echo "[sanitize $(( $(date +%s) - start ))s] $*"; }
# One deadline for all the checks, so that CI (90 minutes in all) ends with a message even when a
# step hangs: each step gets its own limit or what is left of the budget, whichever is smaller.
deadline=$(( start + ${SANITIZE_BUDGET:-3300} ))
# run_logged NAME SECONDS CMD...: runs CMD under timeout with output in $logs/NAME.log; on
# failure (or timeout) prints the end of the log and stops.
run_logged() {
  local name=$1 secs=$2
  shift 2
  local left=$(( deadline - $(date +%s) ))
  if [ "$left" -le 0 ]; then
    echo "sanitize: the budget of ${SANITIZE_BUDGET:-3300}s is spent before $name (SANITIZE_BUDGET)" >&2
    exit 1
  fi
  [ "$secs" -le "$left" ] || secs=$left
  if ! timeout --kill-after=30 "$secs" "$@" > "$logs/$name.log" 2>&1; then
    echo "sanitize: $name FAILED or ran past ${secs}s (log: $logs/$name.log):" >&2
    tail -n 60 "$logs/$name.log" >&2
    cat "$logs/$name"-report.* 2>/dev/null | head -n 80 >&2  # sanitizer reports written to files
    exit 1
  fi
}
configure() {  # configure DIR CMAKE_ARGS...
  local dir=$1
  shift
  cmake -S "$root" -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPython3_EXECUTABLE=$py \
    "-DCMAKE_C_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" "-DCMAKE_CXX_FLAGS_RELWITHDEBINFO=-O1 -g1 -DNDEBUG" \
    -DCT_BUILD_BENCH=OFF "$@" > "$logs/$(basename "$dir")-cmake.log" 2>&1
}

# Sanitizer reports must fail the run and be readable.
# allocator_may_return_null: the tests ask for absurd sizes on purpose and expect CT_ERR_OUT_OF_MEMORY
export ASAN_OPTIONS=detect_leaks=1:halt_on_error=1:abort_on_error=0:strict_string_checks=1:detect_stack_use_after_return=1:allocator_may_return_null=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export TSAN_OPTIONS=halt_on_error=1:second_deadlock_stack=1

# ---- 1. ASan + UBSan ----------------------------------------------------------------------
say "ASan+UBSan: building"
configure "$out/asan" -DCT_SANITIZE=address,undefined
run_logged asan-build 3600 cmake --build "$out/asan" -j "$jobs"
say "ASan+UBSan: C++ core, C API, C, stress and ABI-symbol suites"
run_logged asan-ctest 1200 ctest --test-dir "$out/asan" --output-on-failure -j 2
say "ASan+UBSan: Python tests (libasan preloaded; leaks of the interpreter itself not checked)"
# CPython and NumPy keep allocations until exit by design, so LeakSanitizer is off for the
# interpreter; tensor and storage leaks are caught by the tests' live counts instead.
# libstdc++ is preloaded with libasan: the interpreter does not link it, and ASan's __cxa_throw
# interceptor must find the real one when the library throws (else "CHECK failed ...
# real___cxa_throw").  Reports go to files (pytest captures stderr), printed on failure.
rm -f "$logs"/asan-pytest-report.*
run_logged asan-pytest 1200 env LD_PRELOAD="$(gcc -print-file-name=libasan.so) $(gcc -print-file-name=libstdc++.so)" \
  ASAN_OPTIONS=detect_leaks=0:halt_on_error=1:detect_odr_violation=0:allocator_may_return_null=1:log_path="$logs/asan-pytest-report" \
  CTENSOR_LIB="$out/asan/libctensor.so" $py -m pytest -q -n "$jobs" -p no:cacheprovider tests/python
say "ASan+UBSan: $(grep -h -E '^[0-9]+% tests passed|passed' "$logs/asan-ctest.log" "$logs/asan-pytest.log" | tr '\n' ' ')"

# ---- 2. TSan --------------------------------------------------------------------------------
say "TSan: building the library and the stress test"
configure "$out/tsan" -DCT_SANITIZE=thread -DCT_OPENMP=OFF -DCT_BUILD_PYTHON=OFF
run_logged tsan-build 3600 cmake --build "$out/tsan" -j "$jobs" --target stress_threads
say "TSan: $stress_threads threads x $stress_ops operations"
run_logged tsan-stress 1200 "$out/tsan/tests/stress/stress_threads" "$stress_threads" "$stress_ops"
say "TSan: $(tail -n 1 "$logs/tsan-stress.log")"

# ---- 3. libFuzzer ----------------------------------------------------------------------------
say "fuzz: building (clang)"
CC=clang CXX=clang++ configure "$out/fuzz" -DCT_FUZZ=ON -DCT_OPENMP=OFF -DCT_BUILD_TESTS=OFF -DCT_BUILD_PYTHON=OFF
run_logged fuzz-build 3600 cmake --build "$out/fuzz" -j "$jobs" --target ctensor_fuzz ctensor_fuzz_pt
say "fuzz: ${fuzz_seconds}s from fuzz/corpus"
# New inputs go to a scratch directory, never into the checked-in corpus; crash files to $logs.
rm -rf "$out/fuzz-new" && mkdir -p "$out/fuzz-new"
run_logged fuzz-run $(( fuzz_seconds + 300 )) "$out/fuzz/fuzz/ctensor_fuzz" -max_total_time="$fuzz_seconds" \
  -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$logs/" "$out/fuzz-new" "$root/fuzz/corpus"
say "fuzz: $(grep -h 'ctensor fuzz figures' "$logs/fuzz-run.log" | tail -n 1 | sed 's/^ctensor fuzz figures: //'), \
$(grep -h '^stat::number_of_executed_units' "$logs/fuzz-run.log" | awk '{print $2}') executions, \
$(grep -h '^stat::average_exec_per_sec' "$logs/fuzz-run.log" | awk '{print $2}') exec/s, 0 crashes"

say "fuzz (.pt reader): ${pt_fuzz_seconds}s from fuzz/corpus_pt"
rm -rf "$out/fuzz-pt-new" && mkdir -p "$out/fuzz-pt-new"
run_logged fuzz-pt-run $(( pt_fuzz_seconds + 300 )) "$out/fuzz/fuzz/ctensor_fuzz_pt" -max_total_time="$pt_fuzz_seconds" \
  -timeout=20 -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$logs/" "$out/fuzz-pt-new" "$root/fuzz/corpus_pt"
say "fuzz (.pt reader): $(grep -h 'ctensor pt fuzz figures' "$logs/fuzz-pt-run.log" | tail -n 1 | sed 's/^ctensor pt fuzz figures: //'), \
$(grep -h '^stat::number_of_executed_units' "$logs/fuzz-pt-run.log" | awk '{print $2}') executions, 0 crashes"

# ---- 4. ABI -------------------------------------------------------------------------------------
say "ABI: self-test, then $normal_build/libctensor.so against abi/"
run_logged abi-selftest 300 bash abi/selftest.sh
run_logged abi-check 300 bash abi/check.sh "$normal_build"
say "ABI: $(tail -n 1 "$logs/abi-check.log")"

say "all sanitizer, fuzz and ABI checks passed"
