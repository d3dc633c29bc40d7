"""pip install ./bindings/python works offline and installs the library with
the package (Debian's python3-venv, python3-pip, python3-setuptools and
python3-wheel; required in CI)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import HTTPBIN_MODEL, PKG, Servers


def test_pip_install_offline(tmp_path: "os.PathLike[str]", servers: Servers) -> None:
    venv = os.path.join(tmp_path, "venv")
    r = subprocess.run([sys.executable, "-m", "venv", "--system-site-packages", venv], capture_output=True, text=True)
    if r.returncode != 0:
        if os.environ.get("CI"):
            pytest.fail(f"python3 -m venv failed: {r.stderr}")
        pytest.skip(f"no venv: {r.stderr.strip()}")
    py = os.path.join(venv, "bin", "python")
    src = os.path.join(tmp_path, "src")  # a copy: the build writes into its source folder
    shutil.copytree(PKG, src, ignore=shutil.ignore_patterns("tests", "build", "*.egg-info", "__pycache__", "*.so"))
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH",)}
    env["PIP_NO_INPUT"] = "1"
    r = subprocess.run([py, "-m", "pip", "install", "--no-build-isolation", "--no-index", "--quiet", src],
                       capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
    env.pop("SMITHYCURL_LIBRARY", None)  # the installed package has its own copy
    code = (
        "import sys, smithycurl\n"
        "print(smithycurl.library_path())\n"
        "c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])\n"
        "print(c.get_ip().origin)\n"
    )
    r = subprocess.run([py, "-c", code, servers.httpbin, HTTPBIN_MODEL], capture_output=True, text=True,
                       env=env, cwd=str(tmp_path), timeout=60)
    assert r.returncode == 0, r.stderr
    path, origin = r.stdout.split()
    assert path.startswith(venv) and path.endswith("smithycurl/libsmithycurl.so") and origin == "127.0.0.1"
