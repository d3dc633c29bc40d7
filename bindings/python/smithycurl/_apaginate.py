"""Asynchronous pagination: ``async for page in client.paginate.list_tables(...)``
on an asynchronous client, each page an asynchronous call.

The library's paginator (smithycurl_paginator_next) blocks its thread, so
the token following is done here, as the library does it (client.Pager):
the input token is set in the input JSON (the rest of it kept as is), the
output token read from the output JSON, a page cut at ``max_items``, a
token sent back by the service a DecodeError unless
``stop_on_repeated_token``.
"""

from __future__ import annotations

import json
import json.decoder
import re
from typing import TYPE_CHECKING, Any, AsyncIterator, Generic, Iterator, Optional, TypeVar

from . import errors
from ._contract import E_DECODE
from ._paginate import page_items

if TYPE_CHECKING:
    from .aio import AsyncClient
    from .client import Operation

T = TypeVar("T")

_scan: Any = getattr(json.decoder.JSONDecoder(), "scan_once")
_scanstring: Any = getattr(json.decoder, "scanstring")
_WS = re.compile(r"[ \t\n\r]*")


def _ws(text: str, i: int) -> int:
    m = _WS.match(text, i)
    return m.end() if m else i


def _members(text: str, start: int, end: int) -> Iterator[tuple[str, int, int]]:
    """(name, value start, value end) of the members of the JSON object at
    text[start:end]; ValueError when it is not an object."""
    i = _ws(text, start)
    if text[i:i + 1] != "{":
        raise ValueError("not a JSON object")
    i = _ws(text, i + 1)
    if text[i:i + 1] == "}":
        return
    while True:
        if text[i:i + 1] != '"':
            raise ValueError(f"a member name expected at {i}")
        name, i = _scanstring(text, i + 1)
        i = _ws(text, i)
        if text[i:i + 1] != ":":
            raise ValueError(f"':' expected at {i}")
        i = _ws(text, i + 1)
        try:
            _, after = _scan(text, i)
        except StopIteration:
            raise ValueError(f"a value expected at {i}") from None
        yield name, i, after
        i = _ws(text, after)
        c = text[i:i + 1]
        if c == "}":
            return
        if c != ",":
            raise ValueError(f"',' or '}}' expected at {i}")
        i = _ws(text, i + 1)


def _locate(text: str, path: list[str]) -> Optional[tuple[int, int]]:
    """Where the value at path (member names) is in the JSON text; None
    when a member on the way is absent or null. ValueError when a value on
    the way is not an object."""
    start, end = 0, len(text)
    for name in path:
        if text[_ws(text, start):_ws(text, start) + 4] == "null":
            return None
        for key, s, e in _members(text, start, end):
            if key == name:
                start, end = s, e
                break
        else:
            return None
    if text[start:end] == "null":
        return None
    return start, end


def _set_member(text: str, name: str, value: str) -> str:
    """The JSON object text with its top-level member name set to the JSON
    text value (the other members kept as they are)."""
    for key, s, e in _members(text, 0, len(text)):
        if key == name:
            return text[:s] + value + text[e:]
    i = _ws(text, 0) + 1
    rest = text[_ws(text, i):]
    return text[:i] + json.dumps(name) + ":" + value + ("" if rest.startswith("}") else ",") + rest


def _compact(value: str) -> str:
    try:
        return json.dumps(json.loads(value), separators=(",", ":"))
    except ValueError:
        return value


def _empty_token(value: Optional[str]) -> bool:
    if value is None:
        return True
    t = value.strip()
    return t in ("", "null", '""') or (t.startswith("{") and not t[1:-1].strip())


