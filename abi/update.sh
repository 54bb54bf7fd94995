#!/usr/bin/env bash
# Regenerates the checked-in ABI record from a build: the exported symbol list
# (abi/symbols.txt), the libabigail dump of the library (abi/libctensor.abi) and the header
# version it describes (abi/version.txt).  Run it after an intended change of the header,
# from a normal (not sanitizer) RelWithDebInfo build, and commit the three files.
# Usage: abi/update.sh [build dir]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-build}
lib=$(readlink -f "$build/libctensor.so")
[ -f "$lib" ] || { echo "update.sh: no $build/libctensor.so: build first" >&2; exit 1; }
command -v abidw >/dev/null || { echo "update.sh: abidw not found (apt-get install abigail-tools)" >&2; exit 1; }
bash "$here/list_symbols.sh" "$lib" > "$here/symbols.txt"
# --no-corpus-path: the dump does not record where this build happened to be.
abidw --no-corpus-path --no-show-locs --exported-interfaces-only "$lib" > "$here/libctensor.abi"
sed -n 's/^#define CT_VERSION_STRING "\(.*\)"/\1/p' "$root/include/ctensor.h" > "$here/version.txt"
echo "abi: $(wc -l < "$here/symbols.txt") symbols, dump of $(basename "$lib"), version $(cat "$here/version.txt")"
