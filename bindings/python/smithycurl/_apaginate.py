"""Asynchronous pagination: ``async for page in client.paginate.list_tables(...)``
on an asynchronous client. The library's paginator follows the tokens
(smithycurl_paginator_new); each page is a smithycurl_paginator_next_queued
on the client's completion queue, awaited like a call.
"""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, AsyncIterator, Generic, Optional, TypeVar

from . import _lib, errors
from ._contract import E_END
from ._paginate import Paginator, page_items

if TYPE_CHECKING:
    from typing import Callable, Protocol

    from ._info import ServiceInfo
    from ._operation import Operation
    from .client import Client

    class AsyncPaginatingClient(Protocol):
        """What asynchronous paginators use of their client (an AsyncClient)."""

        service: ServiceInfo
        _sync: Client
        _lib: _lib.Library

        def _new_token(self) -> int: ...

        async def _queued(self, start: Callable[[int, int], int], tok: int, pooled: bool,
                          what: str) -> tuple[int, Optional[int]]: ...

T = TypeVar("T")


class AsyncPaginator(Generic[T]):
    """An asynchronous iterator of the pages of one paginated call (``async
    for page in client.paginate.list_tables(limit=10)``): each page is the
    operation's output, as a plain call returns it; ``items()`` iterates
    the pages' items. The same options and ending as the synchronous
    :class:`smithycurl.Paginator` (the same library paginator): the
    iteration ends when the service's continuation token is absent or
    empty, or after ``max_items`` items (the page that reaches it is cut);
    a failing page raises the call's exception and ends it; a token the
    service sends back raises DecodeError after that page, unless
    ``stop_on_repeated_token``. Cancelling the task aborts the page in
    flight and ends the pages. ``aclose()`` frees it early; it is freed at
    the end of the pages, or when collected, anyway."""

    def __init__(self, client: AsyncPaginatingClient, op: Operation, body: bytes, max_items: Optional[int],
                 page_size: Optional[int], stop_on_repeated_token: bool) -> None:
        self._client = client
        self._op = op
        self._tok: Optional[int] = None
        tok = client._new_token()  # the paginator's own: it must outlive it
        try:
            self._pg: Paginator[T] = Paginator(op, body, max_items, page_size, stop_on_repeated_token, tok)
        except BaseException:
            client._lib.cancel_token_free(tok)
            raise
        self._tok = tok

    def __aiter__(self) -> "AsyncPaginator[T]":
        return self

    async def __anext__(self) -> T:
        h = self._pg._h
        if h is None:
            raise StopAsyncIteration
        c = self._client
        lib = c._lib
        op = self._op
        tok = self._tok
        assert tok is not None
        try:
            code, r = await c._queued(lambda q, tag: int(lib.paginator_next_queued(h, q, tag)), tok, False,
                                      op.info.name)
            if code == E_END:
                raise StopAsyncIteration
            page: T = op._output(c._sync._raw_outcome(op, code, ctypes.c_void_p(r)))
        except BaseException:
            self.close()  # failed, cancelled or ended: the pages end
            raise
        return page

    async def items(self) -> AsyncIterator[Any]:
        """The items of the pages (the trait's ``items`` member), one by one:
        a list's elements, or a map's ``(key, value)`` pairs."""
        items_path = self._pg._items_path
        if not items_path:
            self.close()
            raise errors.UsageError(f"{self._op.info.name}: its @paginated trait names no items member")
        async for page in self:
            for item in page_items(self._op, items_path, page):
                yield item

    async def aclose(self) -> None:
        """Frees the paginator; the iteration ends. Idempotent."""
        self.close()

    def close(self) -> None:
        """Frees the paginator (a page in flight is cancelled) and its
        cancel token. Idempotent."""
        self._pg.close()
        tok, self._tok = self._tok, None
        if tok is not None:
            self._client._lib.cancel_token_free(tok)

    def __del__(self) -> None:
        try:
            if getattr(self, "_pg", None) is not None:
                self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<smithycurl async paginator of {self._op.info.id}{' (ended)' if self._pg._h is None else ''}>"


class AsyncPaginate:
    """``client.paginate`` of an asynchronous client: one method per
    paginated operation, named like the operation's, taking the same input
    plus ``max_items``, ``page_size`` and ``stop_on_repeated_token`` (as
    the synchronous client's) and returning an AsyncPaginator."""

    def __init__(self, client: AsyncPaginatingClient) -> None:
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
