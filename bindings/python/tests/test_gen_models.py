"""python -m smithycurl gen over the generators' test models
(codegen/testdata/gen) and AWS models: what each generated package holds
(timestamp defaults, members named after builtins, classes whose
annotations resolve at run time, plain text docstrings, IDL 1.0 enums), and
mypy --strict on all of them."""

from __future__ import annotations

import datetime
import enum
import http.server
import importlib
import inspect
import json
import os
import subprocess
import sys
import threading
import types
import typing
from collections.abc import Iterator

import pytest

from conftest import PKG, REPO, mypy_or_skip, shared_path

import smithycurl

GEN_MODELS = os.path.join(REPO, "codegen", "testdata", "gen")
# Package name -> the model paths it is generated from.
PACKAGES = {
    "gen_defaults": [os.path.join(GEN_MODELS, "defaults.smithy")],
    "gen_enums1": [os.path.join(GEN_MODELS, "enums1.smithy")],
}
AWS = {"gen_identitystore": "identitystore.json"}  # HTML docs, @enum strings, builtin-named members


@pytest.fixture(scope="module")
def packages(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("genmodels"))
    env = dict(os.environ, PYTHONPATH=PKG)
    models = dict(PACKAGES, **{name: [shared_path("models", "aws", f)] for name, f in AWS.items()})
    for name, paths in models.items():
        subprocess.run([sys.executable, "-m", "smithycurl", "gen", *paths, "-o", os.path.join(out, name)],
                       check=True, env=env)
    if out not in sys.path:
        sys.path.insert(0, out)
    return out


def _mod(packages: str, name: str) -> types.ModuleType:
    return importlib.import_module(name)


def _classes(mod: types.ModuleType) -> list[type]:
    return [c for c in vars(mod).values() if inspect.isclass(c) and c.__module__ == mod.__name__]


def test_timestamp_defaults(packages: str) -> None:
    """Every form of a timestamp @default (an http-date one once made the
    package fail to import) gives the model's instant."""
    note = _mod(packages, "gen_defaults").Note()
    utc = datetime.timezone.utc
    assert note.http_date == datetime.datetime(2024, 5, 23, 10, 20, 30, tzinfo=utc)
    assert note.header_date == datetime.datetime(2024, 5, 23, 10, 20, 31, tzinfo=utc)
    assert note.iso == datetime.datetime(2024, 5, 23, 10, 20, 32, 500000, tzinfo=utc)
    assert note.epoch == datetime.datetime(2024, 5, 23, 10, 20, 33, tzinfo=utc)
    assert note.epoch_fraction == datetime.datetime(2024, 5, 23, 10, 20, 34, 250000, tzinfo=utc)


def test_type_hints_resolve(packages: str) -> None:
    """typing.get_type_hints() works on every generated class (cattrs,
    pydantic and typeguard call it): every name an annotation uses exists
    at run time, in the generated module and in smithycurl's bases."""
    checked = 0
    for name in list(PACKAGES) + list(AWS):
        for cls in _classes(_mod(packages, name)):
            typing.get_type_hints(cls)
            checked += 1
    assert checked > 50


def test_members_named_after_builtins(packages: str) -> None:
    """Members named list, str, typing, ... keep their names, and the
    annotations beside them still mean the builtins and modules."""
    mod = _mod(packages, "gen_defaults")
    note = mod.Note(list=["a"], str="s", int=1, typing="t", datetime=datetime.datetime(2024, 1, 1), dict={"k": 1})
    assert note.list == ["a"] and note.typing == "t"
    hints = typing.get_type_hints(mod.Note)
    assert hints["list"] == typing.Optional[list[str]]
    assert hints["dict"] == typing.Optional[dict[str, int]]
    assert hints["typing"] == typing.Optional[str]
    assert hints["http_date"] is datetime.datetime


def test_docstrings_are_plain_text(packages: str) -> None:
    """AWS models' HTML documentation becomes plain text, as the C and Go
    generators write it (the library converts it, one conversion)."""
    for name in ["gen_defaults", *AWS]:
        mod = _mod(packages, name)
        docs = [mod.__doc__ or ""]
        for cls in _classes(mod):
            docs.append(cls.__doc__ or "")
            docs += [f.__doc__ or "" for f in vars(cls).values() if inspect.isfunction(f)]
        for d in docs:
            assert "<p>" not in d and "</" not in d and "&amp;" not in d, d[:200]
    mod = _mod(packages, "gen_defaults")
    assert mod.Note.__doc__ == "A note; see the docs."
    assert "Keeps notes & their dates.\n\n    A second paragraph." in mod.DefaultsClient.__doc__


