"""``python -m smithycurl gen``: writes a typed Python module for a service.

The package written to OUT/ has ``__init__.py`` (enums, dataclasses, union
member classes, error classes and a client class whose methods have full
signatures and docstrings from @documentation), ``model.json`` (the model,
loaded at run time) and ``py.typed``. Programs using it pass
``mypy --strict``; calls run on the same core as ``model.client(...)``.
"""

from __future__ import annotations

import base64
import inspect
import json
import keyword
import os
import re
import textwrap
from typing import Any, Optional

from . import _codec
from .model import CLIENT_NAMES, Model, ServiceInfo
from .types import snake_case

_ERROR_BASE_ATTRS = {
    "message": "str", "code": "str", "rc": "int", "attempts": "int", "status": "int", "error_code": "str",
    "request_id": "str", "body": "str", "shape_id": "str", "meta": "smithycurl.ErrorMeta",
    "kind": "str", "args": "tuple[typing.Any, ...]",
}


def _doc(text: str, indent: str) -> str:
    text = text.strip().replace("\\", "\\\\").replace('"""', '\\"\\"\\"')
    if not text:
        return ""
    if text.endswith('"'):
        text = text[:-1] + '\\"'  # not the closing quotes' first
    lines = text.splitlines()
    if len(lines) == 1:
        return f'{indent}"""{lines[0]}"""\n'
    body = "\n".join((indent + line) if line.strip() else "" for line in lines)
    return f'{indent}"""{lines[0]}\n{body[len(indent) + len(lines[0]) + 1:]}\n{indent}"""\n'


# The names a class body of the module refers to that a member of the same
# name would shadow there (a member named list, str or typing): such a class
# refers to them through module aliases (_Builtins.list, _Typing), which no
# member can be named (members are snake_case).
_SHADOWABLE = ("str", "int", "float", "bool", "bytes", "list", "dict", "tuple", "frozenset",
               "typing", "datetime", "decimal", "dataclasses", "smithycurl")
_MODULES = {"typing", "datetime", "decimal", "dataclasses", "smithycurl"}
# A quoted string (left as is) or a shadowable name not after a dot.
_NAME_RE = re.compile(r"""('(?:[^'\\]|\\.)*'|"(?:[^"\\]|\\.)*")|(?<![\w.])(""" + "|".join(_SHADOWABLE) + r")\b")


