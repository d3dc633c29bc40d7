"""Clients: one per service and endpoint, operations as snake_case methods."""

from __future__ import annotations

import ctypes
import json
import threading

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping, Optional, Union as TUnion

from typing import Generic, TypeVar  # loaded already by _paginate (its Paginator is generic too)

from . import _body as _streamed, _codec, _interrupt, _lib, _paginate, _scalars, errors
from ._closing import Closing
from ._contract import E_USAGE
from .errors import ServiceError
from .types import snake_case

if TYPE_CHECKING:
    from .model import Model, OperationInfo, ServiceInfo

_E = TypeVar("_E")  # an event stream's event: its union's classes



def trace_logger() -> Any:
    """The "smithycurl.trace" logger (logging imported on first use)."""
    _lib.logger()
    import logging

    return logging.getLogger("smithycurl.trace")


# json.dumps and json.loads, with the C encoder and scanner they use made
# once instead of at each call (JSONEncoder.encode builds its encoder every
# time, decode matches whitespace twice around the scan): 1 us less each way.
# Same output; anything unusual (leading or trailing whitespace, bad JSON)
# goes through json's own path, for its results and errors.
def _utf8(body: str, operation: str) -> bytes:
    """The UTF-8 of an input's JSON; a lone surrogate (a str that is not
    Unicode text) is an input error naming the top-level member and the
    JSON pointer of the value, not a UnicodeEncodeError."""
    try:
        return body.encode()
    except UnicodeEncodeError:
        where = _surrogate_pointer(json.loads(body))
        err = errors.UsageError(f"a str with a lone surrogate is not Unicode text (at {where or '/'})", rc=E_USAGE)
        top = where.split("/")[1] if where.count("/") else ""
        if top:
            err = _scalars.at_member(err, top.replace("~1", "/").replace("~0", "~"))
        raise _scalars.for_input(err, operation) from None


def _surrogate_pointer(v: Any) -> str:
    """The JSON pointer (RFC 6901) of the first str, key or value, in a
    decoded input that holds a lone surrogate, or ""."""
    def bad(s: str) -> bool:
        return any("\ud800" <= c <= "\udfff" for c in s)

    def seg(k: Any) -> str:
        return "/" + str(k).replace("~", "~0").replace("/", "~1")

    if isinstance(v, str):
        return "" if not bad(v) else "/"
    items = v.items() if isinstance(v, dict) else enumerate(v) if isinstance(v, list) else ()
    for k, item in items:
        if isinstance(k, str) and bad(k):
            return seg(k)
        sub = _surrogate_pointer(item)
        if sub:
            return seg(k) + ("" if sub == "/" else sub)
    return ""


_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_c_encode: Any = None
if _c_make_encoder is not None:
    _c_encode = _c_make_encoder(None, _encoder.default, getattr(json.encoder, "encode_basestring"), None,
                                _encoder.key_separator, _encoder.item_separator, False, False, True)


def _dumps(o: Any) -> str:
    if _c_encode is None:
        return _encoder.encode(o)
    return "".join(_c_encode(o, 0))


def _scanner_loads(decoder: json.JSONDecoder) -> Callable[[str], Any]:
    scan = getattr(decoder, "scan_once")
    slow = decoder.decode

    def loads(s: str) -> Any:
        try:
            obj, end = scan(s, 0)
        except StopIteration:
            return slow(s)
        return obj if end == len(s) else slow(s)

    return loads


_loads = _scanner_loads(json.JSONDecoder())
_exact_loads = _scanner_loads(json.JSONDecoder(parse_float=_scalars.ExactFloat))
_EMPTY = b"{}"


