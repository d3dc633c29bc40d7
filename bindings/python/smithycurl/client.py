"""Clients: one per service and endpoint, operations as snake_case methods."""

from __future__ import annotations

import ctypes
import threading

from . import _body as _streamed, _codec, _interrupt, _lib, _paginate, _payload, _presign, _result, _transfer, errors
from ._closing import Closing
from ._eventstream import EventStream as EventStream
from ._operation import Operation as Operation
from ._waiter import Waiter as Waiter, _Waiters

# Importable from here too: the trace logger, and _dumps for testing/proptest's frontends.py.
from ._json import dumps as _dumps  # noqa: F401
from ._options import trace_logger as trace_logger

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

    from ._info import ModelLike, ServiceInfo


class _Namespace:
    """``client.types`` and ``client.errors``: the model's classes by shape
    name (``client.types.Pizza``) or id (``client.types["ns#Pizza"]``)."""

    def __init__(self, client: Client, errors_only: bool) -> None:
        self._client = client
        self._errors_only = errors_only

    def _all(self) -> dict[str, Any]:
        c = self._client
        for op in c.service.operations:
            c.model.operation_shapes(op.name, c.service.id)
        reg = c.model.registry
        out: dict[str, Any] = {}
        for sid, shape in sorted(reg.shapes.items()):
            t = shape.get("type")
            is_err = bool(shape.get("error"))
            if self._errors_only != is_err:
                continue
            if t in ("structure", "union", "enum", "intEnum"):
                cls = reg.class_for(sid)
                out.setdefault(_codec.class_name(sid), cls)
                out[sid] = cls
                if t == "union":
                    for member_cls in reg.codecs[sid].member_classes.values():
                        out.setdefault(member_cls.__name__, member_cls)
        return out

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return self._all()[name]
        except KeyError:
            raise AttributeError(f"{self._client.service.id} has no {'error' if self._errors_only else 'type'} {name!r}") from None

    def __getitem__(self, key: str) -> Any:
        return self._all()[key]

    def __dir__(self) -> list[str]:
        return sorted(k for k in self._all() if "#" not in k)

    def __repr__(self) -> str:
        return f"<{'errors' if self._errors_only else 'types'} of {self._client.service.id}: {', '.join(self.__dir__())}>"


