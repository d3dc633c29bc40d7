"""smithycurl.aio: asyncio clients (Model.async_client) against build/testserver's
services: the same outputs, classes and errors as the synchronous client, 1,000
calls in flight on no Python thread, cancellation (task cancel, asyncio.timeout,
wait_for), closing with calls in flight, async paginators and waiters."""

from __future__ import annotations

import asyncio
import gc
import os
import socket
import threading
import time
from typing import Any, Awaitable, Callable, TypeVar

import pytest

import smithycurl
from smithycurl.aio import AsyncClient
from conftest import HTTPBIN_MODEL, REPO, CannedServer, Servers, interrupt_child
from test_aws import CREDENTIALS, aws_model, emulators  # noqa: F401 (the fixture)

T = TypeVar("T")
EXTRAS_MODEL = os.path.join(REPO, "testing", "servers", "extraserver", "extras.smithy")


def run(fn: Callable[[], Awaitable[T]]) -> T:
    """Runs a coroutine function in a fresh event loop (bounded: 120 s)."""
    async def bounded() -> T:
        async with asyncio.timeout(120):
            return await fn()
    return asyncio.run(bounded())


@pytest.fixture(scope="module")
def extras_model() -> smithycurl.Model:
    return smithycurl.load_model(EXTRAS_MODEL)


class Handles:
    """The cancel tokens and results the library handed out and not yet
    freed (the Library's functions wrapped): what a leak would leave."""

    def __init__(self, lib: Any, monkeypatch: pytest.MonkeyPatch) -> None:
        self.tokens: set[int] = set()
        self.results: set[int] = set()
        new, tok_free, nxt, res_free = lib.cancel_token_new, lib.cancel_token_free, lib.queue_next, lib.result_free

        def token_new(p: Any) -> int:
            rc: int = new(p)
            self.tokens.add(p._obj.value)
            return rc

        def token_free(t: Any) -> int:
            self.tokens.discard(getattr(t, "value", t))
            rc: int = tok_free(t)
            return rc

        def queue_next(q: Any, ms: int, tag: Any, code: Any, r: Any) -> int:
            rc: int = nxt(q, ms, tag, code, r)
            if rc == 0 and r._obj.value:
                self.results.add(r._obj.value)
            return rc

        def result_free(r: Any) -> int:
            self.results.discard(getattr(r, "value", r))
            rc: int = res_free(r)
            return rc

        for name, fn in (("cancel_token_new", token_new), ("cancel_token_free", token_free),
                         ("queue_next", queue_next), ("result_free", result_free)):
            monkeypatch.setattr(lib, name, fn)


@pytest.fixture()
def handles(monkeypatch: pytest.MonkeyPatch) -> Handles:
    return Handles(smithycurl._lib.load(), monkeypatch)


def settle(client: AsyncClient) -> Callable[[], Awaitable[None]]:
    """A coroutine function waiting (5 s at most) until the client has no
    call in flight: the completions of abandoned calls came back."""
    async def wait() -> None:
        for _ in range(500):
            if not client._pending:
                return
            await asyncio.sleep(0.01)
        raise AssertionError(f"{len(client._pending)} calls still in flight")
    return wait


async def in_flight(client: AsyncClient, n: int) -> None:
    """Waits (30 s at most) until n calls of client are in flight."""
    for _ in range(3000):
        if len(client._pending) >= n:
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"{len(client._pending)} calls in flight, want {n}")