def _make_options(lib: _lib.Library, **o: Any) -> tuple[int, Any]:
    """An options handle (the caller frees it) and what the client must keep
    alive (the trace callback)."""
    h = ctypes.c_void_p()
    lib.options_new(ctypes.byref(h))
    keep: Any = None

    def check(rc: int, what: str) -> None:
        if rc != _lib.OK:
            msg = _lib.errmsg(lib, lib.options_errmsg, h) or lib.strerror(rc).decode()
            lib.options_free(h)
            raise errors.UsageError(f"option {what}: {msg}", rc=rc)

    def s(v: Optional[str], what: str = "") -> Optional[bytes]:
        # C strings end at NUL: a value holding one would be cut silently.
        if v is not None and "\x00" in v:
            lib.options_free(h)
            raise errors.UsageError(f"option {what}: the value contains a control character (NUL; the value is not shown)")
        return None if v is None else v.encode()

    def ms(v: float) -> int:
        return max(1, int(round(v * 1000)))

    if o["timeout"] is not None:
        check(lib.options_set_timeout_ms(h, ms(o["timeout"])), "timeout")
    if o["connect_timeout"] is not None:
        check(lib.options_set_connect_timeout_ms(h, ms(o["connect_timeout"])), "connect_timeout")
    r = o["retries"]
    if r is False:
        check(lib.options_set_retries(h, 0, 0), "retries")
    elif r is not True:
        check(lib.options_set_retries(h, 1, int(r)), "retries")
    for k, v in (o["headers"] or {}).items():
        check(lib.options_add_header(h, k.encode(), v.encode()), f"headers[{k!r}]")
    if o["user_agent"] is not None:
        check(lib.options_set_user_agent(h, s(o["user_agent"])), "user_agent")
    if o["bearer_token"] is not None:
        check(lib.options_set_bearer_token(h, s(o["bearer_token"], "bearer_token")), "bearer_token")
    if o["basic_auth"] is not None:
        user, password = o["basic_auth"]
        check(lib.options_set_basic_auth(h, s(user, "basic_auth"), s(password, "basic_auth")), "basic_auth")
    if o["api_key"] is not None:
        check(lib.options_set_api_key(h, s(o["api_key"], "api_key")), "api_key")
    aws = o["aws_credentials"]
    if aws is not None:
        check(lib.options_set_aws_sigv4(
            h, s(aws.get("access_key_id"), "aws_credentials"), s(aws.get("secret_access_key"), "aws_credentials"),
            s(aws.get("session_token"), "aws_credentials"), s(aws.get("region"), "aws_credentials")), "aws_credentials")
    if o["ca_file"] or o["cert_file"] or o["key_file"] or o["insecure"]:
        check(lib.options_set_tls(h, s(o["ca_file"]), s(o["cert_file"]), s(o["key_file"]), int(bool(o["insecure"]))), "tls")
    if o["proxy"] is not None:
        check(lib.options_set_proxy(h, s(o["proxy"])), "proxy")
    if o["validate"]:
        check(lib.options_set_validation(h, 1), "validate")
    if not o["host_prefix"]:
        check(lib.options_set_host_prefix(h, 0), "host_prefix")
    if o["max_response_bytes"] is not None:
        check(lib.options_set_max_response_bytes(h, int(o["max_response_bytes"])), "max_response_bytes")
    if o["waiter_delays"] is not None:
        lo, hi = o["waiter_delays"]
        check(lib.options_set_waiter_delays(h, int(round(lo * 1000)), int(round(hi * 1000))), "waiter_delays")
    if o["region"] is not None:
        check(lib.options_set_region(h, s(o["region"], "region")), "region")
    if o["max_transfers"] is not None or o["max_host_connections"] is not None:
        check(lib.options_set_async_limits(h, int(o["max_transfers"] or 0), int(o["max_host_connections"] or 0)),
              "max_transfers/max_host_connections")
    for k, v in (o["endpoint_params"] or {}).items():
        if isinstance(v, bool):
            v = "true" if v else "false"
        if not isinstance(v, str):
            lib.options_free(h)
            raise errors.UsageError(f"option endpoint_params[{k!r}]: {type(v).__name__} is not a str or bool")
        check(lib.options_set_endpoint_param(h, s(k, "endpoint_params"), s(v, "endpoint_params")), f"endpoint_params[{k!r}]")
    trace = o["trace"]
    if trace:
        fn: Callable[[dict[str, Any]], None] = trace if callable(trace) else _log_trace

        def on_event(_user: Any, ptr: Any, n: int) -> None:
            try:
                fn(json.loads(ctypes.string_at(ptr, n)))
            except Exception:  # never let it unwind into C
                trace_logger().exception("smithycurl trace callback failed")

        keep = _lib.TRACE_FN(on_event)
        check(lib.options_set_trace(h, keep, None), "trace")
    assert h.value is not None
    return h.value, keep


def _log_trace(event: dict[str, Any]) -> None:
    if event.get("phase") == "request":
        trace_logger().debug("> %s %s", event.get("method"), event.get("url"))
    else:
        trace_logger().debug(
            "< %s %s %s %sus%s", event.get("status", "-"), event.get("method"), event.get("url"),
            event.get("took_us", "?"), f" error: {event['error']}" if event.get("error") else "",
        )


