"""S3 Express One Zone from Python: PutObject and GetObject on a directory
bucket (the real S3 model, whose endpoint rules choose sigv4-s3express)
against the fake endpoint of build/testserver, which accepts object calls
only when signed by a session CreateSession gave, its token in
x-amz-s3session-token (testing/servers/s3expressserver)."""

from __future__ import annotations

import pytest

import smithycurl
from conftest import Servers, shared_path

# testing/servers/s3expressserver's test credentials.
CREDENTIALS = {"access_key_id": "AKIDS3EXPRESSTEST", "secret_access_key": "s3express-test-secret-4f9a",
               "region": "us-west-2"}
BUCKET = "pybucket--usw2-az1--x-s3"


def test_s3express_put_get(servers: Servers) -> None:
    model = smithycurl.load_model(shared_path("models", "aws-large", "s3.json"))
    with model.client(endpoint=servers.s3express, aws_credentials=CREDENTIALS, region="us-west-2") as s3:
        s3.put_object(bucket=BUCKET, key="a/b.bin", body=b"\x00express\xff")
        assert s3.get_object(bucket=BUCKET, key="a/b.bin").body == b"\x00express\xff"
        # CreateSession's failure fails the call, with its error.
        with pytest.raises(smithycurl.ServiceError) as e:
            s3.get_object(bucket="denied--usw2-az1--x-s3", key="k")
        assert "AccessDenied" in str(e.value) and "CreateSession" in str(e.value)
