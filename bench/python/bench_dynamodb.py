"""DynamoDB GetItem and PutItem against dynalite: smithycurl's Python package
vs boto3 (Debian's python3-boto3), N sequential calls on one client each.
Prints per-call wall and CPU time (this process only), client creation time
(model load included), and the time of a whole process doing one GetItem.

    eval "$(scripts/emulators.sh start)"; SMITHYCURL_LIBRARY=build/libsmithycurl.so \\
        /usr/bin/python3 bench/python/bench_dynamodb.py [N]
(`make bench-aws` runs it.)"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

import smithycurl  # noqa: E402
from goal import goal  # noqa: E402

try:
    import boto3  # noqa: E402
except ImportError:
    sys.exit("boto3 is missing: apt-get install python3-boto3")

N = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
ENDPOINT = os.environ.get("SMITHYCURL_DYNALITE_URL") or sys.exit("set SMITHYCURL_DYNALITE_URL (scripts/emulators.sh start)")
MODEL = os.path.join(os.environ.get("SMITHYCURL_SHARED", os.path.join(REPO, "..", "shared")), "models", "aws", "dynamodb.json")
KEY, SECRET, REGION = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1"
TABLE = "bench-py"
ITEM = {"pk": {"S": "k1"}, "name": {"S": "a name"}, "n": {"N": "42"}, "tags": {"SS": ["a", "b"]}}
os.environ.update(AWS_ACCESS_KEY_ID=KEY, AWS_SECRET_ACCESS_KEY=SECRET, AWS_DEFAULT_REGION=REGION)


def per_call(fn) -> tuple[float, float]:
    for _ in range(min(50, N)):
        fn()  # warm up connections and caches
    w0, c0 = time.perf_counter(), time.process_time()
    for _ in range(N):
        fn()
    return (time.perf_counter() - w0) / N * 1e6, (time.process_time() - c0) / N * 1e6


def timed(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return (time.perf_counter() - t0) * 1e3


def new_smithycurl():
    return smithycurl.load_model(MODEL).client(
        endpoint=ENDPOINT, aws_credentials={"access_key_id": KEY, "secret_access_key": SECRET, "region": REGION})


def new_boto3():
    return boto3.client("dynamodb", endpoint_url=ENDPOINT, region_name=REGION,
                        aws_access_key_id=KEY, aws_secret_access_key=SECRET)


sc_create = statistics.median(timed(new_smithycurl) for _ in range(5))
b3_create = statistics.median(timed(new_boto3) for _ in range(5))
sc, b3 = new_smithycurl(), new_boto3()
try:
    b3.delete_table(TableName=TABLE)
except Exception:
    pass
b3.create_table(TableName=TABLE, BillingMode="PAY_PER_REQUEST",
                AttributeDefinitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                KeySchema=[{"AttributeName": "pk", "KeyType": "HASH"}])

rows = []
for op, sc_fn, b3_fn in [
    ("PutItem", lambda: sc.put_item(table_name=TABLE, item=ITEM), lambda: b3.put_item(TableName=TABLE, Item=ITEM)),
    ("GetItem", lambda: sc.get_item(table_name=TABLE, key={"pk": {"S": "k1"}}),
     lambda: b3.get_item(TableName=TABLE, Key={"pk": {"S": "k1"}})),
]:
    sw, scpu = per_call(sc_fn)
    bw, bcpu = per_call(b3_fn)
    rows.append((op, sw, scpu, bw, bcpu))

ONE_CALL = {
    "smithycurl": f"""
import sys; sys.path.insert(0, {os.path.join(REPO, 'bindings', 'python')!r})
import smithycurl
c = smithycurl.load_model({MODEL!r}).client(endpoint={ENDPOINT!r},
    aws_credentials={{"access_key_id": {KEY!r}, "secret_access_key": {SECRET!r}, "region": {REGION!r}}})
c.get_item(table_name={TABLE!r}, key={{"pk": {{"S": "k1"}}}})
""",
    "boto3": f"""
import boto3
c = boto3.client("dynamodb", endpoint_url={ENDPOINT!r}, region_name={REGION!r},
    aws_access_key_id={KEY!r}, aws_secret_access_key={SECRET!r})
c.get_item(TableName={TABLE!r}, Key={{"pk": {{"S": "k1"}}}})
""",
}
# Debian's boto3 comes with its bytecode (.pyc) files, and so does an
# installed smithycurl (pip compiles them); the in-tree package under
# PYTHONDONTWRITEBYTECODE=1 would be compiled from source in every process.
# So smithycurl runs with its bytecode compiled once into a temporary
# PYTHONPYCACHEPREFIX, and once more as in-tree source without bytecode.
pycache = tempfile.mkdtemp(prefix="smithycurl-pyc-")
with_pyc = dict(os.environ, PYTHONPYCACHEPREFIX=pycache)
with_pyc.pop("PYTHONDONTWRITEBYTECODE", None)
subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "bindings", "python", "smithycurl")],
               env=with_pyc, check=True, stdout=subprocess.DEVNULL)
no_pyc = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
# (the prefix holds every module's bytecode, the standard library's too: a
# first, untimed run writes those)
subprocess.run([sys.executable, "-c", ONE_CALL["smithycurl"]], check=True, env=with_pyc)
RUNS = [("smithycurl", ONE_CALL["smithycurl"], with_pyc), ("boto3", ONE_CALL["boto3"], None),
        ("smithycurl, no .pyc", ONE_CALL["smithycurl"], no_pyc)]
process = {name: [] for name, _, _ in RUNS}
for _ in range(11):  # interleaved runs
    for name, script, env in RUNS:
        t0 = time.perf_counter()
        subprocess.run([sys.executable, "-c", script], check=True, env=env)
        process[name].append((time.perf_counter() - t0) * 1e3)
shutil.rmtree(pycache, ignore_errors=True)
b3.delete_table(TableName=TABLE)

print(f"DynamoDB on dynalite, {N} sequential calls per row (per-call figures: wall / this process's CPU)")
print(f"{'':10} {'smithycurl wall':>16} {'CPU':>9} {'boto3 wall':>11} {'CPU':>9} {'CPU ratio':>10}")
for op, sw, scpu, bw, bcpu in rows:
    print(f"{op:10} {sw:13.0f} µs {scpu:6.0f} µs {bw:8.0f} µs {bcpu:6.0f} µs {scpu / bcpu:9.2f}x")
for op, _, scpu, _, bcpu in rows:
    if op in ("GetItem", "PutItem"):
        goal(f"Python DynamoDB {op} CPU per call / boto3", scpu / bcpu, True, 0.2)
print(f"client creation (model load included), median of 5: smithycurl {sc_create:.1f} ms, boto3 {b3_create:.1f} ms")
ps, pb = statistics.median(process["smithycurl"]), statistics.median(process["boto3"])
pn = statistics.median(process["smithycurl, no .pyc"])
print(f"one process doing one GetItem, median of 11: smithycurl {ps:.0f} ms, boto3 {pb:.0f} ms, ratio {ps / pb:.2f}x "
      f"(both with bytecode files; smithycurl compiled from source in each process: {pn:.0f} ms, {pn / pb:.2f}x)")
