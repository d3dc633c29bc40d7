"""Finds and loads libsmithycurl.so and declares its C API for ctypes.

The library is loaded on first use, not at import: loading it starts the Go
runtime, and a process that forks before its first use of smithycurl keeps
usable children (see the package documentation on fork).

Where the library is looked for, in order:

1. ``$SMITHYCURL_LIBRARY``: the path of the ``.so`` (or of a folder holding
   it). When set, it is the only place tried: a wrong value is an error, not
   a silent fallback to another copy;
2. the package folder (``pip install`` copies the library built by ``make``
   there);
3. the system's paths (``LD_LIBRARY_PATH``, ``ldconfig``, ``ctypes.util``).
"""

from __future__ import annotations

import ctypes
import os
import sys
import threading

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

from . import errors
# The codes and kinds (re-exported: the package reads them from here).
from ._contract import (
    CODE_OF_KIND as CODE_OF_KIND,
    E_CANCELLED as E_CANCELLED,
    E_DECODE as E_DECODE,
    E_END as E_END,
    E_FORKED as E_FORKED,
    E_INTERNAL as E_INTERNAL,
    E_INVALID_ARGUMENT as E_INVALID_ARGUMENT,
    E_INVALID_HANDLE as E_INVALID_HANDLE,
    E_INVALID_JSON as E_INVALID_JSON,
    E_INVALID_UTF8 as E_INVALID_UTF8,
    E_LOAD as E_LOAD,
    E_NO_OUTPUT as E_NO_OUTPUT,
    E_NOMEM as E_NOMEM,
    E_NOT_FOUND as E_NOT_FOUND,
    E_SERVICE as E_SERVICE,
    E_TIMEOUT as E_TIMEOUT,
    E_TRANSPORT as E_TRANSPORT,
    E_USAGE as E_USAGE,
    E_VALIDATION as E_VALIDATION,
    E_WAITER_FAILURE as E_WAITER_FAILURE,
    E_WAITER_TIMEOUT as E_WAITER_TIMEOUT,
    KIND_CANCELLED as KIND_CANCELLED,
    KIND_DECODE as KIND_DECODE,
    KIND_NONE as KIND_NONE,
    KIND_SERVICE as KIND_SERVICE,
    KIND_TIMEOUT as KIND_TIMEOUT,
    KIND_TRANSPORT as KIND_TRANSPORT,
    KIND_USAGE as KIND_USAGE,
    KIND_VALIDATION as KIND_VALIDATION,
    OK as OK,
    VERSION_NUMBER as VERSION_NUMBER,
)


def logger() -> Any:
    """The "smithycurl" logger. logging is imported on first need, not at
    import (it costs a few ms of every process's start)."""
    import logging

    lg = logging.getLogger("smithycurl")
    if not lg.handlers:
        lg.addHandler(logging.NullHandler())
    return lg


#: The oldest library this package works with (0xXXYYZZ): the one it was
#: made with.
REQUIRED_VERSION = VERSION_NUMBER
LIBRARY_NAME = "libsmithycurl.so"

c_void_p = ctypes.c_void_p
c_char_p = ctypes.c_char_p
c_int = ctypes.c_int
c_long = ctypes.c_long
c_size_t = ctypes.c_size_t
P = ctypes.POINTER

TRACE_FN = ctypes.CFUNCTYPE(None, c_void_p, c_void_p, c_size_t)
# The callbacks of smithycurl_call_stream_v2 (data pointers as c_void_p:
# c_char_p would stop at a NUL).
READ_FN = ctypes.CFUNCTYPE(ctypes.c_longlong, c_void_p, c_void_p, c_size_t)
REWIND_FN = ctypes.CFUNCTYPE(c_int, c_void_p)
WRITE_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p, c_size_t)
# smithycurl_progress_fn of a transfer.
PROGRESS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, ctypes.c_longlong, ctypes.c_longlong)


class AWSCredentials(ctypes.Structure):
    """smithycurl_aws_credentials."""

    _fields_ = [("access_key_id", c_char_p), ("secret_access_key", c_char_p), ("session_token", c_char_p),
                ("expiration", ctypes.c_longlong)]


