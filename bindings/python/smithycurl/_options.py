"""A client's options: the options handle of the C API made from the
keyword arguments of Model.client, and the trace logger."""

from __future__ import annotations

import ctypes
import json
import sys

from . import _lib, errors
from ._contract import CLIENT_OPTIONS

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping, Optional, Sequence
    from typing import Union as TUnion

    # (the option named in errors, a setter's arguments[, another setter to call])
    Call = TUnion[tuple[str, tuple[Any, ...]], tuple[str, tuple[Any, ...], str]]
    Calls = list[Call]


def trace_logger() -> Any:
    """The "smithycurl.trace" logger (logging imported on first use)."""
    _lib.logger()
    import logging

    return logging.getLogger("smithycurl.trace")


def make_options(lib: _lib.Library, **o: Any) -> tuple[int, Any]:
    """An options handle (the caller frees it) and what the client must keep
    alive (the trace and identity callbacks). o holds every keyword of
    CLIENT_OPTIONS; one at its default is not set."""
    h = ctypes.c_void_p()
    lib.options_new(ctypes.byref(h))
    keep: list[Any] = []

    def s(v: Optional[str], what: str) -> Optional[bytes]:
        # C strings end at NUL: a value holding one would be cut silently.
        if v is not None and "\x00" in v:
            raise errors.UsageError(f"option {what}: the value contains a control character (NUL; the value is not shown)")
        return None if v is None else v.encode()

    def ms(v: float, what: str) -> int:
        if v <= 0:
            raise errors.UsageError(f"option {what}: give a positive number of seconds (None: the default)")
        return max(1, int(round(v * 1000)))

    def retries(what: str, r: TUnion[bool, int]) -> Calls:
        # False and 0 send once, as the CLI's --retries 0.
        return [(what, (0, 0) if r is False or r == 0 else (1, int(r)))]

    def tls(what: str, ca: Optional[str], cert: Optional[str], key: Optional[str], insecure: bool) -> Calls:
        return [(what, (s(ca, "ca_file"), s(cert, "cert_file"), s(key, "key_file"), int(bool(insecure))))]

    def aws(what: str, c: Mapping[str, Optional[str]]) -> Calls:
        keys = ("access_key_id", "secret_access_key", "session_token", "region")
        unknown = sorted(str(k) for k in c if k not in keys)
        if unknown:  # a misspelt key would drop its value silently
            raise errors.UsageError(f"option {what}: unknown key {', '.join(map(repr, unknown))} (known: {', '.join(keys)})")
        return [(what, tuple(s(c.get(k), what) for k in keys))]

    def endpoint_params(what: str, params: Mapping[str, TUnion[str, bool]]) -> Calls:
        calls: Calls = []
        for k, v in params.items():
            if isinstance(v, bool):
                v = "true" if v else "false"
            if not isinstance(v, str):
                raise errors.UsageError(f"option {what}[{k!r}]: {type(v).__name__} is not a str or bool")
            calls.append((f"{what}[{k!r}]", (s(k, what), s(v, what))))
        return calls

    def identity(what: str, p: Any, make: str) -> Calls:
        from . import _identity  # only for a callable

        cb = getattr(_identity, make)(what, p)
        keep.append(cb)
        return [(what, (cb, None))]

    def api_key(what: str, v: Any) -> Calls:
        if isinstance(v, str):
            return [(what, (s(v, what),))]
        from . import _identity

        cb = _identity.token_callback(what, v)
        keep.append(cb)
        return [(what, (cb, None), "options_set_api_key_fn")]

    def trace(what: str, t: TUnion[bool, Callable[[dict[str, Any]], None], None]) -> Calls:
        if not t:
            return []
        fn: Callable[[dict[str, Any]], None] = t if callable(t) else _log_trace

        def on_event(_user: Any, ptr: Any, n: int) -> None:
            try:
                fn(json.loads(ctypes.string_at(ptr, n)))
            except Exception:  # never let it unwind into C
                trace_logger().exception("smithycurl trace callback failed")

        cb = _lib.TRACE_FN(on_event)
        keep.append(cb)
        return [(what, (cb, None))]

    def interceptors(what: str, objs: Sequence[Any]) -> Calls:
        from . import _hooks

        return [(f"{what}[{i}]", (ctypes.byref(_hooks.interceptor_struct(lib, obj, keep)),))
                for i, obj in enumerate(objs)]

    def auth_schemes(what: str, signers: Mapping[str, Callable[[Any], Any]]) -> Calls:
        from . import _hooks

        calls: Calls = []
        for scheme, sign in signers.items():
            cb = _hooks.hook_callback(lib, sign)
            keep.append(cb)
            calls.append((f"{what}[{scheme!r}]", (s(scheme, what), cb, None)))
        return calls

    # The calls of each C setter, from the values of its keywords in the
    # order CLIENT_OPTIONS gives them.
    convert: dict[str, Callable[..., Calls]] = {
        "options_set_timeout_ms": lambda what, v: [(what, (ms(v, what),))],
        "options_set_connect_timeout_ms": lambda what, v: [(what, (ms(v, what),))],
        "options_set_retries": retries,
        "options_set_validation": lambda what, v: [(what, (int(bool(v)),))],
        "options_set_max_response_bytes": lambda what, v: [(what, (int(v),))],
        "options_add_header": lambda what, hs: [(f"{what}[{k!r}]", (s(k, what), s(v, what))) for k, v in hs.items()],
        "options_set_user_agent": lambda what, v: [(what, (s(v, what),))],
        "options_set_bearer_token": lambda what, v: [(what, (s(v, what),))],
        "options_set_basic_auth": lambda what, v: [(what, (s(v[0], what), s(v[1], what)))],
        "options_set_api_key": api_key,
        "options_set_aws_sigv4": aws,
        "options_set_aws_credentials_fn": lambda what, p: identity(what, p, "aws_callback"),
        "options_set_token_fn": lambda what, p: identity(what, p, "token_callback"),
        "options_set_tls": tls,
        "options_set_proxy": lambda what, v: [(what, (s(v, what),))],
        "options_set_host_prefix": lambda what, v: [(what, (int(bool(v)),))],
        "options_set_region": lambda what, v: [(what, (s(v, what),))],
        "options_set_profile": lambda what, v: [(what, (s(v, what),))],
        "options_set_request_checksum_calculation": lambda what, v: [(what, (s(v, what),))],
        "options_set_response_checksum_validation": lambda what, v: [(what, (s(v, what),))],
        "options_set_retry_mode": lambda what, v: [(what, (s(v, what),))],
        "options_set_request_min_compression_size": lambda what, v: [(what, (int(v),))],
        "options_set_disable_request_compression": lambda what, v: [(what, (int(bool(v)),))],
        "options_set_app_id": lambda what, v: [(what, (s(v, what),))],
        "options_set_endpoint_discovery": lambda what, v: [(what, (s(("false", "true")[v] if isinstance(v, bool) else v, what),))],
        "options_set_endpoint_param": endpoint_params,
        "options_set_waiter_delays": lambda what, v: [(what, (int(round(v[0] * 1000)), int(round(v[1] * 1000))))],
        "options_set_async_limits": lambda what, n, m: [(what, (int(n or 0), int(m or 0)))],
        "options_set_trace": trace,
        "options_add_interceptor": interceptors,
        "options_add_auth_scheme": auth_schemes,
        "options_set_trace_spans": lambda what, v: [(what, (int(bool(v)),))],
        "options_set_digest_auth": lambda what, v: [(what, (s(v[0], what), s(v[1], what)))],
    }
    try:
        for setter, keywords in SETTERS.items():
            if all(o[k] is CLIENT_OPTIONS[k][1] for k in keywords):
                continue
            for call in convert[setter]("/".join(keywords), *(o[k] for k in keywords)):
                what, args, fn = call if len(call) == 3 else (*call, setter)
                rc = getattr(lib, fn)(h, *args)
                if rc != _lib.OK:
                    msg = _lib.errmsg(lib, lib.options_errmsg, h) or lib.strerror(rc).decode()
                    raise errors.UsageError(f"option {what}: {msg}", rc=rc)
        if lib.has("options_set_front_end"):  # an AWS service's User-Agent names Python
            v = sys.version_info
            lib.options_set_front_end(h, b"python", f"{v.major}.{v.minor}.{v.micro}".encode())
    except BaseException:
        lib.options_free(h)
        raise
    assert h.value is not None
    return h.value, keep


def _setters() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for keyword, (setter, _) in CLIENT_OPTIONS.items():
        out.setdefault(setter, []).append(keyword)
    return out


#: The C setters of CLIENT_OPTIONS, in its order, and their keywords.
SETTERS = _setters()


def _log_trace(event: dict[str, Any]) -> None:
    if event.get("phase") == "request":
        trace_logger().debug("> %s %s", event.get("method"), event.get("url"))
    else:
        trace_logger().debug(
            "< %s %s %s %sus%s", event.get("status", "-"), event.get("method"), event.get("url"),
            event.get("took_us", "?"), f" error: {event['error']}" if event.get("error") else "",
        )

