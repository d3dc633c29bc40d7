"""Client creation from Python, model load included: DynamoDB (1.1 MB JSON
AST) from its JSON file and from its snapshot (Model.snapshot(), what
`smithycurl compile` writes). Medians of R runs in this process, wall and
CPU time (the machine may be busy: CPU time is the steadier figure).

    SMITHYCURL_LIBRARY=build/libsmithycurl.so python3 bench/python/bench_startup.py [R]
(`make bench-python` runs it.)"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
import time

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(REPO, "bindings", "python"))

import smithycurl  # noqa: E402

R = int(sys.argv[1]) if len(sys.argv) > 1 else 21
MODEL = os.path.join(os.environ.get("SMITHYCURL_SHARED", os.path.join(REPO, "..", "shared")), "models", "aws", "dynamodb.json")


def create(path: str) -> tuple[float, float]:
    w0, c0 = time.perf_counter(), time.process_time()
    client = smithycurl.load_model(path).client(region="us-east-1")
    w1, c1 = time.perf_counter(), time.process_time()
    client.close()
    return (w1 - w0) * 1e3, (c1 - c0) * 1e3


with tempfile.TemporaryDirectory() as tmp:
    snap = os.path.join(tmp, "dynamodb.scmodel")
    with open(snap, "wb") as f:
        f.write(smithycurl.load_model(MODEL).snapshot())
    runs: dict[str, list[tuple[float, float]]] = {"json": [], "snapshot": []}
    for _ in range(R):  # interleaved
        runs["json"].append(create(MODEL))
        runs["snapshot"].append(create(snap))
print(f"Python: DynamoDB client creation, model load included (median of {R}, wall / CPU of this process)")
for name, rs in runs.items():
    print(f"  from {name:9} {statistics.median(w for w, _ in rs):6.1f} ms  {statistics.median(c for _, c in rs):6.1f} ms CPU")
j, s = (statistics.median(c for _, c in runs[k]) for k in ("json", "snapshot"))
print(f"  snapshot / json CPU: {s / j:.2f}x")