class Token(ctypes.Structure):
    """smithycurl_token."""

    _fields_ = [("value", c_char_p), ("expiration", ctypes.c_longlong)]


class TransferOptions(ctypes.Structure):
    """smithycurl_transfer_options."""

    _fields_ = [("size", ctypes.c_size_t), ("part_size", ctypes.c_longlong), ("threshold", ctypes.c_longlong),
                ("concurrency", c_int), ("progress", PROGRESS_FN), ("progress_data", c_void_p)]


class MockOptions(ctypes.Structure):
    """smithycurl_mock_options."""

    _fields_ = [("size", ctypes.c_size_t), ("fixtures_file", c_char_p), ("fixtures_json", c_char_p),
                ("seed", ctypes.c_longlong), ("max_body", ctypes.c_longlong)]


class Payload(ctypes.Structure):
    """smithycurl_payload: a call's input payload as bytes."""

    _fields_ = [("size", ctypes.c_size_t), ("data", c_void_p), ("len", ctypes.c_size_t), ("flags", ctypes.c_uint)]


# A hook of an interceptor, or a signer of a custom auth scheme.
HOOK_FN = ctypes.CFUNCTYPE(c_int, c_void_p, c_void_p)


class InterceptorStruct(ctypes.Structure):
    """smithycurl_interceptor: a hook per point (NULL where none)."""

    _fields_ = [("size", ctypes.c_size_t), ("user_data", c_void_p)] + [(name, HOOK_FN) for name in (
        "read_before_execution", "modify_before_serialization", "read_before_serialization",
        "read_after_serialization", "modify_before_retry_loop", "read_before_attempt", "modify_before_signing",
        "read_before_signing", "read_after_signing", "modify_before_transmit", "read_before_transmit",
        "read_after_transmit", "modify_before_deserialization", "read_before_deserialization",
        "read_after_deserialization", "modify_before_attempt_completion", "read_after_attempt",
        "modify_before_completion", "read_after_execution")]


# The identity callbacks (the error buffer as c_void_p: it is written to).
AWS_CREDENTIALS_FN = ctypes.CFUNCTYPE(c_int, c_void_p, P(AWSCredentials), c_void_p, c_size_t)
TOKEN_FN = ctypes.CFUNCTYPE(c_int, c_void_p, P(Token), c_void_p, c_size_t)


class Library:
    """The loaded library: its ctypes functions as attributes, named without
    the ``smithycurl_`` prefix (``lib.call``, ``lib.result_free``), each
    declared on its first use (a process uses a few of the table's hundred:
    declaring them all cost every first client 1.5 ms)."""

    def __init__(self, cdll: ctypes.CDLL, path: str) -> None:
        self.cdll = cdll
        self.path = path
        self.version = ""
        self.version_number = 0

    def has(self, name: str) -> bool:
        """Whether the library has the function (one of _OPTIONAL may be
        missing from an older library)."""
        try:
            getattr(self, name)
        except (AttributeError, errors.LibraryError):
            return False
        return True

    def declare_all(self) -> None:
        """Declares every function of the table the library has (the ABI
        test compares them all with the header)."""
        for name in _FUNCTIONS:
            self.has(name)

    def __getattr__(self, name: str) -> Any:  # a function not yet declared
        spec = _FUNCTIONS.get(name)
        cdll = self.__dict__.get("cdll")
        if spec is not None and cdll is not None:
            func = _function(cdll, name, spec)
            if func is not None:
                setattr(self, name, func)  # later lookups skip __getattr__
                return func
        if name in _OPTIONAL:
            raise errors.LibraryError(
                f"{self.path} has no smithycurl_{name}: the library is older than this package "
                "(for instance its asynchronous API, smithycurl.aio); rebuild it (make lib)")
        if spec is not None:
            raise errors.LibraryError(f"{self.path} has no smithycurl_{name}: not a library this package can use; "
                                      "rebuild it (make lib)")
        raise AttributeError(f"libsmithycurl has no function smithycurl_{name}")


