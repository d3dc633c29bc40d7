"""Copies libsmithycurl.so, built by `make lib`, into the package when it is
built (pip install ./bindings/python), and marks the wheel as
platform-specific. The library is taken from $SMITHYCURL_LIBRARY, else from
the repository's build/ folder; without it the build stops and says so.
Everything else is in pyproject.toml."""

import os
import shutil

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

HERE = os.path.dirname(os.path.abspath(__file__))


def find_library() -> str:
    env = os.environ.get("SMITHYCURL_LIBRARY")
    candidates = [env] if env else []
    candidates.append(os.path.join(HERE, "..", "..", "build", "libsmithycurl.so"))
    for path in candidates:
        if os.path.isdir(path):
            path = os.path.join(path, "libsmithycurl.so")
        if os.path.isfile(path):
            return path
    raise SystemExit(
        "smithycurl: libsmithycurl.so not found (tried: %s); run `make lib` first, "
        "or set SMITHYCURL_LIBRARY to the library's path" % ", ".join(candidates)
    )


class BuildWithLibrary(build_py):
    def run(self) -> None:
        super().run()
        dest = os.path.join(self.build_lib, "smithycurl", "libsmithycurl.so")
        src = find_library()
        self.announce("copying %s -> %s" % (src, dest), level=2)
        os.makedirs(os.path.dirname(dest), exist_ok=True)
        shutil.copyfile(src, dest)
        os.chmod(dest, 0o755)


class BinaryDistribution(Distribution):
    def has_ext_modules(self) -> bool:  # the wheel holds a native library
        return True


setup(cmdclass={"build_py": BuildWithLibrary}, distclass=BinaryDistribution)
