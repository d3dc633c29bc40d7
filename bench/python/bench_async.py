"""1,000 concurrent DynamoDB GetItem calls on a local server, from Python
(make bench-python-async): smithycurl.aio vs a hand-written aiohttp + json
client, and vs the synchronous smithycurl client on a ThreadPoolExecutor(64).

    SMITHYCURL_LIBRARY=build/libsmithycurl.so SMITHYCURL_SHARED=../shared \\
        /usr/bin/python3 bench/python/bench_async.py [--calls N] [--rounds R] [--runs K]

The server is a child process (this script with --serve, asyncio, standard
library) answering every POST with a GetItem output (a ~90-byte item of four
attributes), after --delay seconds. The clients use the DynamoDB model
($SMITHYCURL_SHARED/models/aws/dynamodb.json) with SigV4 credentials; the
aiohttp client signs too (SigV4 by hand, hashlib + hmac, its signing key
cached per day as SDKs do) and sends the same JSON, so the three do the
same work. Each output is checked.

CPU per call: each client runs in a fresh child process: a warm-up round,
then R rounds of N calls started at once (asyncio.gather; pool.map), each
round awaited whole; the figure is that process's CPU time (user + system,
every thread: the library's Go runtime and libcurl included) per call, and
its wall time per call. The three alternate K times; medians are printed.
The aio client and aiohttp have at most 100 requests on the wire at once
(the engine's default max_transfers; aiohttp's default connection limit),
the synchronous client 64 (its threads).

Memory per in-flight call: in a fresh child, after a few warm-up calls, N
calls are started against a server that answers after 3 s; once all are in
flight, (RSS now - RSS before) / N. Twice: with the default limits (100 on
the wire, the others waiting their turn in the library, or in aiohttp's
connector), and with max_transfers (and aiohttp's limit) N, every call on
the wire holding its connection; the goal is checked on both. A call
waiting its turn is data in the library (its input and where it
completes); one on the wire holds a goroutine stack, a libcurl easy handle
with its 16 KiB receive buffer, and a connection.

Goals (issue 17): CPU per call <= 1.0x aiohttp's; memory <= 16 KiB per
in-flight call.
"""

from __future__ import annotations

import argparse
import asyncio
import datetime
import hashlib
import hmac
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from typing import Any, Callable

from goal import goal

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHARED = os.environ.get("SMITHYCURL_SHARED") or os.path.join(REPO, "..", "shared")
MODEL = os.path.join(SHARED, "models", "aws", "dynamodb.json")
KEY, SECRET, REGION = "AKIDEXAMPLE", "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", "us-east-1"
TABLE = "bench-async"
ITEM = {"pk": {"S": "k1"}, "name": {"S": "a name"}, "n": {"N": "42"}, "tags": {"SS": ["a", "b"]}}
OUTPUT = json.dumps({"Item": ITEM}, separators=(",", ":")).encode()
TARGET = "DynamoDB_20120810.GetItem"


def raise_fd_limit() -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))


# ---- the server ----------------------------------------------------------

async def _serve_until(loop: asyncio.AbstractEventLoop, proto: Any, eof: Any) -> None:
    """Serves proto on a free port of 127.0.0.1, prints its URL, stops at
    eof (stdin closed: the parent is done or gone)."""
    server = await loop.create_server(proto, "127.0.0.1", 0, backlog=4096)
    print(f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}", flush=True)
    await eof
    server.close()


