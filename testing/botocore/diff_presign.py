#!/usr/bin/env python3
"""Presigned URLs against botocore's: each case presigns one operation with
the project's Python package (client.presign, through libsmithycurl.so's
smithycurl_presign) and with botocore's generate_presigned_url, with the
same fixed clock and credentials, and compares the URLs as strings, then
the method and the signed headers the sender must send. Then the
cross-region customization of RDS, DocumentDB and Neptune (botocore's
inject_presigned_url_rds): a call with SourceRegion sends, in place of it,
a PreSignedUrl; the one smithycurl's CLI sends to a capture server on 127.0.0.1
is compared with the one botocore's handler makes, on botocore's clock set
to the URL's X-Amz-Date. Ends with

    presign vs botocore: N passed, N failed

Run it with `make diff-presign` (PRESIGN_PYTHON: a Python with botocore;
Debian 12's python3-botocore 1.29 by default).

Adjustments, so that both sign the same request: the Smithy S3 model's
URIs carry a literal ?x-id=<Operation> that botocore's S3 model lacks (the
request differential's exclusion "s3-x-id"): botocore is given it. And
botocore resolves endpoints as aws-sdk-go-v2 and smithycurl do (regional
STS and S3 in us-east-1), and S3's virtual-host URLs as for a call, not on
the global endpoint (botocore 1.29 presigns those on
BUCKET.s3.amazonaws.com whatever the region, a choice of its own).
"""

from __future__ import annotations

import argparse
import datetime
import functools
import http.server
import json
import os
import subprocess
import threading
import urllib.parse
import sys
import types
from typing import Any, Callable, NamedTuple
from unittest import mock

try:
    import botocore.auth
    import botocore.session
    import botocore.signers
    from botocore.config import Config
except ImportError:
    sys.exit(f"diff_presign: {sys.executable} has no botocore (Debian: apt-get install python3-botocore)\n"
             "presign vs botocore: 0 passed, 1 failed")

import smithycurl

AT = datetime.datetime(2024, 1, 2, 3, 4, 5, tzinfo=datetime.timezone.utc)
KEYS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"}
TOKEN = "FwoGZXIvYXdzEJr//////////wEaDH+token/with=special&chars"


class Case(NamedTuple):
    name: str
    model: str  # under the shared models directory
    botocore_service: str
    operation: str
    params: dict[str, Any]
    region: str = "us-east-1"
    expires: int = 3600
    token: bool = False
    path_style: bool = False


CASES = [
    Case("s3 GetObject virtual-host", "aws-large/s3.json", "s3", "GetObject", {"Bucket": "my-bucket", "Key": "a b/c~d.txt"}),
    Case("s3 GetObject path style", "aws-large/s3.json", "s3", "GetObject", {"Bucket": "my-bucket", "Key": "dir/key"},
         path_style=True),
    Case("s3 GetObject session token, query members", "aws-large/s3.json", "s3", "GetObject",
         # In the model's order: botocore puts query members in the input's, smithycurl in the model's.
         {"Bucket": "my-bucket", "Key": "k", "ResponseContentDisposition": "attachment; filename=\"x y\"", "VersionId": "v1/2"},
         region="eu-west-1", token=True, expires=604800),
    Case("s3 PutObject virtual-host, signed Content-Type", "aws-large/s3.json", "s3", "PutObject",
         {"Bucket": "my-bucket", "Key": "up/load.txt", "ContentType": "text/plain"}, expires=900),
    Case("s3 PutObject path style", "aws-large/s3.json", "s3", "PutObject", {"Bucket": "my-bucket", "Key": "k"},
         region="eu-west-1", path_style=True),
    Case("s3 HeadObject virtual-host", "aws-large/s3.json", "s3", "HeadObject", {"Bucket": "my-bucket", "Key": "h"},
         region="ap-southeast-2", expires=1),
    Case("s3 HeadObject path style, session token", "aws-large/s3.json", "s3", "HeadObject",
         {"Bucket": "my.dotted.bucket", "Key": "h"}, token=True, path_style=True),
    Case("sts GetCallerIdentity (awsQuery form into the query)", "aws/sts.json", "sts", "GetCallerIdentity", {},
         region="us-west-2", expires=60),
    Case("sts GetCallerIdentity, session token", "aws/sts.json", "sts", "GetCallerIdentity", {}, token=True),
    Case("lambda GetFunction (restJson1, a label encoded twice)", "aws/lambda.json", "lambda", "GetFunction",
         {"FunctionName": "arn:aws:lambda:us-east-1:123456789012:function:f", "Qualifier": "$LATEST"}),
]


