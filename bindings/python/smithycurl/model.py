"""Loading models: load_model() and the Model class."""

from __future__ import annotations

import ctypes
import json
import os
import inspect
import sys
import threading
import warnings
from typing import ParamSpec, TypeVar

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Mapping, Optional, Sequence, Union as TUnion

    from ._hooks import HookContext, Interceptor

from . import _codec, _lib, errors
from ._info import CLIENT_NAMES as CLIENT_NAMES, OperationInfo as OperationInfo, ServiceInfo as ServiceInfo, service_info
from ._options import make_options
from .client import Client

if TYPE_CHECKING:
    from ._identity import Provider
    from .aio import AsyncClient  # imported by async_client: asyncio only for programs that use it

if TYPE_CHECKING:
    PathLike = TUnion[str, "os.PathLike[str]"]


_DESCRIBE_NO_DOCUMENTATION = 1  # SMITHYCURL_DESCRIBE_NO_DOCUMENTATION
_DESCRIBE_PLAIN_DOCUMENTATION = 2  # SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION


_P = ParamSpec("_P")
_R = TypeVar("_R")


def _same_arguments(like: Callable[_P, Any]) -> Callable[[Callable[..., _R]], Callable[_P, _R]]:
    """Gives the decorated function the parameters of like (for the type
    checker and for inspect.signature, help()): async_client takes what
    client takes, listed once."""

    def decorate(f: Callable[..., _R]) -> Callable[_P, _R]:
        sig = inspect.signature(like)
        setattr(f, "__signature__", sig.replace(return_annotation=inspect.signature(f).return_annotation))
        return f

    return decorate


def _caller_level() -> int:
    """The stacklevel of warnings.warn, called by the caller of this, that
    names the first frame outside this package (the program calling
    Model.client, async_client or a generated client's constructor)."""
    f = sys._getframe(2)
    level = 2
    while f.f_back is not None and str(f.f_globals.get("__name__", "")).startswith("smithycurl."):
        f = f.f_back
        level += 1
    return level


