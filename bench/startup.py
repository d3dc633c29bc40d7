"""Client creation, model load included, in fresh processes: DynamoDB's JSON
AST (1.1 MB) from Go, C and Python against boto3.client('dynamodb'), in one
run. Each process creates a first client (smithycurl: the model cache's
snapshot of an earlier process, as on any machine after the first load) and
NEXT more (the process's model cache); boto3 the same. Prints the medians of
RUNS interleaved processes, wall time inside the process (the import and
runtime start excluded, as for boto3, whose import is excluded), and the
ratios to boto3's first client (goal: <= 0.5x) and the next clients (goal:
<= 2 ms). Also the first client without the model cache.

    python3 bench/startup.py BUILD_DIR [RUNS]
(`make bench-startup` runs it.)"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "python"))
from goal import goal  # noqa: E402

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.join(REPO, "build")
RUNS = int(sys.argv[2]) if len(sys.argv) > 2 else 11
NEXT = 20
MODEL = os.path.join(os.environ.get("SMITHYCURL_SHARED", os.path.join(REPO, "..", "shared")), "models", "aws",
                     "dynamodb.json")
SERVICE = "com.amazonaws.dynamodb#DynamoDB_20120810"

# Each prints "first=F next=N" (milliseconds).
TIMED = """
import statistics, sys, time
{setup}
t = []
for _ in range({next} + 1):
    t0 = time.perf_counter()
    {create}
    t.append((time.perf_counter() - t0) * 1e3)
print(f"first={{t[0]:.2f}} next={{statistics.median(t[1:]):.2f}}")
"""
PY = TIMED.format(next=NEXT, setup=f"sys.path.insert(0, {os.path.join(REPO, 'bindings', 'python')!r})\nimport smithycurl",
                  create=f"smithycurl.load_model({MODEL!r}).client(region='us-east-1').close()")
BOTO3 = TIMED.format(next=NEXT, setup="import boto3",
                     create="boto3.client('dynamodb', region_name='us-east-1', aws_access_key_id='AKID', "
                            "aws_secret_access_key='secret')")
FRONTS = {
    "Go": [os.path.join(BUILD, "startupbench"), MODEL, SERVICE, str(NEXT)],
    "C": [os.path.join(BUILD, "bench-c-startup-fresh"), MODEL, str(NEXT)],
    "Python": [sys.executable, "-c", PY],
    "boto3": [sys.executable, "-c", BOTO3],
}


def run(argv: list[str], env: dict[str, str]) -> tuple[float, float]:
    out = subprocess.run(argv, env=env, check=True, capture_output=True, text=True).stdout
    fields = dict(kv.split("=") for kv in out.split())
    return float(fields["first"]), float(fields["next"])


with tempfile.TemporaryDirectory(prefix="smithycurl-startup-") as cache:
    env = dict(os.environ, XDG_CACHE_HOME=cache, SMITHYCURL_LIBRARY=os.path.join(BUILD, "libsmithycurl.so"))
    env.pop("SMITHYCURL_MODEL_CACHE", None)
    off = dict(env, SMITHYCURL_MODEL_CACHE="off")
    for argv in FRONTS.values():  # warm-up: the snapshot written, files in the page cache
        run(argv, env)
    got: dict[str, list[tuple[float, float]]] = {name: [] for name in FRONTS}
    uncached: dict[str, list[float]] = {name: [] for name in FRONTS if name != "boto3"}
    for _ in range(RUNS):  # interleaved
        for name, argv in FRONTS.items():
            got[name].append(run(argv, env))
            if name in uncached:
                uncached[name].append(run(argv, off)[0])

b3 = statistics.median(f for f, _ in got["boto3"])
print(f"DynamoDB client creation, model load included, fresh processes (median of {RUNS}; wall ms in the process)")
print(f"{'':8} {'first':>8} {'/ boto3':>8} {'next':>7} {'first, no cache':>16}")
for name, rs in got.items():
    first, nxt = statistics.median(f for f, _ in rs), statistics.median(n for _, n in rs)
    nc = f"{statistics.median(uncached[name]):13.1f} ms" if name in uncached else ""
    print(f"{name:8} {first:5.1f} ms {first / b3:7.2f}x {nxt:4.2f} ms {nc}")
for name, rs in got.items():
    if name != "boto3":
        goal(f"DynamoDB load + first client, {name} / boto3", statistics.median(f for f, _ in rs) / b3, True, 0.5)
        goal(f"DynamoDB load + next client in the process, {name}", statistics.median(n for _, n in rs), True, 2, " ms")
