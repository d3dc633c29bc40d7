"""The package's ctypes declarations (argtypes, restype) against the
prototypes of include/smithycurl.h. ctypes trusts what it is told: a
declaration that drifts from the header corrupts memory instead of failing,
so every library function the package declares is compared, parameter by
parameter, with the header parsed here."""

from __future__ import annotations

import ctypes
import functools
import importlib
import os
import pkgutil
import re
from dataclasses import dataclass, field
from typing import Any, Optional

import pytest

import smithycurl
from smithycurl import _lib
from conftest import REPO

HEADER = os.path.join(REPO, "include", "smithycurl.h")

# Functions the package declares that are not in smithycurl.h, with their
# prototypes (from Python.h).
FOREIGN = """int PyErr_CheckSignals(void);
PyObject *PyUnicode_DecodeUTF8(const char *s, ssize_t size, const char *errors);"""

# C scalar types and the ctypes type of the same size and kind (ctypes
# aliases the equal ones: c_longlong is c_long on LP64).
SCALARS: dict[str, Any] = {
    "char": ctypes.c_char, "signed char": ctypes.c_byte, "unsigned char": ctypes.c_ubyte,
    "short": ctypes.c_short, "unsigned short": ctypes.c_ushort,
    "int": ctypes.c_int, "unsigned int": ctypes.c_uint,
    "long": ctypes.c_long, "unsigned long": ctypes.c_ulong,
    "long long": ctypes.c_longlong, "unsigned long long": ctypes.c_ulonglong,
    "float": ctypes.c_float, "double": ctypes.c_double, "long double": ctypes.c_longdouble,
    "size_t": ctypes.c_size_t, "ssize_t": ctypes.c_ssize_t, "_Bool": ctypes.c_bool, "bool": ctypes.c_bool,
    "int8_t": ctypes.c_int8, "int16_t": ctypes.c_int16, "int32_t": ctypes.c_int32, "int64_t": ctypes.c_int64,
    "uint8_t": ctypes.c_uint8, "uint16_t": ctypes.c_uint16, "uint32_t": ctypes.c_uint32,
    "uint64_t": ctypes.c_uint64,
}
CFuncPtr: Any = getattr(ctypes, "_CFuncPtr")  # the base of ctypes functions; not in typeshed
INT_WORDS = {"signed", "unsigned", "short", "long", "int", "char"}
TYPE_WORDS = INT_WORDS | {"void", "float", "double", "const", "volatile", "struct", "enum", "union", "_Bool"}


# ----------------------------------------------------------------------
# The header parser: comments and preprocessor lines out, then tokens,
# split into declarations at the semicolons outside braces.
# ----------------------------------------------------------------------

@dataclass(frozen=True)
class CType:
    base: str  # "int", "unsigned long", a typedef name, "struct tag"
    ptr: int = 0
    array: Optional[int] = None  # struct fields: char buf[512]
    text: str = field(default="", compare=False)  # as written, for messages


@dataclass
class Proto:
    name: str
    ret: CType
    params: list[tuple[str, CType]]  # (name or "", type)


@dataclass
class Header:
    protos: dict[str, Proto] = field(default_factory=dict)
    callbacks: dict[str, Proto] = field(default_factory=dict)  # function-pointer typedefs
    structs: dict[str, Optional[list[tuple[str, CType]]]] = field(default_factory=dict)  # None: opaque
    enums: set[str] = field(default_factory=set)
    aliases: dict[str, CType] = field(default_factory=dict)  # typedef name -> type

    def resolve(self, c: CType) -> CType:
        for _ in range(100):
            a = self.aliases.get(c.base)
            if a is None:
                return c
            c = CType(a.base, a.ptr + c.ptr, c.array, c.text)
        raise ValueError(f"typedef loop at {c.base}")


