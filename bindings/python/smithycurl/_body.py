"""Streamed bodies: a @streaming blob payload read from a file object (or
an iterable of chunks) and written to one, through the read, rewind and
write callbacks of smithycurl_call_stream_v2, never held whole in memory.

The callbacks run on the calling thread, with the GIL taken back for them.
An exception in one (the file's read raising, KeyboardInterrupt arriving
while Python code runs in it) never unwinds into C: the first one is kept,
the callback returns its failure code (which aborts the transfer, and no
retry follows), and call_stream raises it once the C call has returned.
"""

from __future__ import annotations

import ctypes
import io
import os
import queue
import stat
import threading
from typing import Any, Iterable, Iterator, Optional, Protocol, Union

from . import _interrupt, _lib, errors
from ._closing import Closing


class Readable(Protocol):
    """A binary file object, or anything with ``read(n) -> bytes``."""

    def read(self, n: int = ..., /) -> bytes: ...


class Writable(Protocol):
    """A binary file object, or anything with ``write(b)`` (returning the
    bytes it took, or None for all of them)."""

    def write(self, b: bytes, /) -> Optional[int]: ...


#: What a @streaming blob payload member takes: bytes or str (sent from the
#: document, as any blob), a binary file object or readable (streamed), or
#: an iterable of bytes chunks (streamed, chunked).
BodySource = Union[bytes, bytearray, memoryview, str, Readable, Iterable[bytes]]

_BYTES = (bytes, bytearray, memoryview, str)


def is_stream(value: Any) -> bool:
    """Whether a payload member's value is streamed (a readable or an
    iterable of chunks) rather than sent from the document (bytes, str)."""
    if value is None or isinstance(value, _BYTES):
        return False
    if callable(getattr(value, "read", None)):
        return True
    try:
        memoryview(value)  # bytes-like (array.array, mmap): from the document
        return False
    except TypeError:
        return hasattr(value, "__iter__")


def take_source(name: str, py: str, input: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any], Optional[Source]]:
    """Takes the payload member (Smithy name, Python name) out of a call's
    input (a dict or dataclass) or keywords when it is streamed, and
    returns them with its Source; bytes and str stay where they are (sent
    from the document)."""
    if py in kwargs and is_stream(kwargs[py]):
        kwargs = dict(kwargs)
        return input, kwargs, Source(kwargs.pop(py), py)
    if isinstance(input, dict):
        key = name if name in input else py
        if is_stream(input.get(key)):
            input = dict(input)
            return input, kwargs, Source(input.pop(key), py)
    elif input is not None and is_stream(getattr(input, py, None)):
        import dataclasses

        return dataclasses.replace(input, **{py: None}), kwargs, Source(getattr(input, py), py)
    return input, kwargs, None


class _Transfer:
    """One call's callbacks and the first exception they raised."""

    def __init__(self) -> None:
        self.error: Optional[BaseException] = None

    def fail(self, e: BaseException) -> None:
        if self.error is None:
            self.error = e


