"""Fixtures: the package from this folder, the library built by make, and the
local test services (build/testserver -pizza: go-httpbin, Todos, the
event-stream Ticker, alloy's PizzaAdminService, the streaming blob service
and the fake SigV4a endpoint on 127.0.0.1), started once per session."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from typing import Iterator

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
PKG = os.path.dirname(HERE)
REPO = os.path.dirname(os.path.dirname(PKG))
BUILD = os.environ.get("BUILD", os.path.join(REPO, "build"))

sys.path.insert(0, PKG)
os.environ.setdefault("SMITHYCURL_LIBRARY", os.path.join(BUILD, "libsmithycurl.so"))
os.environ["SMITHYCURL_LIBRARY"] = os.path.abspath(os.environ["SMITHYCURL_LIBRARY"])

import smithycurl  # noqa: E402

HTTPBIN_MODEL = os.path.join(REPO, "examples", "httpbin")
PIZZA_SERVICE = "alloy.test#PizzaAdminService"


def shared_dir() -> str:
    return os.path.abspath(os.environ.get("SMITHYCURL_SHARED") or os.path.join(REPO, "..", "shared"))


def shared_path(*parts: str) -> str:
    """A path in the shared test data; the test fails when it is missing."""
    path = os.path.join(shared_dir(), *parts)
    if not os.path.exists(path):
        pytest.fail(f"{path} is missing: the shared folder is $SMITHYCURL_SHARED, default ../shared")
    return path


@pytest.fixture(scope="session")
def mypy_strict(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """mypy's options for the tests: --strict, with a cache folder of the
    session, so that the standard library and the package are analysed by
    the first run only (about 4 s of CPU in each run with --no-incremental)."""
    return ["--strict", "--cache-dir", str(tmp_path_factory.mktemp("mypy-cache"))]


def mypy_or_skip() -> str:
    """The mypy program; the test is skipped without it (it fails in CI)."""
    import shutil

    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    return mypy


def pizza_model_paths() -> list[str]:
    """alloy's core and protocol-test models, and smithy.test, from the
    shared folder; fails without it."""
    conf = os.path.join(shared_dir(), "conformance")
    alloy = os.path.join(conf, "disneystreaming-alloy", "modules")
    paths = [
        os.path.join(alloy, "core", "resources", "META-INF", "smithy"),
        os.path.join(alloy, "protocol-tests", "resources", "META-INF", "smithy"),
        os.path.join(conf, "smithy-lang-smithy", "smithy-protocol-test-traits", "src", "main", "resources",
                     "META-INF", "smithy", "smithy.test.smithy"),
    ]
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        msg = f"the shared folder ($SMITHYCURL_SHARED, default ../shared) lacks {missing[0]}"
        pytest.fail(msg)
    return paths


def default_sigint() -> None:
    """preexec_fn of the Ctrl-C tests' children: SIGINT back to its default
    disposition, so that Python installs KeyboardInterrupt even when the
    test run itself was started with SIGINT ignored (a background job of a
    non-interactive shell is)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupt_child(code: str, *args: str, ready: str, settle: float = 0.5) -> tuple[int, str, str, float]:
    """Runs code in a child Python with this package, waits for it to print
    the line ready, lets it settle, sends it SIGINT (Ctrl-C) and returns its
    exit status, stdout, stderr and the seconds it took to exit after the
    signal (8 s at most)."""
    p = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=dict(os.environ, PYTHONPATH=PKG), preexec_fn=default_sigint)
    assert p.stdout is not None
    assert p.stdout.readline().strip() == ready
    time.sleep(settle)
    sent = time.monotonic()
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=8)
    return p.returncode, out, err, time.monotonic() - sent


class Servers:
    def __init__(self, urls: dict[str, str]) -> None:
        self.httpbin = urls["httpbin"]
        self.todo = urls["todo"]
        self.pizza = urls["pizza"]
        self.kv = urls["kv"]
        self.events = urls["events"]
        self.blobs = urls["blobs"]
        self.extras = urls["extras"]
        self.sigv4a = urls["sigv4a"]
        self.s3express = urls["s3express"]
        self.s3part = urls["s3part"]
        self.signed = urls["signed"]
        self.once = urls["once"]
        self.timestream = urls["timestream"]


