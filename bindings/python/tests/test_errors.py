"""Every error kind, the library loader's message, fork, Ctrl-C and threads."""

from __future__ import annotations

import builtins
import os
import socket
import threading
import time

import pytest

import smithycurl
from conftest import HTTPBIN_MODEL, Servers, interrupt_child, run_python

DECODE_MODEL = """
$version: "2"
namespace test.decode

@alloy#simpleRestJson
service Html {
    operations: [GetHtml]
}

@readonly
@http(method: "GET", uri: "/html")
operation GetHtml {
    output := { title: String }
}
"""


def test_usage_error(httpbin: smithycurl.Client) -> None:
    with pytest.raises(smithycurl.UsageError, match="id") as e:
        httpbin.anything(id="not a number")
    assert e.value.kind == "usage" and e.value.attempts == 0


def test_validation_error(httpbin_model: smithycurl.Model, servers) -> None:  # type: ignore[no-untyped-def]
    with httpbin_model.client(endpoint=servers.httpbin, validate=True) as c:
        with pytest.raises(smithycurl.ValidationError) as e:
            c.status(code=1000)
    assert isinstance(e.value, ValueError)
    assert e.value.violations == ["code: value 1000 is above the maximum 599"]


def test_service_errors(httpbin: smithycurl.Client) -> None:
    with pytest.raises(httpbin.errors.ServerFailure) as modeled:
        httpbin.status(code=500)
    assert modeled.value.status == 500 and modeled.value.attempts == 3  # @readonly: retried
    with pytest.raises(smithycurl.ServiceError) as unmodeled:
        httpbin.status(code=404)
    e = unmodeled.value
    assert type(e) is smithycurl.ServiceError and e.status == 404 and e.shape_id == ""
    assert "404" in str(e)


def test_transport_error(httpbin_model: smithycurl.Model) -> None:
    import socket

    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()  # nothing listens there now
    with httpbin_model.client(endpoint=f"http://127.0.0.1:{port}", retries=False) as c:
        with pytest.raises(smithycurl.TransportError, match="connect") as e:
            c.get_ip()
    assert e.value.kind == "transport"


def test_timeout_error(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    with httpbin_model.client(endpoint=servers.httpbin, timeout=0.3, retries=False) as c:
        t = time.monotonic()
        with pytest.raises(smithycurl.TimeoutError) as e:
            c.delay(seconds=3)
    assert time.monotonic() - t < 2
    assert isinstance(e.value, builtins.TimeoutError) and isinstance(e.value, smithycurl.SmithycurlError)


def test_cancelled_when_the_client_closes(httpbin_model: smithycurl.Model) -> None:
    # A server that accepts and never answers: the call is in flight once
    # the connection arrives.
    with socket.socket() as hole:
        hole.bind(("127.0.0.1", 0))
        hole.listen(4)
        hole.settimeout(30)
        c = httpbin_model.client(endpoint="http://127.0.0.1:%d" % hole.getsockname()[1], timeout=60)
        errors: list[BaseException] = []

        def slow() -> None:
            try:
                c.delay(seconds=5)
            except BaseException as e:
                errors.append(e)

        t = threading.Thread(target=slow)
        t.start()
        conn, _ = hole.accept()
        with conn:
            start = time.monotonic()
            c.close()
            t.join(5)
            assert not t.is_alive() and time.monotonic() - start < 3
    assert len(errors) == 1 and isinstance(errors[0], smithycurl.CancelledError), errors


def test_decode_error(servers: Servers) -> None:
    m = smithycurl.load_model(text=DECODE_MODEL)
    with m.client(endpoint=servers.httpbin) as c:
        with pytest.raises(smithycurl.DecodeError):
            c.get_html()


def test_load_errors() -> None:
    with pytest.raises(smithycurl.LoadError) as e:
        smithycurl.load_model(text='$version: "2"\nnamespace a.b\nstructure Foo {\n    bar: Missing\n}\n', name="bad.smithy")
    assert isinstance(e.value, ValueError)
    assert len(e.value.errors) == 1 and e.value.errors[0].startswith("bad.smithy:4:")
    with pytest.raises(smithycurl.NotFoundError):
        smithycurl.load_model("/nonexistent/model.smithy")
    m = smithycurl.load_model(HTTPBIN_MODEL)
    with pytest.raises(smithycurl.NotFoundError, match="smithycurl.examples.httpbin#HttpBin"):
        m.client("nope#Nope", endpoint="http://127.0.0.1:1")
    with pytest.raises(smithycurl.UsageError):
        m.client(endpoint="not a url")


def test_library_not_found_says_what_it_tried() -> None:
    r = run_python("import smithycurl; smithycurl.load_model(text='')", env={"SMITHYCURL_LIBRARY": "/nowhere/libsmithycurl.so"})
    assert r.returncode != 0
    assert "cannot load libsmithycurl.so; tried:" in r.stderr and "/nowhere/libsmithycurl.so: no such file" in r.stderr
    assert "make lib" in r.stderr


def test_forked_child_gets_a_clear_error(httpbin: smithycurl.Client) -> None:
    httpbin.get_ip()
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: must fail at once, not hang
        os.close(r)
        try:
            httpbin.get_ip()
            msg = b"no error"
        except smithycurl.ForkedError as e:
            msg = str(e).encode()
        except BaseException as e:  # noqa: BLE001
            msg = repr(e).encode()
        os.write(w, msg)
        os._exit(0)
    os.close(w)
    with os.fdopen(r, "rb") as f:
        msg = f.read().decode()
    _, status = os.waitpid(pid, 0)
    assert status == 0
    assert "'spawn'" in msg and "'forkserver'" in msg, msg
    httpbin.get_ip()  # the parent is unaffected


CTRL_C = """
import signal, sys, time
import smithycurl
c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1], timeout=30)
c.get_ip()
print("calling", flush=True)
t = time.monotonic()
try:
    c.delay(seconds=10)
except KeyboardInterrupt:
    print("KeyboardInterrupt %.3f" % (time.monotonic() - t), flush=True)
    print("after:", c.get_ip().origin, flush=True)   # the client still works
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_interrupts_a_long_call(servers: Servers) -> None:
    rc, out, err, took = interrupt_child(CTRL_C, servers.httpbin, HTTPBIN_MODEL, ready="calling")
    assert rc == 42, (out, err)
    assert "KeyboardInterrupt" in out and "after: 127.0.0.1" in out
    assert took < 2, f"exited {took:.2f}s after SIGINT"


def test_eight_threads_share_one_client(httpbin: smithycurl.Client) -> None:
    n, per = 8, 40
    failures: list[BaseException] = []
    counts = [0] * n

    def work(i: int) -> None:
        try:
            for j in range(per):
                out = httpbin.anything(id=i * 1000 + j, test=f"t{i}")
                assert out.json == {"id": i * 1000 + j, "test": f"t{i}"}
                counts[i] += 1
        except BaseException as e:  # noqa: BLE001
            failures.append(e)

    threads = [threading.Thread(target=work, args=(i,)) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not failures, failures[:3]
    assert counts == [per] * n


def test_gil_is_released_during_calls(httpbin: smithycurl.Client) -> None:
    # While one thread waits 1 s in a call, another keeps running Python.
    ticks = 0
    done = threading.Event()

    def spin() -> None:
        nonlocal ticks
        while not done.is_set():
            ticks += 1
            time.sleep(0.001)

    t = threading.Thread(target=spin)
    t.start()
    httpbin.delay(seconds=1)
    done.set()
    t.join()
    assert ticks > 100
