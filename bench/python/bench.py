"""Benchmarks of the Python package against a hand-written http.client + json
loop on loopback (make bench-python).

    python3 bench/python/bench.py [--calls N] [--rounds R] [--cold K]

Throughput: the same small call made N times sequentially, through
smithycurl (client.get_ip(), client.anything(id=.., test=.., query_param=..)
with its typed output, and client.create_order(...) on the echo workload
the C and Go benchmarks share: a POST of testing/servers/benchserver's ~210-byte
JSON document to build/testserver's "bench" service, model
client/testdata/bench.smithy) and through http.client + json doing the
same request by hand on one kept-alive connection. Each measurement runs in a
fresh child process; the figure is that process's CPU time per call
(time.process_time: user + system, every thread, the Go runtime's
included) and its wall time per call; the server (build/testserver) is
another process. The two are run alternately R times; medians are printed.

Cold start (the package's bytecode compiled once beforehand, as pip
install does): K alternating runs of two scripts, one that imports smithycurl,
loads the httpbin model, creates a client and makes one call, one that
makes the same call with http.client + json; median wall and CPU time of
each whole process.
"""

from __future__ import annotations

import argparse
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

from goal import goal

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("BUILD", os.path.join(REPO, "build"))
MODEL = os.path.join(REPO, "examples", "httpbin")
BENCH_MODEL = os.path.join(REPO, "client", "testdata", "bench.smithy")

WORKER_SMITHYCURL = """
import sys, time, smithycurl
url, n, op = sys.argv[1], int(sys.argv[2]), sys.argv[3]
client = smithycurl.load_model(sys.argv[4]).client(endpoint=url)
if op == "get_ip":
    def call(i):
        return client.get_ip().origin
elif op == "echo":
    def call(i):
        out = client.create_order(name="margherita", size=12, crust="thin", toppings=["basil", "mozzarella", "tomato"],
                                  notes="extra basil please, and cut in eight slices",
                                  customer={"id": "c-0042", "tier": "gold"}, request_id="7f9c2ba4e88f827d")
        if out.id != "a1b2c3d4":
            raise RuntimeError(out)
        return out
else:
    def call(i):
        return client.anything(id=i, test="yo", query_param="hello").json
for i in range(200):
    call(i)
c, w = time.process_time(), time.perf_counter()
for i in range(n):
    call(i)
print(time.process_time() - c, time.perf_counter() - w)
"""

WORKER_HTTPCLIENT = """
import sys, time, json, http.client, urllib.parse
url, n, op = sys.argv[1], int(sys.argv[2]), sys.argv[3]
u = urllib.parse.urlsplit(url)
conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
if op == "get_ip":
    def call(i):
        conn.request("GET", "/ip", headers={"Accept": "application/json"})
        r = conn.getresponse()
        body = r.read()
        if r.status != 200:
            raise RuntimeError(r.status)
        return json.loads(body)["origin"]
elif op == "echo":
    def call(i):
        doc = {"name": "margherita", "size": 12, "crust": "thin", "toppings": ["basil", "mozzarella", "tomato"],
               "notes": "extra basil please, and cut in eight slices", "customer": {"id": "c-0042", "tier": "gold"},
               "requestId": "7f9c2ba4e88f827d"}
        conn.request("POST", "/orders", body=json.dumps(doc, separators=(",", ":")).encode(),
                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        r = conn.getresponse()
        out = json.loads(r.read())
        if r.status != 200 or out["id"] != "a1b2c3d4":
            raise RuntimeError(r.status)
        return out
else:
    def call(i):
        body = json.dumps({"id": i, "test": "yo"}).encode()
        conn.request("POST", "/anything?query=hello", body=body,
                     headers={"Content-Type": "application/json", "Accept": "application/json"})
        r = conn.getresponse()
        out = r.read()
        if r.status != 200:
            raise RuntimeError(r.status)
        return json.loads(out)["json"]
for i in range(200):
    call(i)
c, w = time.process_time(), time.perf_counter()
for i in range(n):
    call(i)
print(time.process_time() - c, time.perf_counter() - w)
"""

COLD_SMITHYCURL = """
import sys, smithycurl
client = smithycurl.load_model(sys.argv[2]).client(endpoint=sys.argv[1])
print(client.get_ip().origin)
"""

COLD_HTTPCLIENT = """
import sys, json, http.client, urllib.parse
u = urllib.parse.urlsplit(sys.argv[1])
conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)
conn.request("GET", "/ip", headers={"Accept": "application/json"})
print(json.loads(conn.getresponse().read())["origin"])
"""