def fixed_clock(at: datetime.datetime = AT) -> Any:
    """Patches botocore's clock to at (1.29 reads datetime.datetime.utcnow,
    recent ones get_current_datetime)."""
    naive = at.replace(tzinfo=None)

    class Fixed(datetime.datetime):
        @classmethod
        def utcnow(cls) -> datetime.datetime:  # type: ignore[override]
            return naive

    if hasattr(botocore.auth, "get_current_datetime"):
        return mock.patch.object(botocore.auth, "get_current_datetime", lambda *a, **k: naive)
    return mock.patch.object(botocore.auth, "datetime", types.SimpleNamespace(datetime=Fixed))


@functools.lru_cache(maxsize=None)
def smithy_uris(path: str) -> dict[str, str]:
    """The @http URIs of a Smithy JSON AST model's operations, by name."""
    with open(path) as f:
        shapes = json.load(f)["shapes"]
    return {sid.split("#")[1]: s["traits"]["smithy.api#http"]["uri"] for sid, s in shapes.items()
            if s.get("type") == "operation" and "smithy.api#http" in s.get("traits", {})}


def smithy_uri(models: str, model: str, operation: str) -> str:
    return smithy_uris(os.path.join(models, model)).get(operation, "")


def theirs(session: Any, models: str, c: Case) -> tuple[str, str, dict[str, str]]:
    s3 = {"addressing_style": "path" if c.path_style else "virtual", "us_east_1_regional_endpoint": "regional"}
    config = Config(signature_version="s3v4", s3=s3) if c.botocore_service == "s3" else None
    client = session.create_client(
        c.botocore_service, region_name=c.region, config=config,
        aws_access_key_id=KEYS["access_key_id"], aws_secret_access_key=KEYS["secret_access_key"],
        aws_session_token=TOKEN if c.token else None)
    op = client.meta.service_model.operation_model(c.operation)
    x_id = "x-id=" + c.operation
    if x_id in smithy_uri(models, c.model, c.operation) and x_id not in op.http["requestUri"]:
        op.http["requestUri"] += ("&" if "?" in op.http["requestUri"] else "?") + x_id
    py = botocore.xform_name(c.operation)
    url = client.generate_presigned_url(py, Params=c.params, ExpiresIn=c.expires, HttpMethod=None)
    method = op.http["method"]
    headers: dict[str, str] = {}
    if "ContentType" in c.params:
        headers["Content-Type"] = c.params["ContentType"]
    return url, method, headers


def ours(models: str, clients: dict[Any, Any], c: Case) -> tuple[str, str, dict[str, str]]:
    key = (c.model, c.region, c.token, c.path_style)
    if key not in clients:
        model = smithycurl.load_model(os.path.join(models, c.model))
        creds: dict[str, Any] = dict(KEYS, session_token=TOKEN if c.token else None)
        clients[key] = model.client(region=c.region, aws_credentials=creds,
                                    endpoint_params={"ForcePathStyle": True} if c.path_style else None)
    p = clients[key].presign[c.operation](c.params, expires_in=c.expires, signing_time=AT)
    if p.expires != AT + datetime.timedelta(seconds=c.expires):
        raise AssertionError(f"expires {p.expires}, want {AT + datetime.timedelta(seconds=c.expires)}")
    return p.url, p.method, p.headers


