#!/usr/bin/env bash
# Checks the Julia package (bindings/julia/CTensor) on a machine without Julia, then runs
# its tests if Julia is there.  Usage: run_checks.sh path/to/libctensor.so
#   1. LibCTensor.jl is what the generator writes from include/ctensor.h today
#   2. every .jl file (the package and examples/seeds) parses (tree-sitter-julia, from
#      Python: julia_check.py), and every LibCTensor.x the hand-written layer uses is defined there
#   3. every ccall names a symbol libctensor exports, declared in the header, with argument
#      and return types that match the header's
#   4. the checks of issue 22 (julia_check.py --package, see its docstring: exports, shadowing,
#      name resolution, README examples = test code, rules read from the source)
#   5. test/runtests.jl through Pkg.test(), with the Julia runtime, if `julia` is on PATH
#      (else: SKIP, said so)
# Needs: a Python 3 with pycparser, tree-sitter 0.26 and tree-sitter-julia 0.23 (build/venv,
# from requirements.txt): ${CT_PYTHON:-python3}; cpp (gcc), nm (binutils).  No node, no npm.
# Exits non-zero if a check failed.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 path/to/libctensor.so" >&2
  exit 2
fi
lib=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
pkg=$(cd "$here/../CTensor" && pwd)
py=${CT_PYTHON:-python3}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0
step() { echo "-- julia: $*"; }
verdict() { if [ "$1" -eq 0 ]; then echo "   PASS $2"; else echo "   FAIL $2"; failed=1; fi; }

step "generated raw layer is up to date (gen/generate.py --check)"
$py "$here/../gen/generate.py" --check
verdict $? "LibCTensor.jl matches the generator's output for include/ctensor.h"

step "parse every .jl file (tree-sitter-julia), references into LibCTensor, extract ccalls, issue 22's checks"
# the package, and the seed examples written in Julia (examples/seeds/*.jl)
$py "$here/julia_check.py" --package "$pkg" "$here/../../../examples/seeds" --ccalls "$tmp/ccalls.json"
rc=$?
verdict $rc "every .jl file parses; names resolve; exports, README examples and issue 22's rules hold"

step "ccall signatures against include/ctensor.h and nm -D --defined-only $(basename "$lib")"
if [ -f "$tmp/ccalls.json" ]; then
  $py "$here/check_ccalls.py" --ccalls "$tmp/ccalls.json" --lib "$lib"
  verdict $? "every ccall: exported symbol, header declaration, matching types"
else
  verdict 1 "no ccall list (the parse step failed)"
fi

step "test/runtests.jl with Julia (Pkg.test, as the package README says)"
if command -v julia >/dev/null 2>&1; then
  CTENSOR_LIB="$lib" julia --project="$pkg" -e 'using Pkg; Pkg.test()'
  verdict $? "Pkg.test() of $pkg"
else
  echo "   SKIP runtests.jl: no Julia runtime on this machine (none in Debian, on PyPI or on npm);"
  echo "        with julia on PATH it runs: CTENSOR_LIB=$lib julia --project=$pkg -e 'using Pkg; Pkg.test()'"
fi
exit $failed
