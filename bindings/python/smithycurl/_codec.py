"""Classes and converters built from the C API's operation-shapes JSON.

A Registry belongs to one Model. It keeps every shape seen in the operation
JSON of that model, the class of each (a generated module binds its own
classes; others are made here on first use), and one _Codec per shape: enc
turns a Python value into the document-form JSON value the C API takes, dec
turns the document-form value the C API returns into the Python value. A
codec whose enc or dec is None passes values through unchanged (strings,
integers, booleans...), which keeps the common path cheap.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import keyword
import os
import re
import sys
import threading

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

from . import errors
from .types import (
    IntEnum,
    StrEnum,
    Structure,
    Union,
    UnknownUnionMember,
    format_timestamp,
    parse_timestamp,
    snake_case,
)

if TYPE_CHECKING:
    Conv = Optional[Callable[[Any], Any]]

# Python types for the simple Smithy types (annotations of made classes and
# of generated code).
SIMPLE_TYPES = {
    "string": "str",
    "boolean": "bool",
    "byte": "int",
    "short": "int",
    "integer": "int",
    "long": "int",
    "bigInteger": "int",
    "float": "float",
    "double": "float",
    "bigDecimal": "decimal.Decimal",
    "blob": "bytes",
    "timestamp": "datetime.datetime",
    "document": "typing.Any",
}

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


def _enc_blob(v: Any) -> Any:
    if isinstance(v, str):
        v = v.encode()
    if isinstance(v, (bytes, bytearray, memoryview)):
        import base64  # on the first blob, not at import

        return base64.b64encode(v).decode("ascii")
    raise TypeError(f"a blob must be bytes, not {type(v).__name__}")


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
    raise TypeError(f"a timestamp must be a datetime, epoch seconds or an RFC 3339 string, not {type(v).__name__}")


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
    decimal = _decimal()
    if isinstance(v, float):
        return _enc_float(v)
    if isinstance(v, (decimal.Decimal, str)):
        return _DEC_MARK + str(decimal.Decimal(v))
    return v


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
    if _is_decimal(v):
        return _enc_float(float(v))
    return v


def _dec_float(v: Any) -> Any:
    return v if type(v) is float else float(v)


def _enc_enum(v: Any) -> Any:
    return v._value_ if isinstance(v, enum.Enum) else v


def _enc_document(v: Any) -> Any:
    return v


class _Member:
    """A member of a structure, union, list or map. (A plain class: making
    a dataclass at import costs ~1 ms.)"""

    __slots__ = ("name", "py", "target", "type", "required", "has_default", "default", "sensitive", "doc", "codec")

    def __init__(self, name: str, py: str, target: str, type: str, required: bool, has_default: bool,
                 default: Any, sensitive: bool, doc: str, codec: "_Codec") -> None:
        self.name = name  # Smithy member name
        self.py = py  # Python field name
        self.target = target
        self.type = type
        self.required = required
        self.has_default = has_default
        self.default = default
        self.sensitive = sensitive
        self.doc = doc
        self.codec = codec

    def __repr__(self) -> str:
        return f"_Member({self.name!r}, py={self.py!r}, target={self.target!r})"


class _Codec:
    __slots__ = ("shape_id", "type", "enc", "dec", "members", "by_key", "_cls", "_make_cls", "exact",
                 "member_classes", "unknown_cls")

    def __init__(self, shape_id: str, type_: str) -> None:
        self.shape_id = shape_id
        self.type = type_
        self.enc: Conv = None
        self.dec: Conv = None
        self.members: list[_Member] = []
        self.by_key: dict[str, _Member] = {}
        self._cls: Any = None
        # Makes the class on first use (structures): an operation's input
        # class is never needed when it is called with keywords or dicts,
        # nor an output member's that the response leaves out.
        self._make_cls: Optional[Callable[[], Any]] = None
        self.member_classes: dict[str, type] = {}
        self.unknown_cls: Any = None

    @property
    def cls(self) -> Any:
        c = self._cls
        if c is None and self._make_cls is not None:
            c = self._make_cls()
        return c

    @cls.setter
    def cls(self, value: Any) -> None:
        self._cls = value


def class_name(shape_id: str) -> str:
    name = shape_id.rsplit("#", 1)[-1]
    name = re.sub(r"\W", "_", name)
    return name + "_" if keyword.iskeyword(name) else name


def union_member_class_name(union_id: str, member: str) -> str:
    return class_name(union_id) + member[:1].upper() + member[1:]


def py_names(members: list[dict[str, Any]]) -> list[str]:
    """Python names of a structure's members, unique."""
    out: list[str] = []
    for m in members:
        py = snake_case(m["name"])
        while py in out:
            py += "_"
        out.append(py)
    return out