class Model:
    """A loaded Smithy model: immutable, shared freely between threads and
    clients. Make clients with :meth:`client`."""

    def __init__(self, handle: int, lib: _lib.Library, description: str = "") -> None:
        self._handle: Optional[int] = handle
        self._lib = lib
        self._description = description
        self._services: Optional[tuple[ServiceInfo, ...]] = None
        self._docs: Optional[dict[str, str]] = None  # by service and operation id
        self._plain_docs: Optional[dict[str, str]] = None  # the same as plain text
        self._op_json: dict[tuple[str, str, bool], dict[str, Any]] = {}
        self._lock = threading.Lock()
        self.registry = _codec.Registry()

    def _h(self) -> int:
        if self._handle is None:
            raise errors.UsageError("the model is closed")
        return self._handle

    @property
    def services(self) -> tuple[ServiceInfo, ...]:
        """The model's services, with their operations."""
        if self._services is None:
            # Without their documentation (a quarter of the JSON to make and
            # parse): it is read when first asked for (_documentation).
            data = self._services_json(brief=True)
            self._services = tuple(service_info(s, self) for s in data.get("services", []))
        return self._services

    def _services_json(self, brief: bool, plain: bool = False) -> dict[str, Any]:
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        if (brief or plain) and self._lib.has("model_services_json_v2"):
            flags = _DESCRIBE_NO_DOCUMENTATION if brief else _DESCRIBE_PLAIN_DOCUMENTATION
            self._lib.model_services_json_v2(self._h(), flags, ctypes.byref(p), ctypes.byref(n))
        else:
            self._lib.model_services_json(self._h(), ctypes.byref(p), ctypes.byref(n))
        data: dict[str, Any] = json.loads(_lib.take_string(self._lib, p, n.value))
        return data

    def _documentation(self, shape_id: str, plain: bool = False) -> str:
        """The documentation of a service or an operation of the model; with
        plain, as plain text (AWS models' HTML converted, as the C and Go
        generators write it)."""
        docs = self._plain_docs if plain else self._docs
        if docs is None:
            docs = {}
            for s in self._services_json(brief=False, plain=plain).get("services", []):
                docs[s["id"]] = s.get("documentation", "")
                for o in s.get("operations", []):
                    docs[o["id"]] = o.get("documentation", "")
            if plain:
                self._plain_docs = docs
            else:
                self._docs = docs
        return docs.get(shape_id, "")

    def service(self, service_id: Optional[str] = None) -> ServiceInfo:
        """A service by its id ("ns#Service") or name; None for the
        model's only service."""
        services = self.services
        if service_id is None:
            if len(services) == 1:
                return services[0]
            raise errors.NotFoundError(
                f"the model has {len(services)} services; name one: {', '.join(s.id for s in services) or '(none)'}"
            )
        for s in services:
            if service_id in (s.id, s.name):
                return s
        raise errors.NotFoundError(
            f"no service {service_id!r} in the model; it has: {', '.join(s.id for s in services) or '(none)'}"
        )

    def operation_shapes(self, operation: str, service: Optional[str] = None, *, plain_docs: bool = False) -> dict[str, Any]:
        """The C API's description of an operation: input, output, errors
        and every shape they reach (smithycurl_model_operation_json); with
        plain_docs, the documentation as plain text (AWS models' HTML
        converted, as the C and Go generators write it)."""
        svc = self.service(service)
        key = (svc.id, operation, plain_docs)
        got = self._op_json.get(key)
        if got is not None:
            return got
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        if plain_docs:
            rc = self._lib.model_operation_json_v2(self._h(), svc.id.encode(), operation.encode(),
                                                   _DESCRIBE_PLAIN_DOCUMENTATION, ctypes.byref(p), ctypes.byref(n))
        else:
            rc = self._lib.model_operation_json(self._h(), svc.id.encode(), operation.encode(), ctypes.byref(p),
                                                ctypes.byref(n))
        if rc != _lib.OK:
            raise errors.from_code(rc, _lib.errmsg(self._lib, self._lib.model_errmsg, self._h()) or self._lib.strerror(rc).decode())
        data: dict[str, Any] = json.loads(_lib.take_string(self._lib, p, n.value))
        self.registry.add_shapes(data.get("shapes", {}))
        with self._lock:
            self._op_json[key] = data
        return data

    def ast(self) -> dict[str, Any]:
        """The whole model (prelude excluded) as a Smithy JSON AST document."""
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        self._lib.model_ast_json(self._h(), ctypes.byref(p), ctypes.byref(n))
        result: dict[str, Any] = json.loads(_lib.take_string(self._lib, p, n.value))
        return result

    def snapshot(self) -> bytes:
        """The model as a snapshot (what `smithycurl compile` writes): save it
        to a file, and load_model() of that file loads the model several times
        faster, without parsing or validating it again. A damaged snapshot is
        a LoadError naming the file."""
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        self._lib.model_snapshot(self._h(), ctypes.byref(p), ctypes.byref(n))
        return _lib.take_string(self._lib, p, n.value)

    def client(
        self,
        service: Optional[str] = None,
        *,
        endpoint: Optional[str] = None,
        region: Optional[str] = None,
        endpoint_params: Optional[Mapping[str, TUnion[str, bool]]] = None,
        timeout: Optional[float] = None,
        connect_timeout: Optional[float] = None,
        retries: TUnion[bool, int] = True,
        headers: Optional[Mapping[str, str]] = None,
        user_agent: Optional[str] = None,
        bearer_token: Optional[str] = None,
        basic_auth: Optional[tuple[str, str]] = None,
        api_key: TUnion[str, Provider, None] = None,
        aws_credentials: Optional[Mapping[str, Optional[str]]] = None,
        credentials: Optional[Provider] = None,
        token: Optional[Provider] = None,
        profile: Optional[str] = None,
        request_checksum_calculation: Optional[str] = None,
        response_checksum_validation: Optional[str] = None,
        retry_mode: Optional[str] = None,
        request_min_compression_size_bytes: Optional[int] = None,
        disable_request_compression: Optional[bool] = None,
        app_id: Optional[str] = None,
        endpoint_discovery: TUnion[bool, str, None] = None,
        ca_file: Optional[str] = None,
        cert_file: Optional[str] = None,
        key_file: Optional[str] = None,
        insecure: bool = False,
        proxy: Optional[str] = None,
        validate: bool = False,
        validation: Optional[bool] = None,
        max_response_bytes: Optional[int] = None,
        host_prefix: bool = True,
        waiter_delays: Optional[tuple[float, float]] = None,
        trace: TUnion[bool, Callable[[dict[str, Any]], None], None] = None,
        max_transfers: Optional[int] = None,
        max_host_connections: Optional[int] = None,
        interceptors: Optional[Sequence[Interceptor]] = None,
        auth_schemes: Optional[Mapping[str, Callable[[HookContext], None]]] = None,
        trace_spans: bool = False,
        digest_auth: Optional[tuple[str, str]] = None,
    ) -> Client:
        """A client for a service of the model (its id; omit it when the
        model has one service), calling ``endpoint``.

        For a service with endpoint rules (``smithy.rules#endpointRuleSet``,
        as every AWS model has), ``region`` (default: ``AWS_REGION``) is
        enough: each call's endpoint and signing name and region come from
        the rules, and an ``endpoint`` given goes through them as their
        ``SDK::Endpoint``. ``endpoint_params`` sets rule-set parameters by
        name (``{"UseFIPS": True, "UseDualStack": True,
        "AccountIdEndpointMode": "preferred"}``); a rule's error raises
        UsageError with its message.

        Options (all finite by default):

        - ``timeout``: seconds a call may take, retries included (60;
          more than 0);
        - ``connect_timeout``: seconds to connect (10; more than 0);
        - ``retries``: True (3 attempts, only where safe), False (send
          once), or the number of attempts (0 sends once);
        - ``headers``: added to every request; ``user_agent``;
        - credentials: ``bearer_token``, ``basic_auth=(user, password)``,
          ``api_key``, ``aws_credentials={"access_key_id":..,
          "secret_access_key":.., "session_token":.., "region":..}``; one
          trailing newline (a token file read whole) is removed from each,
          any other control character raises UsageError naming the option,
          never showing the value;
        - identities that change: ``credentials`` (AWS), ``token`` (bearer)
          and ``api_key``, each a function of no arguments or an object
          with ``retrieve()``, called on a library thread when the identity
          is needed, one call at a time per client; ``credentials`` returns
          a mapping or object with ``access_key_id``, ``secret_access_key``,
          ``session_token`` and ``expiration`` (a datetime, naive meaning
          UTC, or seconds since the epoch; None: never), ``token`` and
          ``api_key`` a str or one with ``value`` and ``expiration``. What
          it returns is cached and asked for again before it expires (from
          15 minutes before in the background, from 10 minutes before the
          calls wait). An exception it raises fails the call that needed
          it (UsageError with the exception's type and message);
        - ``profile``: the AWS shared config profile (``~/.aws/config``,
          ``~/.aws/credentials``) an AWS service reads its region, endpoint
          and other settings, and its credentials, from instead of
          ``AWS_PROFILE``'s or ``default``; it must exist;
        - ``request_checksum_calculation``: ``"when_supported"`` (a CRC32
          of the body, or the algorithm the input chooses, whenever the
          operation supports a checksum, as the AWS SDKs since 2025) or
          ``"when_required"``; ``response_checksum_validation``:
          ``"when_supported"`` (a response's checksum checked whenever the
          operation can ask for one) or ``"when_required"`` (only when the
          input sets its validation mode member to ENABLED); a mismatch
          raises DecodeError. None: ``AWS_REQUEST_CHECKSUM_CALCULATION``,
          ``AWS_RESPONSE_CHECKSUM_VALIDATION``, the profile's settings,
          else ``"when_supported"``;
        - ``retry_mode``: ``"standard"`` or ``"adaptive"`` (the AWS SDKs'
          client-side rate limiter: from the first throttling response,
          sends wait for a token bucket whose rate follows CUBIC; one per
          client, shared by its threads). None: ``AWS_RETRY_MODE``, the
          profile's ``retry_mode``, else standard;
        - ``request_min_compression_size_bytes``: the smallest body an
          operation's ``@requestCompression`` compresses, 0 to 10485760
          (None: ``AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES``, the profile's
          setting, else 10240); ``disable_request_compression``: True sends
          every body uncompressed (None: ``AWS_DISABLE_REQUEST_COMPRESSION``,
          the profile's setting);
        - ``app_id``: the application's id in an AWS service's User-Agent
          (``app/ID``, at most 50 characters; None: ``AWS_SDK_UA_APP_ID``,
          the profile's ``sdk_ua_app_id``);
        - ``endpoint_discovery``: which operations of a service with
          ``aws.api#clientEndpointDiscovery`` (Timestream, DynamoDB) go to
          the endpoint its DescribeEndpoints returns: ``"auto"``, those
          that require it; True, every one that supports it; False, none.
          None: ``AWS_ENABLE_ENDPOINT_DISCOVERY``, the profile's
          ``endpoint_discovery_enabled``, else ``"auto"``. An ``endpoint``
          given turns it off;
        - TLS: ``ca_file``, ``cert_file``, ``key_file``, ``insecure``
          (tests only); ``proxy`` ("-" for none);
        - ``validate``: check inputs against the model's constraint traits
          (``@length``, ``@range``, ``@pattern``, enum values,
          ``@uniqueItems``) before sending, raising ``ValidationError``
          (False: the service has the last word, as the Smithy
          specification says for clients). ``@required`` members and the
          types of values (numbers in their type's range, base64 blobs,
          timestamps in years 0001 to 9999) are always checked;
          ``validation``: deprecated alias of ``validate`` (a
          DeprecationWarning), which it overrides when given;
        - ``max_response_bytes``: largest response body (64 MiB; -1 none);
        - ``host_prefix``: False ignores the endpoint trait's hostPrefix and
          its host labels (the command line's ``--no-host-prefix``);
        - ``waiter_delays``: ``(min_delay, max_delay)`` in seconds replacing
          the minDelay and maxDelay of every waiter ``client.wait`` runs
          (0 keeps the waiter's own); for tests, or callers that know
          better than the model;
        - ``trace``: a function called with each request and response
          event (a dict, credentials redacted), or True to log them to the
          "smithycurl.trace" logger at DEBUG level;
        - ``max_transfers`` and ``max_host_connections``: the limits of the
          library's engine, which the calls of an asynchronous client
          (:meth:`async_client`) go through: at most ``max_transfers``
          requests on the wire at once (100; the others wait their turn,
          first come first served, holding no connection) and at most
          ``max_host_connections`` connections to one host (0: no limit).
          A synchronous client's calls do not go through the engine;
        - ``interceptors``: :class:`smithycurl.Interceptor` objects whose
          hooks run at the Smithy client reference points, in order (see
          Interceptor); ``auth_schemes``: ``{"com.example#hmacAuth":
          sign}``, a signer per custom auth scheme (a trait with
          ``@authDefinition``), chosen by the model's ``@auth`` like the
          built-in ones: ``sign(ctx)`` sets the request's headers
          (:class:`smithycurl.HookContext`), once per attempt; an exception
          either raises fails the call (UsageError);
        - ``trace_spans``: the trace function also gets span events, a
          span per call ("Service.Operation") and per attempt ("Attempt")
          with the Smithy/AWS attribute names (``phase`` "span_start" or
          "span_end", ``span_id``, ``parent_id``, ``name``,
          ``attributes``, ``took_us``, ``error``);
        - ``digest_auth``: ``(user, password)`` of ``@httpDigestAuth``.
        """
        if validation is not None:
            warnings.warn("the option validation is deprecated; use validate", DeprecationWarning,
                          stacklevel=_caller_level())
            validate = validation
        info = self.service(service)
        opts, keep = make_options(
            self._lib, timeout=timeout, connect_timeout=connect_timeout, retries=retries,
            headers=headers, user_agent=user_agent, bearer_token=bearer_token,
            basic_auth=basic_auth, api_key=api_key, aws_credentials=aws_credentials,
            credentials=credentials, token=token, profile=profile,
            request_checksum_calculation=request_checksum_calculation,
            response_checksum_validation=response_checksum_validation,
            retry_mode=retry_mode, request_min_compression_size_bytes=request_min_compression_size_bytes,
            disable_request_compression=disable_request_compression, app_id=app_id, endpoint_discovery=endpoint_discovery,
            ca_file=ca_file, cert_file=cert_file, key_file=key_file, insecure=insecure,
            proxy=proxy, validate=validate,
            max_response_bytes=max_response_bytes, trace=trace, host_prefix=host_prefix,
            region=region, endpoint_params=endpoint_params, waiter_delays=waiter_delays,
            max_transfers=max_transfers, max_host_connections=max_host_connections,
            interceptors=interceptors, auth_schemes=auth_schemes, trace_spans=trace_spans, digest_auth=digest_auth,
        )
        out = ctypes.c_void_p()
        try:
            if endpoint is not None and "\x00" in endpoint:
                raise errors.UsageError("the endpoint contains a NUL character")
            ep = None if endpoint is None else endpoint.encode()
            rc = self._lib.client_new(self._h(), info.id.encode(), ep, opts, ctypes.byref(out))
        finally:
            self._lib.options_free(opts)
        if rc != _lib.OK:
            msg = _lib.errmsg(self._lib, self._lib.model_errmsg, self._h()) or self._lib.strerror(rc).decode()
            raise errors.from_code(rc, msg)
        assert out.value is not None
        return Client(self, info, out.value, endpoint, keep)

    @_same_arguments(client)
    def async_client(self, *args: Any, **kwargs: Any) -> AsyncClient:
        """A client for asyncio programs (:mod:`smithycurl.aio`): the same
        arguments as :meth:`client` (service, endpoint and options); its
        operations are coroutines returning the same output classes and
        raising the same errors (``await client.get_ip()``), many calls in
        flight at once without a thread each. Close it with ``async with``
        or ``await client.close()``."""
        from .aio import AsyncClient

        return AsyncClient(self.client(*args, **kwargs))

    def close(self) -> None:
        """Frees the model handle (its clients stay usable)."""
        h, self._handle = self._handle, None
        if h is not None:
            self._lib.model_free(h)

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass

    def __repr__(self) -> str:
        try:
            names = ", ".join(s.id for s in self.services)
        except errors.SmithycurlError:
            names = "closed"
        where = f" from {self._description}" if self._description else ""
        return f"<smithycurl.Model{where}: {names}>"


