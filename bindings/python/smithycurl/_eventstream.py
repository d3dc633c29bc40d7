"""Event streams: the events of an operation whose output is one, read as
they arrive (smithycurl_event_stream_* of the C API)."""

from __future__ import annotations

import ctypes
from typing import Generic, TypeVar  # loaded already by _body and _paginate

from . import _interrupt, _lib, _result, errors
from ._closing import Closing

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Protocol

    from ._result import FailingOperation

    class EventOperation(FailingOperation, Protocol):
        """What a stream uses of its operation (an Operation)."""

        def _decode_event(self, raw: str) -> Any: ...


_E = TypeVar("_E")  # an event stream's event: its union's classes


class EventStream(Closing, Generic[_E]):
    """The events of an operation whose output is an event stream
    (``client.tick.stream(count=3)``), read as they arrive: iterate it for
    each event (an instance of the stream union's class); ``initial`` is the
    output without its stream member. A modeled exception event raises its
    error class (a ServiceError), an error message a ServiceError, a
    malformed or cut stream DecodeError or TransportError; the stream ends
    there. ``with stream:`` or ``close()`` ends the transfer early; Ctrl-C
    while it waits for an event raises KeyboardInterrupt at once and ends
    it. Use it from one thread at a time."""

    def __init__(self, op: EventOperation, lib: _lib.Library, handle: Optional[int], token: Optional[int]) -> None:
        self.initial: Any = None
        self._op = op
        self._lib = lib
        self._handle = handle
        self._token = token  # the stream's cancel token (Ctrl-C), freed by close

    def __iter__(self) -> "EventStream[_E]":
        return self

    def __next__(self) -> _E:
        h = self._handle
        if h is None:
            raise StopIteration
        lib = self._lib
        ev = ctypes.c_void_p()
        try:
            rc = _interrupt.run(lib, ev, lambda _t, out: int(lib.event_stream_next(h, out)), token=self._token)
        except KeyboardInterrupt:
            self.close()
            raise
        if rc == _lib.E_END:
            self.close()
            raise StopIteration
        if rc != _lib.OK:
            self.close()
            raise _result.failure(lib, rc, ev, self._op)
        raw = _result.output(lib, ev)
        try:
            event: _E = self._op._decode_event(raw)
            return event
        except (ValueError, TypeError, KeyError) as e:
            self.close()
            raise errors.DecodeError(f"{self._op.info.name}: cannot decode the event {raw[:200]!r}: {e}") from e

    def close(self) -> None:
        """Ends the transfer if events are left. Idempotent."""
        h, self._handle = self._handle, None
        if h is not None:
            self._lib.event_stream_free(h)
        tok, self._token = self._token, None
        if tok is not None:
            self._lib.cancel_token_free(tok)

    def __repr__(self) -> str:
        state = "" if self._handle is not None else " (ended)"
        return f"<smithycurl.EventStream of {self._op.info.id}{state}>"