class Operation:
    """One operation of a client, callable: ``client.get_menu(restaurant="x")``
    or ``client.get_menu(GetMenuRequest(...))`` or with a dict."""

    def __init__(self, client: "Client", info: "OperationInfo") -> None:
        self._client = client
        self.info = info
        self.__name__ = info.py_name
        self.__qualname__ = f"{client.service.name}.{info.py_name}"
        model = client.model
        data = model.operation_shapes(info.name, client.service.id)
        reg = model.registry
        self._registry = reg
        self._op: bytes = info.name.encode()
        shapes = data.get("shapes", {})
        self._in = None if info.input == "smithy.api#Unit" else reg.codec(info.input, "structure")
        self._out: Optional[_codec._Codec] = (
            None if info.output == "smithy.api#Unit" else reg.codec(info.output, "structure")
        )
        self._kw: dict[str, _codec._Member] = {m.py: m for m in self._in.members} if self._in else {}
        self._errors = tuple(data.get("errors", ()))
        self._exact = _codec.reaches_big_decimal(shapes)
        self._in_decimal = self._exact
        # The @streaming blob payloads (Smithy member names), "" when none.
        self._stream_in = self._stream_out = ""
        for key, sid in (("_stream_in", info.input), ("_stream_out", info.output)):
            for m in (shapes.get(sid) or {}).get("members") or ():
                if m.get("streaming") == "blob" and (m.get("http") or {}).get("location") == "payload":
                    setattr(self, key, m["name"])
        self.__doc__ = self._doc(data.get("documentation", ""))

    def _doc(self, documentation: str) -> str:
        info = self.info
        lines = [documentation or f"Calls {info.id}."]
        if self._in and self._in.members:
            lines += ["", "Keyword arguments:"]
            for m in self._in.members:
                ann = _codec.annotation(m.type, m.target, self._registry.shapes)
                req = " (required)" if m.required else ""
                doc = f": {m.doc}" if m.doc else ""
                lines.append(f"    {m.py}: {ann}{req}{doc}")
        if self._out:
            lines += ["", f"Returns {_codec.class_name(info.output)}."]
        if self._errors:
            lines += ["", "Raises " + ", ".join(_codec.class_name(e) for e in self._errors) + " (ServiceError)."]
        return "\n".join(lines)

    def __repr__(self) -> str:
        names = ", ".join(self._kw)
        return f"<smithycurl operation {self.info.id}: {self.info.py_name}({names})>"

    def __call__(self, input: Any = None, /, **kwargs: Any) -> Any:
        input, kwargs, source = self._take_source(input, kwargs)
        return self._client._call(self, self._body(input, kwargs), source)

    def download(self, file: _streamed.Writable, input: Any = None, /, **kwargs: Any) -> Any:
        """Calls an operation whose output has a @streaming blob payload
        (S3 GetObject's Body), with the same arguments as calling it,
        writing that body to file (a binary file object, or anything with
        ``write(bytes)``) as it arrives instead of holding it in memory.
        Returns the output without the body. A call that wrote part of the
        body is not retried; an exception of file.write stops the transfer
        and is raised."""
        if not self._stream_out:
            raise errors.UsageError(f"{self.info.py_name}.download(): operation {self.info.name} has no streaming blob output payload")
        sink = _streamed.Sink(file)
        input, kwargs, source = self._take_source(input, kwargs)
        return self._client._call(self, self._body(input, kwargs), source, sink)

    def iter_body(self, input: Any = None, /, **kwargs: Any) -> _streamed.BodyChunks:
        """Calls an operation whose output has a @streaming blob payload,
        with the same arguments as calling it, and returns its body as an
        iterator of bytes chunks as they arrive (a BodyChunks: close it or
        use ``with``); its ``output`` (without the body) is set once the
        iteration has ended. Errors are raised by the iteration."""
        if not self._stream_out:
            raise errors.UsageError(f"{self.info.py_name}.iter_body(): operation {self.info.name} has no streaming blob output payload")
        input, kwargs, source = self._take_source(input, kwargs)
        body = self._body(input, kwargs)
        client = self._client
        return _streamed.BodyChunks(client._lib, lambda sink, token: client._call(self, body, source, sink, token))

    def _take_source(self, input: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any], Optional[_streamed.Source]]:
        """The input and keywords without the streaming payload member when
        it is a file object or chunks, and its Source."""
        name = self._stream_in
        if not name:
            return input, kwargs, None
        return _streamed.take_source(name, self._in.by_key[name].py if self._in else name, input, kwargs)

    def stream(self, input: Any = None, /, **kwargs: Any) -> "EventStream[Any]":
        """Calls an operation whose output is an event stream, with the same
        arguments as calling it. Returns once the initial response is in;
        iterate the returned EventStream for the events as they arrive."""
        return self._client._stream(self, self._body(input, kwargs))

    def _body(self, input: Any, kwargs: Mapping[str, Any]) -> bytes:
        """The input JSON of a call with input or keyword arguments."""
        if kwargs:
            if input is not None:
                raise TypeError(f"{self.info.py_name}() takes an input or keyword arguments, not both")
            body_obj: dict[str, Any] = {}
            kw = self._kw
            k = ""
            try:
                for k, v in kwargs.items():
                    m = kw.get(k)
                    if m is None:
                        raise TypeError(
                            f"{self.info.py_name}() got an unexpected keyword argument {k!r}; "
                            f"valid: {', '.join(kw) or '(none)'}"
                        )
                    if v is not None:
                        e = m.codec.enc
                        body_obj[m.name] = e(v) if e is not None else v
            except errors.UsageError as err:
                raise _scalars.for_input(_scalars.at_member(err, k), self.info.name)
            body = _dumps(body_obj)
        elif input is not None:
            if self._in is None:
                raise TypeError(f"{self.info.py_name}() takes no input")
            assert self._in.enc is not None
            try:
                body = _dumps(self._in.enc(input))
            except errors.UsageError as err:
                raise _scalars.for_input(err, self.info.name)
        else:
            return _EMPTY
        if self._in_decimal:
            body = _scalars.fix_decimals(body)
        return _utf8(body, self.info.name)

    def _call_members(self, args: Mapping[str, Any], download: Optional[_streamed.Writable] = None) -> Any:
        """Calls with the input's members by Smithy name (None: unset),
        writing a streaming output payload to download when given; for
        generated clients."""
        source = None
        name = self._stream_in
        if name and _streamed.is_stream(args.get(name)):
            args = dict(args)
            source = _streamed.Source(args.pop(name), self._in.by_key[name].py if self._in else name)
        if download is not None and not self._stream_out:
            raise errors.UsageError(f"operation {self.info.name} has no streaming blob output payload")
        sink = _streamed.Sink(download) if download is not None else None
        return self._client._call(self, self._members_body(args), source, sink)

    def _members_body(self, args: Mapping[str, Any]) -> bytes:
        """The input JSON of _call_members."""
        if self._in is None:
            return _EMPTY
        by_key = self._in.by_key
        body_obj: dict[str, Any] = {}
        k = ""
        try:
            for k, v in args.items():
                if v is not None:
                    e = by_key[k].codec.enc
                    body_obj[k] = e(v) if e is not None else v
        except errors.UsageError as err:
            raise _scalars.for_input(_scalars.at_member(err, by_key[k].py), self.info.name)
        body = _dumps(body_obj)
        if self._in_decimal:
            body = _scalars.fix_decimals(body)
        return _utf8(body, self.info.name)

    def _decode(self, raw: bytes) -> Any:
        if self._out is None:
            return None
        return self._decode_obj(self._parse(raw))

    def _parse(self, raw: bytes) -> Any:
        """An output's (or error's) JSON, parsed (big decimals exactly)."""
        return _exact_loads(raw.decode()) if self._exact else _loads(raw.decode())

    def _decode_obj(self, obj: Any) -> Any:
        """The output class of a parsed output."""
        out = self._out
        if out is None:
            return None
        assert out.dec is not None
        return out.dec(obj)

    def _output(self, raw: bytes, parsed: Any = None) -> Any:
        """The output of a call's raw output JSON (parsed: the same, parsed
        already), a decode failure raised as DecodeError."""
        try:
            return self._decode(raw) if parsed is None else self._decode_obj(parsed)
        except (ValueError, TypeError, KeyError) as e:
            raise errors.DecodeError(f"{self.info.name}: cannot decode the output {raw[:200]!r}: {e}") from e

    def _decode_event(self, raw: bytes) -> Any:
        """An event ({"member": {...}}) as the stream union's class."""
        obj = _exact_loads(raw.decode()) if self._exact else _loads(raw.decode())
        union = self._event_codec()
        return union.dec(obj) if union is not None and union.dec is not None else obj

    def _event_codec(self) -> Any:
        """The codec of the output's @streaming union, None when unknown."""
        for m in self._out.members if self._out else ():
            shape = self._registry.shapes.get(m.target) or {}
            if shape.get("type") == "union" and "smithy.api#streaming" in (shape.get("traits") or {}):
                return m.codec
        return None

    def _error(self, lib: _lib.Library, rc: int, r: ctypes.c_void_p) -> BaseException:
        kind, status, attempts = ctypes.c_int(), ctypes.c_int(), ctypes.c_int()
        lib.result_error_kind(r, ctypes.byref(kind))
        lib.result_http_status(r, ctypes.byref(status))
        lib.result_attempts(r, ctypes.byref(attempts))
        s = ctypes.c_char_p()
        lib.result_error_message(r, ctypes.byref(s))
        message = (s.value or b"").decode("utf-8", "replace")
        if kind.value != _lib.KIND_SERVICE:
            if rc == _lib.E_NOT_FOUND:
                return errors.NotFoundError(message, rc=rc)
            return errors.for_kind(kind.value)(message, rc=rc, attempts=attempts.value)
        lib.result_error_shape(r, ctypes.byref(s))
        shape = (s.value or b"").decode()
        lib.result_error_code(r, ctypes.byref(s))
        error_code = (s.value or b"").decode("utf-8", "replace")
        lib.result_request_id(r, ctypes.byref(s))
        request_id = (s.value or b"").decode("utf-8", "replace")
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        lib.result_error_members(r, ctypes.byref(p), ctypes.byref(n))
        raw = ctypes.string_at(p, n.value) if p.value else b""
        meta = errors.ErrorMeta(
            status=status.value, shape_id=shape, error_code=error_code, request_id=request_id,
            attempts=attempts.value,
        )
        if shape and shape in self._registry.shapes:
            codec = self._registry.codec(shape, "structure")
            members: dict[str, Any] = {}
            try:
                if raw:
                    assert codec.dec is not None
                    members = codec.dec(_exact_loads(raw.decode()) if self._exact else _loads(raw.decode()))
            except (ValueError, TypeError):
                members = {}
            cls = codec.cls
            exc: ServiceError = cls(message, _meta=meta, **{k: v for k, v in members.items() if k != "message" or v is not None})
            return exc
        meta.body = raw.decode("utf-8", "replace")
        return ServiceError(message, _meta=meta)


