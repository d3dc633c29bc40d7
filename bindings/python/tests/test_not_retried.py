"""A retryable failure that was not retried says why in its message, as in Go
and the CLI: "(not retried: the client's retry quota is spent ...)" or
"(not retried: the body reader cannot be rewound ...)". A canned server on
127.0.0.1 answers every request with a 503."""

from __future__ import annotations

import io
import threading
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import CannedServer

MODEL = """$version: "2"
namespace smithycurl.test.flaky

use aws.protocols#restJson1

@restJson1
service Flaky {
    operations: [Read, Put]
    errors: [Unavailable]
}

@readonly
@http(method: "GET", uri: "/read")
operation Read {
    output := { value: String }
}

@idempotent
@http(method: "PUT", uri: "/put")
operation Put {
    input := {
        @httpPayload
        body: Body
    }
    output := { size: Long }
}

@streaming
blob Body

@error("server")
@httpError(503)
structure Unavailable {
    reason: String
}
"""

QUOTA = "not retried: the client's retry quota is spent"
REWIND = "not retried: the body reader cannot be rewound"


@pytest.fixture()
def flaky(canned: CannedServer) -> Iterator[smithycurl.Client]:
    with smithycurl.load_model(text=MODEL).client(endpoint=canned.url, timeout=30) as c:
        yield c


def chunks() -> Iterator[bytes]:
    """A streamed body that cannot be rewound."""
    yield b"x" * 100


def test_a_body_that_cannot_be_rewound(flaky: smithycurl.Client, canned: CannedServer) -> None:
    # A modeled error without a message: its members, then the note.
    canned.respond(503, b'{"reason":"busy"}', x_amzn_errortype="Unavailable")
    with pytest.raises(flaky.errors.Unavailable) as e:
        flaky.put(body=chunks())
    assert e.value.attempts == 1 and len(canned.requests) == 1
    assert str(e.value).startswith(f"Unavailable (HTTP 503): reason='busy' ({REWIND}"), str(e.value)
    assert e.value.reason == "busy" and e.value.status == 503
    # One that can be rewound is retried: no note.
    with pytest.raises(flaky.errors.Unavailable) as e:
        flaky.put(body=io.BytesIO(b"x" * 100))
    assert e.value.attempts == 3 and str(e.value) == "Unavailable (HTTP 503): reason='busy'"


def spend_quota(client: smithycurl.Client) -> smithycurl.ServiceError:
    """Fails calls on threads until one is not retried (the quota of 500
    tokens, 5 a retry, is spent); its error."""
    found: list[smithycurl.ServiceError] = []

    def run() -> None:
        for _ in range(60):
            if found:
                return
            try:
                client.read()
            except smithycurl.ServiceError as err:
                if err.attempts == 1:
                    found.append(err)
                    return

    threads = [threading.Thread(target=run) for _ in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert found, "the retry quota was never spent"
    return found[0]


def test_a_spent_retry_quota(flaky: smithycurl.Client, canned: CannedServer) -> None:
    # An unmodeled error with a code and no message: the code, then the note.
    canned.respond(503, b"", x_amzn_errortype="ServiceUnavailable")
    err = spend_quota(flaky)
    assert type(err) is smithycurl.ServiceError and err.code == "ServiceUnavailable"
    assert str(err).startswith(f"ServiceUnavailable (HTTP 503) ({QUOTA}"), str(err)
    # Neither code nor message: the same, named "service error".
    canned.respond(503, b"")
    with pytest.raises(smithycurl.ServiceError) as e:
        flaky.read()
    assert e.value.attempts == 1 and str(e.value).startswith(f"service error (HTTP 503) ({QUOTA}"), str(e.value)
    # A modeled error: its members, then the note.
    canned.respond(503, b'{"reason":"busy"}', x_amzn_errortype="Unavailable")
    with pytest.raises(flaky.errors.Unavailable) as e:
        flaky.read()
    assert str(e.value).startswith(f"Unavailable (HTTP 503): reason='busy' ({QUOTA}"), str(e.value)


def test_the_note_follows_the_services_message(flaky: smithycurl.Client, canned: CannedServer) -> None:
    canned.respond(503, b'{"message":"slow down"}', x_amzn_errortype="ServiceUnavailable")
    with pytest.raises(smithycurl.ServiceError) as e:
        flaky.put(body=chunks())
    assert str(e.value).startswith(f"ServiceUnavailable (HTTP 503): slow down ({REWIND}"), str(e.value)


def test_the_note_is_read_from_the_librarys_message() -> None:
    """The library's text for an error without a message ends with the note;
    a note the message holds already is not repeated."""
    meta = smithycurl.ErrorMeta(status=503, error_code="Busy")
    note = "not retried: the client's retry quota is spent (too many failures lately)"
    err: Any = smithycurl.ServiceError(f"Busy (HTTP 503) ({note})", _meta=meta)
    assert str(err) == f"Busy (HTTP 503) ({note})"
    err = smithycurl.ServiceError(f"try later ({note})", _meta=meta)
    assert str(err) == f"Busy (HTTP 503): try later ({note})"
    err = smithycurl.ServiceError("not retried: the service's own words", _meta=meta)
    assert str(err) == "Busy (HTTP 503): not retried: the service's own words"
