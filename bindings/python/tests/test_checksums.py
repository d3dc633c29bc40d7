"""Checksums as the AWS SDKs since 2025 (issue 26, item 5) through
libsmithycurl.so: S3's PutObject carries a CRC32 of its body by default and
not under request_checksum_calculation="when_required"; the caller's
checksum is sent as given; a GetObject response whose x-amz-checksum-crc32
does not match its body is a DecodeError by default, and under
response_checksum_validation="when_required" only when the input sets
ChecksumMode; the environment variables are read. On a server on
127.0.0.1; the values are compared with botocore's checksum classes when
botocore is installed."""

from __future__ import annotations

import base64
import io
import os
import subprocess
import sys
import zlib
from typing import Any

import pytest

import smithycurl
from conftest import REPO, CannedServer, shared_path

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "fake-secret", "region": "us-east-1"}
S3 = "com.amazonaws.s3#AmazonS3"


@pytest.fixture(scope="module")
def s3_model() -> smithycurl.Model:
    return smithycurl.load_model(shared_path("aws-models", "s3.json"))


def crc32(data: bytes) -> str:
    return base64.b64encode(zlib.crc32(data).to_bytes(4, "big")).decode()


def sent(canned: CannedServer) -> dict[str, str]:
    return {k.lower(): v for k, v in canned.requests[-1][2].items()}


def client(model: smithycurl.Model, canned: CannedServer, **kw: Any) -> Any:
    return model.client(S3, endpoint=canned.url, aws_credentials=CREDENTIALS, retries=False,
                        endpoint_params={"ForcePathStyle": True}, **kw)


def test_request_checksum(s3_model: smithycurl.Model, canned: CannedServer) -> None:
    body = b"hello, checksums"
    canned.respond(200, b"", ETag='"e"')
    with client(s3_model, canned) as s3:
        s3.put_object(bucket="b", key="k", body=body)
        h = sent(canned)
        assert h["x-amz-checksum-crc32"] == crc32(body) and h["x-amz-sdk-checksum-algorithm"] == "CRC32"
        # The caller's value is sent as given, with no second checksum.
        s3.put_object(bucket="b", key="k", body=body, checksum_crc32="AAAAAA==")
        h = sent(canned)
        assert h["x-amz-checksum-crc32"] == "AAAAAA==" and "x-amz-sdk-checksum-algorithm" not in h
        s3.put_object(bucket="b", key="k", body=body, content_md5="Y2FsbGVyJ3M=")
        h = sent(canned)
        assert h["content-md5"] == "Y2FsbGVyJ3M=" and "x-amz-checksum-crc32" not in h
    with client(s3_model, canned, request_checksum_calculation="when_required") as s3:
        s3.put_object(bucket="b", key="k", body=body)
        assert not [k for k in sent(canned) if k.startswith("x-amz-checksum-") or k == "x-amz-sdk-checksum-algorithm"]
        # An operation that requires a checksum gets a CRC32 all the same.
        canned.respond(200, b"")
        s3.put_object_tagging(bucket="b", key="k", tagging={"tag_set": [{"key": "a", "value": "b"}]})
        h = sent(canned)
        assert h["x-amz-checksum-crc32"] == crc32(canned.requests[-1][3]) and "content-md5" not in h
    with pytest.raises(smithycurl.UsageError, match="request_checksum_calculation.*when_supported"):
        client(s3_model, canned, request_checksum_calculation="sometimes")


def test_response_checksum(s3_model: smithycurl.Model, canned: CannedServer) -> None:
    body = b"the object"
    canned.respond(200, body, Content_Type="application/octet-stream", x_amz_checksum_crc32=crc32(b"another"))
    with client(s3_model, canned) as s3:
        with pytest.raises(smithycurl.DecodeError, match="response checksum mismatch: x-amz-checksum-crc32 is"):
            s3.get_object(bucket="b", key="k")
        assert sent(canned)["x-amz-checksum-mode"] == "ENABLED"
    with client(s3_model, canned, response_checksum_validation="when_required") as s3:
        assert s3.get_object(bucket="b", key="k").body == body
        assert "x-amz-checksum-mode" not in sent(canned)
        with pytest.raises(smithycurl.DecodeError):
            s3.get_object(bucket="b", key="k", checksum_mode="ENABLED")
    # A multipart object's composite checksum is not checked.
    canned.respond(200, body, Content_Type="application/octet-stream", x_amz_checksum_crc32=crc32(b"x") + "-3")
    with client(s3_model, canned) as s3:
        assert s3.get_object(bucket="b", key="k").body == body
    canned.respond(200, body, Content_Type="application/octet-stream", x_amz_checksum_crc32=crc32(body))
    with client(s3_model, canned) as s3:
        assert s3.get_object(bucket="b", key="k").body == body


