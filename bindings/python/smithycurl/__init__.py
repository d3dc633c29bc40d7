"""smithycurl: call Smithy-modelled services from Python, with the model
loaded at run time, over libsmithycurl (Go + libcurl).

::

    import smithycurl

    model = smithycurl.load_model("examples/httpbin")
    with model.client(endpoint="http://127.0.0.1:8080", timeout=10) as client:
        print(client.get_ip().origin)
        echo = client.anything(id=25, test="yo", query_param="hello")

Operations are snake_case methods whose keyword arguments are the input's
members; outputs are dataclasses made from the model (client.types), modeled
errors are exceptions (client.errors, subclasses of ServiceError). For a
typed module that mypy and IDEs understand, run
``python -m smithycurl gen MODEL --service ID -o pkg/``.

For asyncio, ``model.async_client(...)`` takes the same arguments and gives
coroutine operations (``await client.get_ip()``), many calls in flight
without a thread each: see smithycurl.aio.

Only the standard library is used. The shared library is found through
$SMITHYCURL_LIBRARY, the package folder, then the system's paths, and
loaded on first use. It runs the Go runtime: in a child made by os.fork()
after the parent used smithycurl, every call raises ForkedError (use the
multiprocessing 'spawn' or 'forkserver' start method). Ctrl-C during a call
raises KeyboardInterrupt at once and cancels the request.
"""

from __future__ import annotations

from .errors import (
    CancelledError,
    DecodeError,
    ErrorMeta,
    ForkedError,
    InputTypeError,
    InternalError,
    LibraryError,
    LoadError,
    NotFoundError,
    ServiceError,
    SmithycurlError,
    TimeoutError,
    TransportError,
    UsageError,
    ValidationError,
    WaiterError,
    WaiterFailureError,
    WaiterTimeoutError,
)
from .model import Model, OperationInfo, ServiceInfo, load_model
from .client import Client, EventStream, Operation, Waiter
from ._paginate import Paginator
from ._presign import PresignedRequest
from ._body import BodyChunks, BodySource, Readable, Writable
from ._identity import IdentityProvider, Provider
from ._stub import StubAssertionError, Stubber
from . import mock
from ._hooks import HookContext, Interceptor
from .types import IntEnum, StrEnum, Structure, Union, UnknownUnionMember

__version__ = "0.1.0"


def library_version() -> str:
    """The version of the loaded libsmithycurl (loads it)."""
    from . import _lib

    return _lib.load().version


def library_path() -> str:
    """Where libsmithycurl was loaded from (loads it)."""
    from . import _lib

    return _lib.load().path


__all__ = [
    "IdentityProvider",
    "Provider",
    "CancelledError",
    "BodyChunks",
    "BodySource",
    "Client",
    "DecodeError",
    "ErrorMeta",
    "EventStream",
    "ForkedError",
    "HookContext",
    "InputTypeError",
    "IntEnum",
    "Interceptor",
    "InternalError",
    "LibraryError",
    "LoadError",
    "Model",
    "NotFoundError",
    "Operation",
    "OperationInfo",
    "Paginator",
    "PresignedRequest",
    "Readable",
    "ServiceError",
    "ServiceInfo",
    "SmithycurlError",
    "StrEnum",
    "StubAssertionError",
    "Stubber",
    "mock",
    "Structure",
    "TimeoutError",
    "TransportError",
    "Union",
    "UnknownUnionMember",
    "UsageError",
    "ValidationError",
    "Waiter",
    "WaiterError",
    "WaiterFailureError",
    "WaiterTimeoutError",
    "Writable",
    "library_path",
    "library_version",
    "load_model",
]
