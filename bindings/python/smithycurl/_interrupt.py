"""Ctrl-C during a call (or a wait): KeyboardInterrupt promptly, and the request cancelled.

A ctypes call blocks the main thread in C, where Python cannot run its
SIGINT handler: the KeyboardInterrupt would wait for the call to end. So,
for calls made on the main thread while Python's default SIGINT handler is
installed:

- a daemon "watcher" thread waits on a pipe whose write end is made the signal
  wakeup fd (signal.set_wakeup_fd) for the duration of the call: Python's C
  signal handler writes the signal number there, from whichever thread gets
  the signal;
- the call carries a cancel token; on SIGINT the watcher cancels it, the C
  call returns SMITHYCURL_E_CANCELLED at once, and the pending
  KeyboardInterrupt is raised (PyErr_CheckSignals) instead of an error.

The token is reused by every main-thread call until a SIGINT cancels it.
The wakeup fd is set at each call (one set_wakeup_fd, ~1.5 us) and left in
place after it, which is harmless: Python's signal handlers run as before,
and the watcher ignores bytes outside calls. When the wakeup fd is someone
else's (an asyncio loop's), it is put back and the call runs on a helper
thread while the main thread waits on a lock, which Ctrl-C interrupts; the
token is then cancelled. Calls from other threads run directly (Python delivers
KeyboardInterrupt to the main thread only).
"""

from __future__ import annotations

import ctypes
import importlib
import os
import signal
import threading

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional

from . import _lib

_main_ident = threading.main_thread().ident
_check_signals = ctypes.pythonapi.PyErr_CheckSignals
_check_signals.argtypes = []
_check_signals.restype = ctypes.c_int
_default_int_handler = signal.default_int_handler
# signal.getsignal wraps its result in an Enum (2 us a call); _signal's is not.
try:
    _getsignal: Callable[[int], Any] = importlib.import_module("_signal").getsignal
except (ImportError, AttributeError):  # pragma: no cover
    _getsignal = signal.getsignal
_SIGINT = int(signal.SIGINT)


class _Watcher:
    def __init__(self, lib: _lib.Library) -> None:
        self.lib = lib
        self.token = self._new_token()
        self.fired: Optional[int] = None  # the token the watcher cancelled
        self.active = False
        # Held while the watcher cancels and while a call ends, so that a
        # SIGINT that arrives as the call returns (one that Python code in a
        # streamed body's callback already raised as KeyboardInterrupt)
        # either cancels this call's token, seen as fired, or nothing: never
        # the token of the next call.
        self.lock = threading.Lock()
        self.drained = threading.Event()  # set when the watcher reads a 0 byte (see drain)
        # target, when set, is the token a SIGINT cancels instead of token
        # (an event stream's own, bound to the stream for its life).
        self.target: Optional[int] = None
        # A pipe, not a socketpair: the same for set_wakeup_fd on POSIX,
        # without importing socket (and selectors) at every start.
        self.rfd, self.wfd = os.pipe()
        os.set_blocking(self.wfd, False)
        self.thread = threading.Thread(target=self._watch, name="smithycurl-sigint", daemon=True)
        self.thread.start()

    def _new_token(self) -> int:
        tok = ctypes.c_void_p()
        self.lib.cancel_token_new(ctypes.byref(tok))
        assert tok.value is not None
        return tok.value

    def _watch(self) -> None:
        while True:
            try:
                data = os.read(self.rfd, 256)
            except OSError:
                return
            if not data:
                return
            if b"\0" in data:
                self.drained.set()
            if signal.SIGINT not in data:
                continue
            with self.lock:
                if self.active and _getsignal(_SIGINT) is _default_int_handler:
                    tok = self.target if self.target is not None else self.token
                    self.fired = tok
                    self.lib.cancel_token_cancel(tok)

    def renew(self) -> None:
        """Replaces a token the watcher cancelled (only the main thread
        uses it, and its call has returned)."""
        old = self.token
        self.token = self._new_token()
        self.fired = None
        self.lib.cancel_token_free(old)


_watcher: Optional[_Watcher] = None
_watcher_lock = threading.Lock()


def _get_watcher(lib: _lib.Library) -> _Watcher:
    global _watcher
    w = _watcher
    if w is None:
        with _watcher_lock:
            if _watcher is None:
                _watcher = _Watcher(lib)
            w = _watcher
    return w