def test_environment(canned: CannedServer) -> None:
    """AWS_REQUEST_CHECKSUM_CALCULATION and AWS_RESPONSE_CHECKSUM_VALIDATION,
    read by the library in a process started with them."""
    canned.respond(200, b"the object", Content_Type="application/octet-stream", x_amz_checksum_crc32=crc32(b"x"))
    script = (
        "import smithycurl, sys\n"
        "m = smithycurl.load_model(sys.argv[1])\n"
        "with m.client(sys.argv[2], endpoint=sys.argv[3], retries=False, endpoint_params={'ForcePathStyle': True},\n"
        "              aws_credentials={'access_key_id': 'AKID', 'secret_access_key': 's', 'region': 'us-east-1'}) as s3:\n"
        "    s3.put_object(bucket='b', key='k', body=b'x')\n"
        "    print(s3.get_object(bucket='b', key='k').body.decode())\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("AWS_PROFILE", "AWS_DEFAULT_PROFILE")}
    env = {**env, "AWS_REQUEST_CHECKSUM_CALCULATION": "WHEN_REQUIRED", "AWS_RESPONSE_CHECKSUM_VALIDATION": "when_required",
           "AWS_CONFIG_FILE": os.devnull, "PYTHONPATH": os.path.join(REPO, "bindings", "python")}
    r = subprocess.run([sys.executable, "-c", script, shared_path("aws-models", "s3.json"), S3, canned.url],
                       env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "the object\n"
    put = {k.lower() for k in canned.requests[0][2]}
    assert "x-amz-checksum-crc32" not in put and "x-amz-checksum-mode" not in {k.lower() for k in canned.requests[1][2]}


def test_values_match_botocore(s3_model: smithycurl.Model, canned: CannedServer) -> None:
    """The CRC32, SHA1 and SHA256 the library sends are botocore's (its
    checksum classes; CRC32C and CRC64NVME need awscrt there)."""
    httpchecksum = pytest.importorskip("botocore.httpchecksum")
    body = bytes(range(256)) * 40
    canned.respond(200, b"")
    with client(s3_model, canned) as s3:
        for alg, cls in (("CRC32", "Crc32Checksum"), ("SHA1", "Sha1Checksum"), ("SHA256", "Sha256Checksum")):
            s3.put_object(bucket="b", key="k", body=body, checksum_algorithm=alg)
            want = getattr(httpchecksum, cls)().handle(body)
            assert sent(canned)["x-amz-checksum-" + alg.lower()] == want


def test_trailer_matches_botocore(s3_model: smithycurl.Model, canned: CannedServer) -> None:
    """A body that cannot be rewound (a generator) with a chosen algorithm:
    the aws-chunked body and its trailer are byte for byte botocore's
    AwsChunkedWrapper with the library's 64 KiB chunks; without a chosen
    algorithm over http it carries no checksum (the default CRC32 goes in a
    trailer over https only, as botocore)."""
    httpchecksum = pytest.importorskip("botocore.httpchecksum")
    data = bytes(range(256)) * 1000  # 256,000 bytes: 3 full chunks and a part
    canned.respond(200, b"", ETag='"e"')
    def pieces() -> Any:
        return (data[i:i + 70_000] for i in range(0, len(data), 70_000))
    with client(s3_model, canned) as s3:
        s3.put_object(bucket="b", key="k", checksum_algorithm="CRC32", body=pieces())
        h, body = sent(canned), canned.requests[-1][3]
        want = httpchecksum.AwsChunkedWrapper(io.BytesIO(data), checksum_cls=httpchecksum.Crc32Checksum,
                                              checksum_name="x-amz-checksum-crc32", chunk_size=64 << 10).read()
        assert body == want
        assert (h["content-encoding"], h["x-amz-trailer"]) == ("aws-chunked", "x-amz-checksum-crc32")
        assert h["x-amz-content-sha256"] == "STREAMING-UNSIGNED-PAYLOAD-TRAILER" and h["x-amz-sdk-checksum-algorithm"] == "CRC32"
        s3.put_object(bucket="b", key="k", body=pieces())
        h, body = sent(canned), canned.requests[-1][3]
        assert body == data and "x-amz-trailer" not in h and "x-amz-sdk-checksum-algorithm" not in h
