#!/usr/bin/env python3
"""make reach's Python stage (testing/reach): for each model file given,
generate its typed package with the package's generator (smithycurl.gen, as
`python3 -m smithycurl gen` does) into OUT/NAME and import it; with --mypy N,
run mypy --strict on the first N packages generated. Prints one JSON line
per model: {"model": NAME, "status": "passed" | "failed" | "skipped",
"detail": why}."""

from __future__ import annotations

import argparse
import importlib
import json
import os
import shutil
import subprocess
import sys
import traceback

import smithycurl
from smithycurl.gen import generate


def package_name(model_file: str) -> str:
    """A Python package name of a model file's name (aws_ + its letters,
    digits and underscores)."""
    base = os.path.basename(model_file).removesuffix(".json")
    return "aws_" + "".join(c if c.isalnum() else "_" for c in base.lower())


def one(path: str, out: str) -> tuple[str, str, str]:
    """Generates and imports the package of one model file: (status,
    detail, package folder)."""
    name = package_name(path)
    pkg_dir = os.path.join(out, name)
    try:
        model = smithycurl.load_model(path)
        generate(model, None, pkg_dir)
        module = importlib.import_module(name)
        clients = [n for n in dir(module) if n.endswith("Client")]
        if not clients:
            return "failed", "the package defines no client class", pkg_dir
        del sys.modules[name]
    except Exception as e:  # noqa: BLE001 - every failure is the model's case
        tb = traceback.format_exc().strip().splitlines()
        return "failed", f"{type(e).__name__}: {e} ({' | '.join(tb[-4:])})"[:1500], pkg_dir
    return "passed", "", pkg_dir


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--mypy", type=int, default=0)
    ap.add_argument("models", nargs="+")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    sys.path.insert(0, args.out)
    typed: list[tuple[str, str]] = []
    for path in args.models:
        model = os.path.basename(path).removesuffix(".json")
        status, detail, pkg_dir = one(path, args.out)
        if status == "passed" and len(typed) < args.mypy:
            typed.append((model, pkg_dir))
        else:
            if status == "passed":
                shutil.rmtree(pkg_dir, ignore_errors=True)
            print(json.dumps({"model": model, "status": status, "detail": detail}), flush=True)
    for model, pkg_dir in typed:
        status, detail = mypy(pkg_dir)
        print(json.dumps({"model": model, "status": status, "detail": detail}), flush=True)
    return 0


def mypy(pkg_dir: str) -> tuple[str, str]:
    """mypy --strict on one generated package (with the smithycurl package
    on its path)."""
    env = dict(os.environ, MYPYPATH=os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", pkg_dir],
                       capture_output=True, text=True, env=env, cwd=os.path.dirname(pkg_dir))
    if r.returncode != 0:
        if "No module named mypy" in r.stderr:
            return "failed", f"--mypy asked, and {sys.executable} has no mypy (Debian: apt-get install mypy)"
        return "failed", "mypy --strict: " + " | ".join(r.stdout.strip().splitlines()[-6:])
    return "passed", ""


if __name__ == "__main__":
    sys.exit(main())