@pytest.fixture(scope="session")
def servers() -> Iterator[Servers]:
    exe = os.path.join(BUILD, "testserver")
    if not os.path.exists(exe):
        pytest.fail(f"{exe} missing: run make build")
    proc = subprocess.Popen([exe, "-pizza"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    urls = {}
    assert proc.stdout is not None and proc.stdin is not None
    names = {"httpbin", "todo", "kv", "events", "pizza", "blobs", "extras", "sigv4a", "s3express", "s3part", "once", "signed", "timestream"}
    for _ in range(32):  # every line until the ones the tests use (others may come between)
        line = proc.stdout.readline()
        if not line:
            break
        name, url = line.split()
        urls[name] = url
        if names <= set(urls):
            break
    if not names <= set(urls):
        proc.kill()
        pytest.fail(f"testserver did not start: {urls}")
    try:
        yield Servers(urls)
    finally:
        proc.stdin.close()  # testserver stops when its stdin closes
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


@pytest.fixture(scope="session")
def httpbin_model() -> smithycurl.Model:
    return smithycurl.load_model(HTTPBIN_MODEL)


@pytest.fixture(scope="session")
def httpbin(servers: Servers, httpbin_model: smithycurl.Model) -> Iterator[smithycurl.Client]:
    with httpbin_model.client(endpoint=servers.httpbin, timeout=20) as c:
        yield c


@pytest.fixture(scope="session")
def pizza_model() -> smithycurl.Model:
    return smithycurl.load_model(*pizza_model_paths())


@pytest.fixture(scope="session")
def pizza(servers: Servers, pizza_model: smithycurl.Model) -> Iterator[smithycurl.Client]:
    # Quick retries: the @readonly Health error is retried (3 sends).
    with pizza_model.client(PIZZA_SERVICE, endpoint=servers.pizza, timeout=20) as c:
        yield c


def run_python(code: str, *args: str, env: dict[str, str] | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """Runs code in a fresh interpreter with the package on its path."""
    e = dict(os.environ)
    e["PYTHONPATH"] = PKG + os.pathsep + e.get("PYTHONPATH", "")
    e.update(env or {})
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=e, timeout=timeout)


class CannedServer:
    """A real HTTP server on 127.0.0.1 (a free port) that answers every
    request with one response, set by the test, and keeps the requests it
    got (method, path, headers, body). For responses the in-repo test
    services do not give (an AWS service's error, exact numbers)."""

    def __init__(self) -> None:
        import http.server
        import threading

        self.status = 200
        self.headers: dict[str, str] = {"Content-Type": "application/json"}
        self.body = b"{}"
        self.requests: list[tuple[str, str, dict[str, str], bytes]] = []
        canned = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_POST(self) -> None:
                body = self.read_body()
                canned.requests.append((self.command, self.path, dict(self.headers), body))
                self.send_response(canned.status)
                for k, v in canned.headers.items():
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(canned.body)))
                self.end_headers()
                self.wfile.write(canned.body)

            do_GET = do_PUT = do_DELETE = do_POST

            def read_body(self) -> bytes:
                """The request body, sent with a Content-Length or chunked
                (a streamed body of unknown size)."""
                if "chunked" not in (self.headers.get("Transfer-Encoding") or "").lower():
                    return self.rfile.read(int(self.headers.get("Content-Length") or 0))
                out = b""
                while True:
                    size = int(self.rfile.readline().split(b";")[0], 16)
                    if size == 0:
                        while self.rfile.readline() not in (b"\r\n", b"\n", b""):  # trailers
                            pass
                        return out
                    out += self.rfile.read(size)
                    self.rfile.readline()

            def log_message(self, *args: object) -> None:
                pass

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()

    def respond(self, status: int, body: bytes, **headers: str) -> None:
        self.status, self.body = status, body
        self.headers = {"Content-Type": "application/json", **{k.replace("_", "-"): v for k, v in headers.items()}}

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(10)


@pytest.fixture()
def canned() -> Iterator[CannedServer]:
    s = CannedServer()
    try:
        yield s
    finally:
        s.close()
