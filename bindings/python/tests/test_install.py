"""``python3 -m pip install ./bindings/python`` works offline in a fresh venv
without setuptools or wheel (the package's own PEP 517 backend,
build_backend.py, standard library only), installs the library with the
package, and the wheel and sdist it builds are valid.

The venv test runs with this interpreter, and also with each one listed in
$SMITHYCURL_TEST_PYTHONS (paths separated by ":"; e.g. Python 3.10 and 3.13
builds from pyenv or python.org)."""

from __future__ import annotations

import base64
import email.parser
import hashlib
import os
import shutil
import subprocess
import sys
import tarfile
import zipfile

import pytest

from conftest import HTTPBIN_MODEL, PKG, Servers

PYTHONS = [sys.executable] + [p for p in os.environ.get("SMITHYCURL_TEST_PYTHONS", "").split(":") if p]

CALL = (
    "import sys, smithycurl\n"
    "print(smithycurl.library_path())\n"
    "c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])\n"
    "print(c.get_ip().origin)\n"
)


def source_files() -> set[str]:
    out = set()
    for root, dirs, files in os.walk(PKG):
        dirs[:] = [d for d in dirs if d not in ("__pycache__", ".pytest_cache", ".mypy_cache")]
        out.update(os.path.relpath(os.path.join(root, f), PKG) for f in files)
    return out


def clean_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PIP_FIND_LINKS", "PIP_INDEX_URL")}
    env["PIP_NO_INPUT"] = "1"
    env["PIP_DISABLE_PIP_VERSION_CHECK"] = "1"
    return env


def run(args: list[str], env: dict[str, str], cwd: str | None = None, timeout: float = 180) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, capture_output=True, text=True, env=env, cwd=cwd, timeout=timeout)


