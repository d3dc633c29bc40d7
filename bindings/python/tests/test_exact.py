"""Exact on the wire: values that do not fit their Smithy type, streaming
operations, empty blob payloads, API Gateway's Accept header and the
validation default (constraint traits checked only with validate=True)."""

from __future__ import annotations

import math
from typing import Iterator

import pytest

import smithycurl

from conftest import Servers

# An API Gateway service (by its shape id) on httpbin.
EXACT_MODEL = """$version: "2"
namespace com.amazonaws.apigateway
@aws.protocols#restJson1
service BackplaneControlService { operations: [GetHeaders, GetEmpty, Put, Upload, Subscribe] }
@readonly @http(method: "GET", uri: "/headers")
operation GetHeaders { output := { headers: Document } }
@readonly @http(method: "GET", uri: "/status/200")
operation GetEmpty { output := { @httpPayload data: Blob } }
@http(method: "POST", uri: "/anything")
operation Put {
    input := { @required name: String, @pattern("^[a-z]+$") code: String, i: Integer, b: Byte, l: Long,
               f: Float, t: Timestamp }
    output := { json: Document }
}
@http(method: "POST", uri: "/anything/upload")
operation Upload { input := { @httpPayload data: StreamingBlob } }
@streaming blob StreamingBlob
@http(method: "POST", uri: "/anything/events")
operation Subscribe { output := { @httpPayload events: Events } }
@streaming union Events { a: Ev }
structure Ev { x: String }
"""


@pytest.fixture(scope="module")
def exact_model() -> smithycurl.Model:
    return smithycurl.load_model(text=EXACT_MODEL)


@pytest.fixture(scope="module")
def exact(servers: Servers, exact_model: smithycurl.Model) -> Iterator[smithycurl.Client]:
    with exact_model.client(endpoint=servers.httpbin, retries=False, timeout=20) as c:
        yield c


@pytest.mark.parametrize("validate", [False, True])
@pytest.mark.parametrize("member,value,message", [
    ("i", 1.5, "member i: expected int, not float"),  # refused by the package before the library
    ("i", 2 ** 70, "member i: 1180591620717411303424 is out of range (integer: -2147483648 to 2147483647)"),
    ("b", 128, "member b: 128 is out of range (byte: -128 to 127)"),
    ("l", 2 ** 63, "member l: 9223372036854775808 is out of range (long: -9223372036854775808 to 9223372036854775807)"),
    ("f", 1e39, "member f: 1e+39 is out of range (float: "),
    ("t", 1e20, "member t: timestamp 1e+20 is out of range: years 0001 to 9999"),
    ("t", -1e20, "member t: timestamp -1e+20 is out of range"),
    ("t", 1e308, "member t: timestamp 1e+308 is out of range"),
    ("t", math.nan, "not valid JSON"),
    ("t", math.inf, "not valid JSON"),
    ("t", "NaN", 'member t: invalid date-time "NaN"'),
])
def test_type_errors(servers: Servers, exact_model: smithycurl.Model, validate: bool, member: str, value: object,
                     message: str) -> None:
    with exact_model.client(endpoint=servers.httpbin, retries=False, validate=validate) as c:
        with pytest.raises(smithycurl.UsageError) as e:
            c.put(name="x", **{member: value})
        assert message in str(e.value) and e.value.attempts == 0


def test_event_stream_needs_stream(exact: smithycurl.Client) -> None:
    """A streaming blob given as bytes is the body; an event stream output
    is refused by a plain call (it is read with .stream()), nothing sent."""
    assert exact.upload(data=b"hi") is None
    with pytest.raises(smithycurl.UsageError, match=r"operation Subscribe: its output is an event stream \(member events\): open it as a stream") as e:
        exact.subscribe()
    assert e.value.attempts == 0


def test_empty_blob_payload(exact: smithycurl.Client) -> None:
    assert exact.get_empty().data == b""


def test_api_gateway_accept(exact: smithycurl.Client) -> None:
    assert exact.get_headers().headers["Accept"] == ["application/json"]


def test_validation_default(servers: Servers, exact_model: smithycurl.Model, exact: smithycurl.Client) -> None:
    # The constraint traits are not checked by default: the service decides.
    assert exact.put(name="x", code="ABC").json["code"] == "ABC"
    with exact_model.client(endpoint=servers.httpbin, retries=False, validate=False) as c:
        assert c.put(name="x", code="ABC").json["code"] == "ABC"
    # @required is always checked.
    with pytest.raises(smithycurl.ValidationError) as e:
        exact.put(code="ABC")
    assert e.value.violations == ["name: is required"]
    # validate=True checks them.
    with exact_model.client(endpoint=servers.httpbin, retries=False, validate=True) as c:
        with pytest.raises(smithycurl.ValidationError) as e:
            c.put(name="x", code="ABC")
        assert e.value.violations == ['code: value "ABC" does not match the pattern ^[a-z]+$']


@pytest.mark.parametrize("validation", [True, False])
def test_validation_is_a_deprecated_alias_of_validate(servers: Servers, exact_model: smithycurl.Model,
                                                       validation: bool) -> None:
    # It warns, naming the caller's line, and overrides validate.
    with pytest.warns(DeprecationWarning, match="validation is deprecated; use validate") as w:
        c = exact_model.client(endpoint=servers.httpbin, retries=False, validate=not validation, validation=validation)
    assert w[0].filename == __file__
    with c:
        if validation:
            with pytest.raises(smithycurl.ValidationError, match="does not match the pattern"):
                c.put(name="x", code="ABC")
        else:
            assert c.put(name="x", code="ABC").json["code"] == "ABC"
    with pytest.warns(DeprecationWarning) as w:
        exact_model.async_client(endpoint=servers.httpbin, validation=validation)._release()
    assert w[0].filename == __file__