class _Gen:
    def __init__(self, model: Model, service: ServiceInfo) -> None:
        self.model = model
        self.service = service
        # Documentation as plain text: AWS models' HTML converted as the C
        # and Go generators convert it (by the library).
        self.ops = [model.operation_shapes(op.name, service.id, plain_docs=True) for op in service.operations]
        self.service_doc = model._documentation(service.id, plain=True)
        self.shapes: dict[str, dict[str, Any]] = {}
        for data in self.ops:
            self.shapes.update(data.get("shapes", {}))
        self.names: dict[str, str] = {}
        used: set[str] = {"typing", "dataclasses", "datetime", "decimal", "smithycurl", "os"}
        for sid in sorted(self.shapes, key=lambda s: (s.split("#")[0] != service.id.split("#")[0], s)):
            name = _codec.class_name(sid)
            while name in used:
                name += "_"
            used.add(name)
            self.names[sid] = name
        self.client_name = _codec.class_name(service.id) + "Client"
        self.async_client_name = _codec.class_name(service.id) + "AsyncClient"
        self.exports: list[str] = []
        self.bindings: list[tuple[str, str]] = []
        self.aliases: dict[str, str] = {}  # shadowed name -> its module-level alias
        self.used = used
        self.shadow: set[str] = set()  # the names the current class's members shadow

    def code(self, line: str) -> str:
        """A line of code in the current class body, with the names its
        members shadow replaced by their aliases (quoted strings kept)."""
        if not self.shadow:
            return line

        def repl(m: re.Match[str]) -> str:
            if m.group(1) is not None or m.group(2) not in self.shadow:
                return m.group(0)
            name = m.group(2)
            module = name if name in _MODULES else "builtins"
            alias = self.aliases.get(module)
            if alias is None:
                alias = "_" + module[:1].upper() + module[1:]
                while alias in self.used:
                    alias += "_"
                self.used.add(alias)
                self.aliases[module] = alias
            return alias if module == name else f"{alias}.{name}"

        return _NAME_RE.sub(repl, line)

    def alias_lines(self) -> str:
        """The module-level aliases the classes used (none for most models)."""
        return "".join(f"import {name} as {alias}\n" for name, alias in sorted(self.aliases.items()))

    def ann(self, type_: str, target: str) -> str:
        shape = self.shapes.get(target)
        if shape is None or type_ in _codec.SIMPLE_TYPES:
            if shape is None and type_ in ("structure", "union"):
                return "None"
            return _codec.SIMPLE_TYPES.get(type_, "typing.Any")
        if type_ in ("list", "set"):
            el = shape.get("member", {})
            return f"list[{self.ann(el.get('type', ''), el.get('target', ''))}]"
        if type_ == "map":
            v = shape.get("value", {})
            return f"dict[str, {self.ann(v.get('type', ''), v.get('target', ''))}]"
        return self.names[target]

    def literal(self, value: Any, m: dict[str, Any]) -> Optional[str]:
        """A Python expression for a member's default; None for a factory."""
        t = m.get("type")
        if value is None:
            return "None"
        if t in ("enum", "intEnum"):
            shape = self.shapes.get(m["target"], {})
            for v in shape.get("values", []):
                if v["value"] == value:
                    return f"{self.names[m['target']]}.{_codec.enum_member_name(v['name'])}"
            return repr(value)
        if t == "timestamp":
            if isinstance(value, (int, float)):
                return f"datetime.datetime.fromtimestamp({value!r}, datetime.timezone.utc)"
            return f"smithycurl.types.parse_timestamp({value!r})"
        if t == "blob":
            return repr(base64.b64decode(value)) if isinstance(value, str) else repr(value)
        if t == "bigDecimal":
            return f"decimal.Decimal({str(value)!r})"
        if t in ("float", "double") and isinstance(value, (int, float)):
            return repr(float(value))
        if isinstance(value, (list, dict)):
            return None
        return repr(value)

    def members(self, shape: dict[str, Any]) -> list[tuple[dict[str, Any], str]]:
        raw = shape.get("members", [])
        return list(zip(raw, _codec.py_names(raw)))

    # ---- shapes --------------------------------------------------------

    def enum(self, sid: str, shape: dict[str, Any]) -> str:
        name = self.names[sid]
        base = "smithycurl.IntEnum" if shape["type"] == "intEnum" else "smithycurl.StrEnum"
        out = f"class {name}({base}):\n"
        out += _doc(shape.get("documentation", "") or f"The enum {sid}.", "    ")
        for v in shape.get("values", []):
            out += f"    {_codec.enum_member_name(v['name'])} = {v['value']!r}\n"
            if v.get("documentation"):
                out += _doc(v["documentation"], "    ")
        return out

    def structure(self, sid: str, shape: dict[str, Any]) -> str:
        name = self.names[sid]
        mem = self.members(shape)
        self.shadow = {py for _, py in mem} & set(_SHADOWABLE)
        code = self.code
        out = "@dataclasses.dataclass(kw_only=True, repr=False, eq=True)\n"
        out += f"class {name}(smithycurl.Structure):\n"
        out += _doc(shape.get("documentation", "") or f"The structure {sid}.", "    ")
        out += code(f"    shape_id: typing.ClassVar[str] = {sid!r}\n")
        out += code(f"    _sc_members: typing.ClassVar[tuple[tuple[str, str], ...]] = {tuple((py, m['name']) for m, py in mem)!r}\n")
        sens = sorted(py for m, py in mem if m.get("sensitive"))
        if sens:
            out += code(f"    _sc_sensitive: typing.ClassVar[frozenset[str]] = frozenset({sens!r})\n")
        if shape.get("sensitive"):
            out += code("    _sc_sensitive_shape: typing.ClassVar[bool] = True\n")
        out += "\n"
        for m, py in mem:
            ann = self.ann(m.get("type", ""), m["target"])
            if "default" in m:
                lit = self.literal(m["default"], m)
                if lit is None:
                    out += f"    {py}: " + code(f"{ann} = dataclasses.field(default_factory=lambda: {m['default']!r})\n")
                elif lit == "None":
                    out += f"    {py}: " + code(f"typing.Optional[{ann}] = None\n")
                else:
                    out += f"    {py}: " + code(f"{ann} = {lit}\n")
            elif m.get("required"):
                out += f"    {py}: " + code(f"{ann}\n")
            else:
                out += f"    {py}: " + code(f"typing.Optional[{ann}] = None\n")
            if m.get("documentation"):
                out += _doc(m["documentation"], "    ")
        self.shadow = set()
        return out

    def union(self, sid: str, shape: dict[str, Any]) -> str:
        name = self.names[sid]
        out = f"class {name}(smithycurl.Union):\n"
        out += _doc(shape.get("documentation", "") or f"The union {sid}: one of its member classes.", "    ")
        out += f"    shape_id: typing.ClassVar[str] = {sid!r}\n"
        if shape.get("sensitive"):
            out += "    _sc_sensitive_shape: typing.ClassVar[bool] = True\n"
        for m, _py in self.members(shape):
            cname = self.names[sid] + m["name"][:1].upper() + m["name"][1:]
            ann = self.ann(m.get("type", ""), m["target"])
            out += f"\n\nclass {cname}({name}):\n"
            out += _doc(m.get("documentation", "") or f"The member {m['name']} of {sid}.", "    ")
            out += f"    member_name: typing.ClassVar[str] = {m['name']!r}\n"
            out += f"    value: {ann}\n\n"
            out += f"    def __init__(self, value: {ann}) -> None:\n        self.value = value\n"
            self.bindings.append((f"{sid}${m['name']}", cname))
            self.exports.append(cname)
        out += f"\n\nclass {name}Unknown({name}, smithycurl.UnknownUnionMember):\n"
        out += f'    """A member of {sid} this model does not know (tag, value)."""\n'
        self.bindings.append((f"{sid}$", f"{name}Unknown"))
        self.exports.append(f"{name}Unknown")
        return out

    def error(self, sid: str, shape: dict[str, Any]) -> str:
        name = self.names[sid]
        mem = self.members(shape)
        out = f"class {name}(smithycurl.ServiceError):\n"
        out += _doc(shape.get("documentation", "") or f"The error {sid}.", "    ")
        self.shadow = {py for _, py in mem} & set(_SHADOWABLE)
        code = self.code
        out += code(f"    shape_id = {sid!r}\n")
        out += code(f"    _sc_members: typing.ClassVar[tuple[str, ...]] = {tuple(py for _, py in mem)!r}\n")
        sens = sorted(py for m, py in mem if m.get("sensitive"))
        if sens:
            out += code(f"    _sc_sensitive: typing.ClassVar[frozenset[str]] = frozenset({sens!r})\n")
        for m, py in mem:
            ann = self.ann(m.get("type", ""), m["target"])
            if not m.get("required"):
                ann = f"typing.Optional[{ann}]"
            base = _ERROR_BASE_ATTRS.get(py)
            compatible = base == ann or (base, m.get("type")) in (("str", "enum"), ("int", "intEnum"))
            ignore = "  # type: ignore[assignment]" if base is not None and not compatible else ""
            out += f"    {py}: " + code(f"{ann}{ignore}\n")
            if m.get("documentation"):
                out += _doc(m["documentation"], "    ")
        self.shadow = set()
        return out

    # ---- client ----------------------------------------------------------

    def event_union(self, info: Any) -> Optional[str]:
        """The shape id of an operation's output event stream, None when none."""
        out = self.shapes.get(info.output) if info.output != "smithy.api#Unit" else None
        for m in (out or {}).get("members", []):
            target = self.shapes.get(m.get("target", ""), {})
            if target.get("type") == "union" and target.get("streaming"):
                return str(m["target"])
        return None

    def accessor(self, parts: list[str], suffix: str, prop: str, prop_doc: str, what: str, methods: list[str],
                 aio: bool = False) -> str:
        """Adds to parts the class behind client.PROP (client.wait,
        client.paginate) with methods, and returns the property's code;
        with aio, of the asynchronous client."""
        client_name = self.async_client_name if aio else self.client_name
        name = client_name + suffix
        while name in self.names.values():
            name += "_"
        base = "GeneratedAsyncClient" if aio else "GeneratedClient"
        if prop == "presign":  # one class for both clients: presigning does no I/O
            base = "GeneratedClient | smithycurl.generated.GeneratedAsyncClient"
        cls = f"class {name}:\n"
        cls += _doc(f"client.{prop} of {client_name}: {what}.", "    ")
        cls += (f"    def __init__(self, client: smithycurl.generated.{base}) -> None:\n"
                "        self._client = client\n")
        cls += "".join("\n" + m for m in methods)
        parts.append(cls)
        self.exports.append(name)
        return (f"\n    @property\n    def {prop}(self) -> {name}:\n"
                f'        """{prop_doc}"""\n'
                f"        return {name}(self)\n")

    def method(self, info: Any, data: dict[str, Any], paginate: bool = False, waiter: Optional[str] = None,
               stream: Optional[str] = None, aio: bool = False, presign: bool = False) -> str:
        """The client's method of an operation or, with paginate, the
        paginators class's method of a @paginated one; with waiter, the
        waiters class's method of that waiter; with stream (the method's
        name), the client's method opening its event stream; with presign,
        the presigners class's method. With aio, the asynchronous client's
        (coroutines; streamed bodies as bytes, no download file, no event
        streams)."""
        in_shape = self.shapes.get(info.input) if info.input != "smithy.api#Unit" else None
        out_type = "None" if info.output == "smithy.api#Unit" else self.names[info.output]
        params = ["self"]
        mapping = []
        args_doc = []
        # typing: the body's typing.cast must not name a parameter.
        used = {"self", "typing"} | (set(_PAGINATE_OPTIONS) if paginate else set()) | ({"max_wait"} if waiter else set()) \
            | ({"expires_in", "signing_time"} if presign else set())
        if in_shape:
            mem = self.members(in_shape)
            if mem or paginate:
                params.append("*")
            for m, py in sorted(mem, key=lambda x: not x[0].get("required")):
                if py in used:
                    py += "_"
                used.add(py)
                ann = self.ann(m.get("type", ""), m["target"])
                if m.get("streaming") == "blob" and not paginate and not aio and not presign:
                    ann = "smithycurl.BodySource"  # bytes, or streamed from a file object or chunks
                if m.get("type") in ("structure", "union"):
                    ann = f"{ann} | typing.Mapping[str, typing.Any]"
                elif m.get("type") in ("enum", "intEnum"):
                    ann = f"{ann} | {'int' if m.get('type') == 'intEnum' else 'str'}"
                if m.get("required") and "default" not in m:
                    params.append(f"{py}: {ann}")
                else:
                    params.append(f"{py}: typing.Optional[{ann}] = None")
                mapping.append(f"{m['name']!r}: {py}")
                d = (m.get("documentation") or "").strip().replace("\n", " ")
                extra = " Required." if m.get("required") else ""
                if "default" in m:
                    extra += f" Default: {m['default']!r}."
                args_doc.append(f"{py}: {d}{extra}".rstrip())
            # Members beyond the model's that the client's AWS
            # customizations take (RDS's SourceRegion; not when presigning).
            for name in () if presign else info.extra_input:
                py = snake_case(name)
                while py in used:
                    py += "_"
                used.add(py)
                if "*" not in params:
                    params.append("*")
                params.append(f"{py}: typing.Optional[str] = None")
                mapping.append(f"{name!r}: {py}")
                args_doc.append(f"{py}: not in the model: taken by the client's AWS customization"
                                f" (see the README's AWS customizations).")
        # A streaming blob output payload: written to the download file
        # object when one is given (keyword-only, after the members).
        download = ""
        out_shape = self.shapes.get(info.output) if info.output != "smithy.api#Unit" else None
        if not paginate and not aio and not presign and \
                any(m.get("streaming") == "blob" for m in (out_shape or {}).get("members", ())):
            download = "download"
            while download in used:
                download += "_"
            if "*" not in params:
                params.append("*")
            params.append(f"{download}: typing.Optional[smithycurl.Writable] = None")
            args_doc.append(f"{download}: a binary file object to write the streamed body to, as it arrives;"
                            " the output then has no body.")
        doc = (data.get("documentation") or f"Calls {info.id}.").strip()
        if args_doc:
            doc += "\n\nArgs:\n" + "\n".join(
                textwrap.fill(a, 88, initial_indent="    ", subsequent_indent="        ") for a in args_doc
            )
        if out_type != "None":
            doc += f"\n\nReturns:\n    {out_type}"
        errs = data.get("errors", [])
        if errs:
            doc += "\n\nRaises:\n" + "\n".join(
                f"    {self.names[e]}: {(self.shapes[e].get('documentation') or 'a modeled error').strip().splitlines()[0]}"
                for e in errs if e in self.names
            )
            doc += "\n    smithycurl.SmithycurlError: the other failures (ValidationError, TransportError, ...)."
        if waiter is not None:
            if "*" not in params:
                params.append("*")
            params.append("max_wait: float")
            doc = (f"Waits with {waiter} (smithy.waiters#waitable): calls {info.name} until an acceptor reaches\n"
                   "the success state and returns that call's output; max_wait (seconds) bounds the wait.\n"
                   "Raises smithycurl.WaiterFailureError, smithycurl.WaiterTimeoutError, or an error no\n"
                   "acceptor expects.\n\n" + doc)
            out = f"    {'async ' if aio else ''}def {snake_case(waiter)}({', '.join(params)}) -> {out_type}:\n"
            out += _doc(doc, "        ")
            call = f"{'await ' if aio else ''}self._client._wait({waiter!r}, {info.name!r}, {{{', '.join(mapping)}}}, max_wait)"
            if out_type == "None":
                return out + f"        {call}\n"
            return out + f"        return typing.cast({out_type}, {call})\n"
        if presign:
            if "*" not in params:
                params.append("*")
            params += ["expires_in: int = 3600", "signing_time: typing.Optional[datetime.datetime] = None"]
            doc = (f"Presigns {info.name}: its request signed with SigV4 in its URL, valid for expires_in seconds\n"
                   "(1 to 604800), for anyone to send without credentials; nothing is sent. signing_time (aware)\n"
                   "signs as of then instead of now.\n\n" + doc.split("\n\nReturns:")[0].split("\n\nRaises:")[0])
            out = f"    def {info.py_name}({', '.join(params)}) -> smithycurl.PresignedRequest:\n"
            out += _doc(doc, "        ")
            return out + (f"        return self._client._presign({info.name!r}, {{{', '.join(mapping)}}}, expires_in, signing_time)\n")
        if stream is not None:
            union = self.event_union(info)
            assert union is not None
            ev_type = f"smithycurl.EventStream[{self.names[union]}]"
            doc = (f"Calls {info.name} and returns its event stream once the initial response is in:\n"
                   f"iterate it for each {self.names[union]} as it arrives; .initial is the {out_type}\n"
                   "without its stream. `with` or close() ends it early.\n\n"
                   + doc.replace(f"\n\nReturns:\n    {out_type}", ""))
            out = f"    def {stream}({', '.join(params)}) -> {ev_type}:\n"
            out += _doc(doc, "        ")
            return out + (f"        return typing.cast({ev_type!r}, self._stream(\n"
                          f"            {info.name!r}, {{{', '.join(mapping)}}}))\n")
        if paginate:
            if "*" not in params:
                params.append("*")
            params += [f"{o}: {ann} = {default}" for o, (ann, default) in _PAGINATE_OPTIONS.items()]
            page_type = f"smithycurl.aio.AsyncPaginator[{out_type}]" if aio else f"smithycurl.Paginator[{out_type}]"
            doc = (f"Pages of {info.name}: an {'asynchronous ' if aio else ''}iterator of {out_type}, .items() their items.\n\n"
                   "max_items stops after that many items; page_size sets the page size member;\n"
                   "stop_on_repeated_token ends quietly on a token the service sends back.\n\n" + doc)
            sig = ", ".join(params)
            out = f"    def {info.py_name}({sig}) -> {page_type}:\n"
            out += _doc(doc, "        ")
            options = ", ".join(_PAGINATE_OPTIONS)
            out += (f"        return typing.cast({page_type!r}, self._client._paginate(\n"
                    f"            {info.name!r}, {{{', '.join(mapping)}}}, {options}))\n")
            return out
        sig = ", ".join(params)
        out = f"    {'async ' if aio else ''}def {info.py_name}({sig}) -> {out_type}:\n"
        out += _doc(doc, "        ")
        call = f"{'await ' if aio else ''}self._call({info.name!r}, {{{', '.join(mapping)}}}{', ' + download if download else ''})"
        if out_type == "None":
            out += f"        {call}\n"
        else:
            out += f"        return typing.cast({out_type}, {call})\n"
        return out

    def async_client(self, parts: list[str]) -> str:
        """The asynchronous client class (gen --async): the synchronous
        one's methods as coroutines, its waiters and paginators."""
        svc = self.service
        name = self.async_client_name
        client = f"class {name}(smithycurl.generated.GeneratedAsyncClient):\n"
        client += _doc(
            (self.service_doc or f"A client of {svc.id}.")
            + f"\n\nThe asyncio client: {name}(endpoint, *, timeout=..., ...) takes what {self.client_name}"
            " takes; its operations are coroutines returning the same classes (smithycurl.aio)."
            " `async with` or `await client.close()` closes it. Use it from one event loop.",
            "    ",
        )
        client += f"    _SERVICE = {svc.id!r}\n\n"
        client += _client_init()
        client += "    @classmethod\n    def _load_model(cls) -> smithycurl.Model:\n        return _model()\n"
        for info, data in zip(svc.operations, self.ops):
            client += "\n" + self.method(info, data, aio=True)
        self.exports.append(name)
        waits = [(w, info, data) for info, data in zip(svc.operations, self.ops) for w in info.waiters]
        if waits:
            client += self.accessor(parts, "Waiters", "wait", "The waiters of the service (on a worker thread each).",
                                    "one coroutine per waiter",
                                    [self.method(info, data, waiter=w, aio=True) for w, info, data in waits], aio=True)
        paged = [(info, data) for info, data in zip(svc.operations, self.ops) if info.paginated]
        if paged:
            client += self.accessor(parts, "Paginators", "paginate", "The paginators of the @paginated operations.",
                                    "one method per @paginated operation",
                                    [self.method(info, data, paginate=True, aio=True) for info, data in paged], aio=True)
        return client

    def module(self, module_name: str, aio: bool = False) -> str:
        svc = self.service
        parts: list[str] = []
        kinds: dict[str, list[str]] = {"enum": [], "structure": [], "union": [], "error": []}
        for sid in sorted(self.shapes):
            shape = self.shapes[sid]
            t = shape.get("type")
            if t in ("enum", "intEnum"):
                kinds["enum"].append(sid)
            elif t == "union":
                kinds["union"].append(sid)
            elif t == "structure":
                kinds["error" if shape.get("error") else "structure"].append(sid)
        for sid in kinds["enum"]:
            parts.append(self.enum(sid, self.shapes[sid]))
        for sid in kinds["structure"]:
            parts.append(self.structure(sid, self.shapes[sid]))
        for sid in kinds["union"]:
            parts.append(self.union(sid, self.shapes[sid]))
        for sid in kinds["error"]:
            parts.append(self.error(sid, self.shapes[sid]))
        for k in ("enum", "structure", "union", "error"):
            for sid in kinds[k]:
                self.bindings.append((sid, self.names[sid]))
                self.exports.append(self.names[sid])

        client = f"class {self.client_name}(smithycurl.generated.GeneratedClient):\n"
        client += _doc(
            (self.service_doc or f"A client of {svc.id}.")
            + f"\n\n{self.client_name}(endpoint, *, timeout=..., ...): the options are those of"
            " smithycurl.Model.client. Thread-safe; `with` closes it.",
            "    ",
        )
        client += f"    _SERVICE = {svc.id!r}\n\n"
        client += _client_init()
        client += "    @classmethod\n    def _load_model(cls) -> smithycurl.Model:\n        return _model()\n"
        taken = {info.py_name for info in svc.operations} | set(CLIENT_NAMES)
        for info, data in zip(svc.operations, self.ops):
            client += "\n" + self.method(info, data)
            if self.event_union(info) is not None:
                name = info.py_name + "_stream"
                while name in taken:
                    name += "_"
                taken.add(name)
                client += "\n" + self.method(info, data, stream=name)
        self.exports.append(self.client_name)
        waits = [(w, info, data) for info, data in zip(svc.operations, self.ops) for w in info.waiters]
        if waits:
            client += self.accessor(parts, "Waiters", "wait", "The waiters of the service (smithy.waiters#waitable).",
                                    "one method per waiter", [self.method(info, data, waiter=w) for w, info, data in waits])
        paged = [(info, data) for info, data in zip(svc.operations, self.ops) if info.paginated]
        if paged:
            client += self.accessor(parts, "Paginators", "paginate", "The paginators of the @paginated operations.",
                                    "one method per @paginated operation",
                                    [self.method(info, data, paginate=True) for info, data in paged])
        presigners = ""
        if "aws.auth#sigv4" in svc.auth:
            signed = [(info, data) for info, data in zip(svc.operations, self.ops) if self.event_union(info) is None]
            presigners = self.accessor(parts, "Presigners", "presign",
                                       "Presigned URLs of the operations (SigV4 in the query).",
                                       "one method per operation, returning a smithycurl.PresignedRequest",
                                       [self.method(info, data, presign=True) for info, data in signed])
            client += presigners
        if aio:
            client += "\n\n" + self.async_client(parts) + presigners  # the same class: see accessor

        binds = "".join(f"    {sid!r}: {name},\n" for sid, name in self.bindings)
        header = (
            f'"""Typed client of {svc.id}, generated by `python -m smithycurl gen`: do not edit.\n\n'
            + (self.service_doc.strip().replace('"""', "'''") + "\n\n" if self.service_doc else "")
            + f"    from {module_name} import {self.client_name}\n\n"
            + f"    with {self.client_name}(\"http://...\") as client:\n        ...\n"
            + '"""\n\n'
            "from __future__ import annotations\n\n"
            "import dataclasses\nimport datetime\nimport decimal\nimport os\nimport typing\n\n"
            "import smithycurl\nimport smithycurl.generated\nimport smithycurl.types\n"
            + ("import smithycurl.aio\n" if aio else "")
            + "\n"
            "__all__ = [\n" + "".join(f"    {n!r},\n" for n in sorted(self.exports)) + "]\n\n"
            "# Keep the imports used whatever the model holds.\n"
            "_unused = (dataclasses, datetime, decimal)\n"
            + ("# The names some members shadow in their classes' bodies.\n" + self.alias_lines() if self.aliases else "")
            + "\n\n"
        )
        footer = (
            "\n\n_CLASSES: dict[str, typing.Any] = {\n" + binds + "}\n\n\n"
            "def _model() -> smithycurl.Model:\n"
            "    return smithycurl.generated.model_for(\n"
            "        __name__, os.path.join(os.path.dirname(os.path.abspath(__file__)), \"model.json\"), _CLASSES\n"
            "    )\n"
        )
        return header + "\n\n".join(parts) + "\n\n" + client + footer


