#!/usr/bin/env bash
# Shows that abi/check.sh can fail: on a two-function stand-in library with its own header, it
# must pass an unchanged library and an added function, and fail a removed function, a
# changed parameter type and a grown struct, unless the header's major version was bumped.
# Usage: abi/selftest.sh   (needs gcc and abigail-tools; runs in a temporary directory)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/abi" "$work/include" "$work/b"
cp "$here"/{check.sh,check_symbols.sh,list_symbols.sh,update.sh} "$work/abi/"

# make_lib MAJOR STRUCT_EXTRA DECLS DEFS: the stand-in header and library.
make_lib() {
  printf '#define CT_VERSION_MAJOR %s\n#define CT_VERSION_STRING "%s.1.0"\nstruct ct_s { int x; %s };\nint ct_b(struct ct_s *s);\n%s\n' \
    "$1" "$1" "$2" "$3" > "$work/include/ctensor.h"
  printf '#include "ctensor.h"\nint ct_b(struct ct_s *s) { return s->x; }\n%s\n' "$4" > "$work/b/lib.c"
  gcc -g -shared -fPIC -I"$work/include" -o "$work/b/libctensor.so" "$work/b/lib.c"
}
# expect NAME WANT(pass|fail)
expect() {
  if bash "$work/abi/check.sh" "$work/b" > "$work/out" 2>&1; then got=pass; else got=fail; fi
  if [ "$got" != "$2" ]; then
    echo "abi selftest: $1: expected $2, got $got" >&2; cat "$work/out" >&2; exit 1
  fi
  echo "abi selftest: $1: $got as expected"
}

make_lib 0 "" "int ct_a(int);" "int ct_a(int x) { return x; }"
bash "$work/abi/update.sh" "$work/b" > /dev/null
expect "unchanged" pass
make_lib 0 "" "int ct_a(int); int ct_c(void);" "int ct_a(int x) { return x; } int ct_c(void) { return 1; }"
expect "function added" pass
make_lib 0 "" "" ""
expect "function removed" fail
make_lib 0 "" "int ct_a(long);" "int ct_a(long x) { return (int)x; }"
expect "parameter type changed" fail
make_lib 0 "int y;" "int ct_a(int);" "int ct_a(int x) { return x; }"
expect "struct grown" fail
make_lib 1 "" "" ""
expect "function removed with a major bump" pass