class CrossRegion(NamedTuple):
    name: str
    model: str  # under the shared AWS models directory
    botocore_service: str
    operation: str
    params: dict[str, Any]
    token: bool = False


CROSS_REGION = [
    CrossRegion("rds CopyDBSnapshot", "rds.json", "rds", "CopyDBSnapshot",
                {"SourceDBSnapshotIdentifier": "arn:aws:rds:us-west-2:123456789012:snapshot:s1",
                 "TargetDBSnapshotIdentifier": "copy-1", "KmsKeyId": "alias/k", "SourceRegion": "us-west-2"}),
    CrossRegion("rds CreateDBInstanceReadReplica, session token", "rds.json", "rds", "CreateDBInstanceReadReplica",
                {"DBInstanceIdentifier": "replica", "SourceDBInstanceIdentifier": "arn:aws:rds:eu-west-1:123456789012:db:src",
                 "SourceRegion": "eu-west-1"}, token=True),
    CrossRegion("rds StartDBInstanceAutomatedBackupsReplication", "rds.json", "rds",
                "StartDBInstanceAutomatedBackupsReplication",
                {"SourceDBInstanceArn": "arn:aws:rds:us-west-2:123456789012:db:src", "BackupRetentionPeriod": 7,
                 "SourceRegion": "us-west-2"}),
    CrossRegion("docdb CopyDBClusterSnapshot", "docdb.json", "docdb", "CopyDBClusterSnapshot",
                {"SourceDBClusterSnapshotIdentifier": "arn:aws:rds:us-west-2:123456789012:cluster-snapshot:s",
                 "TargetDBClusterSnapshotIdentifier": "t", "SourceRegion": "us-west-2"}),
    CrossRegion("neptune CreateDBCluster", "neptune.json", "neptune", "CreateDBCluster",
                {"DBClusterIdentifier": "c", "Engine": "neptune", "SourceRegion": "ap-south-1"}),
    CrossRegion("rds CopyDBSnapshot with PreSignedUrl given: kept", "rds.json", "rds", "CopyDBSnapshot",
                {"SourceDBSnapshotIdentifier": "s", "TargetDBSnapshotIdentifier": "t", "PreSignedUrl": "https://given",
                 "SourceRegion": "us-west-2"}),
]


class _Capture(http.server.BaseHTTPRequestHandler):
    """Keeps each request's form body; answers an error, not retried."""

    def do_POST(self) -> None:
        n = int(self.headers.get("Content-Length") or 0)
        self.server.bodies.append(self.rfile.read(n).decode())  # type: ignore[attr-defined]
        reply = b"<ErrorResponse><Error><Type>Sender</Type><Code>Captured</Code><Message>captured</Message></Error></ErrorResponse>"
        self.send_response(400)
        self.send_header("Content-Type", "text/xml")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        self.wfile.write(reply)

    def log_message(self, format: str, *args: Any) -> None:
        pass