def _strerror(cdll: ctypes.CDLL, code: int) -> str:
    raw = _function(cdll, "strerror", _FUNCTIONS["strerror"])(code)
    return str(raw.decode()) if raw else "unknown code"


def _errcheck(result: int, func: Any, args: Any) -> int:
    """Turns a failing smithycurl_code into an exception. Calls and
    loads, whose failures carry detail, are declared without it and handled
    where the detail is (the result, the loader)."""
    if result != OK:
        raise errors.from_code(result, _strerror(func._sc_cdll, result), func.__name__)
    return result


# name: (restype, argtypes, checked). A handle is an opaque pointer:
# c_void_p, never the default int (that would truncate it).
_FUNCTIONS: dict[str, tuple[Any, list[Any], bool]] = {
    "version": (c_char_p, [], False),
    "version_number": (c_int, [], False),
    "strerror": (c_char_p, [c_int], False),
    "error_kind_name": (c_char_p, [c_int], False),
    "free": (None, [c_void_p], False),
    "loader_new": (c_int, [P(c_void_p)], True),
    "loader_add_path": (c_int, [c_void_p, c_char_p], False),
    "loader_add_source": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t], False),
    "loader_load": (c_int, [c_void_p, P(c_void_p)], False),
    "loader_set_cache": (c_int, [c_void_p, c_char_p, c_char_p], False),
    "loader_errmsg": (c_int, [c_void_p, P(c_void_p)], True),
    "loader_free": (c_int, [c_void_p], False),
    "model_services_json": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], True),
    "model_services_json_v2": (c_int, [c_void_p, ctypes.c_uint, P(c_void_p), P(c_size_t)], True),
    "model_operation_json": (c_int, [c_void_p, c_char_p, c_char_p, P(c_void_p), P(c_size_t)], False),
    "model_operation_json_v2": (c_int, [c_void_p, c_char_p, c_char_p, ctypes.c_uint, P(c_void_p), P(c_size_t)], False),
    "model_ast_json": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], True),
    "model_snapshot": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], True),
    "model_errmsg": (c_int, [c_void_p, P(c_void_p)], True),
    "model_free": (c_int, [c_void_p], False),
    "options_new": (c_int, [P(c_void_p)], True),
    "options_set_timeout_ms": (c_int, [c_void_p, c_long], False),
    "options_set_connect_timeout_ms": (c_int, [c_void_p, c_long], False),
    "options_set_retries": (c_int, [c_void_p, c_int, c_int], False),
    "options_add_header": (c_int, [c_void_p, c_char_p, c_char_p], False),
    "options_set_user_agent": (c_int, [c_void_p, c_char_p], False),
    "options_set_bearer_token": (c_int, [c_void_p, c_char_p], False),
    "options_set_basic_auth": (c_int, [c_void_p, c_char_p, c_char_p], False),
    "options_set_api_key": (c_int, [c_void_p, c_char_p], False),
    "options_set_aws_sigv4": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p, c_char_p], False),
    "options_set_tls": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p, c_int], False),
    "options_set_proxy": (c_int, [c_void_p, c_char_p], False),
    "options_set_validation": (c_int, [c_void_p, c_int], False),
    "options_set_max_response_bytes": (c_int, [c_void_p, ctypes.c_longlong], False),
    "options_set_waiter_delays": (c_int, [c_void_p, ctypes.c_longlong, ctypes.c_longlong], False),
    "options_set_host_prefix": (c_int, [c_void_p, c_int], False),
    "options_set_region": (c_int, [c_void_p, c_char_p], False),
    "options_set_endpoint_param": (c_int, [c_void_p, c_char_p, c_char_p], False),
    "options_set_trace": (c_int, [c_void_p, TRACE_FN, c_void_p], False),
    "options_set_aws_credentials_fn": (c_int, [c_void_p, AWS_CREDENTIALS_FN, c_void_p], False),
    "options_set_token_fn": (c_int, [c_void_p, TOKEN_FN, c_void_p], False),
    "options_set_api_key_fn": (c_int, [c_void_p, TOKEN_FN, c_void_p], False),
    "options_set_profile": (c_int, [c_void_p, c_char_p], False),
    "options_set_request_checksum_calculation": (c_int, [c_void_p, c_char_p], False),
    "options_set_response_checksum_validation": (c_int, [c_void_p, c_char_p], False),
    "options_set_endpoint_discovery": (c_int, [c_void_p, c_char_p], False),
    "options_errmsg": (c_int, [c_void_p, P(c_void_p)], True),
    "options_free": (c_int, [c_void_p], False),
    "client_new": (c_int, [c_void_p, c_char_p, c_char_p, c_void_p, P(c_void_p)], False),
    "client_free": (c_int, [c_void_p], False),
    "cancel_token_new": (c_int, [P(c_void_p)], True),
    "cancel_token_cancel": (c_int, [c_void_p], False),
    "cancel_token_free": (c_int, [c_void_p], False),
    "call": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, c_void_p, P(c_void_p)], False),
    "call_stream_v2": (
        c_int, [c_void_p, c_char_p, c_char_p, c_size_t, READ_FN, REWIND_FN, c_void_p, ctypes.c_longlong, WRITE_FN,
                c_void_p, c_void_p, P(c_void_p)], False,
    ),
    "event_stream_open": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, c_void_p, P(c_void_p), P(c_void_p)], False),
    "event_stream_next": (c_int, [c_void_p, P(c_void_p)], False),
    "event_stream_free": (c_int, [c_void_p], False),
    "wait": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, ctypes.c_longlong, c_void_p, P(c_void_p)], False),
    "presign": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, ctypes.c_longlong, ctypes.c_longlong, P(c_void_p)], False),
    "s3_upload_file": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p, P(TransferOptions), c_void_p, P(c_void_p)],
                       False),
    "s3_download_file": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p, P(TransferOptions), c_void_p, P(c_void_p)],
                         False),
    "s3_upload": (c_int, [c_void_p, c_char_p, c_char_p, READ_FN, c_void_p, ctypes.c_longlong, P(TransferOptions),
                          c_void_p, P(c_void_p)], False),
    "s3_download": (c_int, [c_void_p, c_char_p, c_char_p, WRITE_FN, c_void_p, P(TransferOptions), c_void_p,
                            P(c_void_p)], False),
    "result_code": (c_int, [c_void_p, P(c_int)], True),
    "result_output": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], False),
    "result_error_kind": (c_int, [c_void_p, P(c_int)], True),
    "result_http_status": (c_int, [c_void_p, P(c_int)], True),
    "result_error_shape": (c_int, [c_void_p, P(c_char_p)], True),
    "result_error_message": (c_int, [c_void_p, P(c_char_p)], True),
    "result_error_members": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], True),
    "result_error_code": (c_int, [c_void_p, P(c_char_p)], True),
    "result_request_id": (c_int, [c_void_p, P(c_char_p)], True),
    "result_attempts": (c_int, [c_void_p, P(c_int)], True),
    "result_may_have_reached": (c_int, [c_void_p, P(c_int)], True),
    "result_free": (c_int, [c_void_p], False),
    "paginator_new": (
        c_int, [c_void_p, c_char_p, c_char_p, c_size_t, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint, c_void_p,
                P(c_void_p)], True,
    ),
    "paginator_next": (c_int, [c_void_p, P(c_void_p), P(c_size_t), P(c_void_p)], False),
    "paginator_free": (c_int, [c_void_p], False),
    # The completion queue of asynchronous calls (smithycurl.aio).
    "queue_new": (c_int, [P(c_void_p)], True),
    "queue_fd": (c_int, [c_void_p, P(c_int)], True),
    "queue_next": (c_int, [c_void_p, c_long, P(c_void_p), P(c_int), P(c_void_p)], False),
    "queue_free": (c_int, [c_void_p], False),
    "call_queued": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, c_void_p, c_void_p, c_void_p], False),
    "paginator_next_queued": (c_int, [c_void_p, c_void_p, c_void_p], False),
    "options_set_async_limits": (c_int, [c_void_p, c_int, c_int], False),
    # Blob payloads as bytes beside the document.
    "call_payload": (c_int, [c_void_p, c_char_p, c_char_p, c_size_t, P(Payload), c_void_p, P(c_void_p)], False),
    "call_payload_queued": (
        c_int, [c_void_p, c_char_p, c_char_p, c_size_t, P(Payload), c_void_p, c_void_p, c_void_p], False,
    ),
    "result_payload": (c_int, [c_void_p, P(c_void_p), P(c_size_t)], False),
    # Stubs (smithycurl.Stubber).
    "stubber_new": (c_int, [c_void_p, P(c_void_p)], False),
    "stubber_activate": (c_int, [c_void_p], False),
    "stubber_deactivate": (c_int, [c_void_p], False),
    "stubber_add_response": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p], False),
    "stubber_add_error": (c_int, [c_void_p, c_char_p, c_char_p, c_char_p, c_int, c_char_p], False),
    "stubber_pending": (c_int, [c_void_p, P(c_size_t)], False),
    "stubber_done": (c_int, [c_void_p], False),
    "stubber_errmsg": (c_int, [c_void_p, P(c_void_p)], True),
    "stubber_free": (c_int, [c_void_p], False),
    # Mock servers (smithycurl.mock).
    "mock_start": (c_int, [c_void_p, c_char_p, P(MockOptions), P(c_void_p), P(c_char_p)], False),
    "mock_stop": (c_int, [c_void_p], False),
    # Interceptors, custom auth schemes, digest auth, trace spans.
    "options_add_interceptor": (c_int, [c_void_p, P(InterceptorStruct)], False),
    "options_add_auth_scheme": (c_int, [c_void_p, c_char_p, HOOK_FN, c_void_p], False),
    "options_set_trace_spans": (c_int, [c_void_p, c_int], False),
    "options_set_digest_auth": (c_int, [c_void_p, c_char_p, c_char_p], False),
    "hook_point": (c_int, [c_void_p], False),
    "hook_get": (c_int, [c_void_p, c_int, c_char_p, P(c_void_p), P(c_size_t)], False),
    "hook_set": (c_int, [c_void_p, c_int, c_char_p, c_char_p, c_size_t], False),
    # Retry mode, request compression, the User-Agent (issue 28).
    "options_set_retry_mode": (c_int, [c_void_p, c_char_p], False),
    "options_set_request_min_compression_size": (c_int, [c_void_p, ctypes.c_longlong], False),
    "options_set_disable_request_compression": (c_int, [c_void_p, c_int], False),
    "options_set_app_id": (c_int, [c_void_p, c_char_p], False),
    "options_set_front_end": (c_int, [c_void_p, c_char_p, c_char_p], False),
}

