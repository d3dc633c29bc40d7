"""S3 transfers: ``client.s3.upload_file(path, bucket, key)``,
``upload_fileobj``, ``download_file(bucket, key, path)`` and
``download_fileobj``, as boto3's: parts sent in parallel (multipart upload,
ranged GETs) through the library's transfer manager (smithycurl_s3_upload_file,
_download_file, _upload, _download of the C API; client/s3transfer in Go);
``client.s3`` of the asyncio client is aio's AsyncTransfers."""

from __future__ import annotations

import ctypes
import dataclasses
import os

from . import _body, _interrupt, _lib, _result, errors
from ._json import loads

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable, Optional, Protocol, Union

    from ._info import ServiceInfo
    from ._operation import Operation

    StrPath = Union[str, "os.PathLike[str]"]
    Progress = Callable[[int, int], object]

    class TransferClient(Protocol):
        """What ``client.s3`` uses of its client (a Client of S3)."""

        service: ServiceInfo
        _lib: _lib.Library
        _handle: Optional[int]

        def _operation(self, name: str) -> Operation: ...


@dataclasses.dataclass(frozen=True)
class UploadResult:
    """What upload_file made: ``upload_id`` is "" and ``parts`` 0 when the
    file went up in one PutObject; ``checksum_crc32`` is S3's (of the
    parts' checksums, "…-N", after a multipart upload)."""

    size: int
    etag: str
    upload_id: str
    parts: int
    checksum_crc32: str


@dataclasses.dataclass(frozen=True)
class DownloadResult:
    """What download_file wrote: ``checked`` names the full-object
    checksum the bytes were verified against ("" for none)."""

    size: int
    etag: str
    checked: str


class _Progress(_body._Transfer):
    """A progress callable as a smithycurl_progress_fn: an exception it
    raises (KeyboardInterrupt too) cancels the transfer and is raised
    once the transfer stopped."""

    def __init__(self, fn: Progress) -> None:
        super().__init__()
        self.fn = fn

    def __call__(self, _user: Any, done: int, total: int) -> int:
        if self.error is not None:
            return 1
        try:
            self.fn(done, total)
            return 0
        except BaseException as e:  # never into C
            self.fail(e)
            return 1


def _options(part_size: int, threshold: int, concurrency: int,
             progress: Optional[Progress]) -> tuple[_lib.TransferOptions, Optional[_Progress]]:
    for name, v in (("part_size", part_size), ("threshold", threshold), ("concurrency", concurrency)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"{name} must be 0 (the default) or more, not {v}")
    opts = _lib.TransferOptions(ctypes.sizeof(_lib.TransferOptions), part_size, threshold, concurrency)
    if progress is None:
        return opts, None
    if not callable(progress):
        raise TypeError(f"progress must be callable, not {type(progress).__name__}")
    p = _Progress(progress)
    opts.progress = _lib.PROGRESS_FN(p)
    return opts, p


def _transfer(client: TransferClient, up: bool, bucket: str, key: str, target: Union[StrPath, _body.Source, _body.Sink],
              opts: _lib.TransferOptions, progress: Optional[_Progress], token: Optional[int]) -> Any:
    """One transfer: of the file at target's path, or from a Source, or
    into a Sink; interruptible by Ctrl-C, which aborts it; the first
    exception of a callback is raised once it stopped."""
    h = client._handle
    if h is None:
        raise errors.UsageError(f"the client of {client.service.id} is closed")
    lib = client._lib
    r = ctypes.c_void_p()
    b, k = bucket.encode(), key.encode()
    keep: list[Any] = [opts]  # the ctypes callbacks live until the call returns
    if isinstance(target, _body.Source):
        read = _lib.READ_FN(target.read)
        keep.append(read)
        rc = _interrupt.run(lib, r, lib.s3_upload, h, b, k, read, None, target.size, ctypes.byref(opts), token=token)
    elif isinstance(target, _body.Sink):
        write = _lib.WRITE_FN(target.write)
        keep.append(write)
        rc = _interrupt.run(lib, r, lib.s3_download, h, b, k, write, None, ctypes.byref(opts), token=token)
    else:
        fn = lib.s3_upload_file if up else lib.s3_download_file
        rc = _interrupt.run(lib, r, fn, h, b, k, os.fsencode(target), ctypes.byref(opts), token=token)
    err: Optional[BaseException] = None
    for cb in (target, progress):
        if isinstance(cb, _body._Transfer) and cb.error is not None and err is None:
            err = cb.error
    if err is not None:
        if isinstance(err, KeyboardInterrupt):
            _interrupt.drain()
        if r.value:
            lib.result_free(r)
        raise err
    del keep
    if rc != _lib.OK:
        raise _result.failure(lib, rc, r, client._operation("PutObject" if up else "GetObject"))
    return loads(_result.output(lib, r))


