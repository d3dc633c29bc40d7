"""The with-block and garbage-collection behaviour of every object that
holds a library handle (Client, EventStream, Paginator)."""

from __future__ import annotations

from typing import Any, TypeVar

_S = TypeVar("_S", bound="Closing")


class Closing:
    """Calls close() when a with block ends and when collected; close() is
    idempotent in every subclass."""

    def close(self) -> None:
        raise NotImplementedError

    def __enter__(self: _S) -> _S:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        try:
            self.close()
        except Exception:
            pass
