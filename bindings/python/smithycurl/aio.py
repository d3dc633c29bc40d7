"""smithycurl for asyncio: many calls in flight at once, no thread per call.

::

    import asyncio, smithycurl

    async def main() -> None:
        model = smithycurl.load_model("examples/httpbin")
        async with model.async_client(endpoint="http://127.0.0.1:8080", timeout=10) as client:
            ip = await client.get_ip()
            outs = await asyncio.gather(*(client.anything(id=i) for i in range(1000)))

    asyncio.run(main())

:meth:`smithycurl.Model.async_client` takes what :meth:`~smithycurl.Model.client`
takes; its operations take the same arguments (keywords, an input
dataclass or a dict), return the same output classes and raise the same
errors, ``client.types`` and ``client.errors`` are the same classes.

How it works: every call is handed to the library (smithycurl_call_queued)
with a tag, and returns at once; the library runs it on its engine (libcurl's
multi interface on a library thread) and puts its completion on the client's
completion queue, whose file descriptor the event loop watches
(``loop.add_reader``): the loop takes the completions as they come and wakes
the tasks awaiting them. No Python thread is made, and none waits.

- Cancelling the task awaiting a call (``task.cancel()``,
  ``asyncio.timeout``, ``asyncio.wait_for``, Ctrl-C under ``asyncio.run``)
  aborts its request (its cancel token is cancelled) and raises
  ``asyncio.CancelledError``; the completion that comes later is freed and
  ignored. The client's own ``timeout`` option raises
  ``smithycurl.TimeoutError`` as for the synchronous client.
- ``await client.close()`` (or leaving ``async with``) with calls in flight:
  each of them raises ``smithycurl.CancelledError``, once.
- ``max_transfers`` (default 100) bounds the requests on the wire at once;
  the other calls wait their turn in the library (first come, first
  served), holding no connection; ``max_host_connections`` bounds the
  connections to one host.
- A client belongs to one event loop at a time (the one running when it made
  its first call) and is not thread-safe: use it from that loop's thread.
  Once that loop is closed, another loop may use it.
- Paginators: ``async for page in client.paginate.list_tables(...)`` (and
  ``async for item in ....items()``): the library's paginator, each page
  taken through the completion queue (smithycurl_paginator_next_queued).
- Waiters: ``await client.wait.table_exists(table_name="t", max_wait=60)``
  runs the synchronous waiter on a worker thread (``loop.run_in_executor``):
  the library has no asynchronous waiter; cancelling the task cancels the
  wait.
- S3 transfers: ``await client.s3.upload_file(path, bucket, key)``,
  ``upload_fileobj``, ``download_file``, ``download_fileobj`` run the
  synchronous client's on a worker thread; cancelling the task cancels the
  transfer (a multipart upload aborted) and returns once it stopped.
- Not asynchronous: streamed bodies (a file object or chunks as the
  payload, ``download``, ``iter_body``) and event streams; use the
  synchronous client for them (in ``asyncio.to_thread`` if need be).
"""

from __future__ import annotations

import asyncio
import ctypes
import itertools
import threading
import weakref
from typing import Any, Callable, Optional, TypeVar

from . import _body, _lib, _payload, _transfer, errors
from ._apaginate import AsyncPaginate, AsyncPaginator
from .client import Client, Operation, Waiter

_A = TypeVar("_A", bound="AsyncClient")
_T = TypeVar("_T")

#: Completions taken from the queue by one run of the reader callback (the
#: descriptor stays readable while more wait: the loop comes back to them
#: after the other ready callbacks had their turn).
_DRAIN_BATCH = 256
#: Cancel tokens kept for reuse (a token of a call that was not cancelled
#: serves the next call).
_TOKEN_POOL = 1024
#: Seconds close() waits for the completions of the calls it cancelled.
_CLOSE_WAIT = 10.0


class AsyncOperation:
    """One operation of an asynchronous client, callable: ``await
    client.get_menu(restaurant="x")``, or with an input dataclass or dict,
    as the synchronous client's operations."""

    def __init__(self, client: "AsyncClient", op: Operation) -> None:
        self._client = client
        self._op = op
        self.info = op.info
        self.__name__ = op.__name__
        self.__qualname__ = op.__qualname__
        self.__doc__ = op.__doc__

    def __repr__(self) -> str:
        return "<smithycurl async" + repr(self._op)[len("<smithycurl"):]

    async def __call__(self, input: Any = None, /, **kwargs: Any) -> Any:
        op = self._op
        if op._stream_in:
            input, kwargs, source = op._take_source(input, kwargs)
            if source is not None:
                raise _not_async(op, "a streamed body (a file object or chunks)")
        if op._bytes:
            payload = None
            if op._blob_in:
                input, kwargs, payload = _payload.take(op._blob_in, op._in_py, input, kwargs)
            raw, data = await self._client._send_payload(op, op._body(input, kwargs), payload)
            return op._with_payload(op._output(raw), data)
        return op._output(await self._client._send(op, op._body(input, kwargs)))


