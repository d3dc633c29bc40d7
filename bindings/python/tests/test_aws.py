"""DynamoDB, Kinesis, SNS, SQS and S3 through the Python package, against the
npm emulators dynalite, kinesalite, fauxqs and s3rver on 127.0.0.1
(scripts/emulators.sh)."""

from __future__ import annotations

import os
import subprocess
import time
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import REPO, shared_path

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
               "region": "us-east-1"}


@pytest.fixture(scope="session")
def emulators() -> Iterator[dict[str, str]]:
    names = ("SMITHYCURL_DYNALITE_URL", "SMITHYCURL_KINESALITE_URL", "SMITHYCURL_FAUXQS_URL", "SMITHYCURL_S3RVER_URL")
    urls = {k: os.environ[k] for k in names if k in os.environ}
    if len(urls) == len(names):
        yield urls
        return
    script = os.path.join(REPO, "scripts", "emulators.sh")
    try:
        out = subprocess.run([script, "start"], check=True, capture_output=True, text=True, timeout=300).stdout
    except (OSError, subprocess.SubprocessError) as e:
        pytest.fail(f"the AWS emulators did not start: {e}")
    for line in out.splitlines():  # export NAME=VALUE
        key, _, value = line.removeprefix("export ").partition("=")
        urls[key] = value.strip("'\"")
    try:
        yield urls
    finally:
        subprocess.run([script, "stop"], check=False, capture_output=True, timeout=60)


def aws_model(name: str) -> smithycurl.Model:
    return smithycurl.load_model(shared_path("models", "aws", name))


def test_dynamodb_flow(emulators: dict[str, str]) -> None:
    model = aws_model("dynamodb.json")
    with model.client(endpoint=emulators["SMITHYCURL_DYNALITE_URL"], aws_credentials=CREDENTIALS) as db:
        db.create_table(table_name="py-flow", billing_mode="PAY_PER_REQUEST",
                        attribute_definitions=[{"AttributeName": "pk", "AttributeType": "S"},
                                               {"AttributeName": "sk", "AttributeType": "N"}],
                        key_schema=[{"AttributeName": "pk", "KeyType": "HASH"},
                                    {"AttributeName": "sk", "KeyType": "RANGE"}])
        db.wait.table_exists(table_name="py-flow", max_wait=60)  # dynalite makes it ACTIVE on a timer
        for i in range(3):
            db.put_item(table_name="py-flow", item={"pk": {"S": "user#1"}, "sk": {"N": str(i)}, "v": {"S": f"v{i}"}})
        got = db.get_item(table_name="py-flow", key={"pk": {"S": "user#1"}, "sk": {"N": "1"}})
        assert got.item is not None and got.item["v"].value == "v1"
        page = db.query(table_name="py-flow", key_condition_expression="pk = :pk AND sk >= :min",
                        expression_attribute_values={":pk": {"S": "user#1"}, ":min": {"N": "1"}})
        assert page.count == 2
        updated = db.update_item(table_name="py-flow", key={"pk": {"S": "user#1"}, "sk": {"N": "2"}},
                                 update_expression="SET v = :v", expression_attribute_values={":v": {"S": "new"}},
                                 return_values="UPDATED_NEW")
        assert updated.attributes is not None and updated.attributes["v"].value == "new"
        with pytest.raises(smithycurl.ServiceError) as info:
            db.put_item(table_name="py-flow", item={"pk": {"S": "user#1"}, "sk": {"N": "0"}},
                        condition_expression="attribute_not_exists(pk)")
        err = info.value
        assert type(err).__name__ == "ConditionalCheckFailedException"
        assert err.status == 400
        assert err.code == "ConditionalCheckFailedException" and err.rc == 10  # as boto3 users expect
        # A recursive union decodes as itself at every depth (DynamoDB's M and L).
        nested = {"pk": {"S": "user#2"}, "sk": {"N": "0"},
                  "m": {"M": {"n": {"NULL": True}, "l": {"L": [{"BOOL": False}, {"M": {"s": {"S": "x"}}}]}}}}
        db.put_item(table_name="py-flow", item=nested)
        got = db.get_item(table_name="py-flow", key={"pk": {"S": "user#2"}, "sk": {"N": "0"}})
        assert got.item is not None
        inner = got.item["m"].value
        assert type(inner["n"]).__name__ == "AttributeValueNULL" and inner["n"].value is True, inner
        deep = inner["l"].value
        assert type(deep[0]).__name__ == "AttributeValueBOOL" and deep[0].value is False, deep
        assert type(deep[1].value["s"]).__name__ == "AttributeValueS" and deep[1].value["s"].value == "x", deep
        # An unmodeled error is named by its code in its message, as in Go and the CLI.
        with pytest.raises(smithycurl.ServiceError) as info:
            db.describe_table(table_name="x")  # too short a name: dynalite's ValidationException
        assert type(info.value) is smithycurl.ServiceError
        assert str(info.value).startswith("ValidationException (HTTP 400): "), str(info.value)
        db.delete_table(table_name="py-flow")