class Source(_Transfer):
    """The request body: a readable, or an iterable of bytes chunks."""

    def __init__(self, value: Any, member: str) -> None:
        super().__init__()
        self.member = member
        self.size = -1
        self.start: Optional[int] = None  # where a seekable body started
        self._chunks: Optional[Iterator[Any]] = None
        self._left = memoryview(b"")
        self._readinto: Any = None
        self._read: Any = None
        self._seek: Any = None
        if callable(getattr(value, "read", None)):
            if isinstance(value, io.TextIOBase):
                raise errors.InputTypeError(
                    f"member {member}: a text file; open it in binary mode ('rb')", rc=_lib.E_USAGE)
            self._read = value.read
            self._readinto = getattr(value, "readinto", None)
            self._measure(value)
        else:
            self._chunks = iter(value)

    def _measure(self, f: Any) -> None:
        """The size from the file's position to its end (fstat of a regular
        file, else seeking to the end and back), and the position to rewind
        to when it is seekable; size -1 (chunked) when neither works."""
        try:
            seekable = bool(f.seekable()) if callable(getattr(f, "seekable", None)) else False
        except (OSError, ValueError):
            seekable = False
        if not seekable:
            return
        try:
            pos = f.tell()
            try:
                st = os.fstat(f.fileno())
                end = st.st_size if stat.S_ISREG(st.st_mode) else None
            except (AttributeError, OSError, ValueError, io.UnsupportedOperation):
                end = None
            if end is None:
                end = f.seek(0, io.SEEK_END)
                f.seek(pos)
        except (OSError, ValueError, io.UnsupportedOperation):
            return
        self.start, self.size = pos, max(0, end - pos)
        self._seek = f.seek

    def read(self, _user: Any, buf: int, cap: int) -> int:
        if self.error is not None:
            return -1
        try:
            if self._chunks is not None:
                return self._from_chunks(buf, cap)
            if self._readinto is not None:
                n = self._readinto(memoryview((ctypes.c_char * cap).from_address(buf)).cast("B"))
            else:
                data = self._read(cap)
                if isinstance(data, str):
                    raise TypeError(f"member {self.member}: read() returned str; open the file in binary mode ('rb')")
                n = None if data is None else len(data)
                if n:
                    if n > cap:
                        raise ValueError(f"member {self.member}: read({cap}) returned {n} bytes")
                    ctypes.memmove(buf, bytes(data), n)
            if n is None:
                raise BlockingIOError(f"member {self.member}: the file is non-blocking and has no data ready")
            return int(n)
        except BaseException as e:  # never into C; KeyboardInterrupt too
            self.fail(e)
            return -1

    def _from_chunks(self, buf: int, cap: int) -> int:
        left = self._left
        while not len(left):
            assert self._chunks is not None
            chunk = next(self._chunks, None)
            if chunk is None:
                return 0
            if isinstance(chunk, str) or not isinstance(chunk, (bytes, bytearray, memoryview)):
                raise TypeError(f"member {self.member}: a chunk of the body is {type(chunk).__name__}, not bytes")
            left = memoryview(chunk).cast("B")
        n = min(cap, len(left))
        ctypes.memmove(buf, bytes(left[:n]), n)
        self._left = left[n:]
        return n

    def rewind(self, _user: Any) -> int:
        if self.error is not None:  # a callback failed: no retry
            return 1
        try:
            assert self.start is not None
            self._seek(self.start)
            return 0
        except BaseException as e:
            self.fail(e)
            return 1


class Sink(_Transfer):
    """The response body's writable."""

    def __init__(self, f: Any) -> None:
        super().__init__()
        write = getattr(f, "write", None)
        if not callable(write):
            raise TypeError(f"the body's destination must have a write method (a binary file object), not {type(f).__name__}")
        if isinstance(f, io.TextIOBase):
            raise TypeError("the body's destination is a text file; open it in binary mode ('wb')")
        self._write = write
        self.written = 0

    def write(self, _user: Any, data: int, n: int) -> int:
        try:
            view = memoryview(ctypes.string_at(data, n))  # a copy: f may keep what it is given
            while len(view):
                k = self._write(view)
                k = len(view) if k is None else int(k)  # None: a writer that returns nothing took it all
                if k <= 0:
                    raise OSError(f"the body's destination wrote {k} bytes")
                view = view[k:]
            self.written += n
            return 0
        except BaseException as e:
            self.fail(e)
            return 1


def call_stream(lib: _lib.Library, client: int, op: bytes, body: bytes, source: Optional[Source],
                sink: Optional[Sink], out: ctypes.c_void_p, token: Optional[int] = None) -> int:
    """smithycurl_call_stream_v2 with source and sink, interruptible by
    Ctrl-C as any call. Returns the code; raises the first exception of a
    callback (after freeing the result), or KeyboardInterrupt."""
    keep = []  # the ctypes callbacks live until the call returns
    # A callback at address 0 is a NULL pointer.
    read, rewind, write = _lib.READ_FN(0), _lib.REWIND_FN(0), _lib.WRITE_FN(0)
    size = -1
    if source is not None:
        read = _lib.READ_FN(source.read)
        keep.append(read)
        size = source.size
        if source.start is not None:
            rewind = _lib.REWIND_FN(source.rewind)
            keep.append(rewind)
    if sink is not None:
        write = _lib.WRITE_FN(sink.write)
        keep.append(write)
    # A KeyboardInterrupt the watcher raised here wins over a callback's error.
    rc = _interrupt.run(lib, out, lib.call_stream_v2, client, op, body, len(body), read, rewind, None, size,
                        write, None, token=token)
    err = source.error if source is not None else None
    if err is None and sink is not None:
        err = sink.error
    if err is not None:
        if isinstance(err, KeyboardInterrupt):
            _interrupt.drain()
        if out.value:
            lib.result_free(out)
            out.value = None
        raise err
    del keep
    return rc


