"""Operations: a client's callable per operation, turning its arguments into
the input JSON and the C API's result into the output class or exception."""

from __future__ import annotations

import ctypes

from . import _body as _streamed, _codec, _lib, _payload, _scalars, errors
from ._json import EMPTY, dumps, exact_loads, loads, utf8
from .errors import ServiceError
from .types import snake_case

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping, Optional, Protocol, Union

    from ._eventstream import EventStream
    from ._info import ModelLike, OperationInfo, ServiceInfo

    class OperationClient(Protocol):
        """What an operation uses of its client (a Client)."""

        model: ModelLike
        service: ServiceInfo
        _lib: _lib.Library
        _handle: Optional[int]

        def _call(self, op: Operation, body: bytes, source: Optional[_streamed.Source] = None,
                  sink: Optional[_streamed.Sink] = None, token: Optional[int] = None) -> Any: ...

        def _call_payload(self, op: Operation, body: bytes, payload: Any) -> Any: ...

        def _stream(self, op: Operation, body: bytes) -> EventStream[Any]: ...


class Operation:
    """One operation of a client, callable: ``client.get_menu(restaurant="x")``
    or ``client.get_menu(GetMenuRequest(...))`` or with a dict."""

    def __init__(self, client: OperationClient, info: OperationInfo) -> None:
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
        # The string members beyond the model's that the client's AWS
        # customizations take (SourceRegion), by Python name and by name.
        self._extra = {snake_case(n): n for n in info.extra_input} if self._in else {}
        self._extra.update({n: n for n in self._extra.values()})
        self._errors = tuple(data.get("errors", ()))
        self._exact = _codec.reaches_big_decimal(shapes)
        self._in_decimal = self._exact
        # The @streaming blob payloads (Smithy member names), "" when none.
        self._stream_in = self._stream_out = ""
        for key, sid in (("_stream_in", info.input), ("_stream_out", info.output)):
            for m in (shapes.get(sid) or {}).get("members") or ():
                if m.get("streaming") == "blob" and (m.get("http") or {}).get("location") == "payload":
                    setattr(self, key, m["name"])
        # The blob payloads, streaming or not (Smithy member names, "" when
        # none), as the library names them: they go as bytes beside the
        # document (payload calls) when the library has those calls.
        blob = data.get("blob_payload") or {}
        self._blob_in: str = blob.get("input", "")
        self._blob_out: str = blob.get("output", "")
        self._bytes = bool(self._blob_in or self._blob_out) and client._lib.has("call_payload")
        self._in_py = self._in.by_key[self._blob_in].py if self._in and self._blob_in else ""
        self._out_py = self._out.by_key[self._blob_out].py if self._out and self._blob_out else ""
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
        if source is None and self._bytes:
            payload = None
            if self._blob_in:
                input, kwargs, payload = _payload.take(self._blob_in, self._in_py, input, kwargs)
            return self._client._call_payload(self, self._body(input, kwargs), payload)
        return self._client._call(self, self._body(input, kwargs), source)

    def _with_payload(self, out: Any, payload: Optional[bytes]) -> Any:
        """The output of a payload call with its payload member set."""
        if payload is not None and out is not None and self._out_py:
            setattr(out, self._out_py, payload)
        return out

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

    def stream(self, input: Any = None, /, **kwargs: Any) -> EventStream[Any]:
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
                    if m is None and k in self._extra:
                        self._put_extra(body_obj, k, v)
                        continue
                    if m is None:
                        raise TypeError(
                            f"{self.info.py_name}() got an unexpected keyword argument {k!r}; "
                            f"valid: {', '.join([*kw, *map(snake_case, self.info.extra_input)]) or '(none)'}"
                        )
                    if v is not None:
                        e = m.codec.enc
                        body_obj[m.name] = e(v) if e is not None else v
            except errors.UsageError as err:
                raise _scalars.for_input(_scalars.at_member(err, k), self.info.name)
            body = dumps(body_obj)
        elif input is not None:
            if self._in is None:
                raise TypeError(f"{self.info.py_name}() takes no input")
            assert self._in.enc is not None
            extra: dict[str, Any] = {}
            if isinstance(input, dict) and any(k in self._extra for k in input):
                input = dict(input)
                for k in [k for k in input if k in self._extra]:
                    self._put_extra(extra, k, input.pop(k))
            try:
                body = dumps({**self._in.enc(input), **extra})
            except errors.UsageError as err:
                raise _scalars.for_input(err, self.info.name)
        else:
            return EMPTY
        if self._in_decimal:
            body = _scalars.fix_decimals(body)
        return utf8(body, self.info.name)

    def _put_extra(self, body: dict[str, Any], key: str, value: Any) -> None:
        """Sets the extra (unmodeled) string member key names in body."""
        if value is None:
            return
        if not isinstance(value, str):
            raise errors.UsageError(f"input for {self.info.name}: member {self._extra[key]}: "
                                    f"expected a string, got {type(value).__name__}")
        body[self._extra[key]] = value

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
        if source is None and sink is None and self._bytes:
            args, payload = self._members_payload(args)
            return self._client._call_payload(self, self._members_body(args), payload)
        return self._client._call(self, self._members_body(args), source, sink)

    def _members_payload(self, args: Mapping[str, Any]) -> tuple[Mapping[str, Any], Any]:
        """The input's members by Smithy name without the payload member
        when it goes as bytes (a payload call), and that value (None: none)."""
        name = self._blob_in
        if not name or not isinstance(args.get(name), _payload.BYTES):
            return args, None
        rest = dict(args)
        return rest, rest.pop(name)

    def _members_body(self, args: Mapping[str, Any]) -> bytes:
        """The input JSON of _call_members."""
        if self._in is None:
            return EMPTY
        by_key = self._in.by_key
        body_obj: dict[str, Any] = {}
        k = ""
        try:
            for k, v in args.items():
                if k not in by_key and k in self._extra:
                    self._put_extra(body_obj, k, v)
                elif v is not None:
                    e = by_key[k].codec.enc
                    body_obj[k] = e(v) if e is not None else v
        except errors.UsageError as err:
            raise _scalars.for_input(_scalars.at_member(err, by_key[k].py), self.info.name)
        body = dumps(body_obj)
        if self._in_decimal:
            body = _scalars.fix_decimals(body)
        return utf8(body, self.info.name)

    def _decode(self, raw: Union[str, bytes]) -> Any:
        if self._out is None:
            return None
        return self._decode_obj(self._parse(raw))

    def _parse(self, raw: Union[str, bytes]) -> Any:
        """An output's (or error's) JSON, parsed (big decimals exactly)."""
        s = raw if isinstance(raw, str) else raw.decode()
        return exact_loads(s) if self._exact else loads(s)

    def _decode_obj(self, obj: Any) -> Any:
        """The output class of a parsed output."""
        out = self._out
        if out is None:
            return None
        assert out.dec is not None
        return out.dec(obj)

    def _output(self, raw: Union[str, bytes], parsed: Any = None) -> Any:
        """The output of a call's raw output JSON (parsed: the same, parsed
        already), a decode failure raised as DecodeError."""
        try:
            return self._decode(raw) if parsed is None else self._decode_obj(parsed)
        except (ValueError, TypeError, KeyError) as e:
            raise errors.DecodeError(f"{self.info.name}: cannot decode the output {raw[:200]!r}: {e}") from e

    def _decode_event(self, raw: Union[str, bytes]) -> Any:
        """An event ({"member": {...}}) as the stream union's class."""
        obj = self._parse(raw)
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
        reached = ctypes.c_int()
        lib.result_may_have_reached(r, ctypes.byref(reached))
        s = ctypes.c_char_p()
        lib.result_error_message(r, ctypes.byref(s))
        message = (s.value or b"").decode("utf-8", "replace")
        if kind.value != _lib.KIND_SERVICE:
            if rc == _lib.E_NOT_FOUND:
                return errors.NotFoundError(message, rc=rc)
            err = errors.for_kind(kind.value)(message, rc=rc, attempts=attempts.value)
            err.may_have_reached = bool(reached.value)
            return err
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
                    members = codec.dec(exact_loads(raw.decode()) if self._exact else loads(raw.decode()))
            except (ValueError, TypeError):
                members = {}
            cls = codec.cls
            exc: ServiceError = cls(message, _meta=meta, **{k: v for k, v in members.items() if k != "message" or v is not None})
            return exc
        meta.body = raw.decode("utf-8", "replace")
        return ServiceError(message, _meta=meta)

