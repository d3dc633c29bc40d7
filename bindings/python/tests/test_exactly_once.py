"""Exactly once, proven, from Python: non-idempotent calls (Once's Add, a
counter per id) through testserver's fault-injecting proxy
(testing/servers/onceserver: resets, truncated bodies, garbage, delays past
the timeout, 500/503 and throttling, before and after forwarding), from the
synchronous client on threads and from the asyncio client. No call may be
executed twice, and a call executed once may fail only with an error that
says the request may have reached the server (``may_have_reached``)."""

from __future__ import annotations

import asyncio
import os
import threading
from typing import Any, Iterator, Union

import pytest

import smithycurl
from conftest import REPO, Servers

MODEL = os.path.join(REPO, "testing", "servers", "onceserver", "once.smithy")
CALLS = 150
TIMEOUT = 0.4  # the proxy's delays are 0.7 s

Outcome = Union[Any, smithycurl.SmithycurlError]


@pytest.fixture(scope="module")
def once_model() -> smithycurl.Model:
    return smithycurl.load_model(MODEL)


@pytest.fixture()
def once(once_model: smithycurl.Model, servers: Servers) -> Iterator[smithycurl.Client]:
    with once_model.client(endpoint=servers.once, timeout=TIMEOUT) as c:
        yield c


@pytest.fixture()
def counter(once_model: smithycurl.Model, servers: Servers) -> Iterator[smithycurl.Client]:
    """A client for Settle and Count (never faulted) with time to spare on a
    loaded machine."""
    with once_model.client(endpoint=servers.once, timeout=30) as c:
        yield c


def check(client: smithycurl.Client, prefix: str, outcomes: list[Outcome], before: dict[str, int]) -> str:
    """Fails on a call executed twice or a lost success; a summary (before:
    the proxy's fault counts before the calls)."""
    after = client.settle().faults  # every delayed request has reached the counter or never will
    faults = {k: v - before.get(k, 0) for k, v in after.items() if v > before.get(k, 0)}
    ok = ran = 0
    kinds: dict[str, int] = {}
    for i, res in enumerate(outcomes):
        n = client.count(id=f"{prefix}-{i}").count
        assert n <= 1, f"call {i} was executed {n} times: {res!r}"
        if not isinstance(res, BaseException):
            ok += 1
            assert res.count == 1 and n == 1, f"call {i} succeeded with {res!r}, the counter is {n}"
            continue
        assert isinstance(res, smithycurl.SmithycurlError), repr(res)
        kinds[res.kind] = kinds.get(res.kind, 0) + 1
        assert res.attempts <= 3, f"call {i}: {res.attempts} attempts: {res}"
        if n == 1:
            ran += 1
            assert res.may_have_reached, f"call {i} was executed, but its error says it did not reach: {res}"
        if isinstance(res, (smithycurl.TransportError, smithycurl.TimeoutError)):
            says = "may have reached the server" in str(res)
            assert says == res.may_have_reached, f"call {i}: may_have_reached {res.may_have_reached}: {res}"
    assert ok > 0, "no call succeeded"
    return f"{len(outcomes)} calls: {ok} succeeded, failed {kinds}, {ran} of them executed; faults {faults}"


def test_sync_calls_are_executed_once(once: smithycurl.Client, counter: smithycurl.Client) -> None:
    before = counter.settle().faults
    outcomes: list[Outcome] = [None] * CALLS
    lock = threading.Lock()
    todo = iter(range(CALLS))

    def run() -> None:
        while True:
            with lock:
                i = next(todo, None)
            if i is None:
                return
            try:
                outcomes[i] = once.add(id=f"py-{i}")
            except smithycurl.SmithycurlError as e:
                outcomes[i] = e

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(check(counter, "py", outcomes, before))


def test_asyncio_calls_are_executed_once(once_model: smithycurl.Model, servers: Servers,
                                         counter: smithycurl.Client) -> None:
    async def main() -> list[Outcome]:
        async with once_model.async_client(endpoint=servers.once, timeout=TIMEOUT) as c:
            return await asyncio.gather(*(c.add(id=f"pyaio-{i}") for i in range(CALLS)), return_exceptions=True)

    before = counter.settle().faults
    outcomes = asyncio.run(main())
    print(check(counter, "pyaio", outcomes, before))