def _not_async(op: Operation, what: str) -> errors.UsageError:
    return errors.UsageError(
        f"{op.info.py_name}(): {what} is not supported by the asynchronous client; pass bytes, or use the "
        "synchronous client (in asyncio.to_thread)")


class AsyncWaiter:
    """A waiter of the service, awaitable: ``await
    client.wait.table_exists(table_name="t", max_wait=300)``; the same
    arguments, result and errors as :class:`smithycurl.Waiter`. It runs the
    synchronous waiter on a worker thread of the loop's default executor
    (the library has no asynchronous waiter); cancelling the awaiting task
    cancels the wait."""

    def __init__(self, client: "AsyncClient", waiter: Waiter) -> None:
        self._client = client
        self._waiter = waiter
        self.name = waiter.name
        self.__name__ = waiter.__name__
        self.__doc__ = waiter.__doc__

    def __repr__(self) -> str:
        return "<smithycurl async" + repr(self._waiter)[len("<smithycurl"):]

    async def __call__(self, input: Any = None, /, *, max_wait: float, **kwargs: Any) -> Any:
        return await self._client._wait(self._waiter, self._waiter.operation._body(input, kwargs), max_wait)


class _AsyncWaiters:
    """``client.wait`` of an asynchronous client: its waiters by Python
    name (``client.wait.table_exists``) or Smithy name."""

    def __init__(self, client: "AsyncClient") -> None:
        self._client = client

    def __getattr__(self, name: str) -> AsyncWaiter:
        if name.startswith("__"):
            raise AttributeError(name)
        return AsyncWaiter(self._client, getattr(self._client._sync.wait, name))

    def __getitem__(self, key: str) -> AsyncWaiter:
        return AsyncWaiter(self._client, self._client._sync.wait[key])

    def __dir__(self) -> list[str]:
        return dir(self._client._sync.wait)

    def __repr__(self) -> str:
        return "<async" + repr(self._client._sync.wait)[1:]


class _Pending:
    """A call in flight: the future its task awaits (None once abandoned:
    its task was cancelled or its loop closed), its cancel token, and
    whether that token is the client's (pooled, freed by the client) or
    its owner's (a paginator's), and what it reads in place."""

    __slots__ = ("future", "token", "pooled", "keep")

    def __init__(self, future: Optional[asyncio.Future[tuple[int, Optional[int]]]], token: int,
                 pooled: bool = True, keep: Any = None) -> None:
        self.future = future
        self.token = token
        self.pooled = pooled
        self.keep = keep  # what the library reads until the call completes (a payload)