class Registry:
    """The shapes, classes and codecs of one model."""

    def __init__(self) -> None:
        self.shapes: dict[str, dict[str, Any]] = {}
        self.bound: dict[str, Any] = {}
        self.codecs: dict[str, _Codec] = {}
        self.lock = threading.RLock()

    def add_shapes(self, shapes: dict[str, dict[str, Any]]) -> None:
        with self.lock:
            for sid, shape in shapes.items():
                self.shapes.setdefault(sid, shape)

    def bind(self, classes: dict[str, Any]) -> None:
        """Uses the given classes (a generated module's) for these shape ids."""
        with self.lock:
            self.bound.update(classes)

    # ---- codecs ----------------------------------------------------------

    def codec(self, target: str, type_: str) -> _Codec:
        """The codec of a shape id; type_ is used for prelude shapes, which
        the operation JSON does not list."""
        c = self.codecs.get(target)
        if c is not None:
            return c
        with self.lock:
            c = self.codecs.get(target)
            if c is not None:
                return c
            shape = self.shapes.get(target)
            return self._compile(target, shape["type"] if shape else type_, shape or {})

    def _compile(self, sid: str, t: str, shape: dict[str, Any]) -> _Codec:
        c = _Codec(sid, t)
        self.codecs[sid] = c  # before the members: recursive shapes find it
        if t in ("structure", "union") and sid != "smithy.api#Unit":
            self._compile_aggregate(c, shape)
        elif t in ("list", "set"):
            elem = self._sub(shape.get("member"))
            c.members = [elem] if elem else []
            c.enc = _list_enc(elem.codec if elem else None)
            c.dec = _list_dec(elem.codec) if elem and elem.codec.dec else None
        elif t == "map":
            val = self._sub(shape.get("value"))
            c.members = [val] if val else []
            c.enc = _map_enc(val.codec if val else None)
            c.dec = _map_dec(val.codec) if val and val.codec.dec else None
        elif t in ("enum", "intEnum"):
            c.cls = self._enum_class(sid, t, shape)
            c.enc = _enc_enum
            c.dec = c.cls
        elif t == "blob":
            c.enc, c.dec = _enc_blob, _dec_blob
        elif t == "timestamp":
            c.enc, c.dec = _enc_timestamp, _dec_timestamp
        elif t == "bigDecimal":
            c.enc, c.dec = _enc_decimal, _dec_decimal
        elif t in ("float", "double"):
            c.enc, c.dec = _enc_float, _dec_float
        return c

    def _sub(self, ref: Optional[dict[str, Any]]) -> Optional[_Member]:
        if not ref:
            return None
        codec = self.codec(ref["target"], ref.get("type", "document"))
        return _Member("member", "member", ref["target"], ref.get("type", ""), False, False, None, False, "", codec)

    def _compile_aggregate(self, c: _Codec, shape: dict[str, Any]) -> None:
        raw = shape.get("members", [])
        for m, py in zip(raw, py_names(raw)):
            codec = self.codec(m["target"], m.get("type", "document"))
            mem = _Member(
                m["name"], py, m["target"], m.get("type", ""), bool(m.get("required")),
                "default" in m, m.get("default"), bool(m.get("sensitive")),
                m.get("documentation", ""), codec,
            )
            c.members.append(mem)
            c.by_key[mem.name] = mem
            c.by_key.setdefault(py, mem)
        if c.type == "union":
            c.cls = self._union_classes(c, shape)
            c.enc = _union_enc(c)
            c.dec = _union_dec(c)
        elif shape.get("error"):
            c.cls = self._error_class(c, shape)
            c.enc = _struct_enc(c)
            c.dec = _error_members_dec(c)
        else:
            def make() -> Any:
                with self.lock:  # one class per shape, whichever thread asks first
                    if c._cls is None:
                        c._cls = self._struct_class(c, shape)
                    return c._cls

            c._make_cls = make
            c.enc = _struct_enc(c)
            c.dec = _struct_dec(c)

    # ---- classes -----------------------------------------------------

    def _enum_class(self, sid: str, t: str, shape: dict[str, Any]) -> Any:
        bound = self.bound.get(sid)
        if bound is not None:
            return bound
        base = IntEnum if t == "intEnum" else StrEnum
        values = [(v["name"], v["value"]) for v in shape.get("values", [])]
        make: Any = base
        cls = make(class_name(sid), values, module=__name__)
        cls.shape_id = sid
        if shape.get("documentation"):
            cls.__doc__ = shape["documentation"]
        return cls

    def _struct_class(self, c: _Codec, shape: dict[str, Any]) -> Any:
        bound = self.bound.get(c.shape_id)
        if bound is not None:
            return bound
        fields: list[Any] = []
        required_first = sorted(c.members, key=lambda m: not (m.required and not m.has_default))
        for m in required_first:
            ann = annotation(m.type, m.target, self.shapes, optional=not (m.required or m.has_default))
            if m.has_default:
                default = decode_default(m)
                if isinstance(default, (list, dict)):
                    f = dataclasses.field(default_factory=_copier(default))
                else:
                    f = dataclasses.field(default=default)
            elif m.required:
                f = dataclasses.field()
            else:
                f = dataclasses.field(default=None)
            fields.append((m.py, ann, f))
        ns = {
            "shape_id": c.shape_id,
            "_sc_members": tuple((m.py, m.name) for m in c.members),
            "_sc_sensitive": frozenset(m.py for m in c.members if m.sensitive),
            "_sc_sensitive_shape": bool(shape.get("sensitive")),
            "__doc__": shape.get("documentation") or f"The structure {c.shape_id}.",
        }
        return dataclasses.make_dataclass(
            class_name(c.shape_id), fields, bases=(Structure,), namespace=ns,
            repr=False, eq=True, kw_only=True,
        )

    def _error_class(self, c: _Codec, shape: dict[str, Any]) -> Any:
        bound = self.bound.get(c.shape_id)
        if bound is not None:
            return bound
        ns = {
            "shape_id": c.shape_id,
            "_sc_members": tuple(m.py for m in c.members),
            "_sc_sensitive": frozenset(m.py for m in c.members if m.sensitive),
            "__doc__": shape.get("documentation") or f"The error {c.shape_id}.",
            "__module__": __name__,
        }
        return type(class_name(c.shape_id), (errors.ServiceError,), ns)

    def _union_classes(self, c: _Codec, shape: dict[str, Any]) -> Any:
        bound = self.bound.get(c.shape_id)
        sensitive = bool(shape.get("sensitive"))
        if bound is not None:
            base = bound
        else:
            base = type(class_name(c.shape_id), (Union,), {
                "shape_id": c.shape_id, "_sc_sensitive_shape": sensitive, "__module__": __name__,
                "__doc__": shape.get("documentation") or f"The union {c.shape_id}: one of its member classes.",
            })
        for m in c.members:
            name = union_member_class_name(c.shape_id, m.name)
            cls = self.bound.get(f"{c.shape_id}${m.name}")
            if cls is None:
                cls = type(name, (base,), {
                    "member_name": m.name, "__module__": __name__,
                    "__doc__": m.doc or f"The member {m.name} of the union {c.shape_id}.",
                })
            c.member_classes[m.name] = cls
        unknown = self.bound.get(f"{c.shape_id}$")
        if unknown is None:
            unknown = type(class_name(c.shape_id) + "Unknown", (base, UnknownUnionMember), {"__module__": __name__})
        c.unknown_cls = unknown
        return base

    def class_for(self, sid: str) -> Any:
        shape = self.shapes.get(sid)
        if shape is None:
            raise KeyError(sid)
        return self.codec(sid, shape["type"]).cls


