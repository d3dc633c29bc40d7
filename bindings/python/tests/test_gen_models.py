"""python -m smithycurl gen over the generators' test models
(codegen/testdata/gen) and AWS models: what each generated package holds
(timestamp defaults, classes whose annotations resolve at run time, plain
text docstrings, IDL 1.0 enums), and mypy --strict on all of them."""

from __future__ import annotations

import datetime
import importlib
import os
import subprocess
import sys
import types

import pytest

from conftest import PKG, REPO

GEN_MODELS = os.path.join(REPO, "codegen", "testdata", "gen")


def _gen(out: str, name: str, *paths: str) -> None:
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", *paths, "-o", os.path.join(out, name)],
                   check=True, env=env)


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("genmodels"))
    _gen(out, "gen_defaults", os.path.join(GEN_MODELS, "defaults.smithy"))
    return out


def _import(packages: str, name: str) -> types.ModuleType:
    if packages not in sys.path:
        sys.path.insert(0, packages)
    return importlib.import_module(name)


def test_timestamp_defaults(packages: str) -> None:
    """Every form of a timestamp @default (an http-date one once made the
    package fail to import) gives the model's instant."""
    mod = _import(packages, "gen_defaults")
    note = mod.Note()
    utc = datetime.timezone.utc
    assert note.http_date == datetime.datetime(2024, 5, 23, 10, 20, 30, tzinfo=utc)
    assert note.header_date == datetime.datetime(2024, 5, 23, 10, 20, 31, tzinfo=utc)
    assert note.iso == datetime.datetime(2024, 5, 23, 10, 20, 32, 500000, tzinfo=utc)
    assert note.epoch == datetime.datetime(2024, 5, 23, 10, 20, 33, tzinfo=utc)
    assert note.epoch_fraction == datetime.datetime(2024, 5, 23, 10, 20, 34, 250000, tzinfo=utc)
