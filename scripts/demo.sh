#!/usr/bin/env bash
# Builds libctensor and the C demo, then runs it.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/deps.sh demo
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCT_BUILD_TESTS=OFF -DCT_BUILD_BENCH=OFF >/dev/null
cmake --build "$build" --target demo
"$build/examples/demo"