class _Paint(http.server.BaseHTTPRequestHandler):
    """Answers Paint with colours the model does not list beside one it does."""

    def do_POST(self) -> None:
        self.rfile.read(int(self.headers.get("Content-Length") or 0))
        body = json.dumps({"color": "purple", "colors": ["red", "ultraviolet"], "byColor": {"red": "infrared"},
                           "unnamed": "t2.micro"}).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def paint_url() -> Iterator[str]:
    srv = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Paint)
    t = threading.Thread(target=srv.serve_forever, daemon=True)
    t.start()
    try:
        yield f"http://127.0.0.1:{srv.server_address[1]}"
    finally:
        srv.shutdown()
        srv.server_close()


def test_idl1_enums(packages: str, paint_url: str) -> None:
    """IDL 1.0 @enum strings are Enums as IDL 2.0 enums are (names from the
    model, or from the value when it has none), and keep the values the
    model does not list, in generated and in run-time clients."""
    mod = _mod(packages, "gen_enums1")
    assert issubclass(mod.Color, smithycurl.StrEnum) and issubclass(mod.Color, enum.Enum)
    assert [(m.name, m.value) for m in mod.Color] == [("RED", "red"), ("DARK_GREEN", "dark-green"), ("BLUE", "blue")]
    assert mod.Unnamed.T2_MICRO.value == "t2.micro" and mod.Unnamed.M5_LARGE == "m5.large"
    assert typing.get_type_hints(mod.PaintInput)["color"] is mod.Color
    with mod.Enums1Client(paint_url, timeout=10) as client:
        out = client.paint(color=mod.Color.DARK_GREEN, colors=[mod.Color.RED, "new"])
    assert isinstance(out.color, mod.Color) and not out.color.known and out.color.value == "purple"
    assert out.colors == [mod.Color.RED, "ultraviolet"] and not out.colors[1].known
    assert out.by_color == {"red": "infrared"} and not out.by_color["red"].known
    assert out.unnamed is mod.Unnamed.T2_MICRO
    # The run-time client makes the same Enums.
    model = smithycurl.load_model(PACKAGES["gen_enums1"][0])
    with model.client(endpoint=paint_url, timeout=10) as dyn:
        got = dyn.call("Paint", {"color": "red"})
    color = got["color"] if isinstance(got, dict) else got.color
    assert isinstance(color, smithycurl.StrEnum) and color.value == "purple" and not color.known


def test_packages_pass_mypy_strict(packages: str, mypy_strict: list[str]) -> None:
    mypy = mypy_or_skip()
    env = dict(os.environ, MYPYPATH=os.pathsep.join([packages, PKG]))
    args = [a for name in list(PACKAGES) + list(AWS) for a in ("-p", name)]
    r = subprocess.run([mypy, *mypy_strict, *args], capture_output=True, text=True, env=env,
                       cwd=packages, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


KEYWORD_ENUMS = """$version: "2"
namespace kw
@aws.protocols#awsJson1_1
service Kw { operations: [Put] }
operation Put { input := {
    flag: Flag = "True"
    serde: Serde
    agg: Agg
} }
enum Agg { count, title, name, avg }
enum Flag { True, False }
enum Serde {
    None = "None"
    class = "class"
    OpenCSV = "OpenCSVSerDe"
}
"""


def test_enum_members_named_after_keywords(tmp_path: str, mypy_strict: list[str]) -> None:
    """Enum members named True, False, None or class (Glue's
    AllowFullTableExternalDataAccessEnum, CsvSerdeOption), or after an
    attribute of str or Enum (Glue's AggFunction count) get a trailing
    underscore: the generated package imports (it was a SyntaxError,
    found by make reach) and passes mypy --strict (count hid str.count),
    and the library's own classes use the same names."""
    src = os.path.join(str(tmp_path), "kw.smithy")
    with open(src, "w", encoding="utf-8") as f:
        f.write(KEYWORD_ENUMS)
    with smithycurl.load_model(src).client(endpoint="http://127.0.0.1:9") as client:
        assert [m.name for m in client.types["kw#Serde"]] == ["None_", "class_", "OpenCSV"]
    out = str(tmp_path)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", src, "-o", os.path.join(out, "gen_keywords")],
                   check=True, env=dict(os.environ, PYTHONPATH=PKG))
    if out not in sys.path:
        sys.path.insert(0, out)
    mod = importlib.import_module("gen_keywords")
    assert mod.Flag.True_.value == "True" and mod.Flag.False_.value == "False"
    assert mod.Serde.None_.value == "None" and mod.Serde.class_.value == "class"
    assert mod.PutInput().flag is mod.Flag.True_
    assert [m.name for m in mod.Agg] == ["count_", "title_", "name_", "avg"] and mod.Agg.count_.value == "count"
    mypy = mypy_or_skip()
    r = subprocess.run([mypy, *mypy_strict, "-p", "gen_keywords"], capture_output=True, text=True,
                       env=dict(os.environ, MYPYPATH=os.pathsep.join([out, PKG])), cwd=out, timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