def cross_region(shared: str, session: Any, smithycurl_bin: str) -> tuple[int, int]:
    """Compares the PreSignedUrl each sends (smithycurl's CLI, the Go
    client as every front end calls it; the Python package's is compared
    with the CLI's by bindings/python/tests/test_aws_custom.py); returns
    (passed, failed)."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Capture)
    server.bodies = []  # type: ignore[attr-defined]
    threading.Thread(target=server.serve_forever, daemon=True).start()
    endpoint = f"http://127.0.0.1:{server.server_address[1]}"
    passed = failed = 0
    try:
        for c in CROSS_REGION:
            try:
                ok, detail = cross_region_case(shared, session, endpoint, server, smithycurl_bin, c)
            except Exception as e:
                ok, detail = False, f"{type(e).__name__}: {e}"
            if ok:
                passed += 1
            else:
                failed += 1
                print(f"FAIL {c.name}: {detail}")
    finally:
        server.shutdown()
    return passed, failed


def cross_region_case(shared: str, session: Any, endpoint: str, server: Any, smithycurl_bin: str,
                      c: CrossRegion) -> tuple[bool, str]:
    args = [smithycurl_bin, "call", "--model", os.path.join(shared, "aws-models", c.model), "--endpoint", endpoint,
            "--region", "us-east-1", "--retries", "0", "--aws-access-key-id", KEYS["access_key_id"],
            "--aws-secret-access-key", KEYS["secret_access_key"], c.operation, "--input", json.dumps(c.params)]
    if c.token:
        args[-2:-2] = ["--aws-session-token", TOKEN]
    server.bodies.clear()
    r = subprocess.run(args, capture_output=True, text=True, timeout=120, env=dict(os.environ, AWS_CONFIG_FILE="/dev/null",
                       AWS_SHARED_CREDENTIALS_FILE="/dev/null"))
    if r.returncode != 1:  # the capture server's error
        return False, f"smithycurl call: exit {r.returncode}: {r.stderr.strip()}"
    if len(server.bodies) != 1:
        return False, f"smithycurl sent {len(server.bodies)} requests"
    ours = urllib.parse.parse_qs(server.bodies[0])
    if "SourceRegion" in ours:
        return False, f"SourceRegion was sent: {server.bodies[0]}"
    url = ours.get("PreSignedUrl", [""])[0]
    date = urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("X-Amz-Date", ["20240102T030405Z"])[0]
    at = datetime.datetime.strptime(date, "%Y%m%dT%H%M%SZ").replace(tzinfo=datetime.timezone.utc)

    sent: list[str] = []

    def capture(request: Any, **_: Any) -> Any:
        sent.append(request.body.decode() if isinstance(request.body, bytes) else request.body)
        raise StopIteration  # nothing is sent

    client = session.create_client(c.botocore_service, region_name="us-east-1", endpoint_url=endpoint,
                                   aws_access_key_id=KEYS["access_key_id"], aws_secret_access_key=KEYS["secret_access_key"],
                                   aws_session_token=TOKEN if c.token else None)
    client.meta.events.register("before-send", capture)
    with fixed_clock(at):
        try:
            getattr(client, botocore.xform_name(c.operation))(**c.params)
        except StopIteration:
            pass
    theirs = urllib.parse.parse_qs(sent[0])
    want = theirs.get("PreSignedUrl", [""])[0]
    if not want:
        return False, "botocore sent no PreSignedUrl"
    if url == want:
        return True, ""
    # The same request and signature, the form's members in another order.
    split = urllib.parse.urlsplit
    if split(url)[:3] == split(want)[:3] and \
            sorted(urllib.parse.parse_qsl(split(url).query)) == sorted(urllib.parse.parse_qsl(split(want).query)):
        return True, ""
    return False, f"\n    botocore:   {want}\n    smithycurl: {url}"


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.environ.get("SMITHYCURL_SHARED", "../shared"))
    ap.add_argument("--smithycurl", default="build/smithycurl", help="the CLI, for the cross-region cases")
    args = ap.parse_args()
    models = os.path.join(args.shared, "models")
    session = botocore.session.get_session()
    session.set_config_variable("sts_regional_endpoints", "regional")
    clients: dict[Any, Any] = {}
    passed = failed = 0
    with fixed_clock(), mock.patch.object(botocore.signers, "_should_use_global_endpoint", lambda client: False):
        for c in CASES:
            try:
                want, got = theirs(session, models, c), ours(models, clients, c)
            except Exception as e:  # a case that cannot run is a failure, with its reason
                print(f"FAIL {c.name}: {type(e).__name__}: {e}")
                failed += 1
                continue
            if want == got:
                passed += 1
                continue
            failed += 1
            print(f"FAIL {c.name}")
            for what, w, g in zip(("url", "method", "headers"), want, got):
                if w != g:
                    print(f"  {what}\n    botocore:   {w}\n    smithycurl: {g}")
    for c in clients.values():
        c.close()
    p, f = cross_region(args.shared, session, args.smithycurl)
    passed, failed = passed + p, failed + f
    print(f"presign vs botocore: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