class _Namespace:
    """``client.types`` and ``client.errors``: the model's classes by shape
    name (``client.types.Pizza``) or id (``client.types["ns#Pizza"]``)."""

    def __init__(self, client: "Client", errors_only: bool) -> None:
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


class Waiter:
    """A waiter of the service (``smithy.waiters#waitable``), callable:
    ``client.wait.table_exists(table_name="t", max_wait=300)``. It calls
    its operation with the input (keyword arguments, a dataclass or a dict,
    as the operation takes) until an acceptor reaches the success state,
    sleeping between attempts as the Smithy specification says, and
    returns that call's output (an empty output when the success was an
    error, as for a "not exists" waiter). ``max_wait`` (seconds, required:
    the specification makes the caller choose) bounds the whole wait.

    Raises WaiterFailureError when a failure acceptor matched,
    WaiterTimeoutError when ``max_wait`` ran out, and the operation's own
    error (ServiceError, TransportError...) when an error no acceptor
    expects comes back. Ctrl-C raises KeyboardInterrupt at once.
    """

    def __init__(self, client: "Client", name: str, op: Operation) -> None:
        self._client = client
        self.name = name
        self.operation = op
        self._name = name.encode()
        self.__name__ = snake_case(name)
        self.__doc__ = f"Waits with {name} (calls {op.info.name}).\n\n" + (op.__doc__ or "")

    def __repr__(self) -> str:
        return f"<smithycurl waiter {self.name} of {self.operation.info.name}>"

    def __call__(self, input: Any = None, /, *, max_wait: float, **kwargs: Any) -> Any:
        return self._run(self.operation._body(input, kwargs), max_wait)

    def _run(self, body: bytes, max_wait: float, token: Optional[int] = None) -> Any:
        """Waits with the input JSON body; for generated clients too. With
        token, that cancel token (the caller's) cancels the wait."""
        if not max_wait > 0:
            raise errors.UsageError(f"{self.__name__}(): max_wait must be a positive number of seconds, not {max_wait!r}")
        return self._client._wait(self, body, max(1, int(round(max_wait * 1000))), token)


