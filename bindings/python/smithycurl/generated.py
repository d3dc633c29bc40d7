"""The run-time side of modules written by ``python -m smithycurl gen``.

A generated module holds its model (model.json, a JSON AST) and its classes;
it loads the model once, binds its classes to the shape ids, and its client
class calls through the same core as ``model.client(...)``.
"""

from __future__ import annotations

import datetime
import os
import threading
from typing import TYPE_CHECKING, Any, ClassVar, Mapping, Optional, TypeVar

from . import _body

from ._body import Writable
from ._paginate import Paginator
from ._presign import PresignedRequest, presign
from .client import Client, EventStream, Waiter
from .model import Model, load_model

if TYPE_CHECKING:  # smithycurl.aio imports asyncio: only modules with an asynchronous client load it
    from .aio import AsyncClient, AsyncPaginator

_T = TypeVar("_T", bound="GeneratedClient")
_TA = TypeVar("_TA", bound="GeneratedAsyncClient")
_models: dict[str, Model] = {}
_lock = threading.Lock()


def model_for(module: str, path: str, classes: Mapping[str, Any]) -> Model:
    """The model of a generated module, loaded on first use, with the
    module's classes bound to their shape ids."""
    m = _models.get(module)
    if m is not None:
        return m
    with _lock:
        m = _models.get(module)
        if m is None:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            m = load_model(text=text, name=os.path.basename(path))
            m.registry.bind(dict(classes))
            _models[module] = m
        return m


class GeneratedClient:
    """Base of generated client classes. ``options`` are those of
    :meth:`smithycurl.Model.client` (timeout, retries, credentials, ...)."""

    _SERVICE: ClassVar[str] = ""

    @classmethod
    def _load_model(cls) -> Model:
        raise NotImplementedError

    def __init__(self, endpoint: str, **options: Any) -> None:
        self.client: Client = self._load_model().client(self._SERVICE, endpoint=endpoint, **options)

    def _call(self, operation: str, members: Mapping[str, Any], download: Optional[Writable] = None) -> Any:
        return self.client._operation(operation)._call_members(members, download)

    def _paginate(self, operation: str, members: Mapping[str, Any], max_items: Optional[int],
                  page_size: Optional[int], stop_on_repeated_token: bool) -> Paginator[Any]:
        op = self.client._operation(operation)
        return Paginator(op, op._members_body(members), max_items, page_size, stop_on_repeated_token)

    def _wait(self, waiter: str, operation: str, members: Mapping[str, Any], max_wait: float) -> Any:
        op = self.client._operation(operation)
        return Waiter(self.client, waiter, op)._run(op._members_body(members), max_wait)

    def _stream(self, operation: str, members: Mapping[str, Any]) -> EventStream[Any]:
        op = self.client._operation(operation)
        return self.client._stream(op, op._members_body(members))

    def _presign(self, operation: str, members: Mapping[str, Any], expires_in: int,
                 signing_time: Optional[datetime.datetime]) -> PresignedRequest:
        return _presign_members(self.client, operation, members, expires_in, signing_time)

    def close(self) -> None:
        """Closes the client's connections."""
        self.client.close()

    def __enter__(self: _T) -> _T:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._SERVICE} at {self.client.endpoint}>"


def _presign_members(client: Client, operation: str, members: Mapping[str, Any], expires_in: int,
                     signing_time: Optional[datetime.datetime]) -> PresignedRequest:
    """Presigns operation with its members: what both generated clients'
    presigners do (presigning does no I/O, so the asynchronous client's is
    the same call on its synchronous client)."""
    op = client._operation(operation)
    return presign(client, op, op._members_body(members), expires_in, signing_time)


class GeneratedAsyncClient:
    """Base of generated asynchronous client classes (``gen --async``): the
    same options as GeneratedClient; calls through smithycurl.aio."""

    _SERVICE: ClassVar[str] = ""

    @classmethod
    def _load_model(cls) -> Model:
        raise NotImplementedError

    def __init__(self, endpoint: str, **options: Any) -> None:
        self.client: AsyncClient = self._load_model().async_client(self._SERVICE, endpoint=endpoint, **options)

    async def _call(self, operation: str, members: Mapping[str, Any]) -> Any:
        from .aio import _not_async

        op = self.client._sync._operation(operation)
        if op._stream_in and _body.is_stream(members.get(op._stream_in)):
            raise _not_async(op, "a streamed body (a file object or chunks)")
        if op._bytes:
            members, payload = op._members_payload(members)
            raw, data = await self.client._send_payload(op, op._members_body(members), payload)
            return op._with_payload(op._output(raw), data)
        return op._output(await self.client._send(op, op._members_body(members)))

    def _presign(self, operation: str, members: Mapping[str, Any], expires_in: int,
                 signing_time: Optional[datetime.datetime]) -> PresignedRequest:
        return _presign_members(self.client._sync, operation, members, expires_in, signing_time)

    def _paginate(self, operation: str, members: Mapping[str, Any], max_items: Optional[int],
                  page_size: Optional[int], stop_on_repeated_token: bool) -> AsyncPaginator[Any]:
        from .aio import AsyncPaginator

        op = self.client._sync._operation(operation)
        return AsyncPaginator(self.client, op, op._members_body(members), max_items, page_size, stop_on_repeated_token)

    async def _wait(self, waiter: str, operation: str, members: Mapping[str, Any], max_wait: float) -> Any:
        op = self.client._sync._operation(operation)
        return await self.client._wait(Waiter(self.client._sync, waiter, op), op._members_body(members), max_wait)

    async def close(self) -> None:
        """Closes the client; its calls in flight raise smithycurl.CancelledError."""
        await self.client.close()

    async def __aenter__(self: _TA) -> _TA:
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._SERVICE} at {self.client.endpoint}>"
