"""Waiters: ``client.wait.<name>(...)`` calls an operation until the model's
acceptors (smithy.waiters#waitable) say the wait is over (smithycurl_wait)."""

from __future__ import annotations

from . import errors
from .types import snake_case

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Protocol

    from ._info import OperationInfo, ServiceInfo
    from ._operation import Operation

    class WaitingClient(Protocol):
        """What waiters use of their client (a Client)."""

        service: ServiceInfo

        def _operation(self, name: str) -> Operation: ...

        def _wait(self, w: Waiter, body: bytes, max_wait_ms: int, token: Optional[int] = None) -> Any: ...


class Waiter:
    """A waiter of the service (``smithy.waiters#waitable``), callable:
    ``client.wait.table_exists(table_name="t", max_wait=300)``. It calls
    its operation with the input (keyword arguments, a dataclass or a dict,
    as the operation takes) until an acceptor reaches the success state,
    sleeping between attempts as the Smithy specification says, and
    returns that call's output (an empty output when the success was an
    error, as for a "not exists" waiter). ``max_wait`` (seconds, required:
    the specification makes the caller choose) bounds the whole wait.

    Raises WaiterFailureError when a failure acceptor matched,
    WaiterTimeoutError when ``max_wait`` ran out, and the operation's own
    error (ServiceError, TransportError...) when an error no acceptor
    expects comes back. Ctrl-C raises KeyboardInterrupt at once.
    """

    def __init__(self, client: WaitingClient, name: str, op: Operation) -> None:
        self._client = client
        self.name = name
        self.operation = op
        self._name = name.encode()
        self.__name__ = snake_case(name)
        self.__doc__ = f"Waits with {name} (calls {op.info.name}).\n\n" + (op.__doc__ or "")

    def __repr__(self) -> str:
        return f"<smithycurl waiter {self.name} of {self.operation.info.name}>"

    def __call__(self, input: Any = None, /, *, max_wait: float, **kwargs: Any) -> Any:
        return self._run(self.operation._body(input, kwargs), max_wait)

    def _run(self, body: bytes, max_wait: float, token: Optional[int] = None) -> Any:
        """Waits with the input JSON body; for generated clients too. With
        token, that cancel token (the caller's) cancels the wait."""
        if not max_wait > 0:
            raise errors.UsageError(f"{self.__name__}(): max_wait must be a positive number of seconds, not {max_wait!r}")
        return self._client._wait(self, body, max(1, int(round(max_wait * 1000))), token)


class _Waiters:
    """``client.wait``: the service's waiters by Python name
    (``client.wait.table_exists``) or Smithy name (``client.wait["TableExists"]``)."""

    def __init__(self, client: WaitingClient) -> None:
        self._client = client
        self._by_py: dict[str, tuple[str, OperationInfo]] = {}
        for op in client.service.operations:
            for w in op.waiters:
                self._by_py[snake_case(w)] = (w, op)

    def _get(self, py: str) -> Waiter:
        name, info = self._by_py[py]
        return Waiter(self._client, name, self._client._operation(info.py_name))

    def __getattr__(self, name: str) -> Waiter:
        if name.startswith("__") or name not in self.__dict__.get("_by_py", {}):
            known = ", ".join(sorted(self.__dict__.get("_by_py", {}))) or "(none)"
            raise AttributeError(f"{self._client.service.id} has no waiter {name!r}; its waiters: {known}")
        w = self._get(name)
        self.__dict__[name] = w  # later lookups skip __getattr__
        return w

    def __getitem__(self, key: str) -> Waiter:
        for py, (name, _) in self._by_py.items():
            if key in (py, name):
                return self._get(py)
        raise KeyError(key)

    def __dir__(self) -> list[str]:
        return sorted(self._by_py)

    def __repr__(self) -> str:
        return f"<waiters of {self._client.service.id}: {', '.join(self.__dir__()) or '(none)'}>"

