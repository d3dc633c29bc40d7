"""The loaded library declares each ctypes function on its first use, and a
function the library lacks is an error naming it when it is used."""

from __future__ import annotations

import ctypes
import json
import subprocess
import sys

import pytest

import smithycurl
from conftest import HTTPBIN_MODEL, PKG
from smithycurl import _lib

# A fresh process: loads the library, then a model and a client, and says
# which of the table's functions were declared after each.
DECLARED = """
import ctypes, json, sys
sys.path.insert(0, {pkg!r})
import smithycurl
from smithycurl import _lib
def declared(lib):
    return sorted(n for n in _lib._FUNCTIONS if isinstance(vars(lib).get(n), ctypes._CFuncPtr))
lib = _lib.load()
at_load = declared(lib)
smithycurl.load_model({model!r}).client(endpoint="http://127.0.0.1:9").close()
print(json.dumps({{"load": at_load, "client": declared(lib)}}))
"""


def test_declared_on_first_use() -> None:
    out = subprocess.run([sys.executable, "-B", "-c", DECLARED.format(pkg=PKG, model=HTTPBIN_MODEL)],
                         check=True, capture_output=True, text=True, timeout=120).stdout
    got = json.loads(out)
    assert got["load"] == [], f"declared when the library loaded: {got['load']}"
    assert {"loader_new", "loader_load", "client_new", "client_free"} <= set(got["client"]), got["client"]
    assert len(got["client"]) < len(_lib._FUNCTIONS) // 2, f"a model and a client declared {got['client']}"


def test_declared_once_as_the_table_says() -> None:
    lib = _lib.load()
    f = lib.result_output
    restype, argtypes, checked = _lib._FUNCTIONS["result_output"]
    assert f is lib.result_output and vars(lib)["result_output"] is f
    assert f.restype is restype and list(f.argtypes) == list(argtypes) and (f.errcheck is not None) == checked
    assert lib.has("result_output") and not lib.has("no_such_function")
    with pytest.raises(AttributeError, match="smithycurl_no_such_function"):
        getattr(lib, "no_such_function")


def test_missing_function_named_when_used() -> None:
    other = _lib.Library(ctypes.CDLL(None), "libc")  # a library without smithycurl's symbols
    assert not other.has("call") and not other.has("mock_start")
    with pytest.raises(smithycurl.LibraryError, match="libc has no smithycurl_call: not a library this package"):
        getattr(other, "call")
    with pytest.raises(smithycurl.LibraryError, match="libc has no smithycurl_mock_start: the library is older"):
        getattr(other, "mock_start")