# The paginators' own keyword arguments: annotation and default.
_PAGINATE_OPTIONS = {
    "max_items": ("typing.Optional[int]", "None"),
    "page_size": ("typing.Optional[int]", "None"),
    "stop_on_repeated_token": ("bool", "False"),
}

_TYPING_NAMES = {"Any": "typing.Any", "Callable": "typing.Callable", "Mapping": "typing.Mapping",
                 "Optional": "typing.Optional", "TUnion": "typing.Union", "Provider": "smithycurl.Provider",
                 "Sequence": "typing.Sequence", "Interceptor": "smithycurl.Interceptor",
                 "HookContext": "smithycurl.HookContext"}


def _typing_names(annotation: str) -> str:
    """An annotation of model.py with its typing names qualified, so that
    no class of the model (a shape named Mapping) can shadow them."""
    return re.sub(r"\b(" + "|".join(_TYPING_NAMES) + r")\b", lambda m: _TYPING_NAMES[m.group(1)], annotation)


def _client_init() -> str:
    """The generated client's __init__: endpoint, then every option of
    Model.client as a keyword argument with its type and default, read from
    Model.client's own signature (one list of options), so a misspelt
    option is a type error, not a run-time one."""
    params = [p for p in inspect.signature(Model.client).parameters.values()
              if p.kind is inspect.Parameter.KEYWORD_ONLY and p.name != "endpoint"]
    sig = "".join(f"        {p.name}: {_typing_names(str(p.annotation))} = {p.default!r},\n" for p in params)
    args = "".join(f"            {p.name}={p.name},\n" for p in params)
    return ("    def __init__(\n        self,\n        endpoint: str,\n        *,\n" + sig + "    ) -> None:\n"
            "        super().__init__(\n            endpoint,\n" + args + "        )\n\n")


