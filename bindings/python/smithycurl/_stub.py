"""smithycurl.Stubber: a client's calls answered from a queue, for the
tests of code that uses a client, as botocore's Stubber.

Each response is checked against the model when added (the Python
encoder's type checks, then the library's: a member the shape lacks, a
value of the wrong type, a missing required member raise, naming the
member path) and rendered as the service's protocol sends it, so the
client's own decoder reads it: a stubbed output is the same dataclass a
real response gives, a stubbed error the same exception class."""

from __future__ import annotations

import ctypes

from . import _lib, errors
from ._json import dumps, utf8

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any, Mapping, Optional

    from ._operation import Operation
    from .client import Client


def _restated(e: errors.UsageError, where: str) -> errors.UsageError:
    """e, its message prefixed by where."""
    out = type(e)(f"{where}: {e}", rc=e.rc)
    out.member = e.member
    return out


class StubAssertionError(errors.UsageError, AssertionError):
    """Stubs left unused, or calls no stub matched
    (assert_no_pending_responses)."""


class Stubber:
    """Answers the calls of ``client`` (a Client, an asyncio client of
    smithycurl.aio, or a generated client of either kind)
    from a queue while active, instead of its service::

        stubber = smithycurl.Stubber(client)
        stubber.add_response("get_todo", {"id": i, "title": "milk", ...}, {"id": i})
        with stubber:
            assert client.get_todo(id=i).title == "milk"
        stubber.assert_no_pending_responses()

    Calls take the responses in the order they were added. A call to
    another operation than the next response's, with other parameters than
    its ``expected_params``, or with none left raises UsageError ("Expected
    parameters: ... but received: ..." as botocore words it), and
    assert_no_pending_responses reports it. A stubbed call is encoded and
    checked as any call, never signed (no credentials needed), sent nor
    retried.
    """

    def __init__(self, client: Any) -> None:
        inner: Client = getattr(client, "client", client)  # a generated client's
        inner = getattr(inner, "_sync", inner)  # an asyncio client's (smithycurl.aio)
        h = inner._handle
        if h is None:
            raise errors.UsageError(f"the client of {inner.service.id} is closed")
        self._client = inner
        self._lib = lib = inner._lib
        out = ctypes.c_void_p()
        rc = lib.stubber_new(h, ctypes.byref(out))
        if rc != _lib.OK:
            raise errors.from_code(rc, f"no stubs for service {inner.service.id}: its protocol has none", "Stubber")
        self._h: Optional[int] = out.value

    def _handle(self) -> int:
        if self._h is None:
            raise errors.UsageError("the Stubber is closed")
        return self._h

    def _check(self, rc: int, where: str) -> None:
        if rc != _lib.OK:
            msg = _lib.errmsg(self._lib, self._lib.stubber_errmsg, self._handle()) or self._lib.strerror(rc).decode()
            raise errors.from_code(rc, msg, where)

    def activate(self) -> None:
        """Answers the client's calls from now on."""
        self._check(self._lib.stubber_activate(self._handle()), "activate")

    def deactivate(self) -> None:
        """Gives the client back to its service."""
        if self._h is not None:
            self._lib.stubber_deactivate(self._h)

    def __enter__(self) -> Stubber:
        self.activate()
        return self

    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self.deactivate()

    def _op(self, method: str) -> Operation:
        return self._client._operation(method)

    def _params(self, op: Operation, expected_params: Optional[Mapping[str, Any]]) -> Optional[bytes]:
        if expected_params is None:
            return None
        return op._body(dict(expected_params), {}) if expected_params else b"{}"

    def add_response(self, method: str, service_response: Any,
                     expected_params: Optional[Mapping[str, Any]] = None) -> None:
        """Queues the output of the next call, to method (the Python name,
        "get_todo", or the Smithy one): a dict (by Python or Smithy member
        names) or the output's class. expected_params, when given, are the
        keyword arguments that call must have."""
        op = self._op(method)
        out = op._out
        if out is None:
            if service_response:
                raise errors.UsageError(f"stub of {op.info.name}: the operation has no output")
            body = b"{}"
        else:
            assert out.enc is not None
            try:
                body = utf8(dumps(out.enc(service_response)), op.info.name)
            except errors.UsageError as e:
                raise _restated(e, f"stub of {op.info.name}: output {out.shape_id.split('#')[-1]}") from None
        self._check(self._lib.stubber_add_response(self._handle(), op._op, body, self._params(op, expected_params)),
                    "add_response")

    def add_client_error(self, method: str, service_error_code: str, service_message: str = "",
                         http_status_code: Optional[int] = None,
                         expected_params: Optional[Mapping[str, Any]] = None,
                         modeled_fields: Optional[Mapping[str, Any]] = None) -> None:
        """Queues a modeled error as the answer of the next call, to method:
        service_error_code names one of the operation's errors ("NotFound"
        or its shape id), service_message is its message member,
        modeled_fields its other members. http_status_code replaces the
        error's status (None: the model's). The call raises the error's
        class, as the service's would."""
        op = self._op(method)
        sid = next((e for e in op._errors if service_error_code in (e, e.split("#")[-1])), None)
        if sid is None:
            names = ", ".join(e.split("#")[-1] for e in op._errors) or "none"
            raise errors.UsageError(f"stub of {op.info.name}: {service_error_code!r} is not one of its errors ({names})")
        codec = self._client.model.registry.codec(sid, "structure")
        fields = dict(modeled_fields or {})
        if service_message:
            msg = next((m for m in codec.members if m.name.lower() in ("message", "errormessage")), None)
            if msg is None:
                raise errors.UsageError(f"stub of {op.info.name}: error {service_error_code} has no message member")
            fields[msg.py] = service_message
        assert codec.enc is not None
        try:
            body = utf8(dumps(codec.enc(fields)), op.info.name)
        except errors.UsageError as e:
            raise _restated(e, f"stub of {op.info.name}: error {sid.split('#')[-1]}") from None
        self._check(self._lib.stubber_add_error(self._handle(), op._op, sid.encode(), body, http_status_code or 0,
                                                self._params(op, expected_params)), "add_client_error")

    def assert_no_pending_responses(self) -> None:
        """Raises StubAssertionError when a response was not used or a call
        matched none."""
        rc = self._lib.stubber_done(self._handle())
        if rc != _lib.OK:
            msg = _lib.errmsg(self._lib, self._lib.stubber_errmsg, self._handle())
            raise StubAssertionError(msg or self._lib.strerror(rc).decode(), rc=rc)

    @property
    def pending(self) -> int:
        """How many responses no call has taken yet."""
        n = ctypes.c_size_t()
        self._check(self._lib.stubber_pending(self._handle(), ctypes.byref(n)), "pending")
        return n.value

    def close(self) -> None:
        """Deactivates and frees the stubber. Idempotent."""
        h, self._h = self._h, None
        if h is not None:
            self._lib.stubber_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
