"""Builds and installs the ctensor Python package from the repository:

    pip install --no-build-isolation ./bindings/python

build_ext builds libctensor with the repository's CMake (target ctensor only), generates the
SWIG wrapper from ctensor.i (which %includes include/ctensor.h), compiles ctensor._C against
the library, and ships the library inside the package next to _C (found through
RPATH=$ORIGIN), so the installed package needs nothing else.  Needs cmake, a C/C++ compiler,
swig >= 4 and the Python headers; no network.
"""

import os
import pathlib
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = pathlib.Path(__file__).resolve().parent
ROOT = HERE.parents[1]


def _version():
    import re
    text = (ROOT / "include" / "ctensor.h").read_text()
    parts = [re.search(rf"#define CT_VERSION_{p} (\d+)", text).group(1) for p in ("MAJOR", "MINOR", "PATCH")]
    return ".".join(parts)


class CMakeSwigBuild(build_ext):
    """libctensor through CMake, then the SWIG module against it."""

    def run(self):
        build_temp = pathlib.Path(self.build_temp).resolve()
        cmake_dir = build_temp / "cmake"
        cmake_dir.mkdir(parents=True, exist_ok=True)
        gen = ["-G", "Ninja"] if shutil.which("ninja") else []
        subprocess.check_call(
            ["cmake", "-S", str(ROOT), "-B", str(cmake_dir), *gen, "-DCMAKE_BUILD_TYPE=Release",
             "-DCT_BUILD_TESTS=OFF", "-DCT_BUILD_BENCH=OFF", "-DCT_BUILD_PYTHON=OFF",
             f"-DPython3_EXECUTABLE={sys.executable}"])
        subprocess.check_call(["cmake", "--build", str(cmake_dir), "--target", "ctensor", "--parallel"])
        libs = sorted(cmake_dir.glob("libctensor.so.*"), key=lambda p: len(p.name))
        if not libs:
            raise RuntimeError("libctensor was not built")
        soname = libs[0]  # libctensor.so.MAJOR.MINOR, the name the module links against
        self._lib_dir = cmake_dir
        self._soname = soname

        wrap = build_temp / "_C_wrap.c"
        subprocess.check_call(
            ["swig", "-python", "-builtin", "-Wextra", "-Werror", "-DSWIGWORDSIZE64",
             f"-I{ROOT / 'include'}", f"-I{HERE}", "-interface", "_C", "-outdir", str(build_temp),
             "-o", str(wrap), str(HERE / "ctensor.i")])
        ext = self.extensions[0]
        ext.sources = [str(wrap)]
        ext.include_dirs = [str(ROOT / "include"), str(HERE)]
        ext.library_dirs = [str(cmake_dir)]
        ext.extra_link_args = [f"-l:{soname.name}", "-Wl,-rpath,$ORIGIN"]
        ext.extra_compile_args = ["-Wno-unused-parameter", "-Wno-missing-field-initializers"]
        super().run()

    def build_extension(self, ext):
        super().build_extension(ext)
        # the library travels with the module: <package>/libctensor.so.X.Y
        dest = pathlib.Path(self.get_ext_fullpath(ext.name)).parent
        shutil.copy2(self._soname, dest / self._soname.name)


setup(
    name="ctensor",
    version=_version(),
    description="PyTorch's tensor memory semantics (views, strides, storages), exactly and observably",
    packages=["ctensor"],
    package_dir={"ctensor": "ctensor"},
    package_data={"ctensor": ["*.pyi", "py.typed"]},
    ext_modules=[Extension("ctensor._C", sources=[])],
    cmdclass={"build_ext": CMakeSwigBuild},
    python_requires=">=3.8",
    extras_require={"numpy": ["numpy"]},
    zip_safe=False,
)
