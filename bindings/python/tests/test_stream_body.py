"""Streamed @streaming blob payloads against the testserver's blob service
(testing/servers/blobserver: PutBlob reads and checks the pattern, byte i being
i % 251, GetBlob writes it): uploads from file objects, readables and
iterables of chunks, downloads to file objects, retries only of bodies
that can be rewound, failing readers and writers, Ctrl-C, and the memory
a large transfer holds (in a child process)."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from typing import Iterator

import pytest

import smithycurl
from conftest import REPO, Servers, interrupt_child, run_python

BLOBS_MODEL = os.path.join(REPO, "testing", "servers", "blobserver", "blobs.smithy")
PERIOD = 251
PATTERN = bytes(i % PERIOD for i in range(PERIOD * 1024))  # 251 KiB, a whole number of periods


def pattern(n: int) -> bytes:
    reps, rest = divmod(n, len(PATTERN))
    return PATTERN * reps + PATTERN[:rest]


@pytest.fixture(scope="module")
def blobs(servers: Servers) -> Iterator[smithycurl.Client]:
    with smithycurl.load_model(BLOBS_MODEL).client(endpoint=servers.blobs, timeout=60) as c:
        yield c


class Unseekable(io.RawIOBase):
    """A readable that can be neither sized nor rewound (as a pipe or a
    socket), serving data in pieces of at most piece bytes."""

    def __init__(self, data: bytes, piece: int = 10_000) -> None:
        self.data, self.off, self.piece, self.reads = data, 0, piece, 0

    def readable(self) -> bool:
        return True

    def readinto(self, b: memoryview) -> int:  # type: ignore[override]
        self.reads += 1
        n = min(len(b), self.piece, len(self.data) - self.off)
        b[:n] = self.data[self.off:self.off + n]
        self.off += n
        return n


def test_upload_from_file_objects(blobs: smithycurl.Client, tmp_path: object) -> None:
    data = pattern(3_000_000)
    # A file on disk: sized by fstat from its position (Content-Length).
    with tempfile.TemporaryFile() as f:
        f.write(b"skip" + data)
        f.seek(4)
        out = blobs.put_blob(key="file", body=f)
        assert (out.size, out.intact, out.attempt) == (len(data), True, 1)
    # In memory, seekable: sized by seeking.
    assert blobs.put_blob(key="bytesio", body=io.BytesIO(data)).size == len(data)
    # Neither sized nor rewindable: chunked.
    src = Unseekable(data)
    out = blobs.put_blob({"key": "raw", "body": src})
    assert (out.size, out.intact) == (len(data), True) and src.reads > 2
    # Something with read() only.
    class ReadOnly:
        def __init__(self) -> None:
            self.f = io.BytesIO(data)

        def read(self, n: int = -1) -> bytes:
            return self.f.read(min(n, 5000))
    assert blobs.put_blob(key="read", body=ReadOnly()).intact
    # An iterable of chunks (a generator): chunked.
    chunks = (data[i:i + 70_000] for i in range(0, len(data), 70_000))
    out = blobs.put_blob(key="gen", body=chunks)
    assert (out.size, out.intact) == (len(data), True)
    # An input dataclass holding a file; bytes stay in the document.
    inp = blobs.types.PutBlobInput(key="dc", body=io.BytesIO(data[:1000]))
    assert blobs.put_blob(inp).size == 1000
    assert blobs.put_blob(key="bytes", body=data[:77]).size == 77
    # An empty body.
    assert blobs.put_blob(key="empty", body=io.BytesIO()).size == 0


def test_bad_sources(blobs: smithycurl.Client) -> None:
    with tempfile.TemporaryFile("w+") as text:
        with pytest.raises(smithycurl.InputTypeError, match="member body: a text file; open it in binary mode"):
            blobs.put_blob(key="t", body=text)
    import array  # another buffer: the document's blob check, not a chunk iterator
    with pytest.raises(smithycurl.InputTypeError, match="member body: expected bytes, bytearray, memoryview or str"):
        blobs.put_blob(key="a", body=array.array("B", b"xy"))
    with pytest.raises(TypeError, match="a chunk of the body is str, not bytes"):
        blobs.put_blob(key="s", body=iter(["text"]))
    with pytest.raises(smithycurl.UsageError, match="no streaming blob output payload"):
        blobs.put_blob.download(io.BytesIO(), key="x")
    with pytest.raises(TypeError, match="must have a write method"):
        blobs.get_blob.download(object(), size=1)  # type: ignore[arg-type]


def test_download_to_file_objects(blobs: smithycurl.Client) -> None:
    with tempfile.TemporaryFile() as f:
        out = blobs.get_blob.download(f, size=5_000_000)
        assert out.body is None and out.content_length == 5_000_000
        f.seek(0)
        assert f.read() == pattern(5_000_000)
    got: list[bytes] = []

    class Collect:
        def write(self, b: bytes) -> None:  # returns nothing: took it all
            got.append(bytes(b))
    blobs.get_blob.download(Collect(), {"size": 100_000})
    assert b"".join(got) == pattern(100_000) and len(got) > 1
    # A short-writing raw file gets the rest on the next write.
    class Short(io.RawIOBase):
        def __init__(self) -> None:
            self.buf = bytearray()

        def writable(self) -> bool:
            return True

        def write(self, b: object) -> int:  # type: ignore[override]
            piece = bytes(memoryview(b))[:1000]  # type: ignore[call-overload]
            self.buf += piece
            return len(piece)
    s = Short()
    blobs.get_blob.download(s, size=50_000)
    assert bytes(s.buf) == pattern(50_000)
    # Without download() the body is in the output, as any blob.
    assert blobs.get_blob(size=300).body == pattern(300)


def test_iterate_body_chunks(blobs: smithycurl.Client) -> None:
    body = blobs.get_blob.iter_body(size=3_000_000)
    assert body.output is None
    chunks = list(body)
    assert b"".join(chunks) == pattern(3_000_000) and len(chunks) > 10
    assert body.output.content_length == 3_000_000 and body.output.body is None
    assert list(body) == []
    assert blobs.get_blob.iter_body({"size": 10}).read_all() == pattern(10)
    # Closed early: the transfer of 1 GiB stops at once.
    import time
    with blobs.get_blob.iter_body(size=1 << 30) as big:
        first = next(big)
        assert first == pattern(len(first))
        start = time.monotonic()
    assert time.monotonic() - start < 2 and list(big) == []
    # Errors come from the iteration.
    with pytest.raises(smithycurl.ServiceError) as e:
        list(blobs.get_blob.iter_body(size=-1))
    assert e.value.status == 400
    with pytest.raises(smithycurl.UsageError, match="no streaming blob output payload"):
        blobs.put_blob.iter_body(key="x")
    # The client still works.
    assert blobs.get_blob(size=3).body == pattern(3)


def test_retry_only_when_rewindable(blobs: smithycurl.Client) -> None:
    data = pattern(600_000)
    # PutBlob is @idempotent: the two 503s are retried, the file rewound.
    with tempfile.TemporaryFile() as f:
        f.write(b"head" + data)
        f.seek(4)
        out = blobs.put_blob(key="retry-file", fail_first=2, body=f)
        assert (out.size, out.intact, out.attempt) == (len(data), True, 3)
    # The same with a body that cannot be rewound: one send, the 503.
    src = Unseekable(data)
    with pytest.raises(smithycurl.ServiceError) as e:
        blobs.put_blob(key="retry-raw", fail_first=1, body=src)
    assert e.value.status == 503 and e.value.attempts == 1
    assert blobs.put_blob(key="retry-raw", body=io.BytesIO(b"")).attempt == 2  # the server saw one send


def test_failing_reader_is_raised_not_retried(blobs: smithycurl.Client) -> None:
    class Failing(io.RawIOBase):
        """Fails after max bytes; seekable, so only the failure stops a retry."""

        def __init__(self, max: int) -> None:
            self.max, self.off, self.rewinds, self.reads = max, 0, 0, 0

        def readable(self) -> bool:
            return True

        def seekable(self) -> bool:
            return True

        def seek(self, off: int, whence: int = 0) -> int:
            if whence == 0 and self.reads:  # not the measuring seeks
                self.rewinds += 1
            self.off = off if whence == 0 else self.max * 2 if whence == 2 else self.off + off
            return self.off

        def tell(self) -> int:
            return self.off

        def readinto(self, b: memoryview) -> int:  # type: ignore[override]
            self.reads += 1
            if self.off >= self.max:
                raise OSError("the disk went away")
            n = min(len(b), self.max - self.off)
            b[:n] = pattern(self.off + n)[self.off:]
            self.off += n
            return n
    src = Failing(300_000)
    with pytest.raises(OSError, match="the disk went away"):
        blobs.put_blob(key="fail-half", body=src)
    assert src.rewinds == 0 and src.off == 300_000
    # Unseekable and failing, chunked: the same error, raised as it was.
    def gen() -> Iterator[bytes]:
        yield pattern(100_000)
        raise ValueError("generator broke")
    with pytest.raises(ValueError, match="generator broke"):
        blobs.put_blob(key="fail-gen", body=gen())
    # The server saw one send at most (a cut one it may not have seen).
    assert blobs.put_blob(key="fail-half", body=b"").attempt <= 2
    # The client still works.
    assert blobs.put_blob(key="after", body=io.BytesIO(b"\x00\x01")).intact


def test_failing_writer_is_raised(blobs: smithycurl.Client) -> None:
    class Full:
        def __init__(self) -> None:
            self.n = 0

        def write(self, b: bytes) -> int:
            self.n += len(b)
            if self.n > 100_000:
                raise OSError(28, "No space left on device")
            return len(b)
    w = Full()
    with pytest.raises(OSError, match="No space left"):
        blobs.get_blob.download(w, size=10_000_000)
    assert 100_000 < w.n < 10_000_000


CTRL_C = """
import sys, time
import smithycurl
c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])
class Slow:
    reads = 0
    def read(self, n):
        Slow.reads += 1
        if Slow.reads == 3:
            print("reading", flush=True)
        time.sleep(0.05)
        return bytes(1000)