def start_server(delay: float) -> tuple[subprocess.Popen[str], str]:
    p = subprocess.Popen([sys.executable, __file__, "--serve", str(delay)], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
    assert p.stdout is not None
    url = p.stdout.readline().strip()
    if not url.startswith("http://"):
        p.kill()
        raise RuntimeError("the bench server did not start")
    return p, url


# ---- the clients -----------------------------------------------------------

def check(n: str) -> None:
    if n != "42":
        raise RuntimeError(f"wrong output: {n!r}")


def smithycurl_model() -> Any:
    sys.path.insert(0, os.path.join(REPO, "bindings", "python"))
    import smithycurl

    return smithycurl.load_model(MODEL)


CREDENTIALS = {"access_key_id": KEY, "secret_access_key": SECRET, "region": REGION}


class Signer:
    """SigV4 for DynamoDB by hand (what a hand-written client must do)."""

    def __init__(self, host: str) -> None:
        self.host = host
        self.day = ""
        self.key = b""

    def headers(self, body: bytes) -> dict[str, str]:
        now = datetime.datetime.now(datetime.timezone.utc)
        amz_date = now.strftime("%Y%m%dT%H%M%SZ")
        day = amz_date[:8]
        if day != self.day:
            k = hmac.new(("AWS4" + SECRET).encode(), day.encode(), hashlib.sha256).digest()
            for part in (REGION, "dynamodb", "aws4_request"):
                k = hmac.new(k, part.encode(), hashlib.sha256).digest()
            self.day, self.key = day, k
        ctype = "application/x-amz-json-1.0"
        signed = "content-type;host;x-amz-date;x-amz-target"
        canonical = (f"POST\n/\n\ncontent-type:{ctype}\nhost:{self.host}\nx-amz-date:{amz_date}\n"
                     f"x-amz-target:{TARGET}\n\n{signed}\n{hashlib.sha256(body).hexdigest()}")
        scope = f"{day}/{REGION}/dynamodb/aws4_request"
        to_sign = f"AWS4-HMAC-SHA256\n{amz_date}\n{scope}\n{hashlib.sha256(canonical.encode()).hexdigest()}"
        sig = hmac.new(self.key, to_sign.encode(), hashlib.sha256).hexdigest()
        return {"Content-Type": ctype, "X-Amz-Date": amz_date, "X-Amz-Target": TARGET,
                "Authorization": f"AWS4-HMAC-SHA256 Credential={KEY}/{scope}, SignedHeaders={signed}, Signature={sig}"}


def client_aio(url: str, limit: int) -> tuple[Callable[[int], Any], Callable[[], Any]]:
    """(a coroutine function making n calls at once, a closer)."""
    c = smithycurl_model().async_client(endpoint=url, aws_credentials=CREDENTIALS, timeout=120,
                                        max_transfers=limit or None)

    async def calls(n: int) -> None:
        outs = await asyncio.gather(*(c.get_item(table_name=TABLE, key={"pk": {"S": "k1"}}) for _ in range(n)))
        for o in outs:
            check(o.item["n"].value)

    return calls, c.close


def client_aiohttp(url: str, limit: int) -> tuple[Callable[[int], Any], Callable[[], Any]]:
    import aiohttp

    session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=limit or 100),
                                    timeout=aiohttp.ClientTimeout(total=120))
    signer = Signer(url.split("//", 1)[1])

    async def one() -> None:
        body = json.dumps({"TableName": TABLE, "Key": {"pk": {"S": "k1"}}}, separators=(",", ":")).encode()
        async with session.post(url + "/", data=body, headers=signer.headers(body)) as r:
            data = await r.read()
            if r.status != 200:
                raise RuntimeError(f"HTTP {r.status}")
        check(json.loads(data)["Item"]["n"]["N"])

    async def calls(n: int) -> None:
        await asyncio.gather(*(one() for _ in range(n)))

    return calls, session.close


def worker(mode: str, url: str, n: int, rounds: int) -> None:
    """Prints the CPU and wall seconds of rounds x n calls."""
    raise_fd_limit()
    if mode == "sync":
        from concurrent.futures import ThreadPoolExecutor

        client = smithycurl_model().client(endpoint=url, aws_credentials=CREDENTIALS, timeout=120)

        def one(_: int) -> None:
            check(client.get_item(table_name=TABLE, key={"pk": {"S": "k1"}}).item["n"].value)

        with ThreadPoolExecutor(64) as pool:
            list(pool.map(one, range(n)))  # warm-up: connections, threads
            c, w = time.process_time(), time.perf_counter()
            for _ in range(rounds):
                list(pool.map(one, range(n)))
            print(time.process_time() - c, time.perf_counter() - w)
        return

    async def main() -> None:
        calls, close = (client_aio if mode == "aio" else client_aiohttp)(url, 0)
        await calls(n)  # warm-up: connections, caches
        c, w = time.process_time(), time.perf_counter()
        for _ in range(rounds):
            await calls(n)
        print(time.process_time() - c, time.perf_counter() - w)
        await close()

    asyncio.run(main())


def rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def memory_worker(mode: str, url: str, n: int, limit: int) -> None:
    """Prints the RSS growth, in bytes, with n calls in flight (the server
    answers after seconds; at most limit on the wire, 0: the default), and
    the calls that were in flight."""
    raise_fd_limit()

    async def main() -> None:
        calls, close = (client_aio if mode == "aio" else client_aiohttp)(url, limit)
        await calls(4)  # warm-up: the model's codecs, the library's first connection
        before = rss()
        task = asyncio.ensure_future(calls(n))
        await asyncio.sleep(2.0)  # the server holds them 3 s: all in flight now
        during = rss()
        if task.done():
            raise RuntimeError("the calls ended before the measure: the server is not slow enough")
        await task
        print(during - before, n)
        await close()

    asyncio.run(main())


# ---- the driver ----------------------------------------------------------

