#!/usr/bin/env bash
# Runs every client of libctensor that loads it by path, knowing only include/ctensor.h,
# and the checks of the Julia package that need no Julia runtime:
#   python ctypes client        tests/clients/python/ctypes_client.py   ($CT_PYTHON)
#   python cffi client          tests/clients/python/cffi_client.py     ($CT_PYTHON, cffi)
#   luajit ffi client           tests/clients/lua/ffi_client.lua        (luajit)
#   ruby ffi client             tests/clients/ruby/ffi_client.rb        (ruby, ruby-ffi)
#   perl FFI::Platypus client   tests/clients/perl/platypus_client.pl   (perl, libffi-platypus-perl)
#   docs/clients.md snippets    each C, Python, LuaJIT, Ruby and Perl snippet compiled/run,
#                               Julia parsed (tree-sitter-julia, from Python)
#   julia package checks        bindings/julia/check/run_checks.sh      (generator up to date,
#                               .jl files parse, ccall signatures; runtests.jl if julia exists)
# Usage: tests/clients/run_all.sh path/to/libctensor.so
# The Python interpreter is ${CT_PYTHON:-python3}; it needs cffi, pycparser, tree-sitter and
# tree-sitter-julia (requirements.txt: scripts/test.sh sets CT_PYTHON to build/venv's).
# Also needs gcc (cc, cpp), binutils (nm), luajit, ruby + ruby-ffi, perl + FFI::Platypus:
# `scripts/deps.sh test` installs them all.  A missing tool fails its group, with the
# package to install: nothing here is skipped.
# Prints which checks ran and their verdicts; exits non-zero if one failed.
set -uo pipefail
if [ $# -ne 1 ] || [ ! -f "$1" ]; then
  echo "usage: $0 path/to/libctensor.so" >&2
  exit 2
fi
lib=$(realpath "$1")
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
py=${CT_PYTHON:-python3}
export CTENSOR_LIB="$lib"
export CT_PYTHON="$py"   # run_checks.sh (Julia) picks its interpreter from it too

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

need() {  # command, how to install it
  command -v "$1" >/dev/null 2>&1 && return 0
  echo "missing: $1 (install: $2; scripts/deps.sh test installs every client's tools)"
  return 1
}

need_module() {  # interpreter, check to run, what is missing, how to install it
  "$1" -e "$2" >/dev/null 2>&1 && return 0
  echo "missing: $3 for $1 (install: $4; scripts/deps.sh test installs every client's tools)"
  return 1
}

ctypes_client() {
  need "$py" "apt-get install python3, or set CT_PYTHON" && "$py" "$here/python/ctypes_client.py" "$lib"
}

cffi_client() {
  need "$py" "apt-get install python3, or set CT_PYTHON" && "$py" "$here/python/cffi_client.py" "$lib"
}

lua_client() {
  need luajit "apt-get install luajit" && luajit "$here/lua/ffi_client.lua" "$lib"
}

ruby_client() {
  need ruby "apt-get install ruby ruby-ffi" &&
    need_module ruby "require 'ffi'" "the ffi gem" "apt-get install ruby-ffi" &&
    ruby "$here/ruby/ffi_client.rb" "$lib"
}

perl_client() {
  need perl "apt-get install perl libffi-platypus-perl" &&
    need_module perl "use FFI::Platypus 2.00" "FFI::Platypus 2" "apt-get install libffi-platypus-perl" &&
    perl "$here/perl/platypus_client.pl" "$lib"
}

doc_snippets() {
  # doc_snippets.py names any other missing tool (luajit, ruby, perl) on the snippet it fails
  need cc "apt-get install gcc" && need "$py" "apt-get install python3, or set CT_PYTHON" &&
    "$py" "$here/doc_snippets.py" "$repo/docs/clients.md" "$lib"
}

julia_checks() {
  bash "$repo/bindings/julia/check/run_checks.sh" "$lib"
}

echo "libctensor clients: $lib (python: $py)"
run "python ctypes client (tests/clients/python/ctypes_client.py)" ctypes_client
run "python cffi client, ABI mode (tests/clients/python/cffi_client.py)" cffi_client
run "luajit ffi client (tests/clients/lua/ffi_client.lua)" lua_client
run "ruby ffi client (tests/clients/ruby/ffi_client.rb)" ruby_client
run "perl FFI::Platypus client (tests/clients/perl/platypus_client.pl)" perl_client
run "docs/clients.md snippets (C via dlopen, Python ctypes and cffi, LuaJIT, Ruby, Perl run; Julia parsed)" doc_snippets
run "julia package: generator up to date, .jl parse, ccall signatures (bindings/julia/check)" julia_checks

echo
echo "==== summary"
printf '%s\n' "${summary[@]}"
echo "clients: $pass passed, $fail failed"
[ "$fail" -eq 0 ]