#: Functions a library may lack (older than the package's asynchronous
#: API): left undeclared, so that everything else still works; using them
#: raises LibraryError saying so (see Library.__getattr__).
_OPTIONAL = frozenset({"mock_start", "mock_stop", "queue_new", "queue_fd", "queue_next", "queue_free", "call_queued",
                       "options_set_async_limits", "paginator_next_queued", "model_services_json_v2",
                       "model_operation_json_v2",
                       "options_set_aws_credentials_fn", "options_set_token_fn", "options_set_api_key_fn",
                       "options_set_profile", "presign", "options_set_request_checksum_calculation",
                       "options_set_response_checksum_validation", "options_set_endpoint_discovery", "s3_upload_file", "s3_download_file",
                       "s3_upload", "s3_download", "call_payload", "call_payload_queued", "result_payload",
                       "stubber_new", "stubber_activate", "stubber_deactivate", "stubber_add_response",
                       "stubber_add_error", "stubber_pending", "stubber_done", "stubber_errmsg", "stubber_free",
                       "options_add_interceptor", "options_add_auth_scheme", "options_set_trace_spans",
                       "options_set_digest_auth", "hook_point", "hook_get", "hook_set",
                       "options_set_retry_mode", "options_set_request_min_compression_size",
                       "options_set_disable_request_compression", "options_set_app_id", "options_set_front_end"})


