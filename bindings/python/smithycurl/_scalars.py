"""The simple Smithy types between Python values and the document form:
one encoder per type, which checks the Python type of an input value
(InputTypeError naming the member, as boto3's parameter check does), and
the decoders of outputs (bytes, datetime, Decimal with every digit).

The aggregate shapes' converters (_codec) add the member path to these
errors as they pass (at_member); the operation prefixes "input for Op: "
(for_input).
"""

from __future__ import annotations

import enum
import os
import re
import sys

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable

from . import errors
from ._contract import E_USAGE as _E_USAGE  # the rc of the library's usage errors
from .types import format_timestamp, parse_timestamp


# Decimals go into json.dumps as a marked string, replaced by the bare
# number afterwards (json has no way to write a number literal as given).
_DEC_MARK = "\x00sc-dec-" + os.urandom(4).hex() + ":"
_DEC_MARK_JSON = "\\u0000" + _DEC_MARK[1:]
_DEC_RE = re.compile('"' + re.escape(_DEC_MARK_JSON) + r'([^"]*)"')


def fix_decimals(text: str) -> str:
    """Replaces the marked Decimal strings of a JSON text by numbers."""
    return _DEC_RE.sub(r"\1", text) if _DEC_MARK_JSON in text else text


class ExactFloat(float):
    """A JSON number read where a bigDecimal may appear: a float that keeps
    its text, so that bigDecimal members get every digit."""

    __slots__ = ("text",)
    text: str

    def __new__(cls, text: str) -> "ExactFloat":
        obj = float.__new__(cls, text)
        obj.text = text
        return obj


# ---- type checks of input values ------------------------------------------
#
# Values themselves never appear in these messages (they may be secrets).
# Ranges (an int too large for an Integer) are the library's check.




def type_name(v: Any) -> str:
    return type(v).__name__


def type_error(expected: str, v: Any) -> errors.InputTypeError:
    return errors.InputTypeError(f"expected {expected}, not {type_name(v)}")


def at_member(e: errors.UsageError, segment: str) -> errors.UsageError:
    """Adds a member name ("name") or an index or key ("[2]") in front of
    the path of an input error raised below it; returns the error."""
    what = e.__dict__.get("_sc_what")
    if what is None:
        e.__dict__["_sc_what"] = what = e.message
        path = segment
    else:
        path = segment + ("" if e.member.startswith("[") else ".") + e.member
    e.member = path
    e.message = f"member {path}: {what}"
    e.args = (e.message,)
    return e


def for_input(e: errors.UsageError, operation: str) -> errors.UsageError:
    """Prefixes an input error with the operation ("input for Op: ..."),
    as the library's own messages are."""
    e.message = f"input for {operation}: {e.message}"
    e.args = (e.message,)
    return e


def _enc_str(v: Any) -> Any:
    if type(v) is str or isinstance(v, str):
        return v
    raise type_error("str", v)


def _enc_bool(v: Any) -> Any:
    if v is True or v is False:
        return v
    raise type_error("bool", v)


def _enc_int(v: Any) -> Any:
    if type(v) is int:
        return v
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)  # an IntEnum member, an int subclass
    raise type_error("int", v)