def test_calls_errors_and_classes_as_sync(httpbin_model: smithycurl.Model, pizza: smithycurl.Client,
                                          servers: Servers) -> None:
    sync = httpbin_model.client(endpoint=servers.httpbin, timeout=20)

    async def main() -> None:
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=20) as c:
            assert c.types.AnythingInput is sync.types.AnythingInput
            ip = await c.get_ip()
            assert type(ip) is type(sync.get_ip()) and ip == sync.get_ip()
            # The three argument styles: keywords, the input class, a dict.
            kw = await c.anything(id=25, test="yo", query_param="hello")
            assert kw.json == sync.anything(id=25, test="yo", query_param="hello").json
            cls = await c.anything(c.types.AnythingInput(id=26, test="yo"))
            assert cls.json == {"id": 26, "test": "yo"}
            d = await c.call("Anything", {"id": 27})
            assert type(d) is type(kw) and d.json == {"id": 27}
            # A service error: the same class, status and message as the synchronous call.
            with pytest.raises(smithycurl.ServiceError) as a:
                await c.status(code=500)
            with pytest.raises(smithycurl.ServiceError) as s:
                sync.status(code=500)
            assert type(a.value) is type(s.value) and (a.value.status, str(a.value)) == (s.value.status, str(s.value))
            # Input errors are raised by the call, before anything is sent.
            with pytest.raises(smithycurl.InputTypeError, match="id"):
                await c.anything(id="x")
            with pytest.raises(TypeError, match="unexpected keyword argument 'idd'"):
                await c.anything(idd=1)
            with pytest.raises(AttributeError, match="no operation 'nope'"):
                c.nope
            assert c.operations == sync.operations and "get_ip" in dir(c)
            assert "async" in repr(c.get_ip) and c.get_ip.__doc__ == sync.get_ip.__doc__

        # Modeled errors of PizzaAdminService: the same classes and members.
        async with pizza.model.async_client(pizza.service.id, endpoint=servers.pizza, timeout=20) as p:
            assert p.errors.NotFoundError is pizza.errors.NotFoundError and p.types.MenuItem is pizza.types.MenuItem
            with pytest.raises(pizza.errors.NotFoundError) as nf:
                await p.get_menu(restaurant="nowhere")
            assert nf.value.name == "nowhere" and nf.value.status == 404
            with pytest.raises(pizza.errors.UnknownServerError) as us:
                await p.health(query="fail")
            assert us.value.status == 500 and us.value.attempts == 3  # retried as the synchronous call is
            item = pizza.types.MenuItem(food=pizza.types.FoodPizza(pizza.types.Pizza(
                name="m", base=pizza.types.PizzaBase.CREAM, toppings=[pizza.types.Ingredient.CHEESE])), price=9.5)
            added = await p.add_menu_item(restaurant="aio", menu_item=item)
            menu = (await p.get_menu(restaurant="aio")).menu
            assert menu[added.item_id] == item and menu == pizza.get_menu(restaurant="aio").menu

    run(main)
    sync.close()


def test_thousand_concurrent_calls_no_thread(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """1,000 calls in flight at once, each output checked; no Python thread
    is started for them (the library's own threads are not Python's)."""
    before = threading.active_count()
    idents = {t.ident for t in threading.enumerate()}

    async def main() -> None:
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=60) as c:
            outs = await asyncio.gather(*(c.anything(id=i, test=f"t{i}") for i in range(1000)))
            assert [o.json for o in outs] == [{"id": i, "test": f"t{i}"} for i in range(1000)]
            assert threading.active_count() == before
            assert not c._pending

    run(main)
    assert threading.active_count() == before and {t.ident for t in threading.enumerate()} == idents


def test_cancel_thousand_in_flight(httpbin_model: smithycurl.Model, servers: Servers, handles: Handles) -> None:
    """1,000 calls to a 10 s delay, cancelled at once: every task raises
    asyncio.CancelledError promptly, the requests are aborted (their late
    completions come back well before the delay and are freed), and the
    client goes on working."""
    async def main() -> None:
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=60) as c:
            tasks = [asyncio.create_task(c.delay(seconds=10)) for _ in range(1000)]
            await in_flight(c, 1000)
            assert len(c._pending) == 1000 and not any(t.done() for t in tasks)
            start = time.monotonic()
            for t in tasks:
                t.cancel()
            results = await asyncio.gather(*tasks, return_exceptions=True)
            assert all(isinstance(r, asyncio.CancelledError) for r in results)
            await settle(c)()  # the aborted calls' completions came back and were freed
            assert time.monotonic() - start < 6
            assert not c._pending and len(c._tokens) == 0  # cancelled tokens are freed, not reused
            assert (await c.anything(id=1)).json == {"id": 1}
            assert not handles.results and len(handles.tokens) == 1  # the pooled token of the last call

    run(main)
    assert not handles.tokens and not handles.results


