"""The JSON of inputs and outputs: json.dumps and json.loads with their C
encoder and scanner made once, and an input's UTF-8."""

from __future__ import annotations

import json

from . import _scalars, errors
from ._contract import E_USAGE

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

#: The JSON of an empty input.
EMPTY = b"{}"


def utf8(body: str, operation: str) -> bytes:
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


# json.dumps and json.loads, with the C encoder and scanner they use made
# once instead of at each call (JSONEncoder.encode builds its encoder every
# time, decode matches whitespace twice around the scan): 1 us less each way.
# Same output; anything unusual (leading or trailing whitespace, bad JSON)
# goes through json's own path, for its results and errors.
_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)
_c_make_encoder = getattr(json.encoder, "c_make_encoder", None)
_c_encode: Any = None
if _c_make_encoder is not None:
    _c_encode = _c_make_encoder(None, _encoder.default, getattr(json.encoder, "encode_basestring"), None,
                                _encoder.key_separator, _encoder.item_separator, False, False, True)


def dumps(o: Any) -> str:
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


loads = _scanner_loads(json.JSONDecoder())
#: loads with floats as ExactFloat (big decimals kept exactly).
exact_loads = _scanner_loads(json.JSONDecoder(parse_float=_scalars.ExactFloat))