# The package's bytecode, compiled once into a temporary PYTHONPYCACHEPREFIX:
# an installed package has its .pyc files (pip compiles them), the standard
# library has its own; without this, PYTHONDONTWRITEBYTECODE=1 would have the
# in-tree package compiled from source at each cold start.
PYCACHE = ""


def env() -> dict[str, str]:
    e = dict(os.environ)
    e["PYTHONPATH"] = os.path.join(REPO, "bindings", "python")
    if PYCACHE:
        e["PYTHONPYCACHEPREFIX"] = PYCACHE
        e.pop("PYTHONDONTWRITEBYTECODE", None)
    e.setdefault("SMITHYCURL_LIBRARY", os.path.join(BUILD, "libsmithycurl.so"))
    return e


def worker(code: str, url: str, n: int, op: str) -> tuple[float, float]:
    model = BENCH_MODEL if op == "echo" else MODEL
    out = subprocess.run([sys.executable, "-c", code, url, str(n), op, model], check=True, capture_output=True,
                         text=True, env=env(), timeout=600).stdout.split()
    return float(out[0]) / n * 1e6, float(out[1]) / n * 1e6


def cold(code: str, url: str) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t = time.perf_counter()
    subprocess.run([sys.executable, "-c", code, url, MODEL], check=True, capture_output=True, env=env(), timeout=60)
    wall = time.perf_counter() - t
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall * 1e3, cpu * 1e3


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=int(os.environ.get("BENCH_PY_CALLS", "3000")))
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("BENCH_PY_ROUNDS", "3")))
    ap.add_argument("--cold", type=int, default=int(os.environ.get("BENCH_PY_COLD", "11")))
    args = ap.parse_args()
    global PYCACHE
    PYCACHE = tempfile.mkdtemp(prefix="smithycurl-pyc-")
    subprocess.run([sys.executable, "-m", "compileall", "-q", os.path.join(REPO, "bindings", "python", "smithycurl")],
                   env=env(), check=True, stdout=subprocess.DEVNULL)

    server = subprocess.Popen([os.path.join(BUILD, "testserver")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        urls: dict[str, str] = {}
        while "httpbin" not in urls or "bench" not in urls:
            line = server.stdout.readline()
            if not line:
                raise RuntimeError("testserver did not start")
            name, u = line.split()
            urls[name] = u
        url = urls["httpbin"]
        print(f"python {sys.version.split()[0]}, {args.calls} sequential calls per run, {args.rounds} runs each "
              f"(medians), httpbin at {url}")
        print(f"{'call':<44} {'CPU/call':>10} {'wall/call':>10}   CPU ratio")
        for op, what in (("get_ip", "GET /ip"), ("anything", "POST /anything (query, body)"),
                         ("echo", "echo POST /orders (C, Go)")):
            sc_cpu, sc_wall, hc_cpu, hc_wall = [], [], [], []
            u = urls["bench"] if op == "echo" else url
            for _ in range(args.rounds):
                c, w = worker(WORKER_SMITHYCURL, u, args.calls, op)
                sc_cpu.append(c)
                sc_wall.append(w)
                c, w = worker(WORKER_HTTPCLIENT, u, args.calls, op)
                hc_cpu.append(c)
                hc_wall.append(w)
            s, h = statistics.median(sc_cpu), statistics.median(hc_cpu)
            print(f"{what + ': http.client+json':<44} {h:8.1f}us {statistics.median(hc_wall):8.1f}us")
            print(f"{what + ': smithycurl':<44} {s:8.1f}us {statistics.median(sc_wall):8.1f}us   {s / h:.2f}x")
            if op == "echo":
                goal("Python CPU per call / http.client + json, echo", s / h, True, 0.9)

        sc, hc = [], []
        cold(COLD_SMITHYCURL, url)  # untimed: writes the standard library's bytecode under PYCACHE too
        cold(COLD_HTTPCLIENT, url)
        for _ in range(args.cold):
            sc.append(cold(COLD_SMITHYCURL, url))
            hc.append(cold(COLD_HTTPCLIENT, url))
        sw, scpu = statistics.median(x[0] for x in sc), statistics.median(x[1] for x in sc)
        hw, hcpu = statistics.median(x[0] for x in hc), statistics.median(x[1] for x in hc)
        print(f"\ncold start, {args.cold} runs each (medians): a script that makes one GET /ip")
        print(f"{'http.client+json':<34} {hw:8.1f}ms wall {hcpu:8.1f}ms CPU")
        print(f"{'smithycurl (load model, client)':<34} {sw:8.1f}ms wall {scpu:8.1f}ms CPU   {sw / hw:.2f}x wall")
    finally:
        if server.stdin:
            server.stdin.close()
        server.wait(10)
        shutil.rmtree(PYCACHE, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
