"""Builds the tcscope package: the Python code plus the shared library.

`pip install ./python` (from the repository) runs `make build/libtcscope.so`
in the repository (nothing to do when it is up to date) and puts the library
in the package as tcscope/lib/libtcscope.so with the model profiles beside
it in tcscope/share/tcscope/oracle/profiles/, the layout the library reads
its data from (probes/datadir.c). TCSCOPE_LIB=/path/to/libtcscope.so skips
make and bundles that file instead (its profiles must then be found beside
it at run time, or given as paths).
"""
import glob
import os
import shutil
import subprocess

from setuptools import setup
from setuptools.command.build_py import build_py
from setuptools.dist import Distribution

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def shared_library() -> str:
    given = os.environ.get("TCSCOPE_LIB")
    if given:
        if not os.path.isfile(given):
            raise SystemExit(f"TCSCOPE_LIB={given}: no such file")
        return given
    if not os.path.isfile(os.path.join(REPO, "Makefile")):
        raise SystemExit("tcscope: not in the tcscope repository and no TCSCOPE_LIB: cannot find libtcscope.so")
    subprocess.run(["make", "-C", REPO, "build/libtcscope.so"], check=True)
    return os.path.join(REPO, "build", "libtcscope.so")


class BuildWithLibrary(build_py):
    def run(self) -> None:
        super().run()
        lib = shared_library()
        pkg = os.path.join(self.build_lib, "tcscope")
        os.makedirs(os.path.join(pkg, "lib"), exist_ok=True)
        shutil.copy2(lib, os.path.join(pkg, "lib", "libtcscope.so"))
        profiles = os.path.join(pkg, "share", "tcscope", "oracle", "profiles")
        os.makedirs(profiles, exist_ok=True)
        for p in glob.glob(os.path.join(REPO, "oracle", "profiles", "*.profile")):
            shutil.copy2(p, profiles)


class BinaryDistribution(Distribution):
    """A wheel for this platform: it carries a compiled library."""

    def has_ext_modules(self) -> bool:
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