class AsyncPaginator(Generic[T]):
    """An asynchronous iterator of the pages of one paginated call (``async
    for page in client.paginate.list_tables(limit=10)``): each page is the
    operation's output, as a plain call returns it; ``items()`` iterates
    the pages' items. The same options and ending as the synchronous
    :class:`smithycurl.Paginator`: the iteration ends when the service's
    continuation token is absent or empty, or after ``max_items`` items
    (the page that reaches it is cut); a failing page raises the call's
    exception and ends it; a token the service sends back raises
    DecodeError after that page, unless ``stop_on_repeated_token``. Each
    page is an asynchronous call; cancelling the task aborts it. Nothing to
    close."""

    def __init__(self, client: "AsyncClient", op: "Operation", body: bytes, max_items: Optional[int],
                 page_size: Optional[int], stop_on_repeated_token: bool) -> None:
        pag = op.info.paginated
        if not pag:
            raise errors.UsageError(f"{op.info.name}: the operation is not paginated (it has no @paginated trait)")
        if max_items is not None and max_items < 0 or page_size is not None and page_size < 0:
            raise ValueError("max_items and page_size must not be negative")
        self._client = client
        self._op = op
        self._in_token = pag["inputToken"]
        self._out_token: list[str] = pag["outputToken"].split(".")
        self._items_path: list[str] = pag["items"].split(".") if pag.get("items") else []
        if max_items and not self._items_path:
            raise errors.UsageError(f"{op.info.name}: max_items: its @paginated trait names no items member")
        self._max_items = max_items or 0
        self._stop_on_repeat = stop_on_repeated_token
        text = body.decode()
        try:
            at = _locate(text, [self._in_token])
            self._sent: Optional[str] = _compact(text[at[0]:at[1]]) if at else None
            if page_size and pag.get("pageSize"):
                text = _set_member(text, pag["pageSize"], str(int(page_size)))
        except ValueError as e:
            raise errors.UsageError(f"{op.info.name}: invalid input: {e}") from None
        self._input = text
        self._token: Optional[str] = None  # the token to send next (None: the input's own)
        self._seen = 0
        self._pages = 0
        self._done = False
        self._pending_err: Optional[BaseException] = None

    def __aiter__(self) -> "AsyncPaginator[T]":
        return self

    async def __anext__(self) -> T:
        if self._pending_err is not None:
            err, self._pending_err, self._done = self._pending_err, None, True
            raise err
        if self._done:
            raise StopAsyncIteration
        op = self._op
        text = self._input
        if self._token is not None:
            text = _set_member(text, self._in_token, self._token)
            self._sent = _compact(self._token)
        self._done = True  # until this page went well
        raw = await self._client._send(op, text.encode())
        self._pages += 1
        obj = op._parse(raw) if self._max_items else None
        ended = self._max_items > 0 and self._cut(obj)
        out = raw.decode()
        try:
            at = _locate(out, self._out_token)
        except ValueError as e:
            raise errors.DecodeError(f"{op.info.name}: output token {'.'.join(self._out_token)}: {e}") from None
        tok = out[at[0]:at[1]] if at else None
        if ended or _empty_token(tok):
            pass
        elif self._sent is not None and tok is not None and _compact(tok) == self._sent:
            if not self._stop_on_repeat:
                self._done = False
                self._pending_err = errors.DecodeError(
                    f"{op.info.name}: the service returned the same continuation token twice in a row "
                    f"({'.'.join(self._out_token)} {tok}, page {self._pages})", rc=E_DECODE)
        else:
            self._token = tok
            self._done = False
        page: T = op._output(raw, obj)
        return page

    def _cut(self, obj: Any) -> bool:
        """Cuts the items of the parsed page obj at max_items; True when
        that ends the pages."""
        v = obj
        parent: Any = None
        for name in self._items_path:
            if not isinstance(v, dict):
                return False
            parent, v = v, v.get(name)
        if not isinstance(v, (list, dict)):
            return False
        left = self._max_items - self._seen
        if len(v) < left:
            self._seen += len(v)
            return False
        if len(v) > left:
            parent[self._items_path[-1]] = v[:left] if isinstance(v, list) else dict(list(v.items())[:left])
        self._seen = self._max_items
        return True

    async def items(self) -> AsyncIterator[Any]:
        """The items of the pages (the trait's ``items`` member), one by one:
        a list's elements, or a map's ``(key, value)`` pairs."""
        if not self._items_path:
            raise errors.UsageError(f"{self._op.info.name}: its @paginated trait names no items member")
        async for page in self:
            for item in page_items(self._op, self._items_path, page):
                yield item

    def __repr__(self) -> str:
        return f"<smithycurl async paginator of {self._op.info.id}{' (ended)' if self._done else ''}>"


class AsyncPaginate:
    """``client.paginate`` of an asynchronous client: one method per
    paginated operation, named like the operation's, taking the same input
    plus ``max_items``, ``page_size`` and ``stop_on_repeated_token`` (as
    the synchronous client's) and returning an AsyncPaginator."""

    def __init__(self, client: "AsyncClient") -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        c = self._client
        sync = c._sync
        if name not in sync._ops:
            raise AttributeError(f"{c.service.id} has no operation {name!r}; paginated: {', '.join(self.__dir__())}")
        op = sync._operation(name)

        def paginate(input: Any = None, /, *, max_items: Optional[int] = None, page_size: Optional[int] = None,
                     stop_on_repeated_token: bool = False, **kwargs: Any) -> AsyncPaginator[Any]:
            return AsyncPaginator(c, op, op._body(input, kwargs), max_items, page_size, stop_on_repeated_token)

        paginate.__name__ = name
        paginate.__doc__ = f"Pages of {op.info.id} (async for).\n\n{op.__doc__}"
        return paginate

    def __dir__(self) -> list[str]:
        return dir(self._client._sync.paginate)

    def __repr__(self) -> str:
        return "<async" + repr(self._client._sync.paginate)[1:]