def child(*args: str) -> list[str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = os.path.join(REPO, "bindings", "python")
    out = subprocess.run([sys.executable, __file__, *args], check=True, capture_output=True, text=True, env=env,
                         timeout=900)
    return out.stdout.split()


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--calls", type=int, default=int(os.environ.get("BENCH_ASYNC_CALLS", "1000")))
    ap.add_argument("--rounds", type=int, default=int(os.environ.get("BENCH_ASYNC_ROUNDS", "3")))
    ap.add_argument("--runs", type=int, default=int(os.environ.get("BENCH_ASYNC_RUNS", "3")))
    ap.add_argument("--serve", type=float, help=argparse.SUPPRESS)
    ap.add_argument("--worker", nargs=2, help=argparse.SUPPRESS)
    ap.add_argument("--memory", nargs=3, help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.serve is not None:
        raise_fd_limit()
        loop = asyncio.new_event_loop()
        eof = loop.run_in_executor(None, sys.stdin.read)
        loop.run_until_complete(_serve_until(loop, _protocol(args.serve), eof))
        return 0
    if args.worker:
        worker(args.worker[0], args.worker[1], args.calls, args.rounds)
        return 0
    if args.memory:
        memory_worker(args.memory[0], args.memory[1], args.calls, int(args.memory[2]))
        return 0

    if not os.path.exists(MODEL):
        sys.exit(f"{MODEL} is missing: set SMITHYCURL_SHARED to the shared data folder")
    try:
        import aiohttp  # noqa: F401
    except ImportError:
        sys.exit("aiohttp is missing: apt-get install python3-aiohttp (for /usr/bin/python3)")
    n, rounds = args.calls, args.rounds
    fast, url = start_server(0)
    cpu: dict[str, list[float]] = {"aiohttp": [], "aio": [], "sync": []}
    wall: dict[str, list[float]] = {"aiohttp": [], "aio": [], "sync": []}
    try:
        for _ in range(args.runs):
            for mode in cpu:
                c, w = child("--worker", mode, url, "--calls", str(n), "--rounds", str(rounds))
                cpu[mode].append(float(c) / (n * rounds) * 1e6)
                wall[mode].append(float(w) / (n * rounds) * 1e6)
    finally:
        assert fast.stdin is not None
        fast.stdin.close()
        fast.wait(10)
    slow, slow_url = start_server(3.0)
    mem: dict[tuple[str, int], float] = {}
    try:
        for limit in (0, n):
            for mode in ("aiohttp", "aio"):
                delta, count = child("--memory", mode, slow_url, str(limit), "--calls", str(n))
                mem[mode, limit] = float(delta) / int(count) / 1024
    finally:
        assert slow.stdin is not None
        slow.stdin.close()
        slow.wait(10)

    print(f"python {sys.version.split()[0]}: {n} concurrent DynamoDB GetItem calls (SigV4) on a local server, "
          f"{rounds} rounds per process, {args.runs} processes per client (medians)")
    print(f"{'client':<44} {'CPU/call':>10} {'wall/call':>10}")
    names = {"aiohttp": "aiohttp + json (hand-written, SigV4)", "aio": "smithycurl.aio",
             "sync": "smithycurl sync, ThreadPoolExecutor(64)"}
    med = {m: statistics.median(v) for m, v in cpu.items()}
    for mode in ("aiohttp", "aio", "sync"):
        print(f"{names[mode]:<44} {med[mode]:8.1f}us {statistics.median(wall[mode]):8.1f}us")
    ratio = med["aio"] / med["aiohttp"]
    goal("Python smithycurl.aio CPU per call / aiohttp + json", ratio, True, 1.0)
    print(f"CPU per call, smithycurl.aio / aiohttp: {ratio:.2f}x; "
          f"sync on 64 threads / smithycurl.aio: {med['sync'] / med['aio']:.2f}x")
    print(f"memory per in-flight call ({n} in flight, server answering after 3 s):")
    d = mem["aio", 0]
    print(f"  default limits (100 on the wire): smithycurl.aio {d:.1f} KiB, "
          f"aiohttp {mem['aiohttp', 0]:.1f} KiB")
    m = mem["aio", n]
    print(f"  all {n} on the wire: smithycurl.aio {m:.1f} KiB, "
          f"aiohttp {mem['aiohttp', n]:.1f} KiB")
    goal("Python smithycurl.aio memory per in-flight call, 100 on the wire", d, True, 16, " KiB")
    goal(f"Python smithycurl.aio memory per in-flight call, {n} on the wire", m, True, 16, " KiB")
    return 0


def _protocol(delay: float) -> Any:
    response = (b"HTTP/1.1 200 OK\r\nContent-Type: application/x-amz-json-1.0\r\n"
                b"x-amzn-RequestId: BENCH0000000000000000000000000000000000000000000000\r\n"
                b"Content-Length: " + str(len(OUTPUT)).encode() + b"\r\n\r\n" + OUTPUT)

    class Conn(asyncio.Protocol):
        """One connection: HTTP/1.1 requests with a Content-Length body,
        each answered with the GetItem output (after delay seconds)."""

        def connection_made(self, transport: Any) -> None:
            self.t = transport
            self.buf = b""

        def data_received(self, data: bytes) -> None:
            self.buf += data
            while True:
                end = self.buf.find(b"\r\n\r\n")
                if end < 0:
                    return
                n = 0
                for line in self.buf[:end].split(b"\r\n")[1:]:
                    name, _, value = line.partition(b":")
                    if name.strip().lower() == b"content-length":
                        n = int(value)
                if len(self.buf) < end + 4 + n:
                    return
                self.buf = self.buf[end + 4 + n:]
                if delay > 0:
                    asyncio.get_running_loop().call_later(delay, self.reply)
                else:
                    self.t.write(response)

        def reply(self) -> None:
            if not self.t.is_closing():
                self.t.write(response)

    return Conn


if __name__ == "__main__":
    sys.exit(main())