class _Closed(Exception):
    """The reader of a BodyChunks closed it: the transfer stops."""


_END = object()


class _ChunkPipe:
    """What the helper thread of a BodyChunks shares with it (never the
    BodyChunks itself, which can then be collected, and closed, while the
    thread runs): the bounded queue of chunks and the closed flag."""

    def __init__(self) -> None:
        self.q: queue.Queue[Any] = queue.Queue(maxsize=16)
        self.closed = threading.Event()
        self.output: Any = None

    def put(self, item: Any) -> None:
        while not self.closed.is_set():
            try:
                self.q.put(item, timeout=0.1)
                return
            except queue.Full:
                pass
        raise _Closed()

    def write(self, b: memoryview) -> int:
        """The write callback's file object (Sink gives it a private copy)."""
        obj = b.obj
        self.put(obj if isinstance(obj, bytes) and len(obj) == len(b) else bytes(b))
        return len(b)

    def run(self, call: Any, token: int) -> None:
        try:
            self.output = call(Sink(self), token)
            item: Any = _END
        except BaseException as e:  # handed to the reader
            item = e
        try:
            self.put(item)
        except _Closed:
            pass


class BodyChunks(Closing):
    """The streamed body of an operation's output as an iterator of bytes
    chunks (``client.get_object.iter_body(bucket="b", key="k")``), read as
    they arrive; ``output`` is the output without the body once the
    iteration has ended. The call runs on a helper thread whose write
    callback hands the chunks over through a bounded queue (at most 16
    libcurl writes, 16 KiB each, are held). ``close()``, the end of a
    ``with`` block or collection stops the transfer; an error of the call
    is raised by the iteration; Ctrl-C while it waits for a chunk raises
    KeyboardInterrupt and stops it. Use it from one thread at a time."""

    def __init__(self, lib: _lib.Library, call: Any) -> None:
        self._lib = lib
        self._pipe = _ChunkPipe()
        self._done = False
        tok = ctypes.c_void_p()
        lib.cancel_token_new(ctypes.byref(tok))
        assert tok.value is not None
        self._token: Optional[int] = tok.value
        self._thread = threading.Thread(target=self._pipe.run, args=(call, tok.value), name="smithycurl-body",
                                        daemon=True)
        self._thread.start()

    @property
    def output(self) -> Any:
        """The output without the body; None until the iteration ended."""
        return self._pipe.output

    def __iter__(self) -> Iterator[bytes]:
        return self

    def __next__(self) -> bytes:
        if self._done:
            raise StopIteration
        try:
            item = self._pipe.q.get()
        except BaseException:  # Ctrl-C while waiting
            self.close()
            raise
        if isinstance(item, bytes):
            return item
        self._done = True
        self._finish()
        if item is _END:
            raise StopIteration
        raise item

    def read_all(self) -> bytes:
        """The rest of the body in one bytes object (held in memory)."""
        return b"".join(self)

    def _finish(self) -> None:
        self._thread.join()
        tok, self._token = self._token, None
        if tok is not None:
            self._lib.cancel_token_free(tok)

    def close(self) -> None:
        """Stops the transfer if the body is not over. Idempotent."""
        if self._token is None:
            return
        self._done = True
        self._pipe.closed.set()
        self._lib.cancel_token_cancel(self._token)
        while self._thread.is_alive():
            try:
                self._pipe.q.get(timeout=0.1)
            except queue.Empty:
                pass
        self._finish()

    def __repr__(self) -> str:
        return f"<smithycurl.BodyChunks{' (ended)' if self._done else ''}>"