class AsyncClient:
    """A client of one service at one endpoint for asyncio programs, made by
    :meth:`smithycurl.Model.async_client`. Operations are coroutine methods
    named in snake_case (``await client.get_ip()``); ``await
    client.call("GetIp")`` also works. ``async with client:`` or ``await
    client.close()`` closes it (its calls in flight raise
    smithycurl.CancelledError); a closed client's calls raise UsageError.
    Modeled errors are ``client.errors.<Name>``, classes
    ``client.types.<Name>``, as for the synchronous client. Use it from one
    event loop's thread.
    """

    def __init__(self, sync: Client) -> None:
        self._sync = sync
        self._lib = lib = sync._lib
        self.model = sync.model
        self.service = sync.service
        self.endpoint = sync.endpoint
        self.types = sync.types
        self.errors = sync.errors
        #: The service's waiters: ``await client.wait.table_exists(table_name="t", max_wait=60)``.
        self.wait = _AsyncWaiters(self)
        #: The paginators: ``async for page in client.paginate.list_tables(limit=10)``.
        self.paginate = AsyncPaginate(self)
        #: Presigned URLs, the synchronous client's (presigning does no I/O):
        #: ``client.presign.get_object(bucket="b", key="k", expires_in=3600)``.
        self.presign = sync.presign
        #: S3 transfers: ``await client.s3.upload_file(path, bucket, key)``, ... (see AsyncTransfers).
        self.s3 = AsyncTransfers(sync.s3, lib)
        self._pending: dict[int, _Pending] = {}
        self._tags = itertools.count(1)
        self._tokens: list[int] = []  # free cancel tokens, not cancelled
        self._loop: Optional[asyncio.AbstractEventLoop] = None  # the loop watching the queue
        self._drained: Optional[asyncio.Future[None]] = None  # set once close() saw no call left
        q, fd = ctypes.c_void_p(), ctypes.c_int()
        try:
            lib.queue_new(ctypes.byref(q))
        except BaseException:
            sync.close()
            raise
        self._queue: Optional[int] = q.value
        lib.queue_fd(q, ctypes.byref(fd))
        self._fd = fd.value

    @property
    def operations(self) -> tuple[str, ...]:
        """The Python names of the operations."""
        return self._sync.operations

    def _operation(self, name: str) -> AsyncOperation:
        op = self._sync._operation(name)
        got = self.__dict__.get(op.info.py_name)
        if not isinstance(got, AsyncOperation):
            got = AsyncOperation(self, op)
            self.__dict__[op.info.py_name] = got  # later lookups skip __getattr__
        return got

    def __getattr__(self, name: str) -> AsyncOperation:
        sync = self.__dict__.get("_sync")
        if name.startswith("_") or sync is None or name not in sync._ops:
            ops = ", ".join(sync._ops) if sync is not None else ""
            raise AttributeError(f"{type(self).__name__} of {self.service.id} has no operation {name!r}; it has: {ops}")
        return self._operation(name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._sync._ops))

    async def call(self, operation: str, input: Any = None, /, **kwargs: Any) -> Any:
        """Calls an operation by its Smithy name ("GetIp"), id or Python name."""
        return await self._operation(operation)(input, **kwargs)

    # ---- the completion queue ---------------------------------------------

    def _bind(self) -> asyncio.AbstractEventLoop:
        """The running loop, watching the queue's descriptor (from the first
        call on; again after the loop it was on was closed)."""
        loop = asyncio.get_running_loop()
        old = self._loop
        if old is loop:
            return loop
        if old is not None:
            if not old.is_closed():
                if any(p.future is not None for p in self._pending.values()):
                    raise errors.UsageError(
                        f"the asynchronous client of {self.service.id} has calls in flight on another event loop")
                old.remove_reader(self._fd)
            for p in self._pending.values():  # their loop is gone: nobody awaits them
                if p.future is not None:
                    p.future = None
                    self._lib.cancel_token_cancel(p.token)
        loop.add_reader(self._fd, _drain, weakref.ref(self))
        self._loop = loop
        return loop

    def _new_token(self) -> int:
        tok = ctypes.c_void_p()
        self._lib.cancel_token_new(ctypes.byref(tok))
        assert tok.value is not None
        return tok.value

    async def _send(self, op: Operation, body: bytes) -> str:
        """Calls op with the input JSON body; returns the output JSON or
        raises the call's error."""
        h = self._sync._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        lib = self._lib
        tok = self._tokens.pop() if self._tokens else self._new_token()
        code, r = await self._queued(
            lambda q, tag: int(lib.call_queued(h, op._op, body, len(body), tok, q, tag)), tok, True, op.info.name)
        return self._sync._raw_outcome(op, code, ctypes.c_void_p(r))

    async def _send_payload(self, op: Operation, body: bytes, payload: Any) -> tuple[str, Optional[bytes]]:
        """Calls op with the input JSON body and its blob payloads as bytes
        (smithycurl_call_payload_queued): payload (bytes-like or str; None:
        none) read in place, kept alive until the call completes, even
        when the task is cancelled. Returns the output JSON and payload."""
        h = self._sync._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        lib = self._lib
        tok = self._tokens.pop() if self._tokens else self._new_token()
        p, keep = _payload.struct(payload)
        code, r = await self._queued(
            lambda q, tag: int(lib.call_payload_queued(h, op._op, body, len(body), ctypes.byref(p), tok, q, tag)),
            tok, True, op.info.name, (p, keep))
        if code != _lib.OK:
            return self._sync._raw_outcome(op, code, ctypes.c_void_p(r)), None
        from . import _result

        return _result.output_payload(lib, ctypes.c_void_p(r))

    async def _queued(self, start: Callable[[int, int], int], tok: int, pooled: bool,
                      what: str, keep: Any = None) -> tuple[int, Optional[int]]:
        """Starts something that completes on the queue (start(queue, tag):
        smithycurl_call_queued, smithycurl_paginator_next_queued) and awaits
        its completion: (code, result handle or None). Cancelling the task
        cancels tok (pooled: the client's, back to its pool afterwards);
        keep stays referenced until the completion arrives."""
        q = self._queue
        if q is None or self._sync._handle is None:
            if pooled:
                self._tokens.append(tok)
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        loop = self._loop
        if loop is None or loop is not asyncio.get_running_loop():
            loop = self._bind()
        lib = self._lib
        tag = next(self._tags)
        rc = start(q, tag)
        if rc != _lib.OK:
            if pooled:
                self._tokens.append(tok)
            if rc == _lib.E_FORKED:
                raise errors.ForkedError()
            if rc == _lib.E_INVALID_HANDLE:
                raise errors.UsageError(f"the client of {self.service.id} is closed", rc=rc)
            raise errors.from_code(rc, lib.strerror(rc).decode(), what)
        fut: asyncio.Future[tuple[int, Optional[int]]] = loop.create_future()
        pending = self._pending[tag] = _Pending(fut, tok, pooled, keep)
        try:
            return await fut
        except asyncio.CancelledError:
            if fut.cancelled() or not fut.done():  # in flight: abort it; _complete frees what comes back
                pending.future = None
                lib.cancel_token_cancel(tok)
            else:  # it had completed: the task was cancelled before it resumed
                _, r = fut.result()
                if r:
                    lib.result_free(r)
            raise

    def _complete(self) -> None:
        """Takes the completions waiting on the queue (a batch at most) and
        hands them to their futures; the reader callback."""
        q = self._queue
        if q is None:
            return
        lib = self._lib
        next_ = lib.queue_next
        pending = self._pending
        tokens = self._tokens
        tag, code, r = ctypes.c_void_p(), ctypes.c_int(), ctypes.c_void_p()
        args = (q, 0, ctypes.byref(tag), ctypes.byref(code), ctypes.byref(r))
        for _ in range(_DRAIN_BATCH):
            if next_(*args) != _lib.OK:
                break
            p = pending.pop(tag.value or 0, None)
            if p is None:  # not ours (cannot happen); never leak it
                if r.value:
                    lib.result_free(r)
                continue
            fut = p.future
            if fut is None or fut.done():  # abandoned: its token was cancelled
                if r.value:
                    lib.result_free(r)
                if p.pooled:
                    lib.cancel_token_free(p.token)
                continue
            fut.set_result((code.value, r.value))
            if not p.pooled:
                pass
            elif len(tokens) < _TOKEN_POOL:
                tokens.append(p.token)
            else:
                lib.cancel_token_free(p.token)
        d = self._drained
        if d is not None and not pending and not d.done():
            d.set_result(None)

    # ---- waiters ----------------------------------------------------------

    async def _wait(self, w: Waiter, body: bytes, max_wait: float) -> Any:
        """Runs the synchronous waiter w on a worker thread, with a cancel
        token of its own that cancelling the awaiting task cancels."""
        if self._sync._handle is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        lib = self._lib
        tok = ctypes.c_void_p()
        lib.cancel_token_new(ctypes.byref(tok))
        token = tok.value
        assert token is not None
        lock = threading.Lock()
        ended = False

        def run() -> Any:
            nonlocal ended
            try:
                return w._run(body, max_wait, token)
            finally:
                with lock:
                    ended = True
                    lib.cancel_token_free(token)

        try:
            return await asyncio.get_running_loop().run_in_executor(None, run)
        except asyncio.CancelledError:
            with lock:
                if not ended:
                    lib.cancel_token_cancel(token)
            raise

    # ---- closing ----------------------------------------------------------

    async def close(self) -> None:
        """Closes the connections; the calls in flight raise
        smithycurl.CancelledError (each once). Returns once their
        completions are in (10 s at most). Idempotent."""
        if self._queue is None:
            return
        self._sync.close()  # the library completes the calls in flight, CANCELLED
        loop = self._loop
        try:
            if self._pending and loop is not None and not loop.is_closed():
                running = asyncio.get_running_loop()
                if loop is running:
                    self._drained = running.create_future()
                    self._complete()
                    try:
                        await asyncio.wait_for(asyncio.shield(self._drained), _CLOSE_WAIT)
                    except asyncio.TimeoutError:
                        pass
        finally:
            self._release()

    def _release(self) -> None:
        """Frees the queue and the tokens; what is still in flight is
        cancelled and freed by the library, and its tasks get
        smithycurl.CancelledError."""
        q, self._queue = self._queue, None
        if q is None:
            return
        self._sync.close()
        loop, self._loop = self._loop, None
        if loop is not None and not loop.is_closed():
            try:
                loop.remove_reader(self._fd)
            except RuntimeError:  # another thread's loop, running
                pass
        lib = self._lib
        lib.queue_free(q)
        for tok in self._tokens:
            lib.cancel_token_free(tok)
        self._tokens = []
        # The tokens of calls still in flight are left: their calls may not
        # have returned yet (a few bytes each, only when closing timed out).
        pending, self._pending = self._pending, {}
        for p in pending.values():
            fut = p.future
            if fut is not None and not fut.done() and loop is not None and not loop.is_closed():
                fut.set_exception(errors.CancelledError(
                    f"the client of {self.service.id} was closed with the call in flight", rc=_lib.E_CANCELLED))

    async def __aenter__(self: _A) -> _A:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def __del__(self) -> None:
        try:
            self._release()
        except Exception:
            pass

    def __repr__(self) -> str:
        state = "" if self._queue is not None else " (closed)"
        at = self.endpoint if self.endpoint is not None else "the endpoint its rules resolve"
        return f"<smithycurl.aio.AsyncClient {self.service.id} at {at}{state}>"


