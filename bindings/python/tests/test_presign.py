"""Presigned URLs from Python: client.presign on the dynamic client and on a
generated one (python -m smithycurl gen), synchronous and asyncio, all giving the S3 documentation's
example URL; the generated module passes mypy --strict; the refusals.
(botocore's URLs: testing/botocore/diff_presign.py; s3rver and fauxqs
taking them from curl: test_aws.py.)"""

from __future__ import annotations

import asyncio
import datetime
import os
import subprocess
import sys

import pytest

import smithycurl
from conftest import PKG, mypy_or_skip

MODEL = """$version: "2"
namespace example.presign
@aws.protocols#restXml
@aws.auth#sigv4(name: "s3")
service Bucket { operations: [GetText, PutText] }
@readonly @http(method: "GET", uri: "/test.txt")
operation GetText { output := { } }
@idempotent @http(method: "PUT", uri: "/{name}")
operation PutText { input := { @required @httpLabel name: String, @httpHeader("Content-Type") contentType: String
    @httpPayload body: Blob } }
"""

CREDS = {"access_key_id": "AKIAIOSFODNN7EXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}
AT = datetime.datetime(2013, 5, 24, tzinfo=datetime.timezone.utc)
ENDPOINT = "https://examplebucket.s3.amazonaws.com"
WANT = ("https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256"
        "&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request"
        "&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host"
        "&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")

PROGRAM = """
import datetime
import sys

import smithycurl
from bucket_api import BucketAsyncClient, BucketClient

with BucketClient(sys.argv[1], region="us-east-1", aws_credentials={
        "access_key_id": "AKIAIOSFODNN7EXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"}) as c:
    p: smithycurl.PresignedRequest = c.presign.get_text(
        expires_in=86400, signing_time=datetime.datetime(2013, 5, 24, tzinfo=datetime.timezone.utc))
    print(p.url)
    put = c.presign.put_text(name="a b", content_type="text/plain", expires_in=60)
    print(put.method, put.headers)
# The asyncio client's presigners are the synchronous ones (no I/O).
ac = BucketAsyncClient(sys.argv[1], region="us-east-1", aws_credentials={
        "access_key_id": "AKIAIOSFODNN7EXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"})
q: smithycurl.PresignedRequest = ac.presign.get_text(
    expires_in=86400, signing_time=datetime.datetime(2013, 5, 24, tzinfo=datetime.timezone.utc))
print(q.url)
"""


@pytest.fixture(scope="module")
def model(tmp_path_factory: pytest.TempPathFactory) -> smithycurl.Model:
    return smithycurl.load_model(text=MODEL, name="bucket.smithy")


def test_dynamic_client_presigns(model: smithycurl.Model) -> None:
    with model.client(endpoint=ENDPOINT, region="us-east-1", aws_credentials=CREDS) as c:
        p = c.presign.get_text(expires_in=86400, signing_time=AT)
        assert (p.url, p.method, p.headers, p.expires) == (WANT, "GET", {}, AT + datetime.timedelta(days=1))
        assert c.presign["GetText"](None, expires_in=86400, signing_time=AT) == p
        put = c.presign.put_text(name="k", content_type="text/plain", body=b"ignored: the sender's")
        assert (put.method, put.headers) == ("PUT", {"Content-Type": "text/plain"})
        assert "X-Amz-Expires=3600&" in put.url and "X-Amz-SignedHeaders=content-type%3Bhost&" in put.url
        for bad in (0, 604801):
            with pytest.raises(smithycurl.UsageError, match="604800"):
                c.presign.get_text(expires_in=bad)
        with pytest.raises(TypeError):
            c.presign.get_text(expires_in=True)
        with pytest.raises(ValueError, match="timezone-aware"):
            c.presign.get_text(signing_time=datetime.datetime(2013, 5, 24))
        with pytest.raises(AttributeError):
            c.presign.nope  # noqa: B018


def test_async_client_presigns(model: smithycurl.Model) -> None:
    async def run() -> None:
        async with model.async_client(endpoint=ENDPOINT, region="us-east-1", aws_credentials=CREDS) as c:
            p = c.presign.get_text(expires_in=86400, signing_time=AT)
            assert (p.url, p.method, p.headers) == (WANT, "GET", {})
            assert c.presign["GetText"](None, expires_in=86400, signing_time=AT) == p

    asyncio.run(run())


def test_generated_client_presigns_and_passes_mypy(tmp_path: object, mypy_strict: list[str]) -> None:
    out = str(tmp_path)
    src = os.path.join(out, "bucket.smithy")
    with open(src, "w") as f:
        f.write(MODEL)
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", "--async", src, "-o", os.path.join(out, "bucket_api")], check=True,
                   env=env, capture_output=True, timeout=120)
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([out, PKG]))
    r = subprocess.run([sys.executable, os.path.join(out, "program.py"), ENDPOINT], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [WANT, "PUT {'Content-Type': 'text/plain'}", WANT]
    mypy = mypy_or_skip()
    r = subprocess.run([mypy, *mypy_strict, os.path.join(out, "program.py"), os.path.join(PKG, "smithycurl")],
                       capture_output=True, text=True, env=dict(os.environ, MYPYPATH=os.pathsep.join([out, PKG])), cwd=out,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr
