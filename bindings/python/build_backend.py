"""The PEP 517 build backend of the smithycurl package: standard library only,
so that ``python3 -m pip install ./bindings/python`` works offline in any
Python >= 3.10, with or without setuptools and wheel.

pyproject.toml names it (``backend-path = ["."]``). It builds:

- a wheel of the ``smithycurl`` package (its modules and ``py.typed``) with
  ``libsmithycurl.so`` copied into the package when one is found:
  ``$SMITHYCURL_LIBRARY`` (a file, or a folder holding it; when set it must
  exist), else the repository's ``build/libsmithycurl.so`` (``make lib``),
  else one already in the package folder. With the library the wheel is
  platform-specific (``py3-none-linux_x86_64`` on that machine); without it,
  a pure wheel (``py3-none-any``) that finds the library at run time
  ($SMITHYCURL_LIBRARY or the system's paths: ``make install``);
- an sdist of the sources (never the library).

The package's metadata is here (METADATA below); its version is
``__version__`` in smithycurl/__init__.py. Nothing is written into the source
folder. Archives are reproducible: entries sorted, times from
$SOURCE_DATE_EPOCH (else 1980-01-01).
"""

from __future__ import annotations

import base64
import gzip
import hashlib
import io
import os
import re
import sys
import sysconfig
import tarfile
import time
import zipfile
from typing import IO, Any, Mapping, Optional, cast

HERE = os.path.dirname(os.path.abspath(__file__))
PACKAGE = "smithycurl"
LIBRARY = "libsmithycurl.so"

NAME = "smithycurl"
SUMMARY = "Call Smithy-modelled services from Python: models loaded at run time, typed values, libcurl underneath"
REQUIRES_PYTHON = ">=3.10"
LICENSE = "Apache-2.0"
CLASSIFIERS = (
    "Programming Language :: Python :: 3",
    "Operating System :: POSIX :: Linux",
    "Typing :: Typed",
)

# The files of the sdist besides the package's.
SDIST_FILES = ("pyproject.toml", "build_backend.py", "README.md")

__all__ = [
    "build_sdist",
    "build_wheel",
    "get_requires_for_build_sdist",
    "get_requires_for_build_wheel",
]


def version() -> str:
    """__version__ of smithycurl/__init__.py, read without importing it."""
    with open(os.path.join(HERE, PACKAGE, "__init__.py"), encoding="utf-8") as f:
        m = re.search(r'^__version__ = "([^"]+)"$', f.read(), re.M)
    if m is None:
        raise RuntimeError(f"no __version__ = \"...\" line in {PACKAGE}/__init__.py")
    return m.group(1)


def metadata() -> str:
    """The core metadata (METADATA in the wheel, PKG-INFO in the sdist)."""
    lines = [
        "Metadata-Version: 2.1",
        f"Name: {NAME}",
        f"Version: {version()}",
        f"Summary: {SUMMARY}",
        f"License: {LICENSE}",
        f"Requires-Python: {REQUIRES_PYTHON}",
        *(f"Classifier: {c}" for c in CLASSIFIERS),
        "Description-Content-Type: text/markdown",
    ]
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return "\n".join(lines) + "\n\n" + readme


def find_library(env: Optional[Mapping[str, str]] = None) -> Optional[str]:
    """The libsmithycurl.so to put in the wheel, or None (see the module's
    documentation for the order)."""
    env = os.environ if env is None else env
    given = env.get("SMITHYCURL_LIBRARY")
    if given:
        path = os.path.join(given, LIBRARY) if os.path.isdir(given) else given
        if not os.path.isfile(path):
            raise FileNotFoundError(f"SMITHYCURL_LIBRARY={given}: no such library (run `make lib`, or unset it)")
        return path
    for path in (os.path.join(HERE, "..", "..", "build", LIBRARY), os.path.join(HERE, PACKAGE, LIBRARY)):
        if os.path.isfile(path):
            return os.path.normpath(path)
    return None