def _after_fork_in_child() -> None:
    # The watcher thread did not survive fork; any later call fails with
    # ForkedError anyway. Forget it (its pipe stays open: the wakeup fd may
    # still name it, and a closed number could be reused by another file).
    global _watcher
    _watcher = None


os.register_at_fork(after_in_child=_after_fork_in_child)


def drain() -> None:
    """Waits (1 s at most) until the watcher has read what the wakeup fd
    holds. After Python code running in a callback during a call (a
    streamed body's reader) raised a SIGINT as KeyboardInterrupt, the
    signal's byte may still be in the pipe: read during the next call, it
    would cancel that one."""
    w = _watcher
    if w is None:
        return
    w.drained.clear()
    try:
        os.write(w.wfd, b"\0")  # no signal is numbered 0
    except OSError:
        return
    w.drained.wait(1.0)


def call(lib: _lib.Library, client: int, op: bytes, body: bytes, out: ctypes.c_void_p) -> int:
    """smithycurl_call, interruptible by Ctrl-C on the main thread. Returns
    the code; raises KeyboardInterrupt when Ctrl-C cancelled the call."""
    return run(lib, out, lib.call, client, op, body, len(body))


def wait(lib: _lib.Library, client: int, waiter: bytes, body: bytes, max_wait_ms: int, out: ctypes.c_void_p) -> int:
    """smithycurl_wait, interruptible as call is."""
    return run(lib, out, lib.wait, client, waiter, body, len(body), max_wait_ms)


def run(lib: _lib.Library, out: ctypes.c_void_p, fn: Callable[..., int], *args: Any, token: Optional[int] = None) -> int:
    """fn(*args, cancel_token, &out) - a C function whose last two
    parameters are a cancel token and its result - interruptible by Ctrl-C
    on the main thread. With token, Ctrl-C cancels that token (which the
    caller owns and fn uses) instead of the watcher's."""
    if threading.get_ident() != _main_ident or _getsignal(_SIGINT) is not _default_int_handler:
        return fn(*args, token, ctypes.byref(out))
    w = _watcher or _get_watcher(lib)
    try:
        old = signal.set_wakeup_fd(w.wfd, warn_on_full_buffer=False)
    except ValueError:  # not the main interpreter's main thread
        return fn(*args, token, ctypes.byref(out))
    if old != -1 and old != w.wfd:  # someone else's (an asyncio loop's)
        signal.set_wakeup_fd(old)
        return _run_on_thread(lib, out, fn, *args, token=token)
    # Ours stays installed after the call (one set_wakeup_fd a call, not
    # two); bytes that arrive between calls are read and ignored.
    tok = w.token if token is None else token
    w.target = token
    w.active = True
    rc = -1
    try:
        _check_signals()  # a Ctrl-C that came just before: raise it now
        rc = fn(*args, tok, ctypes.byref(out))
    finally:
        # Python may raise the KeyboardInterrupt as soon as the C call
        # returns, before rc is even assigned: clean up here either way.
        with w.lock:
            w.active = False
            w.target = None
        fired = w.fired is not None
        if fired and w.fired == w.token:
            w.renew()
        elif fired:
            w.fired = None
        if (rc == -1 or (fired and rc == _lib.E_CANCELLED)) and out.value:
            lib.result_free(out)
            out.value = None
    if fired and rc == _lib.E_CANCELLED:
        _check_signals()  # raises the pending KeyboardInterrupt
        raise KeyboardInterrupt
    return rc


def _run_on_thread(lib: _lib.Library, out: ctypes.c_void_p, fn: Callable[..., int], *args: Any,
                   token: Optional[int] = None) -> int:
    tok = ctypes.c_void_p(token)
    if token is None:
        lib.cancel_token_new(ctypes.byref(tok))
    done = threading.Lock()
    done.acquire()
    box: dict[str, Any] = {}

    def run() -> None:
        try:
            box["rc"] = fn(*args, tok, ctypes.byref(out))
        finally:
            done.release()

    threading.Thread(target=run, name="smithycurl-call", daemon=True).start()
    try:
        done.acquire()  # Ctrl-C interrupts this wait
    except BaseException:
        lib.cancel_token_cancel(tok)
        done.acquire()
        if out.value:
            lib.result_free(out)
            out.value = None
        if token is None:
            lib.cancel_token_free(tok)
        raise
    if token is None:
        lib.cancel_token_free(tok)
    return int(box["rc"])