def strip(text: str) -> str:
    """The C text the compiler sees: no comments, no preprocessor lines, no
    C++-only blocks (#ifdef __cplusplus)."""
    text = re.sub(r"/\*.*?\*/", " ", text, flags=re.S)
    text = re.sub(r"//[^\n]*", " ", text)
    text = text.replace("\\\n", " ")
    out = []
    active: list[bool] = []  # one per open #if: whether its text counts
    cplusplus: list[bool] = []
    for line in text.splitlines():
        s = line.strip()
        if not s.startswith("#"):
            if all(active):
                out.append(line)
            continue
        words = s[1:].split()
        d = words[0] if words else ""
        is_cxx = words[1:2] == ["__cplusplus"]
        if d in ("if", "ifdef", "ifndef"):
            active.append(not (d == "ifdef" and is_cxx))
            cplusplus.append(d in ("ifdef", "ifndef") and is_cxx)
        elif d == "else" and active:
            if cplusplus[-1]:
                active[-1] = not active[-1]
        elif d == "endif" and active:
            active.pop()
            cplusplus.pop()
    return "\n".join(out)


def tokens(text: str) -> list[str]:
    return re.findall(r'[A-Za-z_]\w*|\d\w*|"(?:[^"\\]|\\.)*"|\S', text)


def declarations(toks: list[str]) -> list[list[str]]:
    decls: list[list[str]] = []
    cur: list[str] = []
    depth = 0
    for t in toks:
        depth += (t == "{") - (t == "}")
        if t == ";" and depth == 0:
            decls.append(cur)
            cur = []
        else:
            cur.append(t)
    if cur or depth:
        raise ValueError(f"unterminated declaration: {' '.join(cur)}")
    return decls


def split_commas(toks: list[str]) -> list[list[str]]:
    parts: list[list[str]] = [[]]
    depth = 0
    for t in toks:
        depth += (t in "([{") - (t in ")]}")
        if t == "," and depth == 0:
            parts.append([])
        else:
            parts[-1].append(t)
    return parts


def parse_type(toks: list[str]) -> CType:
    """A type without a declarator name: const char *const *."""
    if not toks or any(t != "*" and not re.fullmatch(r"[A-Za-z_]\w*", t) for t in toks):
        raise ValueError(f"cannot parse type: {' '.join(toks)}")
    words = [t for t in toks if t not in ("*", "const", "volatile")]
    if words and words[0] in ("struct", "enum", "union"):
        if len(words) != 2:
            raise ValueError(f"cannot parse type: {' '.join(toks)}")
        base = " ".join(words)
    elif words and set(words) <= INT_WORDS:
        longs = words.count("long")
        kind = "char" if "char" in words else "short" if "short" in words else \
            "long long" if longs == 2 else "long" if longs == 1 else "int"
        if "unsigned" in words:
            base = "unsigned " + kind
        elif "signed" in words and kind == "char":
            base = "signed char"
        else:
            base = kind
    elif words == ["long", "double"]:
        base = "long double"
    elif len(words) == 1:
        base = words[0]
    else:
        raise ValueError(f"cannot parse type: {' '.join(toks)}")
    text = " ".join(toks).replace("* ", "*")
    return CType(base, toks.count("*"), None, text)


def parse_declarator(toks: list[str]) -> tuple[str, CType]:
    """A parameter or field: (name or "", type); name[N] is an array."""
    array: Optional[int] = None
    if len(toks) >= 3 and toks[-1] == "]":
        i = toks.index("[")
        n = toks[i + 1:-1]
        array = int(n[0], 0) if n else -1
        toks = toks[:i]
    name = ""
    if (len(toks) > 1 and re.fullmatch(r"[A-Za-z_]\w*", toks[-1]) and toks[-1] not in TYPE_WORDS
            and any(t not in ("*", "const", "volatile") for t in toks[:-1])):
        name = toks[-1]
        toks = toks[:-1]
    c = parse_type(toks)
    if array == -1:  # a parameter declared as name[]: a pointer
        c = CType(c.base, c.ptr + 1, None, c.text + " *")
    elif array is not None:
        c = CType(c.base, c.ptr, array, f"{c.text}[{array}]")
    return name, c


def parse_params(toks: list[str]) -> list[tuple[str, CType]]:
    if toks == ["void"]:
        return []
    return [parse_declarator(p) for p in split_commas(toks)]


