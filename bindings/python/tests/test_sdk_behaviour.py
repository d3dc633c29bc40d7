"""What the AWS SDKs do without being asked (issue 28, items 4, 7, 8),
through libsmithycurl.so from Python: the retry mode, the
@requestCompression threshold and switch, the application id, and the
invocation headers and User-Agent naming Python, on a server on 127.0.0.1
that answers as an AWS JSON service."""

from __future__ import annotations

import gzip
import platform
import re
from typing import Any

import pytest

import smithycurl
from conftest import CannedServer

MODEL = """$version: "2"
namespace test.sdk
use aws.protocols#restJson1
@restJson1
@aws.api#service(sdkId: "Echo Test")
service Echo { version: "2026-01-01", operations: [Put] }
@http(method: "POST", uri: "/put")
@requestCompression(encodings: ["gzip"])
operation Put { input := { text: String }, output := {} }
"""


@pytest.fixture(scope="module")
def model() -> smithycurl.Model:
    return smithycurl.load_model(text=MODEL)


def headers(canned: CannedServer, i: int = -1) -> dict[str, str]:
    return {k.lower(): v for k, v in canned.requests[i][2].items()}


def put(model: smithycurl.Model, canned: CannedServer, text: str, **options: Any) -> dict[str, str]:
    with model.client(endpoint=canned.url, **options) as c:
        c.put(text=text)
    return headers(canned)


def test_compression_threshold(model: smithycurl.Model, canned: CannedServer) -> None:
    """A small body is sent as it is, one of 10,240 bytes gzipped; the
    minimum and the switch are options."""
    assert "content-encoding" not in put(model, canned, "hello")
    big = "x" * 10240
    assert put(model, canned, big)["content-encoding"] == "gzip"
    assert gzip.decompress(canned.requests[-1][3]) == ('{"text":"' + big + '"}').encode()
    assert put(model, canned, "hello", request_min_compression_size_bytes=0)["content-encoding"] == "gzip"
    got = put(model, canned, big, request_min_compression_size_bytes=0, disable_request_compression=True)
    assert "content-encoding" not in got
    with pytest.raises(smithycurl.UsageError, match="request_min_compression_size_bytes must be from 0 to 10485760"):
        model.client(endpoint=canned.url, request_min_compression_size_bytes=10485761)


def test_invocation_headers_and_user_agent(model: smithycurl.Model, canned: CannedServer) -> None:
    """amz-sdk-invocation-id (a UUID v4) and amz-sdk-request on each call;
    the User-Agent names smithycurl, Python and its version, the service,
    the retry mode and the application id."""
    got = put(model, canned, "hello", retry_mode="adaptive", app_id="py tests")
    assert re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", got["amz-sdk-invocation-id"])
    assert got["amz-sdk-request"] == "attempt=1; max=3"
    ua = got["user-agent"]
    assert ua == got["x-amz-user-agent"]
    assert ua.startswith("smithycurl/" + smithycurl.__version__ + " ua/2.1 os/"), ua
    assert f" lang/python#{platform.python_version()} md/go#" in ua, ua
    assert ua.endswith(" api/echo-test#2026-01-01 cfg/retry-mode#adaptive app/py-tests"), ua
    with pytest.raises(smithycurl.UsageError, match="retry_mode"):
        model.client(endpoint=canned.url, retry_mode="fast")
    with pytest.raises(smithycurl.UsageError, match="at most 50 characters"):
        model.client(endpoint=canned.url, app_id="a" * 51)
