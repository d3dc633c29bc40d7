"""Interceptors, a custom auth scheme (HMAC, checked by
testing/servers/signedserver), digest auth and trace spans."""

from __future__ import annotations

import hashlib
import hmac
import os
from typing import Any

import pytest

import smithycurl
from conftest import REPO, Servers

SIGNED_MODEL = os.path.join(REPO, "testing", "servers", "signedserver", "signed.smithy")


class Recorder(smithycurl.Interceptor):
    """Changes the input and the request, records what it saw."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.status: Any = None

    def read_before_execution(self, ctx: smithycurl.HookContext) -> None:
        self.seen.append(f"start {ctx.operation}")

    def modify_before_serialization(self, ctx: smithycurl.HookContext) -> None:
        ctx.input = {**ctx.input, "test": "from Python"}

    def modify_before_transmit(self, ctx: smithycurl.HookContext) -> None:
        ctx.set_request_header("X-Hooked", "yes")
        self.seen.append(f"send {ctx.attempt} {ctx.method}")

    def read_after_transmit(self, ctx: smithycurl.HookContext) -> None:
        self.status = ctx.status

    def modify_before_completion(self, ctx: smithycurl.HookContext) -> None:
        out = ctx.output
        out["origin"] = "intercepted"
        ctx.output = out

    def read_after_execution(self, ctx: smithycurl.HookContext) -> None:
        self.seen.append("end")


def test_interceptor(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    r = Recorder()
    with httpbin_model.client(endpoint=servers.httpbin, interceptors=[r]) as c:
        out = c.call("Anything", {"id": 1})
    assert out.json["test"] == "from Python"
    assert out.headers["X-Hooked"] == ["yes"]
    assert out.origin == "intercepted"
    assert r.seen == ["start Anything", "send 1 POST", "end"]
    assert r.status == 200


class Refuse(smithycurl.Interceptor):
    def read_before_transmit(self, ctx: smithycurl.HookContext) -> None:
        raise RuntimeError("not today")


def test_interceptor_exception(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """The exception fails the call with its message; it never reaches C."""
    with httpbin_model.client(endpoint=servers.httpbin, interceptors=[Refuse()]) as c:
        with pytest.raises(smithycurl.UsageError, match="RuntimeError: not today"):
            c.call("GetIp")


def hmac_signer(secret: str) -> Any:
    def sign(ctx: smithycurl.HookContext) -> None:
        assert ctx.scheme == "com.example#hmacAuth" and ctx.trait == {"algorithm": "HMAC-SHA256"}
        date = ctx.signing_time or ""
        url = ctx.url or ""
        path = url[url.index("/", url.index("://") + 3):]
        body_hash = hashlib.sha256(ctx.request_body or b"").hexdigest()
        text = f"{ctx.method}\n{path}\n{date}\n{body_hash}"
        sig = hmac.new(secret.encode(), text.encode(), hashlib.sha256).hexdigest()
        ctx.set_request_header("X-Example-Date", date)
        ctx.set_request_header("Authorization", f"HMAC-SHA256 keyId=test-key, signature={sig}")

    return sign


def test_custom_auth_and_digest(servers: Servers) -> None:
    m = smithycurl.load_model(SIGNED_MODEL)
    with m.client(endpoint=servers.signed, auth_schemes={"com.example#hmacAuth": hmac_signer("test-secret")},
                  digest_auth=("ann", "pw")) as c:
        out = c.call("Echo", {"message": "hi"})
        assert (out.message, out.signed_by) == ("hi", "test-key")
        assert c.call("DigestAuth", {"qop": "auth", "user": "ann", "passwd": "pw"}).authenticated is True
    with m.client(endpoint=servers.signed, auth_schemes={"com.example#hmacAuth": hmac_signer("wrong")}) as c:
        with pytest.raises(smithycurl.ServiceError, match="signature mismatch"):
            c.call("Echo", {})


def test_trace_spans(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    events: list[dict[str, Any]] = []
    with httpbin_model.client(endpoint=servers.httpbin, trace=events.append, trace_spans=True) as c:
        c.call("GetIp")
    spans = [e for e in events if e["phase"] == "span_end"]
    assert [s["name"] for s in spans] == ["Attempt", "HttpBin.GetIp"]
    attempt, call = spans
    assert attempt["parent_id"] == call["span_id"]
    assert call["attributes"]["rpc.method"] == "GetIp"
    assert attempt["attributes"]["http.response.status_code"] == 200


def test_async_client_interceptor(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """An async client's hooks run on a library thread, as its calls do."""
    import asyncio
    import threading

    threads: list[int] = []

    class Where(smithycurl.Interceptor):
        def modify_before_transmit(self, ctx: smithycurl.HookContext) -> None:
            threads.append(threading.get_ident())
            ctx.set_request_header("X-Hooked", "async")

    async def main() -> Any:
        async with httpbin_model.async_client(endpoint=servers.httpbin, interceptors=[Where()]) as c:
            return await asyncio.wait_for(c.headers(), 30)

    out = asyncio.run(main())
    assert out.headers["X-Hooked"] == ["async"]
    assert threads and threads[0] != threading.get_ident()