def generate(model: Model, service: Optional[str], out_dir: str, module_name: Optional[str] = None,
             aio: bool = False) -> list[str]:
    """Writes the typed package for a service of the model into out_dir;
    returns the paths written. With aio, the package has the asynchronous
    client class too (NameAsyncClient, on smithycurl.aio)."""
    info = model.service(service)
    if not info.protocols:
        # The library lists the protocols it speaks (and any other trait
        # defined as a protocol): without one, every call would fail.
        raise ValueError(f"service {info.id} has no protocol trait (restJson1, awsJson1_0, rpcv2Cbor, ...): "
                         "a client could not send a call")
    name = module_name or os.path.basename(os.path.normpath(out_dir))
    if not name.isidentifier() or keyword.iskeyword(name):
        raise ValueError(f"{name!r} is not a valid Python package name (the -o folder's name)")
    gen = _Gen(model, info)
    os.makedirs(out_dir, exist_ok=True)
    written = []
    path = os.path.join(out_dir, "__init__.py")
    with open(path, "w", encoding="utf-8") as f:
        f.write(gen.module(name, aio))
    written.append(path)
    path = os.path.join(out_dir, "model.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(model.ast(), f, indent=1, sort_keys=True)
        f.write("\n")
    written.append(path)
    path = os.path.join(out_dir, "py.typed")
    open(path, "w").close()
    written.append(path)
    return written


__all__ = ["generate", "snake_case"]