class Client(Closing):
    """A client of one service at one endpoint. Safe to share between
    threads; calls release the GIL. Operations are methods named in
    snake_case (``client.get_ip()``); ``client.call("GetIp")`` also works.
    ``with client:`` closes it; a closed client's calls raise UsageError.
    Modeled errors are ``client.errors.<Name>``, classes
    ``client.types.<Name>``.
    """

    def __init__(self, model: ModelLike, service: ServiceInfo, handle: int, endpoint: Optional[str], keep: Any) -> None:
        self.model = model
        self.service = service
        self.endpoint = endpoint
        self._handle: Optional[int] = handle
        self._lib = model._lib
        self._keep = keep
        self._ops = {op.py_name: op for op in service.operations}
        self._lock = threading.Lock()
        self.types = _Namespace(self, False)
        self.errors = _Namespace(self, True)
        #: The service's waiters: ``client.wait.table_exists(table_name="t", max_wait=60)``.
        self.wait = _Waiters(self)
        self.paginate = _paginate.Paginate(self)
        #: Presigned URLs: ``client.presign.get_object(bucket="b", key="k", expires_in=3600)``.
        self.presign = _presign.Presigners(self)
        #: S3 transfers: ``client.s3.upload_file(path, bucket, key)``, ``client.s3.download_file(bucket, key, path)``.
        self.s3 = _transfer.Transfers(self)

    @property
    def operations(self) -> tuple[str, ...]:
        """The Python names of the operations."""
        return tuple(self._ops)

    def _operation(self, name: str) -> Operation:
        info = self._ops.get(name)
        if info is None:
            info = self.service.operation(name)
        with self._lock:
            op = self.__dict__.get(info.py_name)
            if not isinstance(op, Operation):
                op = Operation(self, info)
                self.__dict__[info.py_name] = op  # later lookups skip __getattr__
        return op

    def __getattr__(self, name: str) -> Operation:
        if name.startswith("_") or name not in self.__dict__.get("_ops", {}):
            ops = ", ".join(self.__dict__.get("_ops", {}))
            raise AttributeError(f"{type(self).__name__} of {self.service.id} has no operation {name!r}; it has: {ops}")
        return self._operation(name)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | set(self._ops))

    def call(self, operation: str, input: Any = None, /, **kwargs: Any) -> Any:
        """Calls an operation by its Smithy name ("GetIp"), id or Python name."""
        return self._operation(operation)(input, **kwargs)

    def _call(self, op: Operation, body: bytes, source: Optional[_streamed.Source] = None,
              sink: Optional[_streamed.Sink] = None, token: Optional[int] = None) -> Any:
        h = self._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        r = ctypes.c_void_p()
        if source is None and sink is None:
            rc = _interrupt.call(self._lib, h, op._op, body, r)
        else:
            rc = _streamed.call_stream(self._lib, h, op._op, body, source, sink, r, token)
        return self._outcome(op, rc, r)

    def _call_payload(self, op: Operation, body: bytes, payload: Any, token: Optional[int] = None) -> Any:
        """A call with its blob payloads as bytes (smithycurl_call_payload):
        payload (bytes-like or str; None: none) read in place."""
        h = self._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        p, keep = _payload.struct(payload)
        r = ctypes.c_void_p()
        rc = _interrupt.run(self._lib, r, self._lib.call_payload, h, op._op, body, len(body), ctypes.byref(p), token=token)
        del keep  # read in place until here
        if rc != _lib.OK:
            return self._outcome(op, rc, r)
        raw, data = _result.output_payload(self._lib, r)
        return op._with_payload(op._output(raw), data)

    def _wait(self, w: Waiter, body: bytes, max_wait_ms: int, token: Optional[int] = None) -> Any:
        """Runs a waiter; with token (a cancel token the caller owns), that
        token cancels it, and Ctrl-C is not watched (the asynchronous
        client's waiters, on a worker thread)."""
        h = self._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        lib = self._lib
        r = ctypes.c_void_p()
        if token is None:
            rc = _interrupt.wait(lib, h, w._name, body, max_wait_ms, r)
        else:
            rc = lib.wait(h, w._name, body, len(body), max_wait_ms, token, ctypes.byref(r))
        if rc not in (_lib.E_WAITER_FAILURE, _lib.E_WAITER_TIMEOUT) or not r.value:
            return self._outcome(w.operation, rc, r)
        try:
            exc = w.operation._error(lib, rc, r)
            assert isinstance(exc, errors.WaiterError)
            exc.waiter = w.name
            s, status = ctypes.c_char_p(), ctypes.c_int()
            lib.result_error_shape(r, ctypes.byref(s))
            exc.shape_id = (s.value or b"").decode()
            lib.result_error_code(r, ctypes.byref(s))
            exc.error_code = (s.value or b"").decode("utf-8", "replace")
            lib.result_http_status(r, ctypes.byref(status))
            exc.status = status.value
        finally:
            lib.result_free(r)
        raise exc

    def _outcome(self, op: Operation, rc: int, r: ctypes.c_void_p) -> Any:
        """The decoded output of a call or wait that returned rc and result
        r (freed here), or the exception it raises."""
        return op._output(self._raw_outcome(op, rc, r))

    def _raw_outcome(self, op: Operation, rc: int, r: ctypes.c_void_p) -> str:
        """The output JSON of a call or wait that returned rc and result r
        (freed here), or the exception it raises."""
        if rc == _lib.OK:
            return _result.output(self._lib, r)
        if rc == _lib.E_INVALID_HANDLE and not r.value:
            raise errors.UsageError(f"the client of {self.service.id} is closed", rc=rc)
        raise _result.failure(self._lib, rc, r, op)

    def _stream(self, op: Operation, body: bytes) -> EventStream[Any]:
        h = self._handle
        if h is None:
            raise errors.UsageError(f"the client of {self.service.id} is closed")
        lib = self._lib
        r, s = ctypes.c_void_p(), ctypes.c_void_p()
        # The stream's own cancel token: Ctrl-C while it waits ends it.
        tok = ctypes.c_void_p()
        lib.cancel_token_new(ctypes.byref(tok))
        assert tok.value is not None
        try:
            rc = _interrupt.run(lib, r, lambda _t, out: int(lib.event_stream_open(
                h, op._op, body, len(body), tok, out, ctypes.byref(s))), token=tok.value)
        except BaseException:
            lib.cancel_token_free(tok)
            raise
        if rc != _lib.OK:
            lib.cancel_token_free(tok)
            raise _result.failure(lib, rc, r, op)
        raw = _result.output(lib, r)
        stream: EventStream[Any] = EventStream(op, lib, s.value, tok.value)
        try:
            stream.initial = op._decode(raw)
        except (ValueError, TypeError, KeyError) as e:
            stream.close()
            raise errors.DecodeError(f"{op.info.name}: cannot decode the initial output {raw[:200]!r}: {e}") from e
        return stream

    def close(self) -> None:
        """Closes the connections; calls in flight fail with CancelledError.
        Idempotent."""
        h, self._handle = self._handle, None
        if h is not None:
            self._lib.client_free(h)

    def __repr__(self) -> str:
        state = "" if self._handle is not None else " (closed)"
        at = self.endpoint if self.endpoint is not None else "the endpoint its rules resolve"
        return f"<smithycurl.Client {self.service.id} at {at}{state}>"

