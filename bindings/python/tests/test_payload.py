"""Blob payloads as bytes (smithycurl_call_payload): a blob payload,
@streaming or not, given as bytes, bytearray, memoryview or str goes to
the library as a buffer, and the output's comes back as bytes, never
through base64 (base64 is made to fail here), from the synchronous and the
asynchronous client, dynamic and generated, against the testserver's blob
service (PutBlob checks the pattern, byte i being i % 251: no valid UTF-8;
GetBlob sends it) and the extras service's Echo (a blob payload in and out
that is not @streaming, as Lambda Invoke's Payload)."""

from __future__ import annotations

import array
import asyncio
import base64
import importlib
import os
import subprocess
import sys
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import PKG, REPO, Servers

BLOBS_MODEL = os.path.join(REPO, "testing", "servers", "blobserver", "blobs.smithy")
EXTRAS_MODEL = os.path.join(REPO, "testing", "servers", "extraserver", "extras.smithy")
#: No valid UTF-8 (a lone continuation byte, 0xff, a cut sequence), a NUL.
ODD = b"\xff\x00\xfe\x80x\xc3(\x01" * 3
MIB = 1 << 20
DATA = bytes(i % 251 for i in range(251)) * (MIB // 251) + bytes(i % 251 for i in range(MIB % 251))


@pytest.fixture(scope="module")
def blobs(servers: Servers) -> Iterator[smithycurl.Client]:
    with smithycurl.load_model(BLOBS_MODEL).client(endpoint=servers.blobs, timeout=60) as c:
        yield c


@pytest.fixture
def no_base64(monkeypatch: pytest.MonkeyPatch) -> None:
    """A blob that went through base64 text (the document form) fails."""
    def refuse(*_: Any, **__: Any) -> Any:
        raise AssertionError("a payload went through base64")
    for name in ("b64encode", "b64decode", "standard_b64encode", "standard_b64decode"):
        monkeypatch.setattr(base64, name, refuse)


def test_round_trip_bytes(blobs: smithycurl.Client, no_base64: None) -> None:
    assert DATA[:300] == bytes(i % 251 for i in range(300)) and len(DATA) == MIB
    out = blobs.put_blob(key="py-bytes", body=DATA)
    assert (out.size, out.intact, out.attempt) == (MIB, True, 1)
    got = blobs.get_blob(size=MIB)
    assert type(got.body) is bytes and got.body == DATA and got.content_length == MIB


def test_every_buffer(blobs: smithycurl.Client, no_base64: None) -> None:
    # A bytearray and a writable view are read in place; read-only views
    # and str are sent as they are too.
    ba = bytearray(DATA)
    for body in (ba, memoryview(ba), memoryview(DATA), memoryview(DATA)[:1000], memoryview(ba)[:0], b"", DATA[:5]):
        out = blobs.put_blob(key="py-buf", body=body)
        assert (out.size, out.intact) == (len(body), True), type(body)
    view = memoryview(ba)
    view[0] = 7  # not the pattern any more: the bytes sent are the caller's
    assert not blobs.put_blob({"key": "py-dict", "body": ba}).intact
    assert blobs.put_blob(key="py-str", body="\x00\x01\x02").intact  # its UTF-8 bytes
    # What is not bytes-like stays in the input, whose encoder refuses it.
    with pytest.raises(smithycurl.InputTypeError, match="member body: expected bytes"):
        blobs.put_blob(key="a", body=array.array("B", b"xy"))


def test_empty_output_payload(blobs: smithycurl.Client) -> None:
    # (An empty response body never reaches the writer: the output JSON
    # has it as "", whose base64 is nothing.)
    assert blobs.get_blob(size=0).body == b""


def test_retried_payload(blobs: smithycurl.Client, no_base64: None) -> None:
    out = blobs.put_blob(key="py-retry", fail_first=2, body=DATA)
    assert (out.attempt, out.intact, out.size) == (3, True, MIB)


def test_async_round_trip(servers: Servers, no_base64: None) -> None:
    async def main() -> None:
        async with smithycurl.load_model(BLOBS_MODEL).async_client(endpoint=servers.blobs, timeout=60) as c:
            ba = bytearray(DATA)
            outs = await asyncio.gather(c.put_blob(key="py-a1", body=DATA), c.put_blob(key="py-a2", body=ba))
            assert [(o.size, o.intact) for o in outs] == [(MIB, True), (MIB, True)]
            got = await c.get_blob(size=MIB)
            assert got.body == DATA
            # A cancelled call keeps its buffer alive until it completes.
            task = asyncio.ensure_future(c.put_blob(key="py-a3", body=bytearray(DATA)))
            await asyncio.sleep(0)
            task.cancel()
            with pytest.raises((asyncio.CancelledError, smithycurl.CancelledError)):
                await task
    asyncio.run(main())


def test_non_streaming_payload(servers: Servers, no_base64: None) -> None:
    with smithycurl.load_model(EXTRAS_MODEL).client(endpoint=servers.extras, timeout=20) as c:
        out = c.echo(name="n", body=ODD)
        assert (type(out.body), out.body, out.name) == (bytes, ODD, "n")
        assert c.echo({"name": "d", "body": bytearray(ODD)}).body == ODD
        assert c.echo(name="v", body=memoryview(ODD)[1:4]).body == ODD[1:4]
        assert c.echo(name="e", body=b"").body == b""

    async def main() -> None:
        async with smithycurl.load_model(EXTRAS_MODEL).async_client(endpoint=servers.extras, timeout=20) as a:
            got = await a.echo(name="a", body=bytearray(ODD))
            assert (type(got.body), got.body, got.name) == (bytes, ODD, "a")
    asyncio.run(main())


def test_generated_non_streaming_payload(servers: Servers, tmp_path: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", EXTRAS_MODEL, "--async", "-o",
                    str(tmp_path / "payload_extras_api")], check=True, capture_output=True,
                   env=dict(os.environ, PYTHONPATH=PKG), timeout=120)
    monkeypatch.syspath_prepend(str(tmp_path))
    api: Any = importlib.import_module("payload_extras_api")
    for name in ("b64encode", "b64decode", "standard_b64encode", "standard_b64decode"):
        monkeypatch.setattr(base64, name, lambda *_, **__: pytest.fail("a payload went through base64"))
    with api.ExtrasClient(servers.extras, timeout=20) as c:
        out = c.echo(name="g", body=ODD)
        assert (type(out.body), out.body, out.name) == (bytes, ODD, "g")

    async def main() -> None:
        async with api.ExtrasAsyncClient(servers.extras, timeout=20) as a:
            got = await a.echo(name="ga", body=ODD)
            assert (type(got.body), got.body) == (bytes, ODD)
    asyncio.run(main())