def _copier(value: Any) -> Callable[[], Any]:
    def factory() -> Any:
        return copy.deepcopy(value)

    return factory


def decode_default(m: _Member) -> Any:
    if m.default is None or m.codec.dec is None:
        return m.default
    try:
        return m.codec.dec(m.default)
    except (TypeError, ValueError):
        return m.default


def annotation(type_: str, target: str, shapes: dict[str, Any], optional: bool = False, prefix: str = "") -> str:
    """The Python type of a member, as annotation text."""
    shape = shapes.get(target)
    if shape is None or type_ in SIMPLE_TYPES:
        text = SIMPLE_TYPES.get(type_, "typing.Any")
        if shape is None and type_ in ("structure", "union"):
            text = "None"  # smithy.api#Unit
    elif type_ in ("list", "set"):
        el = shape.get("member", {})
        text = f"list[{annotation(el.get('type', ''), el.get('target', ''), shapes, prefix=prefix)}]"
    elif type_ == "map":
        val = shape.get("value", {})
        text = f"dict[str, {annotation(val.get('type', ''), val.get('target', ''), shapes, prefix=prefix)}]"
    else:
        text = prefix + class_name(target)
    return f"typing.Optional[{text}]" if optional and text != "None" else text


# ---- converters ----------------------------------------------------------


def _as_list(v: Any) -> Any:
    return v if type(v) is list else list(v)


def _as_dict(v: Any) -> Any:
    return v if type(v) is dict else dict(v)


def _list_enc(elem: Optional[_Codec]) -> Callable[[Any], Any]:
    if elem is None or elem.enc is None:
        return _as_list
    codec = elem

    def enc(v: Any) -> Any:
        e = codec.enc
        assert e is not None
        return [None if x is None else e(x) for x in v]

    return enc


