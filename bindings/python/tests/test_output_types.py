"""An output value its type cannot hold (Count: 1.5 or 2147483648 in an
Integer, 1e400 in a Double) is a DecodeError naming the member path, the
value and the type's range, from the dynamic client and from a generated
one: before, Python returned 1.5 and inf in int fields. A canned server on
127.0.0.1 sends the bad body."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import REPO, CannedServer
from smithycurl.gen import generate

MODEL = os.path.join(REPO, "client", "typed", "testdata", "numbers.smithy")  # shared with the Go test

CASES = [
    (b'{"Count": 1.5, "ScannedCount": 2}',
     "member ScanOutput.Count: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"),
    (b'{"Count": 1, "ScannedCount": 2147483648}',
     "member ScanOutput.ScannedCount: 2147483648 is out of range (integer: -2147483648 to 2147483647)"),
    (b'{"Ratio": 1e400}', "member ScanOutput.Ratio: 1e400 is out of range (double: ±1.7976931348623157e308)"),
]


@pytest.fixture()
def model() -> smithycurl.Model:
    return smithycurl.load_model(MODEL)


@pytest.mark.parametrize("body,want", CASES)
def test_dynamic_client(model: smithycurl.Model, canned: CannedServer, body: bytes, want: str) -> None:
    canned.respond(200, body, content_type="application/x-amz-json-1.0")
    with model.client(endpoint=canned.url, timeout=30) as c:
        with pytest.raises(smithycurl.DecodeError) as e:
            c.call("Scan")
    assert want in str(e.value), str(e.value)
    assert str(e.value).startswith("response of Scan (HTTP 200): "), str(e.value)


@pytest.fixture()
def generated(model: smithycurl.Model, tmp_path: Any) -> Iterator[Any]:
    generate(model, None, str(tmp_path / "numbers_api"))
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module("numbers_api")
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("numbers_api", None)


@pytest.mark.parametrize("body,want", CASES)
def test_generated_client(generated: Any, canned: CannedServer, body: bytes, want: str) -> None:
    canned.respond(200, body, content_type="application/x-amz-json-1.0")
    with generated.TablesClient(canned.url, timeout=30) as c:
        with pytest.raises(smithycurl.DecodeError) as e:
            c.scan()
    assert want in str(e.value), str(e.value)
    # Good values still come back as the types the fields declare.
    canned.respond(200, b'{"Count": 2147483647, "ScannedCount": -2147483648, "Ratio": "-Infinity"}')
    with generated.TablesClient(canned.url, timeout=30) as c:
        out = c.scan()
    assert (out.count, out.scanned_count, out.ratio) == (2147483647, -2147483648, float("-inf"))
