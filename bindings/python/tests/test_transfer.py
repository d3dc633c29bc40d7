"""client.s3 transfers (synchronous and asyncio) against the fake S3 of
build/testserver (testing/servers/s3partserver, the real S3 model), whose
failures are named in the key: file objects and chunk iterables up and
down, progress on the calling thread, a part retried, and every way a
multipart upload stops in the middle (an exception in progress, Ctrl-C, a
cancelled task, an error on CompleteMultipartUpload) leaving no upload
behind (ListMultipartUploads)."""

from __future__ import annotations

import asyncio
import io
import os
import signal
import threading
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import Servers, shared_path

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "secret", "region": "us-east-1"}
PART = 64 << 10  # the fake has no 5 MiB minimum
DATA = os.urandom(3 * PART + 1)
SIZES = {"part_size": PART, "threshold": PART, "concurrency": 2}
RANGES = {"part_size": PART, "concurrency": 2}


@pytest.fixture(scope="module")
def s3_model() -> smithycurl.Model:
    return smithycurl.load_model(shared_path("models", "aws-large", "s3.json"))


@pytest.fixture
def s3(s3_model: smithycurl.Model, servers: Servers) -> Iterator[Any]:
    with s3_model.client(endpoint=servers.s3part, aws_credentials=CREDENTIALS) as c:
        yield c


def uploads_left(s3: Any) -> list[Any]:
    return list(s3.list_multipart_uploads(bucket="b").uploads or [])


class Recorder:
    """A progress callable that records its calls and their threads."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int]] = []
        self.threads: set[int] = set()

    def __call__(self, done: int, total: int) -> None:
        self.calls.append((done, total))
        self.threads.add(threading.get_ident())


def test_fileobj_round_trip(s3: Any) -> None:
    """upload_fileobj from a seekable file (its size known) and from chunks
    (unknown), download_fileobj into a file object in order; progress on
    the calling thread, to the size."""
    rec = Recorder()
    up = s3.s3.upload_fileobj(io.BytesIO(DATA), "b", "obj", progress=rec, **SIZES)
    assert (up.size, up.parts) == (len(DATA), 4), up
    assert rec.calls[-1] == (len(DATA), len(DATA)) and rec.threads == {threading.get_ident()}
    rec2 = Recorder()
    chunks = iter([DATA[i:i + 10_000] for i in range(0, len(DATA), 10_000)])
    up = s3.s3.upload_fileobj(chunks, "b", "chunks", progress=rec2, **SIZES)
    assert up.parts == 4 and rec2.calls[-1] == (len(DATA), -1)
    for key in ("obj", "chunks"):
        got = io.BytesIO()
        rec3 = Recorder()
        down = s3.s3.download_fileobj("b", key, got, progress=rec3, **RANGES)
        assert got.getvalue() == DATA and down.size == len(DATA)
        assert rec3.calls[-1] == (len(DATA), len(DATA)) and rec3.threads == {threading.get_ident()}


def test_part_retried(s3: Any) -> None:
    """Part 2 fails once (500): the client sends it again."""
    up = s3.s3.upload_fileobj(io.BytesIO(DATA), "b", "fail-part-2", **SIZES)
    assert up.parts == 4


def test_progress_exception_aborts(s3: Any) -> None:
    """An exception in progress cancels the upload, which is aborted, and
    is raised."""

    def stop(done: int, total: int) -> None:
        raise ValueError(f"stop at {done}")

    with pytest.raises(ValueError, match="stop at"):
        s3.s3.upload_fileobj(io.BytesIO(DATA), "b", "hang-part-3", progress=stop, **SIZES)
    assert uploads_left(s3) == []


def test_ctrl_c_aborts(s3: Any) -> None:
    """SIGINT during a multipart upload (part 3 hangs): KeyboardInterrupt,
    the upload aborted. Python's own SIGINT handler, as in a terminal: a
    test run started as a background job inherits SIGINT ignored."""
    old = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        ctrl_c_aborts(s3)
    finally:
        signal.signal(signal.SIGINT, old)


def ctrl_c_aborts(s3: Any) -> None:
    calls = []

    def interrupt(done: int, total: int) -> None:
        calls.append(done)
        if len(calls) == 1:
            os.kill(os.getpid(), signal.SIGINT)

    with pytest.raises(KeyboardInterrupt):
        s3.s3.upload_fileobj(io.BytesIO(DATA), "b", "hang-part-3", progress=interrupt, **SIZES)
    assert uploads_left(s3) == []


def test_complete_error_aborts(s3: Any, tmp_path: Any) -> None:
    """A server error on CompleteMultipartUpload: ServiceError saying the
    upload was aborted."""
    src = tmp_path / "src.bin"
    src.write_bytes(DATA)
    with pytest.raises(smithycurl.ServiceError, match="aborted"):
        s3.s3.upload_file(src, "b", "fail-complete", **SIZES)
    assert uploads_left(s3) == []


def test_asyncio_transfers(s3_model: smithycurl.Model, servers: Servers, tmp_path: Any) -> None:
    """client.s3 of the asyncio client: a file up and back with progress on
    the loop's thread; a task cancelled mid-upload raises CancelledError
    once the upload was aborted."""
    src, dst = tmp_path / "src.bin", tmp_path / "dst.bin"
    src.write_bytes(DATA)

    async def main() -> None:
        async with s3_model.async_client(endpoint=servers.s3part, aws_credentials=CREDENTIALS) as s3:
            rec = Recorder()
            up = await s3.s3.upload_file(src, "b", "async", progress=rec, **SIZES)
            down = await s3.s3.download_file("b", "async", dst, progress=rec, **RANGES)
            assert up.parts == 4 and down.size == len(DATA) and dst.read_bytes() == DATA
            await asyncio.sleep(0)  # the last progress calls, handed to the loop
            assert rec.threads == {threading.get_ident()} and rec.calls[-1] == (len(DATA), len(DATA))

            first = asyncio.Event()
            task = asyncio.create_task(s3.s3.upload_file(src, "b", "hang-part-3", progress=lambda d, t: first.set(),
                                                         **SIZES))
            await asyncio.wait_for(first.wait(), 20)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            assert (await s3.list_multipart_uploads(bucket="b")).uploads in (None, [])

    asyncio.run(main())