t = time.monotonic()
try:
    c.put_blob(key="ctrl-c", body=Slow())
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    print("after:", c.put_blob(key="ctrl-c-after", body=iter([b"\\x00"])).intact, flush=True)
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_during_a_streamed_upload(servers: Servers) -> None:
    rc, out, err, took = interrupt_child(CTRL_C, servers.blobs, BLOBS_MODEL, ready="reading")
    assert rc == 42, (out, err)
    assert "KeyboardInterrupt" in out and "after: True" in out, out
    assert took < 2, f"exited {took:.2f}s after SIGINT"


# A child uploads size bytes from a file and downloads them to another,
# then prints its resident set before and its peak during the transfers
# (VmHWM after resetting it with /proc/self/clear_refs).
MEMORY = """
import os, sys, tempfile, time
import smithycurl
size = int(sys.argv[3])
c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1], timeout=120)
period = bytes(i % 251 for i in range(251 * 1024))
with tempfile.TemporaryFile() as up, tempfile.TemporaryFile() as down:
    reps, rest = divmod(size, len(period))
    for _ in range(reps):
        up.write(period)
    up.write(period[:rest])
    up.flush()
    def status(key):
        with open("/proc/self/status") as f:
            return next(int(l.split()[1]) for l in f if l.startswith(key + ":"))
    up.seek(0)
    c.put_blob(key="warm", body=up)  # warm up: the library's buffers
    c.get_blob.download(down, size=1 << 20)
    down.seek(0); down.truncate()
    up.seek(0)
    with open("/proc/self/clear_refs", "w") as f:
        f.write("5")
    rss0 = status("VmRSS")
    t = time.monotonic()
    out = c.put_blob(key="big", body=up)
    mid = time.monotonic()
    got = c.get_blob.download(down, size=size)
    end = time.monotonic()
    n = 0
    with c.get_blob.iter_body(size=size) as chunks:
        for chunk in chunks:
            n += len(chunk)
    assert n == size
    peak = status("VmHWM")
    assert out.size == size and out.intact, out
    assert got.content_length == size and down.tell() == size
    down.seek(size - 1000)
    assert down.read() == (period * 8)[(size - 1000) % 251:][:1000]
    print(rss0, peak, mid - t, end - mid)
"""