def parse_header(text: str) -> Header:
    """Prototypes, function-pointer typedefs, structs, enums and other
    typedefs; anything else fails (a shape this parser does not know)."""
    h = Header()
    for d in declarations(tokens(strip(text))):
        where = " ".join(d)
        if not d:
            raise ValueError("an empty declaration (a stray ';')")
        if d[0] == "typedef" and len(d) >= 4 and d[1] in ("struct", "enum", "union"):
            kind = d[1]
            if d[2] == "{":  # typedef struct { ... } name
                tag, rest = d[-1], d[2:]
            else:
                tag, rest = d[2], d[3:]
            key = f"{kind} {tag}"
            if rest[0] == "{":
                close = len(rest) - 1 - rest[::-1].index("}")
                body, names = rest[1:close], rest[close + 1:]
                if kind == "enum":
                    h.enums.add(key)
                else:
                    h.structs[key] = [parse_declarator(f) for f in declarations(body)]
            else:
                names = rest
                if kind == "enum":
                    h.enums.add(key)
                else:
                    h.structs.setdefault(key, None)
            if len(names) != 1:
                raise ValueError(f"unexpected typedef: {where}")
            h.aliases[names[0]] = CType(key, 0, None, names[0])
        elif d[0] in ("enum", "struct", "union") and d[-1] == "}":  # enum { FLAG = 1 }, struct tag { ... }
            if d[1] != "{":
                key = f"{d[0]} {d[1]}"
                if d[0] == "enum":
                    h.enums.add(key)
                else:
                    h.structs[key] = [parse_declarator(f) for f in declarations(d[3:-1])]
        elif d[0] == "typedef" and "(" in d:  # typedef ret (*name)(params)
            i = d.index("(")
            if d[i + 1:i + 2] != ["*"] or d[i + 3:i + 5] != [")", "("] or d[-1] != ")":
                raise ValueError(f"unexpected typedef: {where}")
            name = d[i + 2]
            h.callbacks[name] = Proto(name, parse_type(d[1:i]), parse_params(d[i + 5:-1]))
        elif d[0] == "typedef":
            name, c = parse_declarator(d[1:])
            if not name:
                raise ValueError(f"unexpected typedef: {where}")
            h.aliases[name] = c
        elif "(" in d and d[-1] == ")":  # ret name(params)
            i = d.index("(")
            name = d[i - 1]
            h.protos[name] = Proto(name, parse_type(d[:i - 1]), parse_params(d[i + 1:-1]))
        else:
            raise ValueError(f"unexpected declaration: {where}")
    return h


@functools.lru_cache(maxsize=None)
def header() -> Header:
    with open(HEADER, encoding="utf-8") as f:
        return parse_header(f.read())


# ----------------------------------------------------------------------
# C type against ctypes type
# ----------------------------------------------------------------------

def pyname(t: Any) -> str:
    """A ctypes type as it is written in Python."""
    if t is None:
        return "None"
    if not isinstance(t, type):
        return repr(t)
    if issubclass(t, ctypes._Pointer):
        return f"POINTER({pyname(t._type_)})"
    if issubclass(t, ctypes.Array):
        return f"{pyname(t._type_)} * {t._length_}"
    if hasattr(t, "_argtypes_"):  # a CFUNCTYPE
        return "CFUNCTYPE(" + ", ".join(pyname(x) for x in (getattr(t, "_restype_"), *getattr(t, "_argtypes_"))) + ")"
    return t.__name__


