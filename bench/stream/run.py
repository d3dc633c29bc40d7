"""make bench-stream: SIZE bytes (default 1 GiB) up and down through each
front end against the blob service of build/testserver (testing/servers/blobserver,
in its own process): the Go client (build/bench-stream-go), the C API
(build/bench-stream-c), the Python package (bench/stream/py_client.py) and
the command line (call --body-in - from a pipe, --body-out /dev/null).
Prints each one's throughput and its process's peak resident set
(ru_maxrss from wait4; the goal is under 64 MiB).

    python3 bench/stream/run.py [SIZE]
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time

BUILD = os.environ.get("BUILD", "build")
MODEL = "testing/servers/blobserver/blobs.smithy"
GOAL_MIB = 64


def run(args: list[str], feed: int = 0) -> tuple[str, float, float]:
    """Runs a front end; returns its stdout, wall seconds and peak RSS in
    MiB. With feed, writes that many bytes of the pattern to its stdin."""
    t0 = time.monotonic()
    p = subprocess.Popen(args, stdin=subprocess.PIPE if feed else subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE)
    writer = None
    if feed:
        def pump() -> None:
            assert p.stdin is not None
            period = bytes(i % 251 for i in range(251 * 1024))
            try:
                for _ in range(feed // len(period)):
                    p.stdin.write(period)
                p.stdin.write(period[:feed % len(period)])
            finally:
                p.stdin.close()
        writer = threading.Thread(target=pump, daemon=True)
        writer.start()
    assert p.stdout is not None and p.stderr is not None
    out_box: dict[str, bytes] = {}
    readers = [threading.Thread(target=lambda k=k, f=f: out_box.__setitem__(k, f.read()), daemon=True)
               for k, f in (("out", p.stdout), ("err", p.stderr))]
    for r in readers:
        r.start()
    _, status, ru = os.wait4(p.pid, 0)
    took = time.monotonic() - t0
    for r in readers:
        r.join()
    if writer:
        writer.join()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        sys.exit(f"{args[0]} failed ({p.returncode}): {out_box['err'].decode(errors='replace')}")
    return out_box["out"].decode(), took, ru.ru_maxrss / 1024


def main() -> None:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 30
    server = subprocess.Popen([os.path.join(BUILD, "testserver")], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                              text=True)
    assert server.stdout is not None and server.stdin is not None
    url = ""
    for _ in range(10):
        name, u = server.stdout.readline().split()
        if name == "blobs":
            url = u
            break
    if not url:
        sys.exit("testserver printed no blobs line")
    mib = size / (1 << 20)
    print(f"streamed bodies: {mib:.0f} MiB up and {mib:.0f} MiB down per front end (peak RSS goal < {GOAL_MIB} MiB)")
    print(f"{'front end':<10} {'up MiB/s':>9} {'down MiB/s':>11} {'peak RSS MiB':>13}")
    rows: list[tuple[str, float, float, float]] = []
    for name, args in (
        ("Go", [os.path.join(BUILD, "bench-stream-go"), url, MODEL, str(size)]),
        ("C", [os.path.join(BUILD, "bench-stream-c"), url, MODEL, str(size)]),
        ("Python", [sys.executable, "-B", "bench/stream/py_client.py", url, MODEL, str(size)]),
    ):
        out, _, rss = run(args)
        up, down = (float(x) for x in out.split())
        rows.append((name, mib / up, mib / down, rss))
    cli = [os.path.join(BUILD, "smithycurl"), "call", "--model", MODEL, "--endpoint", url, "--timeout", "10m"]
    out, up, rss_up = run(cli + ["PutBlob", "--input", '{"key":"bench-cli"}', "--body-in", "-"], feed=size)
    if f'"size":{size}' not in out.replace(" ", "") or '"intact":true' not in out.replace(" ", ""):
        sys.exit(f"CLI PutBlob: {out}")
    _, down, rss_down = run(cli + ["GetBlob", "--input", f'{{"size":{size}}}', "--body-out", os.devnull])
    rows.append(("CLI", mib / up, mib / down, max(rss_up, rss_down)))
    for name, up_r, down_r, rss in rows:
        flag = "" if rss < GOAL_MIB else "  over the goal"
        print(f"{name:<10} {up_r:>9.0f} {down_r:>11.0f} {rss:>13.1f}{flag}")
    server.stdin.close()
    server.wait(10)


if __name__ == "__main__":
    main()