def test_cancel_after_completion_frees_the_result(httpbin_model: smithycurl.Model, servers: Servers,
                                                  handles: Handles) -> None:
    """A task cancelled after its call completed but before it resumed:
    CancelledError, the result freed, the token reused."""
    async def main() -> None:
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=20) as c:
            task = asyncio.create_task(c.get_ip())
            await asyncio.sleep(0)  # the call is submitted; the task awaits its completion
            assert len(c._pending) == 1
            for _ in range(500):  # blocking the loop: the task cannot resume meanwhile
                c._complete()
                if not c._pending:
                    break
                time.sleep(0.01)
            assert not c._pending and not task.done()
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert not c._pending and len(c._tokens) == 1 and not handles.results

    run(main)
    assert not handles.tokens


def test_timeouts(httpbin_model: smithycurl.Model, servers: Servers, handles: Handles) -> None:
    async def main() -> None:
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=20) as c:
            start = time.monotonic()
            with pytest.raises(TimeoutError):
                async with asyncio.timeout(0.3):
                    await c.delay(seconds=5)
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(c.delay(seconds=5), 0.3)
            assert time.monotonic() - start < 3
            await settle(c)()
            assert time.monotonic() - start < 4  # aborted, not waited for
        # The client's own timeout: smithycurl.TimeoutError, as for the synchronous client.
        # Its message says which time ran out, not libcurl's "Operation was
        # aborted by an application callback" of the transfer it stopped.
        async with httpbin_model.async_client(endpoint=servers.httpbin, timeout=0.5) as c:
            with pytest.raises(smithycurl.TimeoutError) as e:
                await c.delay(seconds=5)
            assert "aborted" not in str(e.value) and "timed out after" in str(e.value), str(e.value)
            # Many at once: the call's deadline, not libcurl's timer, stops
            # some, in a transfer or waiting for one.
            errs = await asyncio.gather(*(c.delay(seconds=5) for _ in range(200)), return_exceptions=True)
            assert all(isinstance(x, smithycurl.TimeoutError) for x in errs), errs
            bad = [str(x) for x in errs if "aborted" in str(x) or "context deadline exceeded" in str(x)]
            assert not bad, bad[:3]

    run(main)
    assert not handles.tokens and not handles.results


def test_close_with_calls_in_flight(httpbin_model: smithycurl.Model, servers: Servers, handles: Handles) -> None:
    """close() with 200 calls in flight: each task raises
    smithycurl.CancelledError once; close returns promptly; later calls
    raise UsageError."""
    async def main() -> None:
        c = httpbin_model.async_client(endpoint=servers.httpbin, timeout=60)
        raised: list[BaseException] = []

        async def one() -> None:
            try:
                await c.delay(seconds=10)
            except BaseException as e:
                raised.append(e)
                raise

        tasks = [asyncio.create_task(one()) for _ in range(200)]
        await in_flight(c, 200)
        start = time.monotonic()
        await c.close()
        assert time.monotonic() - start < 5
        results = await asyncio.gather(*tasks, return_exceptions=True)
        assert len(raised) == 200 and all(isinstance(e, smithycurl.CancelledError) for e in raised)
        assert all(isinstance(r, smithycurl.CancelledError) for r in results)
        assert not c._pending and "closed" in repr(c)
        with pytest.raises(smithycurl.UsageError, match="closed"):
            await c.get_ip()
        await c.close()  # idempotent
        assert not handles.tokens and not handles.results

    run(main)


