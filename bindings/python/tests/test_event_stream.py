"""Event streams through the library: the Ticker service of
testing/servers/eventserver (build/testserver), its events read as they arrive."""

from __future__ import annotations

import datetime
import os
import time

import pytest

import smithycurl
from conftest import REPO, Servers

TICKER = os.path.join(REPO, "testing", "servers", "eventserver", "ticker.smithy")


@pytest.fixture()
def ticker(servers: Servers) -> smithycurl.Client:
    return smithycurl.load_model(TICKER).client(endpoint=servers.events)


def test_events_as_they_arrive(ticker: smithycurl.Client) -> None:
    start = time.monotonic()
    with ticker.tick.stream(count=3, interval_ms=300) as s:
        assert s.initial.session == "s-1"
        got, when = [], []
        for ev in s:
            got.append(ev)
            when.append(time.monotonic() - start)
            assert len(got) <= 10
    # Each event is a variant of the stream union's class.
    assert [(ev.member_name, ev.value.seq) for ev in got] == [("tick", 0), ("tick", 1), ("tick", 2)]
    assert isinstance(got[0], ticker.types.TickStream)
    assert [ev.value.message for ev in got] == ["tick 0", "tick 1", "tick 2"]
    assert got[1].value.at == datetime.datetime(2024, 10, 31, 14, 15, 15, tzinfo=datetime.timezone.utc)
    assert when[2] - when[0] >= 0.5, f"events at {when}: not streamed"
    assert list(s) == []  # ended


def test_exception_event(ticker: smithycurl.Client) -> None:
    s = ticker.tick.stream(count=1, fail="exception")
    assert next(s).value.seq == 0
    with pytest.raises(ticker.errors.TooFast) as e:
        next(s)
    assert e.value.message == "slow down"
    assert isinstance(e.value, smithycurl.ServiceError)
    with pytest.raises(StopIteration):
        next(s)


def test_error_message_and_cut_stream(ticker: smithycurl.Client) -> None:
    with pytest.raises(smithycurl.ServiceError, match="An unknown error occurred") as e:
        list(ticker.tick.stream(count=1, fail="error"))
    assert e.value.error_code == "internal-error"
    with pytest.raises(smithycurl.DecodeError, match="truncated"):
        list(ticker.tick.stream(count=1, fail="cut"))
    with pytest.raises(smithycurl.TransportError):
        list(ticker.tick.stream(count=1, fail="truncate"))


def test_error_response_and_misuse(ticker: smithycurl.Client) -> None:
    with pytest.raises(ticker.errors.BadRequest, match="refused as asked"):
        ticker.tick.stream(count=1, fail="refuse")
    with pytest.raises(smithycurl.UsageError, match="event stream"):
        ticker.tick(count=1)


def test_close_early(ticker: smithycurl.Client) -> None:
    s = ticker.tick.stream(count=1000, interval_ms=50)
    next(s)
    start = time.monotonic()
    s.close()
    assert time.monotonic() - start < 2
    assert list(s) == []


CTRL_C = """
import sys, time
import smithycurl
c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])
s = c.tick.stream(count=100, interval_ms=5000)
next(s)
print("waiting", flush=True)
t = time.monotonic()
try:
    next(s)
except KeyboardInterrupt:
    print("KeyboardInterrupt %.3f" % (time.monotonic() - t), flush=True)
    print("closed:", list(s) == [], flush=True)
    print("after:", next(iter(c.tick.stream(count=1))).value.seq, flush=True)  # the client still works
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_interrupts_a_waiting_stream(servers: Servers) -> None:
    from conftest import interrupt_child
    rc, out, err, took = interrupt_child(CTRL_C, servers.events, TICKER, ready="waiting")
    assert rc == 42, (out, err)
    assert "KeyboardInterrupt" in out and "closed: True" in out and "after: 0" in out, out
    assert took < 2, f"exited {took:.2f}s after SIGINT"


RPC_TICKER = os.path.join(REPO, "testing", "servers", "eventserver", "rpcticker.smithy")


def test_rpc_protocol_stream(servers: Servers) -> None:
    """The ticker in awsJson1_1: the initial output is the stream's first
    message (an initial-response event), the events JSON payloads."""
    c = smithycurl.load_model(RPC_TICKER).client(
        endpoint=servers.events, service="smithycurl.test.events.rpc#TickerJson11"
    )
    start = time.monotonic()
    with c.tick.stream(count=2, interval_ms=300, fail="exception") as s:
        assert s.initial.session == "s-1"
        got = [next(s), next(s)]
        when = time.monotonic() - start
        assert [(ev.member_name, ev.value.seq, ev.value.message) for ev in got] == [("tick", 0, "tick 0"), ("tick", 1, "tick 1")]
        assert got[1].value.at == datetime.datetime(2024, 10, 31, 14, 15, 15, tzinfo=datetime.timezone.utc)
        assert when >= 0.25, f"second event after {when} s: not streamed"
        with pytest.raises(c.errors.TooFast, match="slow down"):
            next(s)
    with pytest.raises(c.errors.BadRequest, match="refused as asked"):
        c.tick.stream(count=1, fail="refuse")