class AsyncTransfers:
    """``client.s3`` of the asyncio client: the synchronous transfers on a
    worker thread (``loop.run_in_executor``), each with its cancel token;
    cancelling the task cancels the transfer and returns once it stopped
    (a multipart upload aborted). ``progress`` is called on the event
    loop's thread (``loop.call_soon_threadsafe``); a file object is read or
    written on the worker thread."""

    def __init__(self, sync: _transfer.Transfers, lib: _lib.Library) -> None:
        self._sync = sync
        self._lib = lib

    async def upload_file(self, path: _transfer.StrPath, bucket: str, key: str, *, part_size: int = 0, threshold: int = 0,
                          concurrency: int = 0, progress: Optional[_transfer.Progress] = None) -> _transfer.UploadResult:
        """Transfers.upload_file, awaitable."""
        return await self._run(lambda p, t: self._sync._upload(path, bucket, key, part_size, threshold, concurrency,
                                                               p, t), progress)

    async def upload_fileobj(self, fileobj: Any, bucket: str, key: str, *, part_size: int = 0, threshold: int = 0,
                             concurrency: int = 0, progress: Optional[_transfer.Progress] = None) -> _transfer.UploadResult:
        """Transfers.upload_fileobj, awaitable."""
        src = _body.Source(fileobj, "fileobj")
        return await self._run(lambda p, t: self._sync._upload(src, bucket, key, part_size, threshold, concurrency,
                                                               p, t), progress)

    async def download_file(self, bucket: str, key: str, path: _transfer.StrPath, *, part_size: int = 0, concurrency: int = 0,
                            progress: Optional[_transfer.Progress] = None) -> _transfer.DownloadResult:
        """Transfers.download_file, awaitable."""
        return await self._run(lambda p, t: self._sync._download(bucket, key, path, part_size, concurrency, p, t),
                               progress)

    async def download_fileobj(self, bucket: str, key: str, fileobj: Any, *, part_size: int = 0,
                               concurrency: int = 0, progress: Optional[_transfer.Progress] = None) -> _transfer.DownloadResult:
        """Transfers.download_fileobj, awaitable."""
        sink = _body.Sink(fileobj)
        return await self._run(lambda p, t: self._sync._download(bucket, key, sink, part_size, concurrency, p, t),
                               progress)

    async def _run(self, fn: Callable[[Optional[_transfer.Progress], int], _T], progress: Optional[_transfer.Progress]) -> _T:
        loop = asyncio.get_running_loop()
        on_loop: Optional[_transfer.Progress] = None
        if progress is not None:
            report = progress

            def on_loop(done: int, total: int) -> None:
                loop.call_soon_threadsafe(report, done, total)

        lib = self._lib
        tok = ctypes.c_void_p()
        lib.cancel_token_new(ctypes.byref(tok))
        assert tok.value is not None
        token: int = tok.value

        def run() -> _T:
            return fn(on_loop, token)

        fut = loop.run_in_executor(None, run)
        try:
            return await asyncio.shield(fut)
        except asyncio.CancelledError:
            lib.cancel_token_cancel(token)
            try:
                await fut  # until the transfer stopped (the upload aborted)
            except BaseException:
                pass
            raise
        finally:
            if fut.done():
                lib.cancel_token_free(token)


def _drain(ref: "weakref.ref[AsyncClient]") -> None:
    """The reader callback of a client's queue descriptor (a weak
    reference: an idle client nobody holds is collected, and closed)."""
    client = ref()
    if client is not None:
        client._complete()


__all__ = ["AsyncClient", "AsyncOperation", "AsyncPaginator", "AsyncTransfers", "AsyncWaiter"]