def enc_str_enum(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        v = v._value_
    if isinstance(v, str):
        return v
    raise type_error("str or an enum member", v)


def enc_int_enum(v: Any) -> Any:
    if isinstance(v, enum.Enum):
        v = v._value_
    if isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    raise type_error("int or an enum member", v)


def _enc_blob(v: Any) -> Any:
    if isinstance(v, str):
        v = v.encode()  # as boto3: a str is sent as its UTF-8 bytes
    if isinstance(v, (bytes, bytearray, memoryview)):
        import base64  # on the first blob, not at import

        return base64.b64encode(v).decode("ascii")
    raise type_error("bytes, bytearray, memoryview or str", v)


def _dec_blob(v: Any) -> Any:
    import base64

    return base64.b64decode(v)


def _enc_timestamp(v: Any) -> Any:
    import datetime  # on the first timestamp, not at import

    if isinstance(v, datetime.datetime):
        return format_timestamp(v)
    if isinstance(v, (int, float, str)) and not isinstance(v, bool):
        return v
    if isinstance(v, datetime.date):
        return format_timestamp(datetime.datetime(v.year, v.month, v.day, tzinfo=datetime.timezone.utc))
    raise type_error("a datetime, epoch seconds (int or float) or an RFC 3339 str", v)


def _dec_timestamp(v: Any) -> Any:
    if isinstance(v, str):
        return parse_timestamp(v)
    import datetime

    return datetime.datetime.fromtimestamp(float(v), datetime.timezone.utc)


# decimal (and the numbers ABCs it imports) is loaded when a model has a
# bigDecimal, not at import: a value cannot be a Decimal before it is.


def _decimal() -> Any:
    import decimal

    return decimal


def _is_decimal(v: Any) -> bool:
    d = sys.modules.get("decimal")
    return d is not None and isinstance(v, d.Decimal)


def _enc_decimal(v: Any) -> Any:
    """A bigDecimal: a Decimal (every digit sent), an int (every digit), a
    float (its shortest repr) or a str holding a decimal number. NaN and
    the infinities have no place in the document form of a bigDecimal."""
    if type(v) is int:
        return v
    decimal = _decimal()
    if isinstance(v, decimal.Decimal):
        d = v
    elif isinstance(v, float):
        if v != v or v in (float("inf"), float("-inf")):
            raise errors.UsageError(f"expected a finite number for a bigDecimal, not {v!r}", rc=_E_USAGE)
        return v
    elif isinstance(v, int) and not isinstance(v, bool):
        return int(v)
    elif isinstance(v, str):
        try:
            d = decimal.Decimal(v.strip())
        except decimal.InvalidOperation:
            raise errors.UsageError("expected a decimal number for a bigDecimal, got a str that is not one", rc=_E_USAGE) from None
    else:
        raise type_error("decimal.Decimal, int or float", v)
    if not d.is_finite():
        raise errors.UsageError(f"expected a finite number for a bigDecimal, not Decimal({str(d)!r})", rc=_E_USAGE)
    return _DEC_MARK + str(d)


def _dec_decimal(v: Any) -> Any:
    decimal = _decimal()
    if type(v) is ExactFloat:
        return decimal.Decimal(v.text)
    if isinstance(v, float):
        return decimal.Decimal(repr(v))
    return decimal.Decimal(v)


def _enc_float(v: Any) -> Any:
    if type(v) is float:
        if v != v:
            return "NaN"
        if v in (float("inf"), float("-inf")):
            return "Infinity" if v > 0 else "-Infinity"
        return v
    if type(v) is int or (isinstance(v, int) and not isinstance(v, bool)):
        return int(v)
    if isinstance(v, float) or _is_decimal(v):
        return _enc_float(float(v))
    raise type_error("float or int", v)


def _dec_float(v: Any) -> Any:
    return v if type(v) is float else float(v)


# The encoder and decoder of each simple type (documents, strings, numbers
# and booleans decode as json gives them; documents encode as they are).
SIMPLE_ENC: dict[str, Callable[[Any], Any]] = {
    "string": _enc_str,
    "boolean": _enc_bool,
    "byte": _enc_int,
    "short": _enc_int,
    "integer": _enc_int,
    "long": _enc_int,
    "bigInteger": _enc_int,
    "float": _enc_float,
    "double": _enc_float,
    "bigDecimal": _enc_decimal,
    "blob": _enc_blob,
    "timestamp": _enc_timestamp,
}
SIMPLE_DEC: dict[str, Callable[[Any], Any]] = {
    "float": _dec_float,
    "double": _dec_float,
    "bigDecimal": _dec_decimal,
    "blob": _dec_blob,
    "timestamp": _dec_timestamp,
}
