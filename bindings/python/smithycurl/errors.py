"""The exceptions smithycurl raises: one hierarchy, rooted at SmithycurlError.

::

    SmithycurlError
    ├── LibraryError (OSError)        libsmithycurl.so cannot be loaded
    ├── LoadError (ValueError)        the model has errors (.errors: file:line:col lines)
    ├── NotFoundError (LookupError)   no such service or operation
    ├── UsageError                    the call is wrong; nothing was sent
    │   └── InputTypeError (TypeError) a Python value of the wrong type for its member
    ├── ValidationError (ValueError)  a required member missing, or constraints broken (.violations)
    ├── ServiceError                  the service answered with an error (.status, ...)
    │   └── one class per modeled error shape, members as attributes
    ├── TransportError                no complete response (DNS, connect, TLS, reset, too large)
    ├── TimeoutError (builtins.TimeoutError)
    ├── CancelledError                the call was cancelled (its client closed)
    ├── DecodeError                   the response could not be decoded
    ├── WaiterError                   a waiter (client.wait.<name>) stopped without success
    │   ├── WaiterFailureError        a failure acceptor matched (.acceptor's text in the message)
    │   └── WaiterTimeoutError (builtins.TimeoutError)  max_wait ran out
    └── ForkedError (RuntimeError)    used in a child process after os.fork()
"""

from __future__ import annotations

import builtins
import dataclasses
import re

from . import _contract as _c

# The names the classes' annotations use exist at run time (for
# typing.get_type_hints() on generated error classes); the package loads
# typing already.
from typing import Any, ClassVar, Optional


class SmithycurlError(Exception):
    """Base of every smithycurl exception.

    ``rc`` is the C API's smithycurl_code (a number), ``kind`` the error
    kind's name ("usage", "validation", "service", "transport", "timeout",
    "cancelled", "decode", "waiter_failure", "waiter_timeout") or "" for
    failures outside calls, ``message`` the
    detail. (A ServiceError's ``code`` is the service's error code, a str.)
    ``may_have_reached`` says whether the server may have received the
    request, and so acted on it: True for every ServiceError and after a
    transport failure, timeout or cancellation once the request began to
    be sent (the message then ends with "(the request may have reached the
    server)"); False when the server certainly did not see it (usage and
    validation errors; DNS, connect and TLS failures). A failed call of an
    operation that is not idempotent took effect only if it is True; it is
    never re-sent then.
    """

    kind: ClassVar[str] = ""
    may_have_reached: bool = False

    def __init__(self, message: str = "", *, rc: int = 0, attempts: int = 0) -> None:
        super().__init__(message)
        self.message = message
        self.rc = rc
        self.attempts = attempts

    def __str__(self) -> str:
        return self.message


class LibraryError(SmithycurlError, OSError):
    """libsmithycurl.so could not be found or is too old; the message lists
    every place tried."""

    def __str__(self) -> str:
        return self.message


class LoadError(SmithycurlError, ValueError):
    """The model has errors. ``errors`` holds one line per problem, as
    ``file:line:column: error: shape: message [EventId]``."""

    def __init__(self, message: str, *, rc: int = 0) -> None:
        super().__init__(message, rc=rc)
        lines = [line for line in message.splitlines() if line.strip()]
        if lines and lines[0].startswith("invalid model: "):
            lines[0] = lines[0][len("invalid model: "):]
        self.errors = lines


class NotFoundError(SmithycurlError, LookupError):
    """No such service, operation or model file."""


class UsageError(SmithycurlError):
    """The call itself is wrong (a value of the wrong type, malformed input,
    missing credentials, a bad endpoint or option). Nothing was sent.
    ``member`` is the member path of the value at fault when the Python
    side found it (``tags[2].name``), else ""."""

    kind = "usage"
    member: str = ""


class InputTypeError(UsageError, TypeError):
    """A Python value of the wrong type for its member, found before
    anything is sent: a str, a dict or a set where the model has a list,
    a bool or a float for an integer, a list for a map... The message names
    the member path and the types expected, as boto3's parameter check
    does; ``member`` holds the path. ``rc`` is 8 (SMITHYCURL_E_USAGE), as for
    the library's own usage errors."""

    def __init__(self, message: str = "", *, rc: int = _c.E_USAGE, attempts: int = 0) -> None:
        super().__init__(message, rc=rc, attempts=attempts)


class ValidationError(SmithycurlError, ValueError):
    """A required member is missing or, with ``validate=True``, the input
    breaks the model's constraints (length, range, pattern, enum). Nothing
    was sent. ``violations`` lists every one, each with its member path."""

    kind = "validation"

    def __init__(self, message: str = "", *, rc: int = 0, attempts: int = 0) -> None:
        super().__init__(message, rc=rc, attempts=attempts)
        self.violations = _violations(message)


