"""Interceptors and custom auth schemes: Python objects behind the C API's
smithycurl_interceptor and smithycurl_options_add_auth_scheme."""

from __future__ import annotations

import ctypes
import json

from . import _lib

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

#: The hooks, in the order a call reaches them (smithycurl_hook); the
#: fields of smithycurl_interceptor after size and user_data.
HOOKS = (
    "read_before_execution", "modify_before_serialization", "read_before_serialization",
    "read_after_serialization", "modify_before_retry_loop", "read_before_attempt", "modify_before_signing",
    "read_before_signing", "read_after_signing", "modify_before_transmit", "read_before_transmit",
    "read_after_transmit", "modify_before_deserialization", "read_before_deserialization",
    "read_after_deserialization", "modify_before_attempt_completion", "read_after_attempt",
    "modify_before_completion", "read_after_execution",
)
SIGN = 100  # SMITHYCURL_HOOK_SIGN

# smithycurl_hook_field
_OPERATION, _ATTEMPT, _INPUT, _METHOD, _URL, _REQUEST_HEADER, _REQUEST_BODY, _STATUS = range(1, 9)
_RESPONSE_HEADER, _RESPONSE_BODY, _OUTPUT, _ERROR, _SCHEME, _TRAIT, _SIGNING_TIME = range(9, 16)


class Interceptor:
    """A client's hooks at the Smithy client reference points (smithy-java's
    ClientInterceptor, smithy-python's Interceptor). Subclass it and define
    the hooks you need, each ``hook(self, ctx: HookContext) -> None``; the
    others are never called. They run in this order::

        read_before_execution
        modify_before_serialization       ctx.input may be replaced
        read_before_serialization
        read_after_serialization          ctx.method, url, request headers and body
        modify_before_retry_loop          ... may be changed
        per attempt:
          read_before_attempt
          modify_before_signing, read_before_signing, read_after_signing
          modify_before_transmit, read_before_transmit
          read_after_transmit             ctx.status, response headers and body
          modify_before_deserialization   ... may be changed
          read_before_deserialization, read_after_deserialization
          modify_before_attempt_completion  ctx.output may be set
          read_after_attempt
        modify_before_completion          ctx.output may be set
        read_after_execution

    A hook that raises fails the call with the exception's type and message
    (UsageError; the attempt is not retried); the completion hooks still
    run. The exception never reaches the library. Hooks run on the thread
    that makes the call (a library thread for an async client).
    """


