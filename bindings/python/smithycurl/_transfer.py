"""S3 transfers: ``client.s3.upload_file(path, bucket, key)`` and
``client.s3.download_file(bucket, key, path)``, as boto3's: a file sent in
parts in parallel (multipart upload, ranged GETs) through the library's
transfer manager (smithycurl_s3_upload_file / _download_file of the C API,
client/s3transfer in Go)."""

from __future__ import annotations

import ctypes
import dataclasses
import os

from . import _lib, _result, errors
from ._json import loads

# typing is for the type checker only: importing it costs every process a few ms.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Optional, Protocol, Union

    from ._info import ServiceInfo
    from ._operation import Operation

    StrPath = Union[str, "os.PathLike[str]"]

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


def _sizes(part_size: int, threshold: int, concurrency: int) -> _lib.TransferOptions:
    for name, v in (("part_size", part_size), ("threshold", threshold), ("concurrency", concurrency)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise TypeError(f"{name} must be an int, not {type(v).__name__}")
        if v < 0:
            raise ValueError(f"{name} must be 0 (the default) or more, not {v}")
    return _lib.TransferOptions(ctypes.sizeof(_lib.TransferOptions), part_size, threshold, concurrency)


def _transfer(client: TransferClient, up: bool, bucket: str, key: str, path: StrPath,
              opts: _lib.TransferOptions) -> Any:
    h = client._handle
    if h is None:
        raise errors.UsageError(f"the client of {client.service.id} is closed")
    lib = client._lib
    r = ctypes.c_void_p()
    fn = lib.s3_upload_file if up else lib.s3_download_file
    rc = fn(h, bucket.encode(), key.encode(), os.fsencode(path), ctypes.byref(opts), None, ctypes.byref(r))
    if rc != _lib.OK:
        raise _result.failure(lib, rc, r, client._operation("PutObject" if up else "GetObject"))
    return loads(_result.output(lib, r).decode())


class Transfers:
    """``client.s3``: files to and from S3 in parts sent in parallel.
    ``part_size``: bytes of each part or range (0: 8 MiB; S3 refuses parts
    under 5 MiB but the last); ``threshold``: an upload of fewer bytes is
    one PutObject (0: 8 MiB); ``concurrency``: parts in flight (0: 10).
    Failures raise as calls do (a file that cannot be read or written:
    UsageError naming it)."""

    def __init__(self, client: TransferClient) -> None:
        self._client = client

    def upload_file(self, path: StrPath, bucket: str, key: str, *, part_size: int = 0, threshold: int = 0,
                    concurrency: int = 0) -> UploadResult:
        """Uploads the file at path to bucket/key (boto3's upload_file); a
        failed multipart upload is aborted."""
        out = _transfer(self._client, True, bucket, key, path, _sizes(part_size, threshold, concurrency))
        return UploadResult(size=out["Size"], etag=out["ETag"], upload_id=out["UploadID"], parts=out["Parts"],
                            checksum_crc32=out["ChecksumCRC32"])

    def download_file(self, bucket: str, key: str, path: StrPath, *, part_size: int = 0,
                      concurrency: int = 0) -> DownloadResult:
        """Downloads bucket/key into the file at path (boto3's
        download_file); path is replaced only once the object is complete."""
        out = _transfer(self._client, False, bucket, key, path, _sizes(part_size, 0, concurrency))
        return DownloadResult(size=out["Size"], etag=out["ETag"], checked=out["Checked"])