def test_loops_one_after_another(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """A client made outside any loop serves one asyncio.run after another."""
    c = httpbin_model.async_client(endpoint=servers.httpbin, timeout=20)
    assert run(lambda: c.anything(id=1)).json == {"id": 1}
    assert run(lambda: c.anything(id=2)).json == {"id": 2}
    run(c.close)


def test_collected_when_dropped(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """An idle client nobody holds is collected (the loop's reader holds it
    weakly), and freed."""
    async def main() -> None:
        c = httpbin_model.async_client(endpoint=servers.httpbin, timeout=20)
        await c.get_ip()
        fd = c._fd
        del c
        gc.collect()
        loop: Any = asyncio.get_running_loop()
        assert fd not in loop._selector.get_map()

    run(main)


def test_streamed_bodies_are_refused(extras_model: smithycurl.Model, servers: Servers) -> None:
    import io

    async def main() -> None:
        async with extras_model.async_client(endpoint=servers.extras, timeout=20) as c:
            with pytest.raises(smithycurl.UsageError, match="not supported by the asynchronous client"):
                await c.upload(name="x", body=io.BytesIO(b"abc"))
            out = await c.upload(name="x", body=b"abc")  # bytes are fine
            assert out.size == 3

    run(main)


def test_paginators_as_sync(extras_model: smithycurl.Model, servers: Servers, canned: CannedServer) -> None:
    sync = extras_model.client(endpoint=servers.extras, timeout=20)

    async def main() -> None:
        async with extras_model.async_client(endpoint=servers.extras, timeout=20) as c:
            pages = [p async for p in c.paginate.list_items(total=7, size=3)]
            want = list(sync.paginate.list_items(total=7, size=3))
            assert pages == want and [len(p.items) for p in pages] == [3, 3, 1]
            assert type(pages[0]) is type(want[0])
            # page_size sets the trait's pageSize member; max_items cuts the last page.
            pages = [p async for p in c.paginate.list_items(total=7, page_size=2, max_items=5)]
            assert [p.items for p in pages] == [p.items for p in sync.paginate.list_items(total=7, page_size=2, max_items=5)]
            assert [len(p.items) for p in pages] == [2, 2, 1]
            items = [i async for i in c.paginate.list_items(total=5).items()]
            assert items == list(sync.paginate.list_items(total=5).items()) == [f"item-{i}" for i in range(5)]
            # A token in the input is the first page's.
            assert [p.items async for p in c.paginate.list_items(next="tok-4", total=6)] == [["item-4", "item-5"]]
            with pytest.raises(smithycurl.UsageError, match="not paginated"):
                c.paginate.get_job(id="x")
            with pytest.raises(ValueError):
                c.paginate.list_items(max_items=-1)
            assert dir(c.paginate) == ["list_items"]
        # A service sending back the token it was sent: DecodeError after that page, or the end.
        canned.respond(200, b'{"items":["a"],"next":"same"}')
        async with extras_model.async_client(endpoint=canned.url, timeout=20) as c:
            p = c.paginate.list_items(next="same")
            assert (await p.__anext__()).items == ["a"]
            with pytest.raises(smithycurl.DecodeError, match="same continuation token"):
                await p.__anext__()
            with pytest.raises(StopAsyncIteration):
                await p.__anext__()
            assert len([x async for x in c.paginate.list_items(next="same", stop_on_repeated_token=True)]) == 1
        with sync.model.client(endpoint=canned.url) as s:
            sp = s.paginate.list_items(next="same")
            next(sp)
            with pytest.raises(smithycurl.DecodeError, match="same continuation token"):
                next(sp)

    run(main)
    sync.close()


def test_paginator_cancel_aborts_the_page(extras_model: smithycurl.Model, handles: Handles) -> None:
    """Cancelling the task awaiting a page (on a server that never answers)
    aborts the library's queued next (the paginator's cancel token): the
    task raises CancelledError promptly, the paginator is freed, and no
    token or result is left."""
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(16)
        url = "http://127.0.0.1:%d" % hole.getsockname()[1]

        async def main() -> None:
            async with extras_model.async_client(endpoint=url, timeout=60) as c:
                p = c.paginate.list_items(total=3)
                task = asyncio.create_task(p.__anext__())
                await in_flight(c, 1)
                assert not task.done() and len(c._pending) == 1
                start = time.monotonic()
                task.cancel()
                with pytest.raises(asyncio.CancelledError):
                    await task
                await settle(c)()
                assert time.monotonic() - start < 5 and not c._pending
                assert p._pg._h is None
                with pytest.raises(StopAsyncIteration):
                    await p.__anext__()

        run(main)
    assert not handles.tokens and not handles.results


def test_waiters(extras_model: smithycurl.Model, servers: Servers) -> None:
    async def main() -> None:
        async with extras_model.async_client(endpoint=servers.extras, timeout=20, waiter_delays=(0.01, 0.04)) as c:
            out = await c.wait.job_done(id="done-3-aio", max_wait=20)
            assert out.status == "done" and type(out) is c.types.GetJobOutput
            with pytest.raises(smithycurl.WaiterFailureError):
                await c.wait["JobDone"](id="failed", max_wait=20)
            with pytest.raises(smithycurl.WaiterTimeoutError):
                await c.wait.job_done(id="never", max_wait=0.3)
            # Cancelling the awaiting task cancels the wait (its worker thread returns).
            start = time.monotonic()
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(c.wait.job_done(id="never", max_wait=30), 0.3)
            assert time.monotonic() - start < 3

    run(main)


def test_dynamodb_flow(emulators: dict[str, str]) -> None:  # noqa: F811
    """DynamoDB on dynalite, asynchronously: a table, 200 PutItems and 200
    GetItems in flight at once, a query, a conditional put's modeled error
    (the synchronous client's class), the tables paginated, a waiter."""
    model = aws_model("dynamodb.json")
    url = emulators["SMITHYCURL_DYNALITE_URL"]
    table = f"py-aio-{time.time_ns()}"

    async def main() -> None:
        async with model.async_client(endpoint=url, aws_credentials=CREDENTIALS, timeout=60,
                                      waiter_delays=(0.05, 0.2)) as db:
            await db.create_table(table_name=table, billing_mode="PAY_PER_REQUEST",
                                  attribute_definitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                                  key_schema=[{"AttributeName": "pk", "KeyType": "HASH"}])
            out = await db.wait.table_exists(table_name=table, max_wait=20)
            assert out.table is not None and out.table.table_status == "ACTIVE"
            await asyncio.gather(*(db.put_item(table_name=table, item={"pk": {"S": f"k{i}"}, "n": {"N": str(i)}})
                                   for i in range(200)))
            got = await asyncio.gather(*(db.get_item(table_name=table, key={"pk": {"S": f"k{i}"}}) for i in range(200)))
            assert [g.item["n"].value for g in got] == [str(i) for i in range(200)]
            assert type(got[0].item["n"]).__name__ == "AttributeValueN"
            page = await db.query(table_name=table, key_condition_expression="pk = :pk",
                                  expression_attribute_values={":pk": {"S": "k7"}})
            assert page.count == 1
            with pytest.raises(smithycurl.ServiceError) as info:
                await db.put_item(table_name=table, item={"pk": {"S": "k1"}},
                                  condition_expression="attribute_not_exists(pk)")
            assert type(info.value) is db.errors.ConditionalCheckFailedException
            assert info.value.status == 400 and info.value.code == "ConditionalCheckFailedException"
            names = [n async for n in db.paginate.list_tables(limit=1).items()]
            assert table in names
            await db.delete_table(table_name=table)

    run(main)


CTRL_C = """
import asyncio, sys, time
import smithycurl

async def main() -> None:
    async with smithycurl.load_model(sys.argv[2]).async_client(endpoint=sys.argv[1], timeout=30) as c:
        await c.get_ip()
        tasks = [asyncio.ensure_future(c.delay(seconds=10)) for _ in range(100)]
        print("calling", flush=True)
        await asyncio.gather(*tasks)

t = time.monotonic()
try:
    asyncio.run(main())
except KeyboardInterrupt:
    print("KeyboardInterrupt %.3f" % (time.monotonic() - t), flush=True)
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_under_asyncio_run(servers: Servers) -> None:
    """Ctrl-C under asyncio.run with 100 calls in flight: asyncio cancels
    the main task, the calls are aborted, KeyboardInterrupt at once."""
    rc, out, err, took = interrupt_child(CTRL_C, servers.httpbin, HTTPBIN_MODEL, ready="calling")
    assert rc == 42, (out, err)
    assert took < 3, f"exited {took:.2f}s after SIGINT"


def test_forked_child_gets_a_clear_error(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    """A child made by os.fork() after the parent used an asynchronous
    client: its calls raise ForkedError at once (in a new loop), and the
    parent's client goes on."""
    c = httpbin_model.async_client(endpoint=servers.httpbin, timeout=20)
    assert run(lambda: c.anything(id=1)).json == {"id": 1}
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: must fail at once, not hang
        os.close(r)
        try:
            asyncio.run(asyncio.wait_for(c.get_ip(), 5))
            msg = b"no error"
        except smithycurl.ForkedError as e:
            msg = str(e).encode()
        except BaseException as e:  # noqa: BLE001
            msg = repr(e).encode()
        os.write(w, msg)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        msg = f.read().decode()
    _, status = os.waitpid(pid, 0)
    assert status == 0
    assert "'spawn'" in msg, msg
    assert run(lambda: c.anything(id=2)).json == {"id": 2}
    run(c.close)