def _function(cdll: ctypes.CDLL, name: str, spec: tuple[Any, list[Any], bool]) -> Any:
    """The library's function smithycurl_NAME declared as the table says;
    None when the library has no such symbol."""
    try:
        func = getattr(cdll, "smithycurl_" + name)
    except AttributeError:
        return None
    restype, argtypes, checked = spec
    func.restype = restype
    func.argtypes = argtypes
    if checked:
        func._sc_cdll = cdll
        func.errcheck = _errcheck
    return func


def _declare(cdll: ctypes.CDLL) -> Library:
    lib = Library(cdll, getattr(cdll, "_name", "?"))
    lib.version = _function(cdll, "version", _FUNCTIONS["version"])().decode()
    lib.version_number = _function(cdll, "version_number", _FUNCTIONS["version_number"])()
    return lib


def _candidates() -> list[tuple[str, str]]:
    """(description, path or name to dlopen), in search order."""
    env = os.environ.get("SMITHYCURL_LIBRARY")
    if env:
        path = os.path.join(env, LIBRARY_NAME) if os.path.isdir(env) else env
        return [("$SMITHYCURL_LIBRARY", path)]
    out = [("the package folder", os.path.join(os.path.dirname(os.path.abspath(__file__)), LIBRARY_NAME))]
    import ctypes.util  # imports subprocess, shutil...: only when needed

    found = ctypes.util.find_library("smithycurl")
    if found:
        out.append(("ctypes.util.find_library", found))
    out.append(("the system's library paths", LIBRARY_NAME))
    return out


