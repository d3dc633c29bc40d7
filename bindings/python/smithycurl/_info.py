"""What a model says of its services and operations (ServiceInfo,
OperationInfo), and the protocol of a Model that clients hold (ModelLike).
model.py imports client.py: this module is below both."""

from __future__ import annotations

import dataclasses

from . import errors
from .types import snake_case

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Mapping, Optional, Protocol

    from . import _codec, _lib

    class ModelLike(Protocol):
        """A client's model (``client.model``, a smithycurl.Model) as the
        modules below model.py know it: a protocol, as model.py imports
        them. Its client() and async_client() return Any here."""

        registry: _codec.Registry
        _lib: _lib.Library

        @property
        def services(self) -> tuple[ServiceInfo, ...]: ...

        def service(self, service_id: Optional[str] = None) -> ServiceInfo: ...

        def operation_shapes(self, operation: str, service: Optional[str] = None) -> dict[str, Any]: ...

        def ast(self) -> dict[str, Any]: ...

        def snapshot(self) -> bytes: ...

        def client(self, *args: Any, **kwargs: Any) -> Any: ...

        def async_client(self, *args: Any, **kwargs: Any) -> Any: ...

        def _documentation(self, shape_id: str) -> str: ...


@dataclasses.dataclass(frozen=True)
class OperationInfo:
    """An operation of a service, as the model describes it."""

    name: str  #: "GetIp"
    id: str  #: "ns#GetIp"
    py_name: str  #: "get_ip", the client's method
    input: str  #: the input shape id, "smithy.api#Unit" for none
    output: str  #: the output shape id
    errors: tuple[str, ...] = ()
    http: Optional[Mapping[str, Any]] = None
    readonly: bool = False
    idempotent: bool = False
    deprecated: bool = False
    waiters: tuple[str, ...] = ()  #: its smithy.waiters#waitable waiters ("TableExists")
    #: the @paginated trait, the service's merged in ("inputToken",
    #: "outputToken", "items", "pageSize"); None when not paginated
    paginated: Optional[Mapping[str, str]] = None
    #: string members the input may have beyond the model's, which the
    #: client's AWS customizations take out (RDS's "SourceRegion")
    extra_input: tuple[str, ...] = ()
    _model: Optional[ModelLike] = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def documentation(self) -> str:
        """The operation's @documentation ("" for none), read from the model
        the first time any documentation is asked for."""
        return self._model._documentation(self.id) if self._model is not None else ""


@dataclasses.dataclass(frozen=True)
class ServiceInfo:
    """A service of a model and its operations (sorted by name)."""

    id: str
    name: str
    version: str = ""
    protocols: tuple[str, ...] = ()
    auth: tuple[str, ...] = ()
    operations: tuple[OperationInfo, ...] = ()
    _model: Optional[ModelLike] = dataclasses.field(default=None, repr=False, compare=False)

    @property
    def documentation(self) -> str:
        """The service's @documentation ("" for none), read from the model
        the first time any documentation is asked for."""
        return self._model._documentation(self.id) if self._model is not None else ""

    def operation(self, name: str) -> OperationInfo:
        """An operation by its name, id or Python name."""
        for op in self.operations:
            if name in (op.name, op.id, op.py_name):
                return op
        raise errors.NotFoundError(
            f"{self.id} has no operation {name!r}; it has: {', '.join(o.name for o in self.operations)}"
        )


# Names the client itself uses; an operation whose Python name is one of
# these gets a trailing underscore.
CLIENT_NAMES = frozenset({"call", "close", "types", "errors", "service", "endpoint", "model", "operations", "wait",
                          "paginate", "presign", "s3"})


def service_info(d: Mapping[str, Any], model: Optional[ModelLike] = None) -> ServiceInfo:
    """A service of the C API's services JSON."""
    ops = []
    for o in d.get("operations", []):
        py = snake_case(o["name"])
        if py in CLIENT_NAMES or py.startswith("_"):
            py += "_"
        ops.append(
            OperationInfo(
                name=o["name"], id=o["id"], py_name=py,
                input=o.get("input", "smithy.api#Unit"), output=o.get("output", "smithy.api#Unit"),
                errors=tuple(o.get("errors", ())), http=o.get("http"), readonly=bool(o.get("readonly")),
                idempotent=bool(o.get("idempotent")), deprecated=bool(o.get("deprecated")),
                waiters=tuple(o.get("waiters", ())),
                paginated=o.get("paginated"), extra_input=tuple(o.get("extra_input", ())), _model=model,
            )
        )
    return ServiceInfo(
        id=d["id"], name=d.get("name", d["id"].rsplit("#", 1)[-1]), version=d.get("version", ""),
        protocols=tuple(d.get("protocols", ())), auth=tuple(d.get("auth", ())), operations=tuple(ops),
        _model=model,
    )