def load_model(*paths: PathLike, text: Optional[str] = None, name: str = "inline.smithy",
               cache: Optional[str] = None, cache_dir: Optional[PathLike] = None) -> Model:
    """Loads a Smithy model: IDL (.smithy, 2.0 and 1.0) or JSON AST (.json)
    files, directories (every .smithy file under them and every .json file
    with a top-level "smithy" key; other files, FIFOs and devices are
    skipped), a ``smithy-build.json`` (or a directory holding one: its
    ``sources`` and ``imports`` are loaded), and/or ``text`` (model source;
    read as a JSON AST when ``name`` ends in .json or it starts with "{").
    Everything is merged into one model; a file may hold at most 256 MiB.
    The trait definitions of the protocols and auth schemes smithycurl
    knows (aws.*, alloy, smithy.protocols, smithy.rules, smithy.waiters)
    are bundled, so models that ``use`` them need not include them.
    A model snapshot (``Model.snapshot()``, ``smithycurl compile``) loads
    alone, several times faster: it is not parsed or validated again.

    Loading the same files again reuses the model, in this process and
    through snapshots in the user's cache directory (see the README's model
    cache): ``cache`` is "on", "memory" (this process only) or "off"; None
    follows SMITHYCURL_MODEL_CACHE ("on" when unset). ``cache_dir`` is the
    folder of the snapshots instead of ~/.cache/smithycurl/models.

    Raises LoadError listing every problem as file:line:column, and
    NotFoundError for a missing path.
    """
    lib = _lib.load()
    if not paths and text is None:
        raise TypeError("load_model() needs paths or text=")
    ld = ctypes.c_void_p()
    lib.loader_new(ctypes.byref(ld))
    try:
        if cache is not None or cache_dir is not None:
            rc = lib.loader_set_cache(ld, None if cache is None else cache.encode(),
                                      None if cache_dir is None else os.fsencode(cache_dir))
            if rc != _lib.OK:
                raise errors.from_code(rc, _lib.errmsg(lib, lib.loader_errmsg, ld))
        for p in paths:
            rc = lib.loader_add_path(ld, os.fsencode(p))
            if rc != _lib.OK:
                raise errors.from_code(rc, _lib.errmsg(lib, lib.loader_errmsg, ld) or f"{os.fspath(p)}: cannot read")
        if text is not None:
            src = text.encode()
            rc = lib.loader_add_source(ld, name.encode(), src, len(src))
            if rc != _lib.OK:
                raise errors.from_code(rc, _lib.errmsg(lib, lib.loader_errmsg, ld))
        out = ctypes.c_void_p()
        rc = lib.loader_load(ld, ctypes.byref(out))
        if rc != _lib.OK:
            raise errors.from_code(rc, _lib.errmsg(lib, lib.loader_errmsg, ld))
        assert out.value is not None
        desc = ", ".join(os.fspath(p) for p in paths) + (f"{', ' if paths else ''}{name}" if text is not None else "")
        return Model(out.value, lib, desc)
    finally:
        lib.loader_free(ld)
