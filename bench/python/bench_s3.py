"""S3 PutObject then GetObject of the same object (1 KiB and 1 MiB) on s3rver
(path-style to 127.0.0.1): smithycurl's Python package vs boto3 (Debian's
python3-boto3), one client each, in interleaved rounds (one pair from each
client in turn, so that the load of a shared machine falls on both alike).
Prints each one's CPU time per pair (this process: the library's threads
included) and the ratio. smithycurl passes the body to the library as bytes
(smithycurl_call_payload, no base64) and sends it as the SDKs send a body
that is not in the document: UNSIGNED-PAYLOAD, with the default CRC32 in
x-amz-checksum-crc32; Debian's boto3 signs the payload's SHA-256 (plain
HTTP) and sends no flexible checksum.

    eval "$(scripts/emulators.sh start)"; SMITHYCURL_LIBRARY=build/libsmithycurl.so \\
        /usr/bin/python3 bench/python/bench_s3.py [ROUNDS_1KB [ROUNDS_1MB]]
(`make bench-aws` runs it.)"""

from __future__ import annotations

import os
import random
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

import smithycurl  # noqa: E402

try:
    import boto3  # noqa: E402
    from botocore.config import Config  # noqa: E402
except ImportError:
    sys.exit("boto3 is missing: apt-get install python3-boto3")

ROUNDS = {"1KB": int(sys.argv[1]) if len(sys.argv) > 1 else 300,
          "1MB": int(sys.argv[2]) if len(sys.argv) > 2 else 30}
ENDPOINT = os.environ.get("SMITHYCURL_S3RVER_URL") or sys.exit("set SMITHYCURL_S3RVER_URL (scripts/emulators.sh start)")
MODEL = os.path.join(os.environ.get("SMITHYCURL_SHARED", os.path.join(REPO, "..", "shared")), "models", "aws-large", "s3.json")
KEY, SECRET, REGION = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1"
BUCKET = "bench-py-s3"
META = {"colour": "blue"}

sc = smithycurl.load_model(MODEL).client(
    endpoint=ENDPOINT, aws_credentials={"access_key_id": KEY, "secret_access_key": SECRET, "region": REGION})
b3 = boto3.client("s3", endpoint_url=ENDPOINT, region_name=REGION, aws_access_key_id=KEY, aws_secret_access_key=SECRET,
                  config=Config(s3={"addressing_style": "path"}))
try:
    b3.create_bucket(Bucket=BUCKET)
except (b3.exceptions.BucketAlreadyOwnedByYou, b3.exceptions.BucketAlreadyExists):
    pass


def check(who: str, got: bytes, data: bytes) -> None:
    if got != data:
        raise SystemExit(f"{who}: GetObject returned {len(got)} bytes, not the {len(data)} put")


def smithycurl_pair(key: str, data: bytes) -> None:
    sc.put_object(bucket=BUCKET, key=key, body=data, metadata=META)
    check("smithycurl", sc.get_object(bucket=BUCKET, key=key).body, data)


def boto3_pair(key: str, data: bytes) -> None:
    b3.put_object(Bucket=BUCKET, Key=key, Body=data, Metadata=META)
    check("boto3", b3.get_object(Bucket=BUCKET, Key=key)["Body"].read(), data)


CLIENTS = [("smithycurl", smithycurl_pair), ("boto3", boto3_pair)]
print("S3 PutObject+GetObject on s3rver, interleaved rounds, CPU per pair (this process)")
for size, n in (("1KB", 1 << 10), ("1MB", 1 << 20)):
    data = random.Random(1).randbytes(n)
    key = f"bench/{size}"
    for _, pair in CLIENTS:  # warm up connections and caches
        pair(key, data)
    cpu = {name: 0.0 for name, _ in CLIENTS}
    wall = {name: 0.0 for name, _ in CLIENTS}
    for _ in range(ROUNDS[size]):
        for name, pair in CLIENTS:
            w0, c0 = time.perf_counter(), time.process_time()
            pair(key, data)
            cpu[name] += time.process_time() - c0
            wall[name] += time.perf_counter() - w0
    per = {name: cpu[name] / ROUNDS[size] * 1e6 for name in cpu}
    per_wall = {name: wall[name] / ROUNDS[size] * 1e3 for name in wall}
    print(f"{size}, {ROUNDS[size]} rounds: smithycurl {per['smithycurl']:.0f} µs (wall {per_wall['smithycurl']:.1f} ms), "
          f"boto3 {per['boto3']:.0f} µs (wall {per_wall['boto3']:.1f} ms): CPU ratio {per['smithycurl'] / per['boto3']:.2f}x")
    b3.delete_object(Bucket=BUCKET, Key=key)
b3.delete_bucket(Bucket=BUCKET)
