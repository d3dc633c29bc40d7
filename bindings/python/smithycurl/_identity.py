"""The identity options credentials=, token= and api_key= (a callable):
the C API's identity callbacks, calling Python on a library thread. What
the callable returns is checked and handed over; an exception fails the
call that needed it with the exception's message, never unwinding into C."""

from __future__ import annotations

import ctypes

from . import _lib, errors

# At run time too: generated clients name Provider in their signatures
# (typing is loaded by the package already).
from typing import Any, Callable, Optional, Protocol
from typing import Union as TUnion


class IdentityProvider(Protocol):
    """An object whose retrieve() returns an identity."""

    def retrieve(self) -> Any: ...


#: credentials=, token=, api_key=: a function of no arguments, or an
#: object with retrieve(), returning the identity.
Provider = TUnion[Callable[[], Any], IdentityProvider]

AWS_KEYS = ("access_key_id", "secret_access_key", "session_token", "expiration")
TOKEN_KEYS = ("value", "expiration")


def _getter(what: str, provider: Any) -> Callable[[], Any]:
    retrieve = getattr(provider, "retrieve", None)
    if callable(retrieve):
        return retrieve  # type: ignore[no-any-return]
    if callable(provider):
        return provider  # type: ignore[no-any-return]
    raise errors.UsageError(f"option {what}: give a function of no arguments, or an object with retrieve(); "
                            f"{type(provider).__name__} is neither")


def _fields(what: str, v: Any, keys: tuple[str, ...]) -> dict[str, Any]:
    """The keys of a mapping or the attributes of an object."""
    if isinstance(v, dict) or (hasattr(v, "keys") and hasattr(v, "__getitem__")):
        unknown = sorted(str(k) for k in v.keys() if k not in keys)
        if unknown:  # a misspelt key would drop its value silently
            raise ValueError(f"{what} returned unknown key {', '.join(map(repr, unknown))} (known: {', '.join(keys)})")
        return {k: v[k] for k in keys if k in v}
    return {k: getattr(v, k) for k in keys if hasattr(v, k)}


def _text(what: str, name: str, v: Any) -> Optional[bytes]:
    if v is None:
        return None
    if not isinstance(v, str):
        raise TypeError(f"{what}: {name} is a {type(v).__name__}, not a str")
    if "\x00" in v:
        raise ValueError(f"{what}: {name} contains a NUL character (the value is not shown)")
    return v.encode()


def _epoch(what: str, v: Any) -> int:
    """expiration as seconds since the epoch (0: never): a datetime (naive
    is UTC), a number, or None."""
    import datetime  # only when a callable gives an expiration

    if v is None:
        return 0
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        return max(1, int(v.timestamp()))
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        return int(v)
    raise TypeError(f"{what}: expiration is a {type(v).__name__}, not a datetime or seconds since the epoch")


def _error(buf: Any, size: int, e: BaseException) -> int:
    """Writes e's message (cut at a character, NUL-terminated) to the
    callback's error buffer; returns the callback's failure code."""
    msg = f"{type(e).__name__}: {e}".encode("utf-8", "replace")[: max(0, size - 1)]
    msg = msg.decode("utf-8", "ignore").encode()
    if buf and size > 0:
        ctypes.memmove(buf, msg + b"\x00", len(msg) + 1)
    return 1


class _Callback:
    """A provider as a C callback. The strings of the last identity are
    kept until the next call: the library copies them once the callback
    returns, and calls it one at a time per options handle."""

    def __init__(self, what: str, provider: Any) -> None:
        self.what = what
        self.get = _getter(what, provider)
        self.held: tuple[Optional[bytes], ...] = ()

    def aws(self, _user: Any, out: Any, err: Any, size: int) -> int:
        try:
            f = _fields(self.what, self.get(), AWS_KEYS)
            held = tuple(_text(self.what, k, f.get(k)) for k in AWS_KEYS[:3])
            exp = _epoch(self.what, f.get("expiration"))
            self.held = held
            c = out.contents
            c.access_key_id, c.secret_access_key, c.session_token = held
            c.expiration = exp
            return 0
        except BaseException as e:  # never let it unwind into C
            return _error(err, size, e)

    def token(self, _user: Any, out: Any, err: Any, size: int) -> int:
        try:
            v = self.get()
            f = {"value": v} if isinstance(v, str) else _fields(self.what, v, TOKEN_KEYS)
            held = (_text(self.what, "value", f.get("value")),)
            exp = _epoch(self.what, f.get("expiration"))
            self.held = held
            t = out.contents
            t.value = held[0]
            t.expiration = exp
            return 0
        except BaseException as e:
            return _error(err, size, e)


def aws_callback(what: str, provider: Any) -> Any:
    """smithycurl_options_set_aws_credentials_fn's callback for provider."""
    return _lib.AWS_CREDENTIALS_FN(_Callback(what, provider).aws)


def token_callback(what: str, provider: Any) -> Any:
    """smithycurl_options_set_token_fn's (and _api_key_fn's) callback."""
    return _lib.TOKEN_FN(_Callback(what, provider).token)
