#!/usr/bin/env bash
# README.md shows the demo's whole output (section "What the demo prints", its plain ``` block):
# run the demo and compare, so that the README never shows a shortened or stale output.
# Usage: tests/tools/check_readme_demo.sh <demo executable> <README.md>   (ctest: readme_demo_output)
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 <demo executable> <README.md>" >&2; exit 2; }
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ctensor-demo.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
awk '/^## What the demo prints$/ { section = 1 }
     section && !inside && $0 == "```" { inside = 1; next }
     inside && /^```/ { exit }
     inside { print }' "$2" >"$tmp/expected"
[ -s "$tmp/expected" ] || { echo "FAIL: $2 has no plain \`\`\` block under '## What the demo prints'" >&2; exit 1; }
"$1" >"$tmp/actual"
if ! diff -u "$tmp/expected" "$tmp/actual"; then
  echo "FAIL: the demo's output (+) differs from what $2 shows (-)" >&2
  exit 1
fi
echo "ok: $2 shows the demo's whole output ($(wc -l <"$tmp/actual") lines)"