def mismatch(h: Header, c: CType, py: Any, ret: bool = False) -> Optional[str]:
    """Why ctypes type py cannot stand for C type c (a return type when
    ret), or None when it can."""
    c = h.resolve(c)
    is_class = isinstance(py, type)
    if c == CType("PyObject", 1):  # Python.h's: ctypes gives the object itself
        return None if py is ctypes.py_object else "want py_object"
    if c.array is not None:
        if not (is_class and issubclass(py, ctypes.Array) and py._length_ == c.array):
            return f"want an array of {c.array}"
        return mismatch(h, CType(c.base, c.ptr), py._type_)
    if c.ptr:
        if py is ctypes.c_void_p:
            return None
        inner = CType(c.base, c.ptr - 1)
        if inner == CType("void"):
            return None if is_class and issubclass(py, ctypes._Pointer) else "want c_void_p or POINTER"
        if py is ctypes.c_char_p and h.resolve(inner) in (CType("char"), CType("signed char"), CType("unsigned char")):
            return None
        if is_class and issubclass(py, ctypes._Pointer):
            why = mismatch(h, inner, py._type_)
            return None if why is None else f"what it points to: {why}"
        return "want a pointer (c_void_p, c_char_p, POINTER)"
    if c.base == "void":
        return None if ret and py is None else "want None (void)"
    if c.base in h.callbacks:
        cb = h.callbacks[c.base]
        if not (is_class and issubclass(py, CFuncPtr) and hasattr(py, "_argtypes_")):
            return f"want a CFUNCTYPE for {c.base}"
        whys = []
        why = mismatch(h, cb.ret, py._restype_, ret=True)
        if why:
            whys.append(f"callback return: {why}")
        if len(py._argtypes_) != len(cb.params):
            whys.append(f"callback has {len(py._argtypes_)} arguments, want {len(cb.params)}")
        for i, ((pname, pc), pt) in enumerate(zip(cb.params, py._argtypes_)):
            why = mismatch(h, pc, pt)
            if why:
                whys.append(f"callback argument {i} ({pc.text} {pname}): {pyname(pt)}: {why}")
        return "; ".join(whys) or None
    if c.base in h.enums:
        return None if py is ctypes.c_int else "want c_int (an enum)"
    if c.base in h.structs:
        fields = h.structs[c.base]
        if not (is_class and issubclass(py, ctypes.Structure)):
            return f"want a Structure for {c.base}"
        if fields is None:  # opaque: any Structure may stand for it behind a pointer
            return None
        pyfields = getattr(py, "_fields_", [])
        if len(pyfields) != len(fields):
            return f"{c.base} has {len(fields)} fields, the Structure {len(pyfields)}"
        for (fname, fc), pf in zip(fields, pyfields):
            why = mismatch(h, fc, pf[1])
            if why:
                return f"field {fname}: {pyname(pf[1])}: {why}"
        return None
    want = SCALARS.get(c.base)
    if want is None:
        return f"unknown C type {c.base}"
    return None if py is want else f"want {want.__name__} ({c.base})"


def compare(h: Header, proto: Proto, restype: Any, argtypes: Any) -> list[str]:
    """Every difference between a ctypes function's declaration and its
    prototype."""
    out = []
    why = mismatch(h, proto.ret, restype, ret=True)
    if why:
        out.append(f"{proto.name}: restype {pyname(restype)}, header returns {proto.ret.text}: {why}")
    if argtypes is None:
        out.append(f"{proto.name}: argtypes not declared (header: {len(proto.params)} parameters)")
        return out
    if len(argtypes) != len(proto.params):
        out.append(f"{proto.name}: {len(argtypes)} argtypes, header has {len(proto.params)} parameters")
    for i, ((pname, pc), pt) in enumerate(zip(proto.params, argtypes)):
        why = mismatch(h, pc, pt)
        if why:
            out.append(f"{proto.name}: parameter {i} ({pc.text} {pname}): argtypes[{i}] is {pyname(pt)}: {why}")
    return out


# ----------------------------------------------------------------------
# What the package declares
# ----------------------------------------------------------------------

def is_library_function(v: Any) -> bool:
    # A function of a loaded library has its symbol's name; a callback made
    # from Python (a CFUNCTYPE instance) has none.
    return isinstance(v, CFuncPtr) and isinstance(getattr(v, "__name__", None), str)


def declared() -> list[tuple[str, str, Any]]:
    """(where, symbol, function) of every library function the package
    declares: the loaded library's (as _lib declared them) and those kept
    in any module of the package."""
    lib = _lib.load()
    lib.declare_all()
    found: dict[int, tuple[str, str, Any]] = {}
    for where, names in (("_lib (the loaded CDLL)", vars(lib.cdll)), ("_lib.Library", vars(lib))):
        for v in names.values():
            if is_library_function(v):
                found.setdefault(id(v), (where, v.__name__, v))
    for m in pkgutil.iter_modules(smithycurl.__path__):
        if m.name.startswith("__"):  # __main__ runs the command line
            continue
        mod = importlib.import_module(f"smithycurl.{m.name}")
        for v in vars(mod).values():
            if is_library_function(v):
                found.setdefault(id(v), (mod.__name__, v.__name__, v))
    return sorted(found.values(), key=lambda x: x[1])


# ----------------------------------------------------------------------
# Tests
# ----------------------------------------------------------------------

