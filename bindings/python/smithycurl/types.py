"""Base classes of the values smithycurl builds from a model.

At run time, ``model.client(...)`` makes one class per shape an operation
reaches: a dataclass (subclass of Structure) per structure, an Enum per enum
and intEnum, a base class per union with one small dataclass per member.
``python -m smithycurl gen`` writes the same classes into a module, on the
same bases, so generated and run-time values behave alike.
"""

from __future__ import annotations

import enum
import re

# The names the classes' annotations use exist at run time, so that
# typing.get_type_hints() works on every class made from a model (cattrs,
# pydantic, typeguard call it); typing is loaded by the package already.
from typing import Any, ClassVar, Optional

TYPE_CHECKING = False
if TYPE_CHECKING:
    import datetime

__all__ = [
    "Structure",
    "Union",
    "UnknownUnionMember",
    "StrEnum",
    "IntEnum",
    "format_timestamp",
    "parse_timestamp",
]


class Structure:
    """Base of the dataclasses made for structures.

    Fields are the members in snake_case; ``Optional`` and ``None`` by
    default unless required, the model's default when it has one. ``repr``
    hides @sensitive members (and whole @sensitive shapes) as ``***``.
    """

    #: The shape id ("ns#Shape").
    shape_id: ClassVar[str] = ""
    #: (python name, Smithy member name) of each member, in model order.
    _sc_members: ClassVar[tuple[tuple[str, str], ...]] = ()
    _sc_sensitive: ClassVar[frozenset[str]] = frozenset()
    _sc_sensitive_shape: ClassVar[bool] = False

    def __repr__(self) -> str:
        cls = type(self)
        if cls._sc_sensitive_shape:
            return f"{cls.__name__}(***)"
        parts = []
        for py, _ in cls._sc_members:
            value = self.__dict__.get(py)
            parts.append(f"{py}=***" if py in cls._sc_sensitive and value is not None else f"{py}={value!r}")
        return f"{cls.__name__}({', '.join(parts)})"


class Union:
    """Base of a union's classes. Each member is a subclass holding one
    ``value`` (``FoodPizza(value=Pizza(...))``); a member the model does not
    know, sent by a newer server, decodes to UnknownUnionMember."""

    shape_id: ClassVar[str] = ""
    #: The Smithy member name of this class ("" on the union's base class).
    member_name: ClassVar[str] = ""
    _sc_sensitive_shape: ClassVar[bool] = False
    value: Any

    def __init__(self, value: Any) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return type(other) is type(self) and other.__dict__ == self.__dict__

    def __hash__(self) -> int:
        return hash((type(self), repr(self.__dict__)))

    def __repr__(self) -> str:
        if type(self)._sc_sensitive_shape:
            return f"{type(self).__name__}(***)"
        return f"{type(self).__name__}({self.value!r})"


class UnknownUnionMember(Union):
    """A union member this model does not know: ``tag`` is its name,
    ``value`` its value as plain JSON values (the document form's
    ``{"$unknown": [tag, value]}``). Sending it back raises UsageError
    naming the member: its value was never decoded."""

    def __init__(self, tag: str, value: Any = None) -> None:
        self.tag = tag
        self.value = value

    def __repr__(self) -> str:
        return f"{type(self).__name__}(tag={self.tag!r}, value={self.value!r})"


class _OpenEnum(enum.Enum):
    """An Enum that keeps values it does not know: ``E("new")`` returns a
    pseudo-member with that value, ``name`` None and ``known`` False,
    instead of raising (a newer server may send new values)."""

    @classmethod
    def _missing_(cls, value: object) -> Any:
        for mixin in (str, int):
            if isinstance(value, mixin) and issubclass(cls, mixin) and not isinstance(value, bool):
                new: Any = mixin.__new__
                member = new(cls, value)
                member._name_ = None
                member._value_ = value
                return member
        return None

    @property
    def known(self) -> bool:
        """False for a value the model does not list."""
        return self._name_ is not None

    def __repr__(self) -> str:
        if self._name_ is None:
            return f"<{type(self).__name__} unknown: {self._value_!r}>"
        return f"<{type(self).__name__}.{self._name_}: {self._value_!r}>"


class StrEnum(str, _OpenEnum):
    """Base of the enums made for Smithy enum shapes; members are strings
    (``str(member)`` is the value)."""

    def __str__(self) -> str:
        return str(self._value_)

    def __format__(self, spec: str) -> str:
        return str.__format__(str(self._value_), spec)


class IntEnum(int, _OpenEnum):
    """Base of the enums made for Smithy intEnum shapes; members are ints."""

    def __str__(self) -> str:
        return str(self._value_)

    def __format__(self, spec: str) -> str:
        return int.__format__(int(self._value_), spec)


# datetime and this pattern are loaded on the first timestamp, not at import.
_RFC3339: Optional[re.Pattern[str]] = None


def parse_timestamp(text: str) -> datetime.datetime:
    """An RFC 3339 date-time as an aware datetime (digits past the
    microsecond are dropped)."""
    import datetime

    global _RFC3339
    if _RFC3339 is None:
        _RFC3339 = re.compile(
            r"(\d{4})-(\d\d)-(\d\d)[Tt ](\d\d):(\d\d):(\d\d)(?:\.(\d+))?(?:([Zz])|([+-])(\d\d):(\d\d))$"
        )
    m = _RFC3339.match(text)
    if m is None:
        raise ValueError(f"not an RFC 3339 date-time: {text!r}")
    y, mo, d, h, mi, s, frac, z, sign, oh, om = m.groups()
    us = int((frac + "000000")[:6]) if frac else 0
    if z or not sign:
        tz: datetime.tzinfo = datetime.timezone.utc
    else:
        delta = datetime.timedelta(hours=int(oh), minutes=int(om))
        tz = datetime.timezone(-delta if sign == "-" else delta)
    return datetime.datetime(int(y), int(mo), int(d), int(h), int(mi), int(s), us, tz)


def format_timestamp(value: datetime.datetime) -> str:
    """An RFC 3339 UTC string; a naive datetime is taken as UTC."""
    if value.tzinfo is not None:
        import datetime

        value = value.astimezone(datetime.timezone.utc)
    # %Y is not zero-padded below year 1000 (glibc): "446-07-24" is not RFC 3339.
    text = f"{value.year:04d}-" + value.strftime("%m-%dT%H:%M:%S")
    if value.microsecond:
        text += f".{value.microsecond:06d}".rstrip("0")
    return text + "Z"


def snake_case(name: str) -> str:
    """Smithy member and operation names in Python style: GetIp -> get_ip,
    queryParam -> query_param, HTTPStatus -> http_status; keywords get a
    trailing underscore (from -> from_)."""
    got = _snake.get(name)
    if got is None:
        import keyword

        got = _LOWER_UPPER.sub(r"\1_\2", _ACRONYM.sub(r"\1_\2", name)).lower()
        if keyword.iskeyword(got) or got in _RESERVED:
            got += "_"
        if len(_snake) < 65536:  # names come from models: bounded, but not trusted
            _snake[name] = got
    return got


# snake_case's rules, compiled once, and the names it has converted (a
# client's creation converts every operation name of its service).
_ACRONYM = re.compile(r"([A-Z]+)([A-Z][a-z])")
_LOWER_UPPER = re.compile(r"([a-z0-9])([A-Z])")
_snake: dict[str, str] = {}


# Names a dataclass field must not take (they would shadow the bases' API).
_RESERVED = frozenset({"shape_id", "member_name", "known"})