class _Waiters:
    """``client.wait``: the service's waiters by Python name
    (``client.wait.table_exists``) or Smithy name (``client.wait["TableExists"]``)."""

    def __init__(self, client: "Client") -> None:
        self._client = client
        self._by_py: dict[str, tuple[str, "OperationInfo"]] = {}
        for op in client.service.operations:
            for w in op.waiters:
                self._by_py[snake_case(w)] = (w, op)

    def _get(self, py: str) -> Waiter:
        name, info = self._by_py[py]
        return Waiter(self._client, name, self._client._operation(info.py_name))

    def __getattr__(self, name: str) -> Waiter:
        if name.startswith("__") or name not in self.__dict__.get("_by_py", {}):
            known = ", ".join(sorted(self.__dict__.get("_by_py", {}))) or "(none)"
            raise AttributeError(f"{self._client.service.id} has no waiter {name!r}; its waiters: {known}")
        w = self._get(name)
        self.__dict__[name] = w  # later lookups skip __getattr__
        return w

    def __getitem__(self, key: str) -> Waiter:
        for py, (name, _) in self._by_py.items():
            if key in (py, name):
                return self._get(py)
        raise KeyError(key)

    def __dir__(self) -> list[str]:
        return sorted(self._by_py)

    def __repr__(self) -> str:
        return f"<waiters of {self._client.service.id}: {', '.join(self.__dir__()) or '(none)'}>"