def test_large_transfer_memory_bounded(servers: Servers) -> None:
    size = 128 << 20
    p = run_python(MEMORY, servers.blobs, BLOBS_MODEL, str(size), timeout=240)
    assert p.returncode == 0, p.stderr
    rss0, peak, up_s, down_s = p.stdout.split()
    growth = (int(peak) - int(rss0)) << 10
    sys.stderr.write(f"128 MiB up in {float(up_s):.2f} s, down in {float(down_s):.2f} s; "
                     f"RSS {int(rss0) >> 10} MiB, peak +{growth / (1 << 20):.1f} MiB\n")
    # Holding either body would be +128 MiB.
    assert growth < 24 << 20, f"RSS grew by {growth >> 20} MiB during 128 MiB up and down"


GEN_PROGRAM = '''
import io
import sys
import tempfile

from blobs_api import BlobsClient, GetBlobOutput


def main(url: str) -> None:
    with BlobsClient(url, timeout=30) as client, tempfile.TemporaryFile() as f:
        f.write(bytes(i % 251 for i in range(100_000)))
        f.seek(0)
        up = client.put_blob(key="gen", body=f)
        chunks = client.put_blob(key="gen-chunks", body=iter([b"\\x00\\x01", b"\\x02"]))
        sink = io.BytesIO()
        down: GetBlobOutput = client.get_blob(size=70_000, download=sink)
        inline = client.get_blob(size=5)
        print(up.size, up.intact, chunks.size, chunks.intact, down.body, len(sink.getvalue()), inline.body)


if __name__ == "__main__":
    main(sys.argv[1])
'''