def test_kinesis_blob_round_trip(emulators: dict[str, str]) -> None:
    model = aws_model("kinesis.json")
    data = bytes(range(256))
    with model.client(endpoint=emulators["SMITHYCURL_KINESALITE_URL"], aws_credentials=CREDENTIALS) as k:
        k.create_stream(stream_name="py-stream", shard_count=1)
        for _ in range(100):
            if k.describe_stream(stream_name="py-stream").stream_description.stream_status.value == "ACTIVE":
                break
        put = k.put_record(stream_name="py-stream", data=data, partition_key="p")
        it = k.get_shard_iterator(stream_name="py-stream", shard_id=put.shard_id, shard_iterator_type="TRIM_HORIZON")
        records = k.get_records(shard_iterator=it.shard_iterator).records
        assert [r.data for r in records] == [data]
        k.delete_stream(stream_name="py-stream")


def test_sns_flow(emulators: dict[str, str]) -> None:
    """awsQuery: form-encoded requests, XML responses and error envelopes."""
    model = aws_model("sns.json")
    with model.client(endpoint=emulators["SMITHYCURL_FAUXQS_URL"], aws_credentials=CREDENTIALS) as sns:
        arn = sns.create_topic(name="py-flow", tags=[{"Key": "team", "Value": "a&b <c>"}]).topic_arn
        assert arn is not None and arn.endswith(":py-flow")
        published = sns.publish(topic_arn=arn, message="héllo & <all>",
                                message_attributes={"color": {"DataType": "String", "StringValue": "red"}})
        assert published.message_id
        topics = sns.list_topics().topics or []
        assert arn in [t.topic_arn for t in topics]
        with pytest.raises(smithycurl.ServiceError) as info:
            sns.get_topic_attributes(topic_arn=arn + "-missing")
        err = info.value
        assert type(err).__name__ == "NotFoundException"
        assert err.status == 404 and err.code == "NotFound"
        sns.delete_topic(topic_arn=arn)


def test_sqs_flow(emulators: dict[str, str]) -> None:
    """awsJson1_0 with query-compatible errors: a message with attributes
    sent, received with them and deleted; QueueDoesNotExist with its code."""
    model = aws_model("sqs.json")
    with model.client(endpoint=emulators["SMITHYCURL_FAUXQS_URL"], aws_credentials=CREDENTIALS) as sqs:
        url = sqs.create_queue(queue_name="py-flow").queue_url
        assert url is not None and url.endswith("/py-flow")
        sent = sqs.send_message(queue_url=url, message_body="héllo & <all>", message_attributes={
            "color": {"DataType": "String", "StringValue": "red"},
            "bin": {"DataType": "Binary", "BinaryValue": b"\x00\x01\xff"},
        })
        assert sent.message_id and sent.md5_of_message_body
        messages = sqs.receive_message(queue_url=url, message_attribute_names=["All"], max_number_of_messages=10).messages
        assert messages is not None and len(messages) == 1
        msg = messages[0]
        assert (msg.message_id, msg.body) == (sent.message_id, "héllo & <all>")
        assert msg.message_attributes is not None
        assert msg.message_attributes["color"].string_value == "red"
        assert msg.message_attributes["bin"].binary_value == b"\x00\x01\xff"
        assert msg.receipt_handle is not None
        sqs.delete_message(queue_url=url, receipt_handle=msg.receipt_handle)
        assert not sqs.receive_message(queue_url=url).messages
        sqs.delete_queue(queue_url=url)
        with pytest.raises(smithycurl.ServiceError) as info:
            sqs.get_queue_url(queue_name="py-flow-missing")
        err = info.value
        assert type(err).__name__ == "QueueDoesNotExist"
        assert err.status == 400 and err.code == "AWS.SimpleQueueService.NonExistentQueue"