def _list_dec(elem: _Codec) -> Callable[[Any], Any]:
    def dec(v: Any) -> Any:
        d = elem.dec
        assert d is not None
        return [None if x is None else d(x) for x in v]

    return dec


def _map_enc(val: Optional[_Codec]) -> Callable[[Any], Any]:
    if val is None or val.enc is None:
        return _as_dict
    codec = val

    def enc(v: Any) -> Any:
        e = codec.enc
        assert e is not None
        return {str(k._value_ if isinstance(k, enum.Enum) else k): None if x is None else e(x) for k, x in v.items()}

    return enc


def _map_dec(val: _Codec) -> Callable[[Any], Any]:
    def dec(v: Any) -> Any:
        d = val.dec
        assert d is not None
        return {k: None if x is None else d(x) for k, x in v.items()}

    return dec


def _unknown_key(c: _Codec, key: Any) -> TypeError:
    names = ", ".join(m.py for m in c.members) or "(none)"
    return TypeError(f"{class_name(c.shape_id)} has no member {key!r}; valid: {names}")


def _struct_enc(c: _Codec) -> Callable[[Any], Any]:
    members = c.members
    by_key = c.by_key

    def enc(v: Any) -> Any:
        out: dict[str, Any] = {}
        m: Optional[_Member]
        if isinstance(v, (Structure, errors.ServiceError)):
            d = v.__dict__
            for mem in members:
                x = d.get(mem.py)
                if x is not None:
                    e = mem.codec.enc
                    out[mem.name] = e(x) if e is not None else x
            return out
        if isinstance(v, dict) or hasattr(v, "items"):
            for k, x in v.items():
                m = by_key.get(k)
                if m is None:
                    raise _unknown_key(c, k)
                if x is not None:
                    e = m.codec.enc
                    out[m.name] = e(x) if e is not None else x
            return out
        raise TypeError(f"{class_name(c.shape_id)}: expected a {class_name(c.shape_id)} or a dict, not {type(v).__name__}")

    return enc


def _struct_dec(c: _Codec) -> Callable[[Any], Any]:
    members = c.members
    by_name = {m.name: m for m in members}

    def dec(v: Any) -> Any:
        cls = c._cls or c.cls
        values = _defaults(c)
        for k, x in v.items():
            m = by_name.get(k)
            if m is not None:
                d = m.codec.dec
                values[m.py] = d(x) if d is not None and x is not None else x
        obj = object.__new__(cls)
        obj.__dict__.update(values)
        return obj

    return dec


def _defaults(c: _Codec) -> dict[str, Any]:
    """Field values for members absent from a response: None, or the
    model's default."""
    cls = c._cls or c.cls
    cached = cls.__dict__.get("_sc_absent")
    if cached is None:
        cached = {}
        mutable = False
        for m in c.members:
            value = decode_default(m) if m.has_default else None
            mutable = mutable or isinstance(value, (list, dict))
            cached[m.py] = value
        setattr(cls, "_sc_absent", cached)
        setattr(cls, "_sc_absent_mutable", mutable)
    return copy.deepcopy(cached) if cls.__dict__.get("_sc_absent_mutable") else dict(cached)


def _error_members_dec(c: _Codec) -> Callable[[Any], Any]:
    """Decodes an error's members to a dict of Python names and values."""
    by_name = {m.name: m for m in c.members}

    def dec(v: Any) -> Any:
        out = {}
        for k, x in v.items():
            m = by_name.get(k)
            if m is not None:
                d = m.codec.dec
                out[m.py] = d(x) if d is not None and x is not None else x
        return out

    return dec


def _union_enc(c: _Codec) -> Callable[[Any], Any]:
    by_key = c.by_key

    def enc(v: Any) -> Any:
        if isinstance(v, UnknownUnionMember):
            return {v.tag: v.value}
        if isinstance(v, Union):
            m = by_key.get(v.member_name)
            if m is None:
                raise _unknown_key(c, v.member_name)
            e = m.codec.enc
            return {m.name: e(v.value) if e is not None and v.value is not None else v.value}
        if isinstance(v, dict) and len(v) == 1:
            ((k, x),) = v.items()
            m = by_key.get(k)
            if m is None:
                raise _unknown_key(c, k)
            e = m.codec.enc
            return {m.name: e(x) if e is not None and x is not None else x}
        raise TypeError(
            f"{class_name(c.shape_id)}: expected one of its member classes or a dict with one key, not {v!r}"
        )

    return enc


def _union_dec(c: _Codec) -> Callable[[Any], Any]:
    by_name = {m.name: m for m in c.members}

    def dec(v: Any) -> Any:
        for k, x in v.items():
            if x is None:
                continue
            m = by_name.get(k)
            if m is None:
                return c.unknown_cls(k, x)
            d = m.codec.dec
            return c.member_classes[k](d(x) if d is not None else x)
        return None

    return dec