def test_header_parsed_whole() -> None:
    """Every function the header declares is parsed, and every type its
    prototypes use is known: else the comparison would skip them."""
    h = header()
    with open(HEADER, encoding="utf-8") as f:
        text = strip(f.read())
    names = set(re.findall(r"\b(smithycurl_\w+)\s*\(", text))
    assert names == set(h.protos), sorted(names ^ set(h.protos))
    assert len(h.protos) >= 100
    unknown = []
    for p in [*h.protos.values(), *h.callbacks.values()]:
        for pname, c in [("return", p.ret), *p.params]:
            r = h.resolve(c)
            if not (r.base == "void" or r.base in SCALARS or r.base in h.enums or r.base in h.structs
                    or r.base in h.callbacks):
                unknown.append(f"{p.name} {pname}: {c.text}")
    assert not unknown, unknown


def test_declarations_match_header() -> None:
    h = header()
    foreign = parse_header(FOREIGN)
    problems = []
    seen = set()
    for where, name, func in declared():
        seen.add(name)
        if name in foreign.protos:
            problems += [f"{where}: {p}" for p in compare(foreign, foreign.protos[name], func.restype, func.argtypes)]
        elif name not in h.protos:
            problems.append(f"{where}: {name} is not in include/smithycurl.h")
        else:
            problems += [f"{where}: {p}" for p in compare(h, h.protos[name], func.restype, func.argtypes)]
    # A table entry the library does not export is left undeclared by _lib.
    for name in _lib._FUNCTIONS:
        if "smithycurl_" + name not in seen:
            problems.append(f"_lib._FUNCTIONS: smithycurl_{name} was not declared (not in the built library?)")
    undeclared = sorted(set(h.protos) - seen)
    print(f"{len(h.protos) - len(undeclared)} of the header's {len(h.protos)} functions are declared for Python; "
          f"not declared (information only): {', '.join(undeclared)}")
    if problems:
        pytest.fail(f"{len(problems)} ctypes declarations differ from include/smithycurl.h:\n  "
                    + "\n  ".join(problems), pytrace=False)


class _Timestamp(ctypes.Structure):
    _fields_ = [("seconds", ctypes.c_longlong), ("nanos", ctypes.c_int)]


P = ctypes.POINTER
_vp, _cp, _int, _size = ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int, ctypes.c_size_t


@pytest.mark.parametrize("name, restype, argtypes, bad", [
    ("smithycurl_result_output", _int, [_vp, P(_cp), P(_size)], None),
    ("smithycurl_result_output", _int, [_vp, P(_vp), P(_int)], "parameter 2"),  # size_t * as int *
    ("smithycurl_version", _int, [], "restype c_int"),  # a pointer left as the default int
    ("smithycurl_free", _int, [_vp], "want None"),  # void
    ("smithycurl_strerror", _cp, [_vp], "parameter 0"),  # an enum
    ("smithycurl_call", _int, [_vp, _cp, _cp, _size, _vp], "5 argtypes"),
    ("smithycurl_loader_new", _int, [_vp], None),
    ("smithycurl_loader_new", _int, [P(_int)], "parameter 0"),  # handle ** as int *
    ("smithycurl_options_set_timeout_ms", _int, [_vp, _int], "parameter 1"),  # long
    ("smithycurl_options_set_trace", _int, [_vp, ctypes.CFUNCTYPE(None, _vp, _vp, _int), _vp], "callback argument 2"),
    ("smithycurl_options_set_trace", _int, [_vp, ctypes.CFUNCTYPE(_int, _vp, _vp, _size), _vp], "callback return"),
    ("smithycurl_options_set_trace", _int, [_vp, _vp, _vp], "want a CFUNCTYPE"),
    ("smithycurl_json_timestamp", None, [_vp, _Timestamp], None),
    ("smithycurl_json_timestamp", None, [_vp, ctypes.c_longlong], "want a Structure"),
    ("smithycurl_json_enum", None, [_vp, P(_cp), _int, _int, _cp], None),
    ("smithycurl_json_grow", _vp, [_vp, P(_size), _size], None),
])
def test_comparison_catches(name: str, restype: Any, argtypes: list[Any], bad: Optional[str]) -> None:
    """The comparison itself: it passes right declarations and names the
    wrong part of wrong ones."""
    h = header()
    got = compare(h, h.protos[name], restype, argtypes)
    if bad is None:
        assert got == []
    else:
        assert len(got) == 1 and bad in got[0], got
