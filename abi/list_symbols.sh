#!/usr/bin/env bash
# Prints, sorted, every dynamic symbol a shared library defines (functions and data): the
# exported surface.  Usage: abi/list_symbols.sh path/to/libctensor.so
set -euo pipefail
nm -D --defined-only "${1:?usage: $0 path/to/libctensor.so}" | awk '{print $NF}' | sed 's/@.*//' | LC_ALL=C sort -u
