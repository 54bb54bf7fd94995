#!/usr/bin/env bash
# Compares the dynamic symbols libctensor exports with the checked-in list abi/symbols.txt.
# Usage: abi/check_symbols.sh [--allow-additions] path/to/libctensor.so
#   exact (ctest's "abi_symbols"): the record must be up to date;
#   --allow-additions (abi/check.sh): only a symbol missing from the library fails.
set -euo pipefail
allow_additions=0
if [ "${1:-}" = "--allow-additions" ]; then allow_additions=1; shift; fi
lib=${1:?usage: $0 [--allow-additions] path/to/libctensor.so}
here=$(cd "$(dirname "$0")" && pwd)
actual=$(bash "$here/list_symbols.sh" "$lib")
removed=$(LC_ALL=C comm -23 "$here/symbols.txt" <(echo "$actual"))
added=$(LC_ALL=C comm -13 "$here/symbols.txt" <(echo "$actual"))
if [ -n "$removed" ] || { [ -n "$added" ] && [ $allow_additions = 0 ]; }; then
  echo "abi_symbols: the symbols exported by $lib differ from abi/symbols.txt" >&2
  [ -n "$removed" ] && echo "  in abi/symbols.txt but no longer exported:" $removed >&2
  [ -n "$added" ] && echo "  exported but not in abi/symbols.txt:" $added >&2
  echo "If the change is intended, run: abi/update.sh <build dir>  (and bump CT_VERSION_MAJOR" >&2
  echo "in include/ctensor.h if a symbol was removed or changed incompatibly)." >&2
  exit 1
fi
echo "abi_symbols: $(echo "$actual" | wc -l) exported symbols match abi/symbols.txt${added:+ (plus new: $(echo $added))}"
