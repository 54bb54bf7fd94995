#!/usr/bin/env bash
# The installed library as a user meets it, from a prefix that is neither the default nor
# where it was installed:
#   1. cmake --install <build> --prefix $tmp/stage, then the whole prefix moved to $tmp/moved
#      (no installed text file may still name $tmp/stage);
#   2. the README's C program (its first ```c block), compiled with the README's compile line
#      (the ```sh block after it, run as written: pkg-config --cflags --libs ctensor) and run:
#      it must print the README's ```text block; compiled again with -std=c99 -pedantic -Werror;
#   3. the same program built by a CMake project with find_package(ctensor) and run.
# Usage: tests/install/consumers.sh <build dir> [cmake]   (ctest: install_consumers)
set -euo pipefail
if [ $# -lt 1 ] || [ ! -d "$1" ]; then
  echo "usage: $0 <build dir> [cmake]" >&2
  exit 2
fi
build=$(cd "$1" && pwd)
cmake=${2:-cmake}
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
for tool in cc pkg-config; do
  command -v "$tool" >/dev/null || { echo "missing: $tool (apt-get install gcc pkg-config)" >&2; exit 1; }
done
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ctensor-install.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# ---- 1. install, then move the prefix
"$cmake" --install "$build" --prefix "$tmp/stage" >"$tmp/install.log"
mv "$tmp/stage" "$tmp/moved"
prefix=$tmp/moved
if grep -rIl -- "$tmp/stage" "$prefix"; then
  echo "FAIL: the installed files above still name the install prefix $tmp/stage" >&2
  exit 1
fi
pc=$(find "$prefix" -name ctensor.pc)
[ -n "$pc" ] || { echo "FAIL: no ctensor.pc under $prefix" >&2; exit 1; }
libdir=$(dirname "$(find "$prefix" -name 'libctensor.so' | head -n 1)")
echo "installed into $tmp/stage, moved to $prefix ($(cd "$prefix" && find . -type f | wc -l) files)"

# ---- 2. the README's program, with the README's compile line, through pkg-config
# block N of a language: the lines between its ```lang fence and the closing ```
block() {  # language, how many blocks of that language to skip
  awk -v lang="$1" -v skip="$2" '
    !inside && $0 == "```" lang { if (skip-- == 0) { inside = 1; next } }
    inside && /^```/ { exit }
    inside { print }' "$repo/README.md"
}
# the README's C block, and the sh and text blocks that follow it
c_line=$(grep -n '^```c$' "$repo/README.md" | head -n 1 | cut -d: -f1)
[ -n "$c_line" ] || { echo "FAIL: README.md has no \`\`\`c block" >&2; exit 1; }
sh_skip=$(head -n "$c_line" "$repo/README.md" | grep -c '^```sh$' || true)
text_skip=$(head -n "$c_line" "$repo/README.md" | grep -c '^```text$' || true)
mkdir "$tmp/pc"
block c 0 >"$tmp/pc/first.c"
block sh "$sh_skip" >"$tmp/pc/build.sh"
block text "$text_skip" >"$tmp/expected.txt"
grep -q 'pkg-config --cflags --libs ctensor' "$tmp/pc/build.sh" ||
  { echo "FAIL: the sh block after README's C block does not compile with pkg-config:" >&2; cat "$tmp/pc/build.sh" >&2; exit 1; }
echo "README.md's compile line: $(head -n 1 "$tmp/pc/build.sh")"
export PKG_CONFIG_PATH=$(dirname "$pc")
echo "pkg-config --cflags --libs ctensor: $(pkg-config --cflags --libs ctensor)"
case "$(pkg-config --variable=libdir ctensor)" in
  "$prefix"/*) ;;
  *) echo "FAIL: pkg-config's libdir is not under the moved prefix" >&2; exit 1 ;;
esac
(cd "$tmp/pc" && LD_LIBRARY_PATH="$libdir" bash -euo pipefail build.sh) >"$tmp/pc/out.txt"
if ! diff -u "$tmp/expected.txt" "$tmp/pc/out.txt"; then
  echo "FAIL: the README's program (pkg-config build) does not print what README.md shows" >&2
  exit 1
fi
echo "ok: README.md's C program, built with its compile line through pkg-config, prints what README.md shows"
# shellcheck disable=SC2046  # pkg-config's flags are meant to split
cc -std=c99 -pedantic -Wall -Wextra -Werror -o "$tmp/pc/strict" "$tmp/pc/first.c" $(pkg-config --cflags --libs ctensor)
echo "ok: it compiles as strict C99 (-pedantic -Wall -Wextra -Werror)"

# ---- 3. the same program through find_package(ctensor)
unset PKG_CONFIG_PATH
"$cmake" -S "$here/find_package" -B "$tmp/fp" -DCMAKE_PREFIX_PATH="$prefix" \
  -DCT_SOURCE="$tmp/pc/first.c" >"$tmp/fp.log" 2>&1 || { cat "$tmp/fp.log"; exit 1; }
"$cmake" --build "$tmp/fp" >>"$tmp/fp.log" 2>&1 || { cat "$tmp/fp.log"; exit 1; }
grep -q "ctensor_DIR:PATH=$prefix/" "$tmp/fp/CMakeCache.txt" ||
  { echo "FAIL: find_package(ctensor) did not find the moved prefix:" >&2; grep ctensor_DIR "$tmp/fp/CMakeCache.txt" >&2; exit 1; }
LD_LIBRARY_PATH="$libdir" "$tmp/fp/consumer" >"$tmp/fp/out.txt"
diff -u "$tmp/expected.txt" "$tmp/fp/out.txt"
echo "ok: the same program, built with find_package(ctensor) from the moved prefix, prints the same"
