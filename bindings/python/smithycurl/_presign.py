"""Presigned URLs: ``client.presign.get_object(bucket="b", key="k",
expires_in=3600)`` signs an operation's request with SigV4 in its URL
(smithycurl_presign of the C API); nothing is sent."""

from __future__ import annotations

import ctypes
import dataclasses
import datetime

from . import _lib, _result, errors
from ._json import loads

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Protocol

    from ._info import OperationInfo, ServiceInfo
    from ._operation import Operation

    class SigningClient(Protocol):
        """What presign uses of its client (a Client)."""

        service: ServiceInfo
        _lib: _lib.Library
        _handle: Optional[int]

    class PresigningClient(SigningClient, Protocol):
        """What ``client.presign`` uses of its client (a Client)."""

        _ops: dict[str, OperationInfo]

        def _operation(self, name: str) -> Operation: ...


@dataclasses.dataclass(frozen=True)
class PresignedRequest:
    """A request signed in its URL: anyone holding ``url`` may send it with
    ``method`` and ``headers`` (the signed headers besides Host, often
    none), without credentials, until ``expires`` (UTC)."""

    url: str
    method: str
    headers: dict[str, str]
    expires: datetime.datetime


def presign(client: SigningClient, op: Operation, body: bytes, expires_in: int,
            signing_time: Optional[datetime.datetime] = None) -> PresignedRequest:
    """Presigns op with the input JSON body; for generated clients too."""
    if isinstance(expires_in, bool) or not isinstance(expires_in, int):
        raise TypeError(f"expires_in must be an int (seconds), not {type(expires_in).__name__}")
    at = 0
    if signing_time is not None:
        if signing_time.tzinfo is None:
            raise ValueError("signing_time must be timezone-aware (e.g. datetime.timezone.utc)")
        at = int(signing_time.timestamp())
        if at <= 0:
            raise ValueError(f"signing_time {signing_time} is not after 1970")
    h = client._handle
    if h is None:
        raise errors.UsageError(f"the client of {client.service.id} is closed")
    lib = client._lib
    r = ctypes.c_void_p()
    rc = lib.presign(h, op._op, body, len(body), expires_in, at, ctypes.byref(r))
    if rc != _lib.OK:
        raise _result.failure(lib, rc, r, op)
    out = loads(_result.output(lib, r))
    return PresignedRequest(url=out["url"], method=out["method"], headers=dict(out["headers"]),
                            expires=datetime.datetime.fromisoformat(out["expires"].replace("Z", "+00:00")))


class Presigner:
    """``client.presign.<operation>(..., expires_in=3600)``: the operation's
    request with the same arguments as calling it, presigned (see
    PresignedRequest). ``expires_in``: seconds, 1 to 604800 (7 days);
    ``signing_time``: sign as of that (timezone-aware) time instead of now."""

    def __init__(self, op: Operation) -> None:
        self._op = op
        self.__name__ = op.info.py_name

    def __repr__(self) -> str:
        return f"<smithycurl presigner of {self._op.info.name}>"

    def __call__(self, input: Any = None, /, *, expires_in: int = 3600,
                 signing_time: Optional[datetime.datetime] = None, **kwargs: Any) -> PresignedRequest:
        op = self._op
        return presign(op._client, op, op._body(input, kwargs), expires_in, signing_time)


class Presigners:
    """``client.presign``: a Presigner per operation, by Python name
    (``client.presign.get_object``) or Smithy name
    (``client.presign["GetObject"]``)."""

    def __init__(self, client: PresigningClient) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Presigner:
        if name.startswith("_") or name not in self._client._ops:
            raise AttributeError(f"{self._client.service.id} has no operation {name!r}")
        p = Presigner(self._client._operation(name))
        self.__dict__[name] = p  # later lookups skip __getattr__
        return p

    def __getitem__(self, key: str) -> Presigner:
        return Presigner(self._client._operation(key))

    def __dir__(self) -> list[str]:
        return sorted(self._client._ops)
