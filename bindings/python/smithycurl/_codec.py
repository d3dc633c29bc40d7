"""Classes and converters built from the C API's operation-shapes JSON.

A Registry belongs to one Model. It keeps every shape seen in the operation
JSON of that model, the class of each (a generated module binds its own
classes; others are made here on first use), and one _Codec per shape: enc
turns a Python value into the document-form JSON value the C API takes, dec
turns the document-form value the C API returns into the Python value. A
codec whose enc or dec is None passes values through unchanged (documents;
the strings, integers and booleans of outputs), which keeps the common path
cheap. Every encoder checks the type of the Python value it gets (the simple
types' encoders are in _scalars); the aggregates' add the member path to
the InputTypeError it raises.
"""

from __future__ import annotations

import copy
import dataclasses
import enum
import keyword
import re
import threading
import weakref

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

from . import _scalars, errors
from .types import (
    IntEnum,
    StrEnum,
    Structure,
    Union,
    UnknownUnionMember,
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


# Names an enum member cannot take as they are: the attributes of the
# enums' bases (str, int) and of Enum itself.
_ENUM_TAKEN = frozenset(dir(str)) | frozenset(dir(int)) | frozenset({"name", "value"})


def enum_member_name(name: str) -> str:
    """The Python name of an enum member: a keyword, or an attribute of the
    enum's bases, gets a trailing underscore (Glue's True, False and None
    are True_, False_, None_; its AggFunction's count is count_, which
    would hide str.count), in the classes the library makes and in
    generated packages alike."""
    return name + "_" if keyword.iskeyword(name) or name in _ENUM_TAKEN else name


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


def reaches_big_decimal(shapes: dict[str, Any]) -> bool:
    """Whether an operation's shapes (smithycurl_model_operation_json)
    hold a bigDecimal: a shape of that type, or a member targeting one
    (the prelude's BigDecimal is not listed among the shapes)."""
    for s in shapes.values():
        if s.get("type") == "bigDecimal":
            return True
        for ref in (s.get("member"), s.get("key"), s.get("value"), *s.get("members", ())):
            if ref and ref.get("type") == "bigDecimal":
                return True
    return False


# The classes made for shapes, shared by every Registry (every load of a
# model) in the process: a shape gets one class per definition, so that
# ``except c1.errors.QueueDoesNotExist`` catches the error raised by a client
# of a second load of the same model, and c1.types.X is c2.types.X. The key
# is the shape id and a digest of the definition of the shape and of every
# shape it reaches (a default or an annotation may depend on them): models
# that define a shape differently never share its class. Values are held
# weakly: a class lives as long as a model (or a value) uses it. Reads and
# writes hold _shared_lock; classes are made outside it (two threads may
# make one each; the first stored is used by both).
_shared_classes: weakref.WeakValueDictionary[tuple[str, str], Any] = weakref.WeakValueDictionary()
_shared_lock = threading.Lock()


def _refs(shape: dict[str, Any]) -> list[str]:
    """The shape ids a shape's members target."""
    out = [m["target"] for m in shape.get("members", ())]
    for k in ("member", "key", "value"):
        ref = shape.get(k)
        if ref:
            out.append(ref["target"])
    return out


class Registry:
    """The shapes, classes and codecs of one model."""

    def __init__(self) -> None:
        self.shapes: dict[str, dict[str, Any]] = {}
        self.bound: dict[str, Any] = {}
        self.codecs: dict[str, _Codec] = {}
        self.lock = threading.RLock()
        self._digests: dict[str, bytes] = {}

    def _digest(self, sid: str) -> bytes:
        """A digest of a shape's definition (b"" for the prelude's)."""
        d = self._digests.get(sid)
        if d is None:
            import hashlib  # on the first class made, not at import
            import json

            shape = self.shapes.get(sid)
            text = "" if shape is None else json.dumps(shape, sort_keys=True, separators=(",", ":"))
            d = hashlib.sha256(text.encode()).digest() if text else b""
            self._digests[sid] = d
        return d

    def definition_key(self, sid: str) -> tuple[str, str]:
        """The key of a shape's class among every load's: its id and a
        digest of its definition and of every shape it reaches."""
        import hashlib

        seen = {sid}
        todo = [sid]
        while todo:
            shape = self.shapes.get(todo.pop())
            if shape is not None:
                for t in _refs(shape):
                    if t not in seen:
                        seen.add(t)
                        todo.append(t)
        h = hashlib.sha256()
        for x in sorted(seen):
            h.update(x.encode() + b"\0" + self._digest(x))
        return sid, h.hexdigest()

    def shared_class(self, sid: str, make: Callable[[], Any]) -> Any:
        """The class of a shape defined as this model defines it, made by
        make() the first time any load asks for it."""
        key = self.definition_key(sid)
        with _shared_lock:
            cls = _shared_classes.get(key)
        if cls is None:
            made = make()
            with _shared_lock:
                cls = _shared_classes.setdefault(key, made)
        return cls

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
            c.dec = _list_dec(elem.codec) if elem and _decodes(elem.codec) else None
        elif t == "map":
            val = self._sub(shape.get("value"))
            c.members = [val] if val else []
            c.enc = _map_enc(val.codec if val else None)
            c.dec = _map_dec(val.codec) if val and _decodes(val.codec) else None
        elif t in ("enum", "intEnum"):
            c.cls = self._enum_class(sid, t, shape)
            c.enc = _scalars.enc_int_enum if t == "intEnum" else _scalars.enc_str_enum
            c.dec = c.cls
        else:
            c.enc = _scalars.SIMPLE_ENC.get(t)
            c.dec = _scalars.SIMPLE_DEC.get(t)
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

        def make() -> Any:
            base = IntEnum if t == "intEnum" else StrEnum
            values = [(enum_member_name(v["name"]), v["value"]) for v in shape.get("values", [])]
            functional: Any = base
            cls = functional(class_name(sid), values, module=__name__)
            cls.shape_id = sid
            if shape.get("documentation"):
                cls.__doc__ = shape["documentation"]
            return cls

        return self.shared_class(sid, make)

    def _struct_class(self, c: _Codec, shape: dict[str, Any]) -> Any:
        bound = self.bound.get(c.shape_id)
        if bound is not None:
            return bound
        return self.shared_class(c.shape_id, lambda: self._make_struct_class(c, shape))

    def _make_struct_class(self, c: _Codec, shape: dict[str, Any]) -> Any:
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
        return self.shared_class(c.shape_id, lambda: type(class_name(c.shape_id), (errors.ServiceError,), ns))

    def _union_classes(self, c: _Codec, shape: dict[str, Any]) -> Any:
        """The union's base class; c gets its member classes and its
        class for unknown members (held by the base class, _sc_classes,
        when made here)."""
        bound = self.bound.get(c.shape_id)
        if bound is not None:
            for m in c.members:
                cls = self.bound.get(f"{c.shape_id}${m.name}")
                c.member_classes[m.name] = cls if cls is not None else self._union_member_class(c, m, bound)
            unknown = self.bound.get(f"{c.shape_id}$")
            c.unknown_cls = unknown if unknown is not None else self._union_unknown_class(c, bound)
            return bound

        def make() -> Any:
            base: Any = type(class_name(c.shape_id), (Union,), {
                "shape_id": c.shape_id, "_sc_sensitive_shape": bool(shape.get("sensitive")), "__module__": __name__,
                "__doc__": shape.get("documentation") or f"The union {c.shape_id}: one of its member classes.",
            })
            members = {m.name: self._union_member_class(c, m, base) for m in c.members}
            base._sc_classes = (members, self._union_unknown_class(c, base))
            return base

        base = self.shared_class(c.shape_id, make)
        c.member_classes, c.unknown_cls = dict(base._sc_classes[0]), base._sc_classes[1]
        return base

    @staticmethod
    def _union_member_class(c: _Codec, m: _Member, base: Any) -> Any:
        return type(union_member_class_name(c.shape_id, m.name), (base,), {
            "member_name": m.name, "__module__": __name__,
            "__doc__": m.doc or f"The member {m.name} of the union {c.shape_id}.",
        })

    @staticmethod
    def _union_unknown_class(c: _Codec, base: Any) -> Any:
        return type(class_name(c.shape_id) + "Unknown", (base, UnknownUnionMember), {"__module__": __name__})

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


def _list_enc(elem: Optional[_Codec]) -> Callable[[Any], Any]:
    """A list or a tuple, as boto3 takes them; a str, bytes, a dict or a
    set is refused rather than sent as its characters, keys or in no
    particular order."""

    def enc(v: Any) -> Any:
        if type(v) is not list and not isinstance(v, (list, tuple)):
            raise _scalars.type_error("a list or tuple", v)
        e = elem.enc if elem is not None else None
        if e is None:
            return v if type(v) is list else list(v)
        out = []
        i = 0
        try:
            for i, x in enumerate(v):
                out.append(None if x is None else e(x))
        except errors.UsageError as err:
            raise _scalars.at_member(err, f"[{i}]")
        return out

    return enc


def _decodes(c: _Codec) -> bool:
    """Whether values of c's shape are converted when decoded. A structure
    or union always is, even while it is still being compiled: a recursive
    shape's lists and maps (DynamoDB's AttributeValue in its own L and M)
    are compiled before it has its dec."""
    return c.dec is not None or c.type in ("structure", "union")


def _list_dec(elem: _Codec) -> Callable[[Any], Any]:
    def dec(v: Any) -> Any:
        d = elem.dec
        assert d is not None
        return [None if x is None else d(x) for x in v]

    return dec


def _is_mapping(v: Any) -> bool:
    if isinstance(v, dict):
        return True
    import collections.abc

    return isinstance(v, collections.abc.Mapping)


def _map_key(k: Any) -> str:
    if isinstance(k, enum.Enum):
        k = k._value_
    if isinstance(k, str):
        return str(k)
    raise errors.InputTypeError(f"expected str keys, not {_scalars.type_name(k)}")


def _map_enc(val: Optional[_Codec]) -> Callable[[Any], Any]:
    """A dict (or another Mapping) with str keys."""

    def enc(v: Any) -> Any:
        if not _is_mapping(v):
            raise _scalars.type_error("a dict", v)
        e = val.enc if val is not None else None
        out = {}
        k: Any = None
        try:
            for k, x in v.items():
                key = k if type(k) is str else _map_key(k)
                out[key] = None if x is None or e is None else e(x)
        except errors.UsageError as err:
            raise _scalars.at_member(err, f"[{k!r}]")
        return out

    return enc


def _map_dec(val: _Codec) -> Callable[[Any], Any]:
    def dec(v: Any) -> Any:
        d = val.dec
        assert d is not None
        return {k: None if x is None else d(x) for k, x in v.items()}

    return dec


def _unknown_key(c: _Codec, key: Any) -> errors.InputTypeError:
    names = ", ".join(m.py for m in c.members) or "(none)"
    return errors.InputTypeError(f"{class_name(c.shape_id)} has no member {key!r}; valid: {names}")


def _struct_enc(c: _Codec) -> Callable[[Any], Any]:
    members = c.members
    by_key = c.by_key
    name = class_name(c.shape_id)

    def enc(v: Any) -> Any:
        out: dict[str, Any] = {}
        m: Optional[_Member]
        if isinstance(v, (Structure, errors.ServiceError)):
            if type(v).shape_id != c.shape_id:
                raise _scalars.type_error(f"a {name} or a dict", v)
            d = v.__dict__
            mem: Optional[_Member] = None
            try:
                for mem in members:
                    x = d.get(mem.py)
                    if x is not None:
                        e = mem.codec.enc
                        out[mem.name] = e(x) if e is not None else x
            except errors.UsageError as err:
                raise _scalars.at_member(err, mem.py if mem is not None else "?")
            return out
        if isinstance(v, dict) or hasattr(v, "items"):
            k: Any = None
            m = None
            try:
                for k, x in v.items():
                    m = by_key.get(k)
                    if m is None:
                        raise _unknown_key(c, k)
                    if x is not None:
                        e = m.codec.enc
                        out[m.name] = e(x) if e is not None else x
            except errors.UsageError as err:
                if m is None:  # the unknown key itself
                    raise
                raise _scalars.at_member(err, str(k))
            return out
        raise _scalars.type_error(f"a {name} or a dict", v)

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


# The document form's key of a union member the model does not know:
# {"$unknown": [name, value]}; the library refuses to send it, naming the
# member path (its value was never decoded).
_UNKNOWN_KEY = "$unknown"


def _union_enc(c: _Codec) -> Callable[[Any], Any]:
    by_key = c.by_key

    def enc(v: Any) -> Any:
        if isinstance(v, Union) and type(v).shape_id == c.shape_id:
            if isinstance(v, UnknownUnionMember):
                return {_UNKNOWN_KEY: [v.tag, v.value]}
            k, x = v.member_name, v.value
        elif _is_mapping(v) and len(v) == 1:
            ((k, x),) = v.items()
            if k == _UNKNOWN_KEY:
                return {k: x}
        else:
            raise _scalars.type_error(f"a {class_name(c.shape_id)} member class or a dict with one key", v)
        m = by_key.get(k)
        if m is None:
            raise _unknown_key(c, k)
        e = m.codec.enc
        try:
            return {m.name: e(x) if e is not None and x is not None else x}
        except errors.UsageError as err:
            raise _scalars.at_member(err, str(k))

    return enc


def _union_dec(c: _Codec) -> Callable[[Any], Any]:
    by_name = {m.name: m for m in c.members}

    def dec(v: Any) -> Any:
        for k, x in v.items():
            if x is None:
                continue
            m = by_name.get(k)
            if m is None:
                if k == _UNKNOWN_KEY and isinstance(x, list) and len(x) == 2:
                    return c.unknown_cls(x[0], x[1])
                return c.unknown_cls(k, x)
            d = m.codec.dec
            return c.member_classes[k](d(x) if d is not None else x)
        return None

    return dec