def test_generated_client_streams(servers: Servers, tmp_path: object, mypy_strict: list[str]) -> None:
    """python -m smithycurl gen: a streaming input member takes a
    smithycurl.BodySource, a streaming output gets download=; the program
    runs and passes mypy --strict."""
    import shutil
    import subprocess

    from conftest import PKG
    out = str(tmp_path)
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", BLOBS_MODEL, "-o", os.path.join(out, "blobs_api")],
                   check=True, env=env, capture_output=True)
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(GEN_PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([out, PKG]))
    r = subprocess.run([sys.executable, os.path.join(out, "program.py"), servers.blobs], capture_output=True,
                       text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["100000", "True", "3", "True", "None", "70000", repr(bytes(range(5)))]
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([out, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(out, "program.py"),
                        os.path.join(PKG, "smithycurl")], capture_output=True, text=True, env=env, cwd=out,
                       timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr


CTRL_C_CHUNKS = """
import sys, time
import smithycurl
c = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])
try:
    with c.get_blob.iter_body(size=1 << 34) as body:  # 16 GiB: never over in this test
        for i, chunk in enumerate(body):
            if i == 3:
                print("reading", flush=True)
            time.sleep(0.01)
except KeyboardInterrupt:
    print("KeyboardInterrupt", flush=True)
    print("after:", c.get_blob(size=3).body, flush=True)
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_while_iterating_a_body(servers: Servers) -> None:
    rc, out, err, took = interrupt_child(CTRL_C_CHUNKS, servers.blobs, BLOBS_MODEL, ready="reading")
    assert rc == 42, (out, err)
    assert "KeyboardInterrupt" in out and "after: b'\\x00\\x01\\x02'" in out, out
    assert took < 2, f"exited {took:.2f}s after SIGINT"