def _uploaded(out: Any) -> UploadResult:
    return UploadResult(size=out["Size"], etag=out["ETag"], upload_id=out["UploadID"], parts=out["Parts"],
                        checksum_crc32=out["ChecksumCRC32"])


def _downloaded(out: Any) -> DownloadResult:
    return DownloadResult(size=out["Size"], etag=out["ETag"], checked=out["Checked"])


class Transfers:
    """``client.s3``: objects to and from S3 in parts sent in parallel,
    from and into files or file objects. ``part_size``: bytes of each part
    or range (0: 8 MiB; S3 refuses parts under 5 MiB but the last);
    ``threshold``: an upload of fewer bytes is one PutObject (0: 8 MiB);
    ``concurrency``: parts in flight (0: 10); ``progress``: called with
    the bytes done and the size (-1 when unknown) after each part, on the
    calling thread; an exception it raises cancels the transfer and is
    raised once the transfer stopped. A failed or cancelled multipart upload
    (an exception in a callback, Ctrl-C) is aborted: no parts are left
    behind. Failures raise as calls do (a file that cannot be read or
    written: UsageError naming it; a cancel: KeyboardInterrupt or the
    callback's exception)."""

    def __init__(self, client: TransferClient) -> None:
        self._client = client

    def upload_file(self, path: StrPath, bucket: str, key: str, *, part_size: int = 0, threshold: int = 0,
                    concurrency: int = 0, progress: Optional[Progress] = None) -> UploadResult:
        """Uploads the file at path to bucket/key (boto3's upload_file),
        its parts read at their offsets in parallel."""
        return self._upload(path, bucket, key, part_size, threshold, concurrency, progress, None)

    def upload_fileobj(self, fileobj: Any, bucket: str, key: str, *, part_size: int = 0, threshold: int = 0,
                       concurrency: int = 0, progress: Optional[Progress] = None) -> UploadResult:
        """Uploads what fileobj (a binary file object, or an iterable of
        bytes chunks) holds from its position to its end, read in order on
        the calling thread (boto3's upload_fileobj)."""
        return self._upload(_body.Source(fileobj, "fileobj"), bucket, key, part_size, threshold, concurrency,
                            progress, None)

    def download_file(self, bucket: str, key: str, path: StrPath, *, part_size: int = 0, concurrency: int = 0,
                      progress: Optional[Progress] = None) -> DownloadResult:
        """Downloads bucket/key into the file at path (boto3's
        download_file); path is replaced only once the object is complete."""
        return self._download(bucket, key, path, part_size, concurrency, progress, None)

    def download_fileobj(self, bucket: str, key: str, fileobj: Any, *, part_size: int = 0, concurrency: int = 0,
                         progress: Optional[Progress] = None) -> DownloadResult:
        """Writes bucket/key to fileobj (a binary file object) in order
        (boto3's download_fileobj); ranges held until the ones before them
        were written. On a failure fileobj may hold the object's first bytes."""
        return self._download(bucket, key, _body.Sink(fileobj), part_size, concurrency, progress, None)

    def _upload(self, target: Union[StrPath, _body.Source], bucket: str, key: str, part_size: int, threshold: int,
                concurrency: int, progress: Optional[Progress], token: Optional[int]) -> UploadResult:
        opts, p = _options(part_size, threshold, concurrency, progress)
        return _uploaded(_transfer(self._client, True, bucket, key, target, opts, p, token))

    def _download(self, bucket: str, key: str, target: Union[StrPath, _body.Sink], part_size: int, concurrency: int,
                  progress: Optional[Progress], token: Optional[int]) -> DownloadResult:
        opts, p = _options(part_size, 0, concurrency, progress)
        return _downloaded(_transfer(self._client, False, bucket, key, target, opts, p, token))