@pytest.mark.parametrize("python", PYTHONS)
def test_pip_install_offline_without_setuptools(tmp_path: "os.PathLike[str]", servers: Servers, python: str) -> None:
    venv = os.path.join(tmp_path, "venv")
    r = run([python, "-m", "venv", venv], clean_env())
    if r.returncode != 0:
        if os.environ.get("CI") or python != sys.executable:
            pytest.fail(f"{python} -m venv failed: {r.stderr}")
        pytest.skip(f"no venv: {r.stderr.strip()}")
    py = os.path.join(venv, "bin", "python")
    env = clean_env()
    r = run([py, "-m", "pip", "uninstall", "-y", "setuptools", "wheel"], env)
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([py, "-c", "import importlib.util as u; print(u.find_spec('setuptools'), u.find_spec('wheel'))"], env)
    assert r.stdout.split() == ["None", "None"], r.stdout + r.stderr

    before = source_files()
    r = run([py, "-m", "pip", "install", "--no-index", PKG], env)  # the README's line, offline
    assert r.returncode == 0, r.stdout + r.stderr
    assert source_files() == before, "the build wrote into the source folder"

    env.pop("SMITHYCURL_LIBRARY", None)  # the installed package has its own copy
    r = run([py, "-c", CALL, servers.httpbin, HTTPBIN_MODEL], env, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stderr
    path, origin = r.stdout.split()
    assert path.startswith(venv) and path.endswith("smithycurl/libsmithycurl.so") and origin == "127.0.0.1"

    # From the sdist too (its backend finds the library through $SMITHYCURL_LIBRARY).
    dist = os.path.join(tmp_path, "dist")
    os.mkdir(dist)
    r = run([py, "-c", f"import build_backend; print(build_backend.build_sdist({dist!r}))"], clean_env(), cwd=PKG)
    assert r.returncode == 0, r.stderr
    sdist = os.path.join(dist, r.stdout.split()[-1])
    r = run([py, "-m", "pip", "install", "--no-index", "--force-reinstall", sdist], clean_env())
    assert r.returncode == 0, r.stdout + r.stderr
    r = run([py, "-c", CALL, servers.httpbin, HTTPBIN_MODEL], env, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0 and r.stdout.split()[1] == "127.0.0.1", r.stderr


def build(kind: str, src: str, out: str, env: dict[str, str]) -> str:
    r = run([sys.executable, "-c", f"import build_backend; print(build_backend.build_{kind}({out!r}))"], env, cwd=src)
    assert r.returncode == 0, r.stderr
    return os.path.join(out, r.stdout.split()[-1])


def check_wheel(path: str) -> tuple[str, dict[str, bytes]]:
    """Checks RECORD against every file of the wheel; returns its tag and files."""
    with zipfile.ZipFile(path) as z:
        files = {i.filename: z.read(i) for i in z.infolist()}
        modes = {i.filename: i.external_attr >> 16 for i in z.infolist()}
    dist_info = "smithycurl-0.1.0.dist-info"
    record = files[f"{dist_info}/RECORD"].decode().splitlines()
    listed = {}
    for line in record:
        name, digest, size = line.rsplit(",", 2)
        listed[name] = (digest, size)
    assert set(listed) == set(files)
    for name, data in files.items():
        digest, size = listed[name]
        if name == f"{dist_info}/RECORD":
            assert (digest, size) == ("", "")
            continue
        want = "sha256=" + base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
        assert (digest, size) == (want, str(len(data))), name
    meta = email.parser.Parser().parsestr(files[f"{dist_info}/METADATA"].decode())
    assert (meta["Metadata-Version"], meta["Name"], meta["Version"], meta["Requires-Python"]) == ("2.1", "smithycurl", "0.1.0", ">=3.10")
    assert "smithycurl for Python" in (meta.get_payload() or "")
    wheel = email.parser.Parser().parsestr(files[f"{dist_info}/WHEEL"].decode())
    assert wheel["Wheel-Version"] == "1.0"
    tag = wheel["Tag"]
    assert os.path.basename(path) == f"smithycurl-0.1.0-{tag}.whl"
    assert wheel["Root-Is-Purelib"] == ("true" if tag == "py3-none-any" else "false")
    assert "smithycurl/py.typed" in files and "smithycurl/__init__.py" in files and "smithycurl/_codec.py" in files
    if "smithycurl/libsmithycurl.so" in files:
        assert modes["smithycurl/libsmithycurl.so"] & 0o777 == 0o755
    return tag, files


def test_wheel_and_sdist_are_valid(tmp_path: "os.PathLike[str]") -> None:
    import sysconfig

    out = os.path.join(tmp_path, "out")
    os.mkdir(out)
    lib = os.environ["SMITHYCURL_LIBRARY"]
    # With the library: platform-specific, the library inside.
    tag, files = check_wheel(build("wheel", PKG, out, clean_env()))
    assert tag == "py3-none-" + sysconfig.get_platform().replace("-", "_").replace(".", "_")
    with open(lib, "rb") as f:
        assert files["smithycurl/libsmithycurl.so"] == f.read()
    # Without one (a copy of the sources elsewhere, no $SMITHYCURL_LIBRARY): a pure wheel.
    src = os.path.join(tmp_path, "a", "b", "src")
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("tests", "__pycache__", "*.so"))
    env = clean_env()
    env.pop("SMITHYCURL_LIBRARY")
    pure = os.path.join(tmp_path, "pure")
    os.mkdir(pure)
    tag, files = check_wheel(build("wheel", src, pure, env))
    assert tag == "py3-none-any" and "smithycurl/libsmithycurl.so" not in files
    # A $SMITHYCURL_LIBRARY that does not exist is an error, not a wheel without it.
    env["SMITHYCURL_LIBRARY"] = os.path.join(tmp_path, "missing.so")
    r = run([sys.executable, "-c", f"import build_backend; build_backend.build_wheel({pure!r})"], env, cwd=src)
    assert r.returncode != 0 and "missing.so: no such library" in r.stderr
    # The sdist: the sources, the backend and PKG-INFO, never the library.
    with tarfile.open(build("sdist", PKG, out, clean_env())) as t:
        names = set(t.getnames())
    assert {"smithycurl-0.1.0/pyproject.toml", "smithycurl-0.1.0/build_backend.py", "smithycurl-0.1.0/PKG-INFO",
            "smithycurl-0.1.0/README.md", "smithycurl-0.1.0/smithycurl/py.typed",
            "smithycurl-0.1.0/smithycurl/__init__.py"} <= names
    assert not any(n.endswith(".so") or "/tests/" in n for n in names)
    # Reproducible: the same bytes twice.
    again = os.path.join(tmp_path, "again")
    os.mkdir(again)
    with open(build("wheel", PKG, out, clean_env()), "rb") as f1, open(build("wheel", PKG, again, clean_env()), "rb") as f2:
        assert f1.read() == f2.read()
