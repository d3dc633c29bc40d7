"""Both RPC v2 protocols end to end: the key-value store of
testing/servers/kvserver (build/testserver), as rpcv2Cbor (KVCbor) and rpcv2Json
(KVJson): every operation, exact values of every kind back, each modeled
error as its class, a retried server error, an input error not sent, and a
transport error."""

from __future__ import annotations

import datetime
import decimal
import os
import socket

import pytest

import smithycurl
from conftest import REPO, Servers

KV_MODEL = os.path.join(REPO, "testing", "servers", "kvserver", "kv.smithy")


@pytest.mark.parametrize("service", ["KVCbor", "KVJson"])
def test_every_operation(servers: Servers, service: str) -> None:
    m = smithycurl.load_model(KV_MODEL)
    with m.client(f"smithycurl.kv#{service}", endpoint=servers.kv, timeout=20) as kv:
        E = kv.errors
        assert kv.ping() is None  # Unit output
        key = f"{service}/1"
        expires = datetime.datetime(2026, 12, 1, 10, 20, 30, 125000, tzinfo=datetime.timezone.utc)
        put = kv.put(key=key, value=b"\x00\x01\xff", tags={"k": "v", "ü": ""}, score=0.25,
                     size=123456789012345678901234567890, ratio=decimal.Decimal("-1234.5678"),
                     expires=expires, secret="s3cret")
        assert put.version == 1 and put.stored.tzinfo is not None
        item = kv.get(key=key).item
        assert (item.key, item.value, item.tags, item.score) == (key, b"\x00\x01\xff", {"k": "v", "ü": ""}, 0.25)
        assert item.size == 123456789012345678901234567890
        assert item.ratio == decimal.Decimal("-1234.5678") and isinstance(item.ratio, decimal.Decimal)
        assert item.expires == expires and item.version == 1
        assert [i.key for i in kv.list(prefix=f"{service}/").items] == [key]

        with pytest.raises(E.Conflict) as conflict:
            kv.put(key=key, if_version=7)
        assert (conflict.value.current, conflict.value.status) == (1, 400)
        assert conflict.value.shape_id == "smithycurl.kv#Conflict"
        kv.delete(key=key)
        with pytest.raises(E.NotFound) as nf:
            kv.get(key=key)
        assert nf.value.key == key and nf.value.message == f"no item {key}"
        with pytest.raises(E.Unavailable) as un:
            kv.get(key="unavailable")
        assert un.value.status == 503 and un.value.attempts == 3  # @retryable, @readonly: retried
        with pytest.raises(smithycurl.InputTypeError):
            kv.put(key="k", if_version=1.5)  # type: ignore[arg-type]
        with pytest.raises(smithycurl.ValidationError):
            kv.put(value=b"x")  # type: ignore[call-arg]


def test_transport_error() -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # closed when the block ends: nothing listens
    m = smithycurl.load_model(KV_MODEL)
    with m.client("smithycurl.kv#KVCbor", endpoint=f"http://127.0.0.1:{port}", retries=False, timeout=5) as kv:
        with pytest.raises(smithycurl.TransportError):
            kv.ping()


def test_lone_surrogates_are_input_errors() -> None:
    """A str holding a lone surrogate is not Unicode text: a UsageError
    naming the member (it was a bare UnicodeEncodeError), nothing sent."""
    m = smithycurl.load_model(KV_MODEL)
    with m.client("smithycurl.kv#KVJson", endpoint="http://127.0.0.1:9", retries=False, timeout=5) as kv:
        for kwargs, member, at in [({"key": "a\ud800"}, "key", "/key"),
                                   ({"key": "a", "tags": {"k": "\udfff"}}, "tags", "/tags/k"),
                                   ({"key": "a", "tags": {"k/\udfff": "v"}}, "tags", "/tags/k~1\udfff")]:
            with pytest.raises(smithycurl.UsageError) as info:
                kv.put(**kwargs)
            assert info.value.member == member and f"lone surrogate is not Unicode text (at {at})" in str(info.value)
            assert not isinstance(info.value, UnicodeError)
