"""smithycurl.mock: a mock of a service from its model, served on
127.0.0.1 for the length of a ``with`` block (what ``smithycurl serve``
runs, in the process), for the tests of code that calls the service::

    with smithycurl.mock.serve("examples/todo", fixtures="fixtures.json") as url:
        with smithycurl.load_model("examples/todo").client(endpoint=url) as client:
            client.get_todo(id="0f8fad5b-d9cb-469f-a165-70867728950e")

Each request is routed to its operation and its input validated against
the model (a refused one gets the protocol's validation error); the answer
comes from the fixtures (per operation, the first entry whose "match" the
input meets: an output, or a modeled error with its members; the format is
in the README's "Mock server"), else the operation's @examples, else a
random output valid by the model, the same for the same request and seed.
The requests are served on the library's threads."""

from __future__ import annotations

import ctypes
import os

from . import _lib, errors
from ._json import dumps
from .model import Model, load_model

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import TracebackType
    from typing import Any, Mapping, Optional, Union

    PathLike = Union[str, "os.PathLike[str]"]


class Mock:
    """A running mock server (:func:`serve`): its base URL is ``url``
    (``http://127.0.0.1:PORT``); ``stop()`` or the end of the ``with``
    block stops it."""

    def __init__(self, lib: _lib.Library, handle: int, url: str) -> None:
        self._lib = lib
        self._handle: Optional[int] = handle
        self.url = url

    def stop(self) -> None:
        """Stops listening, waits up to 5 s for the requests under way and
        closes the connections. Stopping twice does nothing."""
        h, self._handle = self._handle, None
        if h is not None:
            self._lib.mock_stop(h)

    def __enter__(self) -> str:
        return self.url

    def __exit__(self, exc_type: Optional[type[BaseException]], exc: Optional[BaseException],
                 tb: Optional[TracebackType]) -> None:
        self.stop()

    def __del__(self) -> None:
        try:
            self.stop()
        except Exception:
            pass

    def __repr__(self) -> str:
        return f"<smithycurl.mock.Mock {self.url}{'' if self._handle is not None else ' (stopped)'}>"


def serve(model: Union[Model, PathLike], service: Optional[str] = None, *,
          fixtures: Union[PathLike, Mapping[str, Any], None] = None, seed: int = 0,
          max_body: Optional[int] = None) -> Mock:
    """Starts a mock of ``service`` (its absolute id; None: the model's only
    service) of ``model`` (a Model, or a path load_model reads) on
    127.0.0.1, on a free port. Use it in a ``with`` block, which gives its
    URL, or call ``stop()``.

    ``fixtures`` is the path of a fixtures file, or its content as a
    mapping (operation name to a list of entries, as in the file).
    ``seed`` seeds the random outputs; ``max_body`` bounds the request
    bodies in bytes (a larger one is answered 413; None: 16 MiB).

    Raises NotFoundError (no such service), UsageError (a fixture the model
    refuses, naming the operation, entry and member; an unreadable fixtures
    file), TransportError (no port to listen on)."""
    m = model if isinstance(model, Model) else load_model(model)
    lib = m._lib
    opts = _lib.MockOptions(size=ctypes.sizeof(_lib.MockOptions), seed=seed,
                            max_body=0 if max_body is None else max_body)
    if max_body is not None and max_body <= 0:
        raise errors.UsageError(f"max_body={max_body}: the bound must be positive")
    if fixtures is None:
        pass
    elif isinstance(fixtures, (str, os.PathLike)):
        opts.fixtures_file = os.fsencode(fixtures)
    else:
        opts.fixtures_json = dumps(fixtures).encode()
    if service is not None and "\x00" in service:
        raise errors.UsageError("the service id contains a NUL character")
    out, url = ctypes.c_void_p(), ctypes.c_char_p()
    rc = lib.mock_start(m._h(), None if service is None else service.encode(), ctypes.byref(opts),
                        ctypes.byref(out), ctypes.byref(url))
    if rc != _lib.OK:
        msg = _lib.errmsg(lib, lib.model_errmsg, m._h()) or lib.strerror(rc).decode()
        raise errors.from_code(rc, msg)
    assert out.value is not None and url.value is not None
    # The URL is the mock's (freed by mock_stop): copied here.
    return Mock(lib, out.value, url.value.decode())