class HookContext:
    """What a hook or a signer sees of its call, during the callback only."""

    __slots__ = ("_lib", "_ctx")

    def __init__(self, lib: _lib.Library, ctx: int) -> None:
        self._lib = lib
        self._ctx = ctx

    def _get(self, field: int, name: Optional[str] = None) -> Optional[bytes]:
        v = ctypes.c_void_p()
        n = ctypes.c_size_t()
        rc = self._lib.hook_get(self._ctx, field, None if name is None else name.encode(), ctypes.byref(v),
                                ctypes.byref(n))
        if rc != _lib.OK or not v.value:
            return None
        return ctypes.string_at(v.value, n.value)

    def _set(self, field: int, value: Optional[bytes], name: Optional[str] = None) -> None:
        rc = self._lib.hook_set(self._ctx, field, None if name is None else name.encode(), value,
                                ctypes.c_size_t(-1 if value is None else len(value)))
        if rc != _lib.OK:
            from . import errors

            raise errors.UsageError(f"this hook cannot set {_FIELD_NAMES[field]}" + (f" {name!r}" if name else ""))

    def _text(self, field: int, name: Optional[str] = None) -> Optional[str]:
        b = self._get(field, name)
        return None if b is None else b.decode()

    def _set_text(self, field: int, value: Optional[str], name: Optional[str] = None) -> None:
        self._set(field, None if value is None else value.encode(), name)

    @property
    def operation(self) -> str:
        """The operation's name."""
        return self._text(_OPERATION) or ""

    @property
    def attempt(self) -> int:
        """The attempt's number, 1 for the first; 0 before the retry loop."""
        return int(self._text(_ATTEMPT) or 0)

    @property
    def input(self) -> Any:
        """The input document (modify_before_serialization may set it)."""
        b = self._get(_INPUT)
        return json.loads(b) if b else {}

    @input.setter
    def input(self, v: Any) -> None:
        self._set(_INPUT, json.dumps(v).encode())

    @property
    def method(self) -> Optional[str]:
        return self._text(_METHOD)

    @method.setter
    def method(self, v: str) -> None:
        self._set_text(_METHOD, v)

    @property
    def url(self) -> Optional[str]:
        return self._text(_URL)

    @url.setter
    def url(self, v: str) -> None:
        self._set_text(_URL, v)

    def request_header(self, name: str) -> Optional[str]:
        return self._text(_REQUEST_HEADER, name)

    def set_request_header(self, name: str, value: Optional[str]) -> None:
        """Sets a request header (None removes it)."""
        self._set_text(_REQUEST_HEADER, value, name)

    @property
    def request_body(self) -> Optional[bytes]:
        return self._get(_REQUEST_BODY)

    @request_body.setter
    def request_body(self, v: bytes) -> None:
        self._set(_REQUEST_BODY, v)

    @property
    def status(self) -> Optional[int]:
        """The response's status (from read_after_transmit)."""
        t = self._text(_STATUS)
        return None if t is None else int(t)

    @status.setter
    def status(self, v: int) -> None:
        self._set(_STATUS, str(v).encode())

    def response_header(self, name: str) -> Optional[str]:
        return self._text(_RESPONSE_HEADER, name)

    def set_response_header(self, name: str, value: Optional[str]) -> None:
        self._set_text(_RESPONSE_HEADER, value, name)

    @property
    def response_body(self) -> Optional[bytes]:
        return self._get(_RESPONSE_BODY)

    @response_body.setter
    def response_body(self, v: bytes) -> None:
        self._set(_RESPONSE_BODY, v)

    @property
    def output(self) -> Any:
        """The output document of a successful attempt or call, else None;
        the completion Modify hooks may set it (the call then succeeds)."""
        b = self._get(_OUTPUT)
        return None if b is None else json.loads(b)

    @output.setter
    def output(self, v: Any) -> None:
        self._set(_OUTPUT, json.dumps(v).encode())

    @property
    def error(self) -> Optional[str]:
        """The failure's message so far, or None."""
        return self._text(_ERROR)

    @property
    def scheme(self) -> Optional[str]:
        """A signer's auth scheme (its trait's shape id)."""
        return self._text(_SCHEME)

    @property
    def trait(self) -> Any:
        """A signer's auth trait value on the service."""
        b = self._get(_TRAIT)
        return None if b is None else json.loads(b)

    @property
    def signing_time(self) -> Optional[str]:
        """A signer's signing time, RFC 3339 UTC ("2026-12-02T05:00:00Z")."""
        return self._text(_SIGNING_TIME)


_FIELD_NAMES = {_INPUT: "input", _METHOD: "method", _URL: "url", _REQUEST_HEADER: "request header",
                _REQUEST_BODY: "request body", _STATUS: "status", _RESPONSE_HEADER: "response header",
                _RESPONSE_BODY: "response body", _OUTPUT: "output", _ERROR: "error"}


def hook_callback(lib: _lib.Library, fn: Callable[[HookContext], Any]) -> Any:
    """A C hook (or signer) calling fn; an exception fails the call with its
    message and never unwinds into C."""

    def hook(_user: Any, ctx: Optional[int]) -> int:
        try:
            fn(HookContext(lib, ctx or 0))
            return 0
        except BaseException as e:  # never let it unwind into C
            msg = f"{type(e).__name__}: {e}".encode("utf-8", "replace")
            lib.hook_set(ctx, _ERROR, None, msg, len(msg))
            return 1

    return _lib.HOOK_FN(hook)


def _overrides(obj: Any, name: str) -> bool:
    fn = getattr(type(obj), name, None)
    return callable(fn) and fn is not getattr(Interceptor, name, None)


def interceptor_struct(lib: _lib.Library, obj: Any, keep: list[Any]) -> _lib.InterceptorStruct:
    """The smithycurl_interceptor of obj: a hook for each method of HOOKS it
    defines (the callbacks go to keep, which must outlive the client)."""
    st = _lib.InterceptorStruct()
    st.size = ctypes.sizeof(_lib.InterceptorStruct)
    for name in HOOKS:
        if _overrides(obj, name):
            cb = hook_callback(lib, getattr(obj, name))
            keep.append(cb)
            setattr(st, name, cb)
    keep.append(st)
    return st
