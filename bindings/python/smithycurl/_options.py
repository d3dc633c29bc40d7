"""A client's options: the options handle of the C API made from the
keyword arguments of Model.client, and the trace logger."""

from __future__ import annotations

import ctypes
import json

from . import _lib, errors

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional


def trace_logger() -> Any:
    """The "smithycurl.trace" logger (logging imported on first use)."""
    _lib.logger()
    import logging

    return logging.getLogger("smithycurl.trace")


def make_options(lib: _lib.Library, **o: Any) -> tuple[int, Any]:
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

