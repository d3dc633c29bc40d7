"""The C API's result of a call (smithycurl_result): its output, or the
exception of its failure."""

from __future__ import annotations

import ctypes

from . import _lib, errors

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Optional, Protocol

    from ._info import OperationInfo

    class FailingOperation(Protocol):
        """What a failure needs of its operation (an Operation)."""

        info: OperationInfo

        def _error(self, lib: _lib.Library, rc: int, r: ctypes.c_void_p) -> BaseException: ...


# PyUnicode_DecodeUTF8 reads C memory where it lies: an output becomes a
# str in one copy (string_at, then bytes.decode, made two).
_decode_utf8 = ctypes.pythonapi.PyUnicode_DecodeUTF8
_decode_utf8.restype = ctypes.py_object
_decode_utf8.argtypes = [ctypes.c_void_p, ctypes.c_ssize_t, ctypes.c_char_p]


def text(p: ctypes.c_void_p, n: int) -> str:
    """The n bytes of UTF-8 at p (C memory, read during the call only) as
    a str, decoded in place."""
    if not n:
        return ""
    s: str = _decode_utf8(p, n, None)
    return s


def output(lib: _lib.Library, r: ctypes.c_void_p) -> str:
    """The output JSON of the successful result r, which is freed."""
    p, n = ctypes.c_void_p(), ctypes.c_size_t()
    try:
        lib.result_output(r, ctypes.byref(p), ctypes.byref(n))
        return text(p, n.value)
    finally:
        lib.result_free(r)


def output_payload(lib: _lib.Library, r: ctypes.c_void_p) -> tuple[str, Optional[bytes]]:
    """The output JSON and payload (None: none) of the successful result r
    of a payload call, which is freed."""
    from . import _payload

    p, n = ctypes.c_void_p(), ctypes.c_size_t()
    try:
        lib.result_output(r, ctypes.byref(p), ctypes.byref(n))
        return text(p, n.value), _payload.read(lib, r)
    finally:
        lib.result_free(r)


def failure(lib: _lib.Library, rc: int, r: ctypes.c_void_p, op: FailingOperation) -> BaseException:
    """The exception of op's call that failed with rc and result r (freed
    here), or with rc alone when r is NULL."""
    if not r.value:
        return errors.from_code(rc, lib.strerror(rc).decode(), op.info.name)
    try:
        return op._error(lib, rc, r)
    finally:
        lib.result_free(r)
