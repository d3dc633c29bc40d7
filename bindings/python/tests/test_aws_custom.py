"""The AWS customizations (client/awscustom) reach the Python package
through libsmithycurl.so: Glacier's version header, default account and
checksums, SQS's message MD5 check, and RDS's SourceRegion, on a server on
127.0.0.1."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import os
import subprocess
import sys
import urllib.parse

import pytest

import smithycurl
import smithycurl.types
from conftest import BUILD, PKG, CannedServer, shared_path

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "fake-secret", "region": "us-east-1"}


def test_glacier_upload(canned: CannedServer) -> None:
    model = smithycurl.load_model(shared_path("aws-models", "glacier.json"))
    canned.respond(201, b"", x_amz_archive_id="a1", Location="/-/vaults/v/archives/a1")
    with model.client(endpoint=canned.url, aws_credentials=CREDENTIALS, retries=False) as glacier:
        out = glacier.call("UploadArchive", {"vaultName": "v", "body": b"hello"})
    assert out.archive_id == "a1"
    method, path, raw_headers, body = canned.requests[-1]
    headers = {k.lower(): v for k, v in raw_headers.items()}
    sha = hashlib.sha256(b"hello").hexdigest()  # one chunk: the tree hash is the SHA-256
    assert (method, path, body) == ("POST", "/-/vaults/v/archives", b"hello")
    assert headers["x-amz-glacier-version"] == "2012-06-01"
    assert headers["x-amz-sha256-tree-hash"] == sha and headers["x-amz-content-sha256"] == sha


def test_sqs_md5_mismatch(canned: CannedServer) -> None:
    model = smithycurl.load_model(shared_path("aws-models", "sqs.json"))
    wrong = hashlib.md5(b"other").hexdigest()
    canned.respond(200, b'{"MessageId": "m1", "MD5OfMessageBody": "' + wrong.encode() + b'"}')
    with model.client(endpoint=canned.url, aws_credentials=CREDENTIALS) as sqs:
        with pytest.raises(smithycurl.SmithycurlError) as e:
            sqs.call("SendMessage", {"QueueUrl": canned.url + "/1/q", "MessageBody": "hello"})
    assert "message m1: MD5OfMessageBody is " + wrong in str(e.value)
    assert len(canned.requests) == 1  # never sent again: the message was sent


# RDS's cross-region copy: SourceRegion is in no model; the Go client's
# customization (client/awscustom) takes it and sends a PreSignedUrl in its
# place. describe's extra_input tells the Python package which operations
# take it.
RDS_ERROR = b"<ErrorResponse><Error><Type>Sender</Type><Code>Captured</Code></Error></ErrorResponse>"
RDS_INPUT = {"SourceDBSnapshotIdentifier": "arn:aws:rds:us-west-2:123456789012:snapshot:s1",
             "TargetDBSnapshotIdentifier": "copy-1", "KmsKeyId": "alias/k"}


def _presigned_url(body: bytes) -> str:
    form = urllib.parse.parse_qs(body.decode())
    assert "SourceRegion" not in form
    return form["PreSignedUrl"][0]


def _amz_date(url: str) -> str:
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query)["X-Amz-Date"][0]


def test_rds_source_region_as_the_cli(canned: CannedServer) -> None:
    """The PreSignedUrl the package sends for source_region= (and for
    SourceRegion in a dict input) is the CLI's to the byte: both presign on
    the clock of the call, so each round runs the CLI then the package and
    compares when both signed in the same second (at most 5 rounds)."""
    path = shared_path("aws-models", "rds.json")
    model = smithycurl.load_model(path)
    canned.respond(400, RDS_ERROR, Content_Type="text/xml")
    keys = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "fake-secret"}
    cli = [os.path.join(BUILD, "smithycurl"), "call", "--model", path, "--endpoint", canned.url, "--region", "us-east-1",
           "--retries", "0", "--aws-access-key-id", keys["access_key_id"], "--aws-secret-access-key",
           keys["secret_access_key"], "CopyDBSnapshot", "--input", json.dumps({**RDS_INPUT, "SourceRegion": "us-west-2"})]
    env = dict(os.environ, AWS_CONFIG_FILE="/dev/null", AWS_SHARED_CREDENTIALS_FILE="/dev/null")
    compared = False
    with model.client(endpoint=canned.url, region="us-east-1", aws_credentials=keys, retries=False) as rds:
        snake = {smithycurl.types.snake_case(k): v for k, v in RDS_INPUT.items()}
        for _ in range(5):
            r = subprocess.run(cli, capture_output=True, text=True, env=env, timeout=120)
            assert r.returncode == 1, r.stderr  # the canned error
            want = _presigned_url(canned.requests[-1][3])
            got = []
            for call in (lambda: rds.copy_db_snapshot(**snake, source_region="us-west-2"),
                         lambda: rds.call("CopyDBSnapshot", {**RDS_INPUT, "SourceRegion": "us-west-2"})):
                with pytest.raises(smithycurl.ServiceError):
                    call()
                got.append(_presigned_url(canned.requests[-1][3]))
            if all(_amz_date(u) == _amz_date(want) for u in got):
                assert got == [want, want]
                compared = True
                break
        assert compared, "the CLI and the package never signed in the same second"
        assert "DestinationRegion=us-east-1&" in want and "%2Fus-west-2%2Frds%2Faws4_request&" in want
        # A PreSignedUrl given is kept; a source region must be a string.
        with pytest.raises(smithycurl.ServiceError):
            rds.copy_db_snapshot(**snake, source_region="us-west-2", pre_signed_url="https://given")
        assert _presigned_url(canned.requests[-1][3]) == "https://given"
        with pytest.raises(smithycurl.UsageError, match="member SourceRegion: expected a string"):
            rds.copy_db_snapshot(**snake, source_region=5)
        # Only the operations of the customization take it.
        with pytest.raises(TypeError, match="source_region"):
            rds.describe_db_instances(source_region="us-west-2")


# The RDS service's id and one operation of the customization, small enough
# to generate a client of in a moment.
RDS_MODEL = """$version: "2"
namespace com.amazonaws.rds
@aws.protocols#awsQuery
@aws.auth#sigv4(name: "rds")
@xmlNamespace(uri: "http://rds.amazonaws.com/doc/2014-10-31/")
service AmazonRDSv19 { version: "2014-10-31", operations: [CopyDBSnapshot, DescribeDBInstances] }
operation CopyDBSnapshot {
    input := { @required SourceDBSnapshotIdentifier: String, @required TargetDBSnapshotIdentifier: String
        KmsKeyId: String, PreSignedUrl: String }
}
operation DescribeDBInstances { input := { DBInstanceIdentifier: String } }
"""


def test_rds_source_region_generated(canned: CannedServer, tmp_path: object) -> None:
    """A generated client's method of an operation that takes SourceRegion
    has source_region, and sends what the dynamic client sends (compared
    when both signed in the same second, at most 5 rounds); the others have
    none."""
    out = str(tmp_path)
    src = os.path.join(out, "rds.smithy")
    with open(src, "w") as f:
        f.write(RDS_MODEL)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", src, "-o", os.path.join(out, "rds_source_region_api")],
                   check=True, env=dict(os.environ, PYTHONPATH=PKG), capture_output=True, timeout=120)
    sys.path.insert(0, out)
    try:
        api = importlib.import_module("rds_source_region_api")
    finally:
        sys.path.remove(out)
    assert "source_region" in inspect.signature(api.AmazonRDSv19Client.copy_db_snapshot).parameters
    assert "source_region" not in inspect.signature(api.AmazonRDSv19Client.describe_db_instances).parameters
    canned.respond(400, RDS_ERROR, Content_Type="text/xml")
    keys = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "fake-secret"}
    snake = {smithycurl.types.snake_case(k): v for k, v in RDS_INPUT.items()}
    with api.AmazonRDSv19Client(canned.url, region="us-east-1", aws_credentials=keys, retries=False) as rds:
        for _ in range(5):
            urls = []
            for call in (lambda: rds.copy_db_snapshot(**snake, source_region="us-west-2"),
                         lambda: rds.client.call("CopyDBSnapshot", {**RDS_INPUT, "SourceRegion": "us-west-2"})):
                with pytest.raises(smithycurl.ServiceError):
                    call()
                urls.append(_presigned_url(canned.requests[-1][3]))
            if _amz_date(urls[0]) == _amz_date(urls[1]):
                break
        assert urls[0] == urls[1] and "DestinationRegion=us-east-1&" in urls[0]