def _violations(message: str) -> list[str]:
    """The C API's "invalid input for Op: a: why; b[2].c: why" as a list."""
    m = re.match(r"invalid input for [^:]*: ", message)
    rest = message[m.end():] if m else message
    return [v for v in rest.split("; ") if v] if rest else []


#: The note the library ends a call error's message with when a retryable
#: failure was not retried: "(not retried: the client's retry quota is spent ...)".
_NOT_RETRIED = re.compile(r" \((not retried: .*)\)\Z", re.DOTALL)


def _not_retried(message: str) -> str:
    """The library's "not retried: ..." note at the end of message, or ""."""
    m = _NOT_RETRIED.search(message)
    return m.group(1) if m else ""


@dataclasses.dataclass
class ErrorMeta:
    """What the response said about a service error, whatever its members."""

    status: int = 0  #: the HTTP status
    shape_id: str = ""  #: the error shape's id, "" when unmodeled
    error_code: str = ""  #: the error type the service named, "" when none
    request_id: str = ""  #: the request id the service returned, "" when none
    attempts: int = 0  #: how many times the request was sent
    body: str = ""  #: the raw response body (unmodeled errors only)


class ServiceError(SmithycurlError):
    """The service answered with an error response.

    A modeled error is an instance of its own subclass (one per error shape,
    ``except client.errors.NotFoundError``), with the shape's members as
    snake_case attributes. Every service error also has ``code``, the error
    code the service named as boto3 reports it
    (``e.response["Error"]["Code"]`` there: "ConditionalCheckFailedException",
    or the awsQuery code of an awsQueryCompatible service such as
    "AWS.SimpleQueueService.NonExistentQueue"; "" when none), ``status``
    (HTTP), ``shape_id``, ``error_code`` (the same as ``code``),
    ``request_id``, ``attempts``, ``body`` (unmodeled errors: the raw
    response) and ``rc`` (10, SMITHYCURL_E_SERVICE), and ``meta``, an
    ErrorMeta with the same. A member of the same name wins on the error
    itself (an error with a ``code`` member, or an ``ErrorCode`` one, whose
    snake_case name is ``error_code``: EFS's errors); ``meta.error_code``
    always keeps the service's.
    """

    kind = "service"
    may_have_reached = True  # the service answered
    #: The error shape's id; set on each modeled error class.
    shape_id: str = ""
    _sc_members: ClassVar[tuple[str, ...]] = ()
    _sc_sensitive: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, message: str = "", /, *, _meta: Optional[ErrorMeta] = None, **members: Any) -> None:
        meta = _meta if _meta is not None else ErrorMeta(shape_id=type(self).shape_id)
        if not message and isinstance(members.get("message"), str):
            message = members["message"]
        super().__init__(message, rc=10, attempts=meta.attempts)
        self._sc_not_retried = _not_retried(message)
        self.meta = meta
        self.status = meta.status
        self.code: str = meta.error_code
        self.error_code = meta.error_code
        self.request_id = meta.request_id
        self.body = meta.body
        if meta.shape_id:
            self.shape_id = meta.shape_id
        for name in type(self)._sc_members:
            if name == "message" and "message" not in members:
                continue
            setattr(self, name, members.pop(name, None))
        if members:
            raise TypeError(
                f"{type(self).__name__} has no member {', '.join(sorted(members))}; "
                f"valid: {', '.join(type(self)._sc_members) or '(none)'}"
            )

    def __str__(self) -> str:
        text = self._text()
        # Why a retryable failure was not retried, as Go and the CLI say it.
        note = self._sc_not_retried
        return f"{text} ({note})" if note and note not in text else text

    def _text(self) -> str:
        cls = type(self)
        # An unmodeled error is named by the code the service sent, as in
        # Go and the CLI ("ValidationException (HTTP 400): ...").
        what = cls.__name__ if cls is not ServiceError else (self.meta.error_code or "service error")
        text = f"{what} (HTTP {self.meta.status})"
        # The library's own text when the service sent no message: it names
        # the shape or code again, so it is not repeated.
        names = (self.meta.shape_id, self.meta.error_code, "unmodeled error (HTTP ")
        generic = not self.message or any(n and self.message.startswith(n) for n in names)
        if not generic:
            return f"{text}: {self.message}"
        shown = [
            f"{n}=***" if n in cls._sc_sensitive else f"{n}={getattr(self, n, None)!r}"
            for n in cls._sc_members
            if getattr(self, n, None) is not None
        ]
        if shown:
            return f"{text}: {', '.join(shown)}"
        return f"{text}: {self.message}" if self.message and cls is ServiceError and not generic else text

    def __repr__(self) -> str:
        cls = type(self)
        parts = [f"status={self.meta.status!r}"]
        for name in cls._sc_members:
            value = getattr(self, name, None)
            parts.append(f"{name}=***" if name in cls._sc_sensitive and value is not None else f"{name}={value!r}")
        if not cls._sc_members and self.message:
            parts.append(f"message={self.message!r}")
        return f"{cls.__name__}({', '.join(parts)})"


class TransportError(SmithycurlError):
    """No complete response: DNS, connect, TLS, connection reset, or a
    response larger than the client's limit."""

    kind = "transport"


class TimeoutError(SmithycurlError, builtins.TimeoutError):
    """The connect or total timeout expired (retries included)."""

    kind = "timeout"

    def __str__(self) -> str:
        return self.message


class CancelledError(SmithycurlError):
    """The call was cancelled: its client was closed meanwhile (Ctrl-C
    raises KeyboardInterrupt instead)."""

    kind = "cancelled"


class DecodeError(SmithycurlError):
    """The response could not be decoded."""

    kind = "decode"


class WaiterError(SmithycurlError):
    """A waiter stopped without reaching its success state. ``waiter`` is
    its name, ``attempts`` how many times it called the operation. When a
    failure acceptor matched an error response, ``shape_id``,
    ``error_code`` and ``status`` are that error's ("" and 0 otherwise).
    (An error no acceptor expects is raised as itself: a ServiceError,
    TransportError...)"""

    waiter: str = ""
    shape_id: str = ""
    error_code: str = ""
    status: int = 0


class WaiterFailureError(WaiterError):
    """A failure acceptor of the waiter matched: the resource will not reach
    the state waited for. The message says which acceptor, and the
    acceptor's message when it has one."""

    kind = "waiter_failure"


class WaiterTimeoutError(WaiterError, builtins.TimeoutError):
    """The waiter was still retrying when ``max_wait`` ran out."""

    kind = "waiter_timeout"

    def __str__(self) -> str:
        return self.message


FORK_MESSAGE = (
    "smithycurl cannot be used in a child process created by os.fork() after the parent "
    "used it (the library runs the Go runtime, whose threads do not survive fork). Use "
    "multiprocessing with the 'spawn' or 'forkserver' start method "
    "(multiprocessing.set_start_method('spawn') or get_context('forkserver')), or fork "
    "before the first use of smithycurl."
)


class ForkedError(SmithycurlError, RuntimeError):
    """smithycurl was used in a child process after os.fork(); use the
    multiprocessing 'spawn' or 'forkserver' start method."""

    def __init__(self, message: str = FORK_MESSAGE, *, rc: int = 15) -> None:
        super().__init__(message, rc=rc)


class InternalError(SmithycurlError):
    """A bug in the library (an internal panic was caught); please report it."""


_BY_CODE: dict[int, type[SmithycurlError]] = {
    _c.E_NOT_FOUND: NotFoundError,
    _c.E_LOAD: LoadError,
    _c.E_USAGE: UsageError,
    _c.E_VALIDATION: ValidationError,
    _c.E_SERVICE: ServiceError,
    _c.E_TRANSPORT: TransportError,
    _c.E_TIMEOUT: TimeoutError,
    _c.E_CANCELLED: CancelledError,
    _c.E_DECODE: DecodeError,
    _c.E_NOMEM: InternalError,
    _c.E_INTERNAL: InternalError,
    _c.E_WAITER_FAILURE: WaiterFailureError,
    _c.E_WAITER_TIMEOUT: WaiterTimeoutError,
}

_BY_KIND: dict[int, type[SmithycurlError]] = {
    _c.KIND_USAGE: UsageError,
    _c.KIND_VALIDATION: ValidationError,
    _c.KIND_SERVICE: ServiceError,
    _c.KIND_TRANSPORT: TransportError,
    _c.KIND_TIMEOUT: TimeoutError,
    _c.KIND_CANCELLED: CancelledError,
    _c.KIND_DECODE: DecodeError,
    _c.KIND_WAITER_FAILURE: WaiterFailureError,
    _c.KIND_WAITER_TIMEOUT: WaiterTimeoutError,
}


def from_code(code: int, message: str, where: Optional[str] = None) -> SmithycurlError:
    """An exception for a failing smithycurl_code outside calls."""
    if code == _c.E_FORKED:
        return ForkedError()
    cls = _BY_CODE.get(code, UsageError)
    if where:
        message = f"{where}: {message}"
    if cls is ServiceError:
        return ServiceError(message, _meta=ErrorMeta())
    return cls(message, rc=code)


def for_kind(kind: int) -> type[SmithycurlError]:
    return _BY_KIND.get(kind, UsageError)