_lock = threading.Lock()
_lib: Optional[Library] = None


def load() -> Library:
    """Returns the library, loading it on the first call. Raises
    errors.LibraryError saying what was tried when it cannot."""
    global _lib
    lib = _lib
    if lib is not None:
        return lib
    with _lock:
        if _lib is not None:
            return _lib
        tried = []
        for where, path in _candidates():
            if os.sep in path and not os.path.exists(path):
                tried.append(f"  {where}: {path}: no such file")
                continue
            try:
                cdll = ctypes.CDLL(path)
            except OSError as e:
                tried.append(f"  {where}: {path}: {e}")
                continue
            version_number = _function(cdll, "version_number", _FUNCTIONS["version_number"])
            if version_number is None:
                tried.append(f"  {where}: {path}: not libsmithycurl (no smithycurl_version_number)")
                continue
            number = version_number()
            if number < REQUIRED_VERSION or number >> 16 != REQUIRED_VERSION >> 16:
                tried.append(
                    f"  {where}: {path}: version {number >> 16}.{(number >> 8) & 255}.{number & 255}, "
                    f"need {REQUIRED_VERSION >> 16}.{(REQUIRED_VERSION >> 8) & 255}.x or newer"
                )
                continue
            _lib = _declare(cdll)
            _lib.path = path
            if "logging" in sys.modules:  # else nobody can have configured it yet
                logger().debug("loaded %s %s from %s (%s)", LIBRARY_NAME, _lib.version, path, where)
            return _lib
        raise errors.LibraryError(
            f"cannot load {LIBRARY_NAME}; tried:\n"
            + "\n".join(tried)
            + "\nBuild it with `make lib` and set SMITHYCURL_LIBRARY=build/libsmithycurl.so, "
            "or install the package with the library (pip install ./bindings/python after make lib)."
        )


def take_string(lib: Library, ptr: c_void_p, length: Optional[int] = None) -> bytes:
    """Copies a library-allocated buffer ("caller frees with
    smithycurl_free()") into bytes and frees it."""
    if not ptr.value:
        return b""
    try:
        return ctypes.string_at(ptr, length) if length is not None else ctypes.string_at(ptr)
    finally:
        lib.free(ptr)


def errmsg(lib: Library, func: Callable[..., int], handle: Any) -> str:
    """A handle's last failure message (loader, model, options)."""
    p = c_void_p()
    try:
        func(handle, ctypes.byref(p))
    except errors.SmithycurlError:
        return ""
    return take_string(lib, p).decode("utf-8", "replace")
