#!/usr/bin/env bash
# The ABI check of CI: the library of a build against the checked-in record (abi/update.sh).
#   - abi/check_symbols.sh --allow-additions: no symbol of abi/symbols.txt has disappeared;
#   - abidiff against abi/libctensor.abi: adding functions is compatible; removing or changing
#     a function or a type it uses is not, and fails unless CT_VERSION_MAJOR in the header
#     differs from the major of abi/version.txt (a major release may break the ABI).
# Usage: abi/check.sh [build dir]   (default: build)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
build=${1:-build}
lib=$(readlink -f "$build/libctensor.so")
[ -f "$lib" ] || { echo "abi/check.sh: no $build/libctensor.so: build first" >&2; exit 1; }

recorded_major=$(cut -d. -f1 "$here/version.txt")
header_major=$(sed -n 's/^#define CT_VERSION_MAJOR \([0-9]*\)/\1/p' "$root/include/ctensor.h")
if [ "$recorded_major" != "$header_major" ]; then
  echo "abi: CT_VERSION_MAJOR is $header_major, the record is of major $recorded_major: ABI changes allowed;"
  echo "     run abi/update.sh to record the new ABI."
  exit 0
fi

status=0
bash "$here/check_symbols.sh" --allow-additions "$lib" || status=1

report=$(mktemp)
trap 'rm -f "$report"' EXIT
set +e
abidiff --no-show-locs --exported-interfaces-only "$here/libctensor.abi" "$lib" > "$report" 2>&1
rc=$?
set -e
# abidiff's exit code is a bit field: 1 error, 2 usage, 4 ABI changed, 8 incompatible change.
if (( rc & 3 )); then
  echo "abi: abidiff failed (exit $rc):" >&2; cat "$report" >&2; exit 1
elif (( rc & 8 )); then
  echo "abi: INCOMPATIBLE change against abi/libctensor.abi (bump CT_VERSION_MAJOR to allow it):" >&2
  cat "$report" >&2; status=1
elif (( rc & 4 )); then
  # Compatible only if every change is an addition: no function or variable removed or changed.
  if grep -Eq 'Functions changes summary: 0 Removed, 0 Changed( \([0-9]+ filtered out\))?, [0-9]+ Added' "$report" &&
     grep -Eq 'Variables changes summary: 0 Removed, 0 Changed( \([0-9]+ filtered out\))?, [0-9]+ Added' "$report"; then
    echo "abi: only additions against abi/libctensor.abi ($(grep -o '[0-9]* Added function' "$report" | head -1)s); compatible"
  else
    echo "abi: functions or types changed against abi/libctensor.abi (bump CT_VERSION_MAJOR to allow it):" >&2
    cat "$report" >&2; status=1
  fi
else
  echo "abi: no change against abi/libctensor.abi"
fi
exit $status
