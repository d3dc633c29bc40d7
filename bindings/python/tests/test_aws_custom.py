"""The AWS customizations (client/awscustom) reach the Python package
through libsmithycurl.so: Glacier's version header, default account and
checksums, and SQS's message MD5 check, on a server on 127.0.0.1."""

from __future__ import annotations

import hashlib

import pytest

import smithycurl
from conftest import CannedServer, shared_path

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
