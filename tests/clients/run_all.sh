#!/usr/bin/env bash
# Runs every client of libctensor that loads it by path, knowing only include/ctensor.h,
# and the checks of the Julia package that need no Julia runtime:
#   python ctypes client        tests/clients/python/ctypes_client.py   (/usr/bin/python3)
#   node koffi client           tests/clients/node/koffi_client.mjs     (npm ci if needed)
#   docs/clients.md snippets    each C, Python and JavaScript snippet compiled/run, Julia parsed
#   julia package checks        bindings/julia/check/run_checks.sh      (generator up to date,
#                               .jl files parse, ccall signatures; runtests.jl if julia exists)
# Usage: tests/clients/run_all.sh path/to/libctensor.so
# Needs: /usr/bin/python3, python3-pycparser, gcc (cpp, cc), binutils (nm), nodejs, npm.
# Prints which checks ran and their verdicts; exits non-zero if one failed.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 path/to/libctensor.so" >&2
  exit 2
fi
lib=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
py=/usr/bin/python3
export CTENSOR_LIB="$lib"

pass=0
fail=0
summary=()
run() {
  local name=$1
  shift
  echo
  echo "==== $name"
  if "$@"; then
    pass=$((pass + 1))
    summary+=("  PASS  $name")
  else
    fail=$((fail + 1))
    summary+=("  FAIL  $name")
  fi
}

need() {
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "missing: $1 ($2)"
  return 1
}

npm_ci_if_needed() {  # dir: install the locked packages unless they are all there already
  if [ ! -f "$1/node_modules/.package-lock.json" ] || ! (cd "$1" && npm ls --depth=0 >/dev/null 2>&1); then
    (cd "$1" && npm ci --no-audit --no-fund --loglevel=error)
  fi
}

python_client() {
  need "$py" "apt-get install python3" && "$py" "$here/python/ctypes_client.py" "$lib"
}

node_client() {
  need node "apt-get install nodejs" && need npm "apt-get install npm" &&
    npm_ci_if_needed "$here/node" && node "$here/node/koffi_client.mjs" "$lib"
}

doc_snippets() {
  need node "apt-get install nodejs" && need cc "apt-get install gcc" &&
    npm_ci_if_needed "$here/node" && npm_ci_if_needed "$repo/bindings/julia/check" &&
    "$py" "$here/doc_snippets.py" "$repo/docs/clients.md" "$lib"
}

julia_checks() {
  need node "apt-get install nodejs" && need npm "apt-get install npm" &&
    bash "$repo/bindings/julia/check/run_checks.sh" "$lib"
}

skipped=0
# The npm packages (koffi, tree-sitter-julia) come from the npm registry.  When the registry
# cannot be reached at all (no network, or TLS interception with a CA this machine lacks),
# the groups that need them are SKIPPED with npm's own reason; any other npm failure fails.
npm_unreachable=""
if command -v npm >/dev/null 2>&1; then
  npm_log=$(mktemp)
  if ! { npm_ci_if_needed "$here/node" && npm_ci_if_needed "$repo/bindings/julia/check"; } >"$npm_log" 2>&1; then
    cat "$npm_log"
    if grep -qE "SELF_SIGNED_CERT|UNABLE_TO_(GET|VERIFY)|CERT_|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|ENETUNREACH" "$npm_log"; then
      npm_unreachable=$(grep -m1 -oE "SELF_SIGNED_CERT[A-Z_]*|UNABLE_TO_[A-Z_]*|CERT_[A-Z_]*|ENOTFOUND|EAI_AGAIN|ECONNREFUSED|ETIMEDOUT|ECONNRESET|ENETUNREACH" "$npm_log")
    fi
  fi
  rm -f "$npm_log"
fi
run_npm() {
  if [ -n "$npm_unreachable" ]; then
    echo
    echo "==== $1"
    echo "   SKIP: the npm registry is unreachable from this machine ($npm_unreachable)"
    skipped=$((skipped + 1))
    summary+=("  SKIP  $1 (npm registry unreachable)")
  else
    run "$@"
  fi
}

echo "libctensor clients: $lib"
run "python ctypes client (tests/clients/python/ctypes_client.py)" python_client
run_npm "node koffi client (tests/clients/node/koffi_client.mjs)" node_client
run_npm "docs/clients.md snippets (C via dlopen, Python ctypes, Node koffi run; Julia parsed)" doc_snippets
run_npm "julia package: generator up to date, .jl parse, ccall signatures (bindings/julia/check)" julia_checks

echo
echo "==== summary"
printf '%s\n' "${summary[@]}"
echo "clients: $pass passed, $fail failed, $skipped skipped"
[ "$fail" -eq 0 ]
