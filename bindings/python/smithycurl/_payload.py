"""Blob payloads as bytes (smithycurl_call_payload): a blob payload,
@streaming or not (those the library's operation description names),
given as bytes, bytearray, memoryview (or str, sent as UTF-8) goes to the
library as a pointer and a length, never as base64 text, and the
output's comes back as bytes read once from the C buffer.

No copy is made of bytes, of a bytearray, or of a writable C-contiguous
buffer (the library reads them in place while the call runs; a bytearray
cannot be resized meanwhile); a read-only memoryview is copied once unless
it views a whole bytes object. A streamed body (a file object, chunks)
takes the path of _body instead.
"""

from __future__ import annotations

import ctypes

from . import _lib

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional

_SIZE = ctypes.sizeof(_lib.Payload)
_EMPTY = b"\0"  # where an empty payload points: data must not be NULL


#: What goes as bytes; anything else stays in the input, whose encoder
#: says what is wrong with it.
BYTES = (bytes, bytearray, memoryview, str)


def take(name: str, py: str, input: Any, kwargs: dict[str, Any]) -> tuple[Any, dict[str, Any], Any]:
    """Takes the payload member (Smithy name, Python name) out of a call's
    input (a dict or dataclass) or keywords when it is bytes-like or str,
    and returns them with its value (None when not taken)."""
    if isinstance(kwargs.get(py), BYTES):
        kwargs = dict(kwargs)
        return input, kwargs, kwargs.pop(py)
    if isinstance(input, dict):
        key = name if name in input else py
        if isinstance(input.get(key), BYTES):
            input = dict(input)
            return input, kwargs, input.pop(key)
    elif input is not None and isinstance(getattr(input, py, None), BYTES):
        import dataclasses

        return dataclasses.replace(input, **{py: None}), kwargs, getattr(input, py)
    return input, kwargs, None


def struct(value: Any, flags: int = 0) -> tuple[_lib.Payload, Any]:
    """The smithycurl_payload of value (None: none given) and what must
    stay alive while the library reads it."""
    p = _lib.Payload(_SIZE, None, 0, flags)
    if value is None:
        return p, None
    keep = buffer(value)
    n = len(keep) if isinstance(keep, bytes) else ctypes.sizeof(keep)
    if n == 0:
        keep = _EMPTY
    p.data = ctypes.cast(ctypes.c_char_p(keep), ctypes.c_void_p).value if isinstance(keep, bytes) else ctypes.addressof(keep)
    p.len = n
    return p, keep


def buffer(value: Any) -> Any:
    """bytes (a whole bytes object as it is), or a ctypes array over the
    caller's writable buffer (value: one of BYTES); a copy only of a
    read-only view or a str."""
    if isinstance(value, bytes):
        return value
    if isinstance(value, str):
        return value.encode()  # as boto3: a str is sent as its UTF-8 bytes
    view = memoryview(value)
    if not view.c_contiguous:
        return view.tobytes()
    if view.readonly:
        whole = view.obj
        return whole if isinstance(whole, bytes) and view.nbytes == len(whole) else view.tobytes()
    if view.nbytes == 0:
        return b""
    return (ctypes.c_char * view.nbytes).from_buffer(view.cast("B") if view.format != "B" or view.ndim != 1 else view)


def read(lib: _lib.Library, r: ctypes.c_void_p) -> Optional[bytes]:
    """The output payload of the successful result r (not freed), None when
    the output has none."""
    p, n = ctypes.c_void_p(), ctypes.c_size_t()
    lib.result_payload(r, ctypes.byref(p), ctypes.byref(n))
    return ctypes.string_at(p, n.value) if p.value else None