def package_files() -> list[str]:
    """The package's sources and py.typed, relative to HERE, sorted."""
    out = []
    for root, dirs, files in os.walk(os.path.join(HERE, PACKAGE)):
        dirs[:] = sorted(d for d in dirs if d != "__pycache__" and not d.startswith("."))
        for name in files:
            if name.endswith(".py") or name == "py.typed":
                out.append(os.path.relpath(os.path.join(root, name), HERE).replace(os.sep, "/"))
    return sorted(out)


def _epoch() -> int:
    return max(int(os.environ.get("SOURCE_DATE_EPOCH", "0") or 0), 315532800)  # zip has no time before 1980


def _read(rel: str) -> bytes:
    with open(os.path.join(HERE, rel), "rb") as f:
        return f.read()


def platform_tag() -> str:
    """This machine's wheel platform tag (linux_x86_64, linux_aarch64...)."""
    return re.sub(r"[^A-Za-z0-9]", "_", sysconfig.get_platform())


def _record_hash(data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"sha256={digest}"


def get_requires_for_build_wheel(config_settings: Optional[Mapping[str, Any]] = None) -> list[str]:
    return []


def get_requires_for_build_sdist(config_settings: Optional[Mapping[str, Any]] = None) -> list[str]:
    return []


def build_wheel(wheel_directory: str, config_settings: Optional[Mapping[str, Any]] = None,
                metadata_directory: Optional[str] = None) -> str:
    """Writes the wheel into wheel_directory; returns its file name."""
    ver = version()
    library = find_library()
    tag = f"py3-none-{platform_tag()}" if library else "py3-none-any"
    dist_info = f"{NAME}-{ver}.dist-info"
    files: list[tuple[str, bytes, int]] = [(rel, _read(rel), 0o644) for rel in package_files()]
    if library is not None:
        with open(library, "rb") as f:
            files.append((f"{PACKAGE}/{LIBRARY}", f.read(), 0o755))
        print(f"smithycurl: including {library}", file=sys.stderr)
    else:
        print(f"smithycurl: no {LIBRARY} found ($SMITHYCURL_LIBRARY, ../../build/): a pure wheel that loads "
              "the library from $SMITHYCURL_LIBRARY or the system's paths at run time", file=sys.stderr)
    wheel_meta = (
        "Wheel-Version: 1.0\n"
        "Generator: smithycurl build_backend\n"
        f"Root-Is-Purelib: {'false' if library else 'true'}\n"
        f"Tag: {tag}\n"
    )
    files.append((f"{dist_info}/METADATA", metadata().encode("utf-8"), 0o644))
    files.append((f"{dist_info}/WHEEL", wheel_meta.encode("utf-8"), 0o644))
    record = io.StringIO()
    for name, data, _ in files:
        record.write(f"{name},{_record_hash(data)},{len(data)}\n")
    record.write(f"{dist_info}/RECORD,,\n")
    files.append((f"{dist_info}/RECORD", record.getvalue().encode("utf-8"), 0o644))

    filename = f"{NAME}-{ver}-{tag}.whl"
    stamp = time.gmtime(_epoch())[:6]
    path = os.path.join(wheel_directory, filename)
    tmp = path + ".part"
    with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=stamp)
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    return filename


def build_sdist(sdist_directory: str, config_settings: Optional[Mapping[str, Any]] = None) -> str:
    """Writes the sdist (.tar.gz) into sdist_directory; returns its file name."""
    base = f"{NAME}-{version()}"
    filename = f"{base}.tar.gz"
    entries = [(rel, _read(rel)) for rel in sorted((*SDIST_FILES, *package_files()))]
    entries.append(("PKG-INFO", metadata().encode("utf-8")))
    path = os.path.join(sdist_directory, filename)
    tmp = path + ".part"
    mtime = _epoch()
    with open(tmp, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb", mtime=mtime, filename="") as gz:
        with tarfile.open(fileobj=cast(IO[bytes], gz), mode="w", format=tarfile.PAX_FORMAT) as tar:
            for rel, data in entries:
                info = tarfile.TarInfo(f"{base}/{rel}")
                info.size, info.mtime, info.mode = len(data), mtime, 0o644
                info.uname = info.gname = ""
                tar.addfile(info, io.BytesIO(data))
    os.replace(tmp, path)
    return filename