def test_dynamodb_list_tables_pages(emulators: dict[str, str]) -> None:
    """client.paginate.list_tables against dynalite: 5 tables, 2 a page."""
    model = aws_model("dynamodb.json")
    with model.client(endpoint=emulators["SMITHYCURL_DYNALITE_URL"], aws_credentials=CREDENTIALS) as db:
        names = [f"py-pages-{i}" for i in range(5)]
        for name in names:
            db.create_table(table_name=name, billing_mode="PAY_PER_REQUEST",
                            attribute_definitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            key_schema=[{"AttributeName": "pk", "KeyType": "HASH"}])
        try:
            start = "py-pages"  # sorts just before ours
            pages = list(db.paginate.list_tables(exclusive_start_table_name=start, limit=2))
            assert len(pages) >= 3 and all(len(p.table_names) <= 2 for p in pages)
            got = [n for p in pages for n in p.table_names if n.startswith("py-pages-")]
            assert got == names
            items = list(db.paginate.list_tables(exclusive_start_table_name=start, page_size=2, max_items=3).items())
            assert items == names[:3]
        finally:
            for name in names:
                db.delete_table(table_name=name)


@pytest.mark.parametrize("server", ["SMITHYCURL_S3RVER_URL", "SMITHYCURL_FAUXQS_URL"])
def test_s3_flow(emulators: dict[str, str], server: str) -> None:
    """restXml, path-style to the endpoint: an object with every byte value,
    metadata and a checksum, read back, listed, NoSuchKey, deleted (the
    same flow as testing/e2e/aws TestS3Flow)."""
    model = smithycurl.load_model(shared_path("models", "aws-large", "s3.json"))
    data = bytes(range(256))
    bucket = f"py-flow-{time.time_ns()}"
    key = "dir/all bytes.bin"
    with model.client(endpoint=emulators[server], aws_credentials=CREDENTIALS) as s3:
        s3.create_bucket(bucket=bucket)
        put = s3.put_object(bucket=bucket, key=key, body=data, metadata={"colour": "blue", "owner-id": "a b&c"},
                            checksum_algorithm="CRC32C", content_type="application/octet-stream")
        assert put.e_tag
        head = s3.head_object(bucket=bucket, key=key)
        assert (head.content_length, head.e_tag) == (256, put.e_tag)
        assert head.metadata == {"colour": "blue", "owner-id": "a b&c"}
        got = s3.get_object(bucket=bucket, key=key, checksum_mode="ENABLED")
        assert got.body == data and got.e_tag == put.e_tag
        assert got.metadata == {"colour": "blue", "owner-id": "a b&c"}
        listed = s3.list_objects_v2(bucket=bucket, prefix="dir/")
        assert listed.key_count == 1 and listed.contents is not None
        assert [(o.key, o.size, o.e_tag) for o in listed.contents] == [(key, 256, put.e_tag)]
        with pytest.raises(s3.errors.NoSuchKey) as info:
            s3.get_object(bucket=bucket, key="dir/missing")
        err = info.value
        assert isinstance(err, smithycurl.ServiceError)
        assert err.status == 404 and err.code == "NoSuchKey"
        assert "does not exist" in err.message  # the service's: NoSuchKey has no message member
        s3.delete_object(bucket=bucket, key=key)
        assert s3.list_objects_v2(bucket=bucket).key_count == 0
        s3.delete_bucket(bucket=bucket)


def curl(*args: str) -> tuple[int, bytes]:
    """Plain curl (no credentials): the HTTP status and the body."""
    r = subprocess.run(["curl", "-sS", "-o", "-", "-w", "\n%{http_code}", *args], capture_output=True, timeout=60, check=True)
    body, _, status = r.stdout.rpartition(b"\n")
    return int(status), body


