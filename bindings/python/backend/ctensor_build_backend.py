"""The build backend of the root pyproject.toml: scikit-build-core, after one check.

`pip install .` and `pip wheel .` build libctensor and the SWIG module ctensor._C with the
repository's CMake (bindings/python/CMakeLists.txt).  That needs tools pip cannot install:
cmake, swig, a C/C++ compiler, pkg-config with OpenBLAS and zlib, the Python headers.  Before anything
is configured or compiled, this module looks for all of them and, if any is missing, stops
with one message that names every missing one and the Debian packages that provide them
(instead of a bare "[Errno 2]" for cmake, or a SWIG failure a minute into the build).

Every PEP 517 hook is scikit-build-core's; the ones that lead to a build check first.
"""

import os
import re
import shutil
import subprocess
import sys
import sysconfig

try:
    from scikit_build_core import build as _skbuild
    from scikit_build_core.build import *  # noqa: F401,F403  (every hook, re-exported)
except ImportError:
    if __name__ != "__main__":  # run as a script, the check alone needs no scikit-build-core
        raise

CMAKE_MIN = (3, 20)  # cmake_minimum_required in CMakeLists.txt
SWIG_MIN = (4, 0)


def _version(cmd):
    """(major, minor) printed by `cmd`, or None when it does not run."""
    try:
        out = subprocess.run(cmd, capture_output=True, text=True, timeout=60).stdout
    except (OSError, subprocess.SubprocessError):
        return None
    m = re.search(r"(\d+)\.(\d+)", out)
    return (int(m.group(1)), int(m.group(2))) if m else None


def _tool(names):
    for name in names:
        path = shutil.which(name)
        if path:
            return path
    return None


def _compiler(env, names):
    cmd = os.environ.get(env)
    if cmd:
        return shutil.which(cmd.split()[0])
    return _tool(names)


def missing_prerequisites():
    """[(what is missing, Debian package)] for everything the build needs; [] when all are here."""
    missing = []
    cmake = _tool(["cmake"])
    version = _version([cmake, "--version"]) if cmake else None
    if version is None or version < CMAKE_MIN:
        found = "" if cmake is None else " (found %s)" % ".".join(map(str, version or ("?",)))
        missing.append(("cmake >= %d.%d%s" % (CMAKE_MIN + (found,)), "cmake"))
    swig = _tool(["swig", "swig4.0"])
    version = _version([swig, "-version"]) if swig else None
    if version is None or version < SWIG_MIN:
        found = "" if swig is None else " (found %s)" % ".".join(map(str, version or ("?",)))
        missing.append(("swig >= 4%s" % found, "swig"))
    if not _compiler("CC", ["cc", "gcc", "clang"]):
        missing.append(("a C compiler (cc, or set CC)", "gcc"))
    if not _compiler("CXX", ["c++", "g++", "clang++"]):
        missing.append(("a C++20 compiler (c++, or set CXX)", "g++"))
    pkg_config = _tool(["pkg-config", "pkgconf"])
    if not pkg_config:
        missing.append(("pkg-config", "pkg-config"))
    if not pkg_config or subprocess.run([pkg_config, "--exists", "openblas"]).returncode != 0:
        missing.append(("OpenBLAS (pkg-config openblas)", "libopenblas-dev"))
    if not pkg_config or subprocess.run([pkg_config, "--exists", "zlib"]).returncode != 0:
        missing.append(("zlib (pkg-config zlib)", "zlib1g-dev"))
    include = sysconfig.get_paths().get("include") or ""
    if not os.path.isfile(os.path.join(include, "Python.h")):
        missing.append(("the headers of Python %d.%d (Python.h in %s)" % (sys.version_info[:2] + (include,)),
                        "python3-dev"))
    return missing


def _check():
    missing = missing_prerequisites()
    if not missing:
        return
    lines = ["ctensor cannot be built here: %d prerequisite%s missing:" % (len(missing), "s" * (len(missing) > 1))]
    lines += ["  - %s" % what for what, _ in missing]
    lines.append("On Debian/Ubuntu: sudo apt-get install %s" % " ".join(dict.fromkeys(p for _, p in missing)))
    lines.append("(README.md, \"Install\", lists what the build needs.)")
    sys.exit("\n".join(lines))


def get_requires_for_build_wheel(config_settings=None):
    _check()
    return _skbuild.get_requires_for_build_wheel(config_settings)


def get_requires_for_build_editable(config_settings=None):
    _check()
    return _skbuild.get_requires_for_build_editable(config_settings)


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    _check()  # also when the frontend skipped get_requires (pip --no-build-isolation)
    return _skbuild.build_wheel(wheel_directory, config_settings, metadata_directory)


def build_editable(wheel_directory, config_settings=None, metadata_directory=None):
    _check()
    return _skbuild.build_editable(wheel_directory, config_settings, metadata_directory)


if __name__ == "__main__":  # `python3 bindings/python/backend/ctensor_build_backend.py`: the check alone
    _check()
    print("ctensor: every build prerequisite is here")
