"""Pagination: ``client.paginate.list_tables(...)`` follows a @paginated
operation's continuation tokens (smithycurl_paginator_* of the C API)."""

from __future__ import annotations

import ctypes
from typing import TYPE_CHECKING, Any, Generic, Iterator, Optional, TypeVar

from . import _lib, _result, errors
from ._closing import Closing
from ._contract import E_END

if TYPE_CHECKING:
    from typing import Protocol

    from ._info import OperationInfo, ServiceInfo
    from ._operation import Operation

    class PaginatingClient(Protocol):
        """What ``client.paginate`` uses of its client (a Client)."""

        service: ServiceInfo
        _ops: dict[str, OperationInfo]

        def _operation(self, name: str) -> Operation: ...

T = TypeVar("T")

_STOP_ON_REPEATED_TOKEN = 2  # SMITHYCURL_PAGINATE_STOP_ON_REPEATED_TOKEN


class Paginator(Closing, Generic[T]):
    """An iterator of the pages of one paginated call: each page is the
    operation's output, the same class a plain call returns. Requests are
    sent as the iteration goes; it ends when the service's continuation
    token is absent or empty, or after ``max_items`` items (the page that
    reaches it is cut). A failing page raises the call's exception (a
    service returning the token it was sent raises DecodeError, unless
    ``stop_on_repeated_token``), and the iteration ends there.

    Not for use from two threads at once. ``with`` (or ``close()``) frees
    it early; it is freed at the end of the pages anyway.
    """

    def __init__(self, op: Operation, body: bytes, max_items: Optional[int], page_size: Optional[int],
                 stop_on_repeated_token: bool, cancel: Optional[int] = None) -> None:
        self._op = op
        self._lib = op._client._lib
        self._h: Optional[int] = None
        pag = op.info.paginated
        if not pag:
            raise errors.UsageError(f"{op.info.name}: the operation is not paginated (it has no @paginated trait)")
        self._items_path: list[str] = pag["items"].split(".") if pag.get("items") else []
        if max_items is not None and max_items < 0 or page_size is not None and page_size < 0:
            raise ValueError("max_items and page_size must not be negative")
        ch = op._client._handle
        if ch is None:
            raise errors.UsageError(f"the client of {op._client.service.id} is closed")
        h = ctypes.c_void_p()
        self._lib.paginator_new(
            ch, op._op, body, len(body), max_items or 0, page_size or 0,
            _STOP_ON_REPEATED_TOKEN if stop_on_repeated_token else 0, cancel, ctypes.byref(h),
        )
        self._h = h.value
        self._client = op._client  # the client must outlive the paginator

    def __iter__(self) -> "Paginator[T]":
        return self

    def __next__(self) -> T:
        h = self._h
        if h is None:
            raise StopIteration
        lib = self._lib
        p, n, r = ctypes.c_void_p(), ctypes.c_size_t(), ctypes.c_void_p()
        rc = lib.paginator_next(h, ctypes.byref(p), ctypes.byref(n), ctypes.byref(r))
        if rc == _lib.OK:
            try:
                page: T = self._op._output(_result.text(p, n.value))
            except errors.DecodeError:
                self.close()
                raise
            return page
        self.close()
        if rc == E_END:
            raise StopIteration
        raise _result.failure(lib, rc, r, self._op)

    def items(self) -> Iterator[Any]:
        """The items of the pages (the trait's ``items`` member), one by one:
        a list's elements, or a map's ``(key, value)`` pairs."""
        if not self._items_path:
            self.close()
            raise errors.UsageError(f"{self._op.info.name}: its @paginated trait names no items member")
        for page in self:
            yield from page_items(self._op, self._items_path, page)

    def close(self) -> None:
        """Frees the paginator; the iteration ends. Idempotent."""
        h, self._h = self._h, None
        if h is not None:
            self._lib.paginator_free(h)

    def __repr__(self) -> str:
        return f"<smithycurl paginator of {self._op.info.id}{'' if self._h is not None else ' (ended)'}>"


def page_items(op: Operation, items_path: list[str], page: Any) -> Iterator[Any]:
    """The items of a page (a decoded output) at items_path (the
    @paginated trait's items, as member names): a list's elements, or a
    map's ``(key, value)`` pairs."""
    v: Any = page
    codec = op._out
    for name in items_path:
        if v is None or codec is None:
            break
        m = codec.by_key[name]
        v = getattr(v, m.py, None)
        codec = m.codec if m.codec.by_key else None
    if isinstance(v, dict):
        yield from v.items()
    elif v is not None:
        yield from v


class Paginate:
    """``client.paginate``: one method per paginated operation, named like
    the operation's (``client.paginate.list_tables(limit=10)``), taking the
    same input plus ``max_items``, ``page_size`` (sets the trait's pageSize
    member) and ``stop_on_repeated_token``, and returning a Paginator. An
    input member whose Python name is one of these is given in the input
    object or dict instead."""

    def __init__(self, client: PaginatingClient) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        c = self._client
        if name not in c._ops:
            raise AttributeError(f"{c.service.id} has no operation {name!r}; paginated: {', '.join(self.__dir__())}")
        op = c._operation(name)

        def paginate(input: Any = None, /, *, max_items: Optional[int] = None, page_size: Optional[int] = None,
                     stop_on_repeated_token: bool = False, **kwargs: Any) -> Paginator[Any]:
            return Paginator(op, op._body(input, kwargs), max_items, page_size, stop_on_repeated_token)

        paginate.__name__ = name
        paginate.__doc__ = f"Pages of {op.info.id}.\n\n{op.__doc__}"
        return paginate

    def __dir__(self) -> list[str]:
        return sorted(py for py, info in self._client._ops.items() if info.paginated)

    def __repr__(self) -> str:
        return f"<paginators of {self._client.service.id}: {', '.join(self.__dir__())}>"