@pytest.mark.parametrize("server", ["SMITHYCURL_S3RVER_URL", "SMITHYCURL_FAUXQS_URL"])
def test_s3_presigned_urls_fetched_with_curl(emulators: dict[str, str], server: str, tmp_path: Any) -> None:
    """client.presign: a PutObject URL (with its signed Content-Type) and a
    GetObject and HeadObject URL, sent by plain curl without credentials,
    store and read back the object; with a session token too. s3rver
    checks the query's expiry: a URL signed two hours ago for a minute is
    refused."""
    import datetime

    model = smithycurl.load_model(shared_path("models", "aws-large", "s3.json"))
    bucket = f"py-presign-{time.time_ns()}"
    data = b"presigned \x00\xff bytes"
    creds = dict(CREDENTIALS, session_token="the/session+token=")
    with model.client(endpoint=emulators[server], aws_credentials=creds) as s3:
        s3.create_bucket(bucket=bucket)
        put = s3.presign.put_object(bucket=bucket, key="a b/c.txt", content_type="text/plain", expires_in=300)
        assert (put.method, put.headers) == ("PUT", {"Content-Type": "text/plain"})
        assert "X-Amz-Security-Token=the%2Fsession%2Btoken%3D" in put.url and "X-Amz-Expires=300&" in put.url
        body_file = tmp_path / "body"
        body_file.write_bytes(data)
        status, _ = curl("-X", "PUT", "--data-binary", f"@{body_file}", "-H", "Content-Type: text/plain", put.url)
        assert status == 200
        get = s3.presign.get_object(bucket=bucket, key="a b/c.txt")
        assert (get.method, get.headers) == ("GET", {})
        assert curl(get.url) == (200, data)
        head = s3.presign["HeadObject"]({"Bucket": bucket, "Key": "a b/c.txt"}, expires_in=60)
        status, _ = curl("-I", head.url)
        assert status == 200
        assert s3.get_object(bucket=bucket, key="a b/c.txt").body == data
        if server == "SMITHYCURL_S3RVER_URL":
            old = s3.presign.get_object(bucket=bucket, key="a b/c.txt", expires_in=60,
                                        signing_time=datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(hours=2))
            status, body = curl(old.url)
            assert status == 403 and b"expired" in body, body
        s3.delete_object(bucket=bucket, key="a b/c.txt")
        s3.delete_bucket(bucket=bucket)


def test_s3_transfer_round_trip(emulators: dict[str, str], tmp_path: Any) -> None:
    """client.s3.upload_file of 2 parts + 1 byte at a 5 MiB part size is a
    3-part multipart upload; download_file brings it back byte-equal in
    ranged GETs; a missing file is a UsageError naming it, a missing object
    NoSuchKey (and no file left behind)."""
    model = smithycurl.load_model(shared_path("models", "aws-large", "s3.json"))
    bucket = f"py-transfer-{time.time_ns()}"
    part = 5 << 20
    data = os.urandom(2 * part + 1)
    src, dst = tmp_path / "src.bin", tmp_path / "dst.bin"
    src.write_bytes(data)
    with model.client(endpoint=emulators["SMITHYCURL_S3RVER_URL"], aws_credentials=CREDENTIALS) as s3:
        s3.create_bucket(bucket=bucket)
        up = s3.s3.upload_file(src, bucket, "big.bin", part_size=part, threshold=part, concurrency=2)
        assert (up.size, up.parts) == (len(data), 3) and up.upload_id, up
        down = s3.s3.download_file(bucket, "big.bin", str(dst), part_size=part, concurrency=2)
        assert down.size == len(data) and down.etag == up.etag, down
        assert dst.read_bytes() == data
        with pytest.raises(smithycurl.UsageError, match="open .*missing.bin: no such file or directory"):
            s3.s3.upload_file(tmp_path / "missing.bin", bucket, "k")
        with pytest.raises(smithycurl.ServiceError) as info:
            s3.s3.download_file(bucket, "nope", tmp_path / "nope.bin")
        assert info.value.status == 404 and not (tmp_path / "nope.bin").exists()
        assert sorted(p.name for p in tmp_path.iterdir()) == ["dst.bin", "src.bin"]  # no temporary left
        s3.delete_object(bucket=bucket, key="big.bin")
        s3.delete_bucket(bucket=bucket)