class Client(Closing):
    """A client of one service at one endpoint. Safe to share between
    threads; calls release the GIL. Operations are methods named in
    snake_case (``client.get_ip()``); ``client.call("GetIp")`` also works.
    ``with client:`` closes it; a closed client's calls raise UsageError.
    Modeled errors are ``client.errors.<Name>``, classes
    ``client.types.<Name>``.
    """

    def __init__(self, model: "Model", service: "ServiceInfo", handle: int, endpoint: Optional[str], keep: Any) -> None:
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

    def _raw_outcome(self, op: Operation, rc: int, r: ctypes.c_void_p) -> bytes:
        """The output JSON of a call or wait that returned rc and result r
        (freed here), or the exception it raises."""
        lib = self._lib
        if rc == _lib.OK:
            p, n = ctypes.c_void_p(), ctypes.c_size_t()
            try:
                lib.result_output(r, ctypes.byref(p), ctypes.byref(n))
                return ctypes.string_at(p, n.value)
            finally:
                lib.result_free(r)
        if not r.value:
            if rc == _lib.E_FORKED:
                raise errors.ForkedError()
            if rc == _lib.E_INVALID_HANDLE:
                raise errors.UsageError(f"the client of {self.service.id} is closed", rc=rc)
            raise errors.from_code(rc, lib.strerror(rc).decode(), op.info.name)
        try:
            exc = op._error(lib, rc, r)
        finally:
            lib.result_free(r)
        raise exc

    def _stream(self, op: Operation, body: bytes) -> "EventStream[Any]":
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
            if not r.value:
                if rc == _lib.E_FORKED:
                    raise errors.ForkedError()
                raise errors.from_code(rc, lib.strerror(rc).decode(), op.info.name)
            try:
                exc = op._error(lib, rc, r)
            finally:
                lib.result_free(r)
            raise exc
        try:
            p, n = ctypes.c_void_p(), ctypes.c_size_t()
            lib.result_output(r, ctypes.byref(p), ctypes.byref(n))
            raw = ctypes.string_at(p, n.value)
        finally:
            lib.result_free(r)
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

    def __init__(self, op: Operation, lib: _lib.Library, handle: Optional[int], token: Optional[int]) -> None:
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
            if not ev.value:
                raise errors.from_code(rc, lib.strerror(rc).decode(), self._op.info.name)
            try:
                exc = self._op._error(lib, rc, ev)
            finally:
                lib.result_free(ev)
            raise exc
        try:
            p, n = ctypes.c_void_p(), ctypes.c_size_t()
            lib.result_output(ev, ctypes.byref(p), ctypes.byref(n))
            raw = ctypes.string_at(p, n.value)
        finally:
            lib.result_free(ev)
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
