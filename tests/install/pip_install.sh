#!/usr/bin/env bash
# What README.md's "Install" promises for Python: `pip install .` from the repository root into
# a fresh virtual environment (made from Debian's python3, no system site-packages; pip reads
# this machine's configuration for its indexes and fetches the build backend,
# scikit-build-core), then, from outside the source tree, `import ctensor` finds the installed
# package (its _C extension and the libctensor beside it) and computes.  One CMake build at
# CMAKE_BUILD_PARALLEL_LEVEL (2 unless set).  A step of scripts/test.sh.
# Usage: tests/install/pip_install.sh [python3]   (default /usr/bin/python3)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
python=${1:-/usr/bin/python3}
tmp=$(mktemp -d "${TMPDIR:-/tmp}/ctensor-pip.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

"$python" -m venv "$tmp/venv" || { echo "FAIL: $python -m venv (Debian: apt-get install python3-venv)" >&2; exit 1; }
export CMAKE_BUILD_PARALLEL_LEVEL=${CMAKE_BUILD_PARALLEL_LEVEL:-2}
echo "pip install $repo into a fresh venv from $python ($("$python" --version))"
start=$SECONDS
if ! "$tmp/venv/bin/python" -m pip install --disable-pip-version-check "$repo" >"$tmp/pip.log" 2>&1; then
  cat "$tmp/pip.log"
  echo "FAIL: pip install . from the repository root" >&2
  exit 1
fi
echo "installed in $((SECONDS - start)) s"
# nothing of the build may be left in the source tree
for left in "$repo/_skbuild" "$repo/bindings/python/ctensor/_C"*.so "$repo"/*.egg-info; do
  if [ -e "$left" ]; then echo "FAIL: pip left $left in the source tree" >&2; exit 1; fi
done

cd "$tmp"   # outside the source tree: only the installed package can be imported
"$tmp/venv/bin/python" - "$repo" <<'PY'
import importlib.metadata as md
import os
import sys

import ctensor

repo = os.path.realpath(sys.argv[1])
pkg = os.path.dirname(os.path.realpath(ctensor.__file__))
site = os.path.realpath(os.path.join(sys.prefix, "lib"))
assert pkg.startswith(site + os.sep), "ctensor imported from %s, not from the venv %s" % (pkg, site)
assert not pkg.startswith(repo + os.sep), pkg
files = sorted(os.listdir(pkg))
assert any(f.startswith("_C.") and f.endswith(".so") for f in files), files
assert any(f.startswith("libctensor.so") for f in files), files

t = ctensor.arange(6).view(2, 3).t()
print(t)
assert str(t) == "tensor([[0, 3],\n        [1, 4],\n        [2, 5]])", str(t)
assert t.stride() == (1, 3) and not t.is_contiguous() and t._base is not None
assert t.contiguous().tolist() == [[0, 3], [1, 4], [2, 5]]

# the library _C loaded is the one inside the package (RPATH $ORIGIN), not another one
with open("/proc/self/maps") as f:
    libs = {line.split()[-1] for line in f if "libctensor.so" in line}
assert libs and all(os.path.dirname(os.path.realpath(p)) == pkg for p in libs), libs

meta = md.metadata("ctensor")
assert meta["Version"] == ctensor.__version__, (meta["Version"], ctensor.__version__)
assert meta.get("License-Expression") == "BSD-3-Clause", meta.get("License-Expression")
dist = md.distribution("ctensor")
assert any(str(f).endswith("LICENSE") for f in dist.files), "LICENSE is not in the wheel"
print("ok: ctensor %s from %s, licence %s" % (meta["Version"], pkg, meta["License-Expression"]))
PY
