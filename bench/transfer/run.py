"""make bench-transfer: SIZE bytes (default 1 GiB) up to s3rver and back
through each transfer manager, in interleaved rounds (each round runs every
side once, up then down, so that the load of a shared machine falls on all
alike), each side in its own process: smithycurl's client/s3transfer from Go
(bench/transfer/main.go) and from Python (client.s3), aws-sdk-go-v2's
feature/s3/manager and boto3's s3transfer (bench/transfer/py_side.py), all
with 8 MiB parts, 10 at once. Prints each side's throughput (the transfer
alone: process start and client creation left out) and its process's peak
RSS (ru_maxrss from wait4) and CPU time, then smithycurl's ratios to the two SDKs. Goal:
throughput >= both, peak RSS <= 64 MiB + the parts in flight (80 MiB).
Every download is compared with the file sent.

    SMITHYCURL_S3RVER_URL=... python3 bench/transfer/run.py [SIZE [ROUNDS]]
"""

from __future__ import annotations

import filecmp
import os
import subprocess
import sys
import time

BUILD = os.environ.get("BUILD", "build")
MODEL = os.path.join(os.environ.get("SMITHYCURL_SHARED", "../shared"), "models", "aws-large", "s3.json")
PY = sys.executable
HERE = os.path.dirname(os.path.abspath(__file__))
BUCKET = "smithycurl-bench-transfer"
GOAL_MIB = 64 + 10 * 8


def run(args: list[str]) -> tuple[float, float, float]:
    """Runs a side; returns the seconds it printed, its peak RSS in MiB and
    its CPU seconds (user + system, process start and client set-up
    included: steadier than the wall time on a loaded machine)."""
    p = subprocess.Popen(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    _, status, ru = os.wait4(p.pid, 0)
    assert p.stdout is not None and p.stderr is not None
    out, err = p.stdout.read(), p.stderr.read()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"{' '.join(args[:3])} failed: {err.decode(errors='replace')}")
    return float(out.decode().split()[-1]), ru.ru_maxrss / 1024, ru.ru_utime + ru.ru_stime


def main() -> None:
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 1 << 30
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1
    endpoint = os.environ["SMITHYCURL_S3RVER_URL"]
    work = os.path.join(BUILD, "bench-transfer")
    os.makedirs(work, exist_ok=True)
    src, dst = os.path.join(work, "src.bin"), os.path.join(work, "dst.bin")
    if not os.path.exists(src) or os.path.getsize(src) != size:
        with open(src, "wb") as f:
            left = size
            while left:
                n = min(left, 8 << 20)
                f.write(os.urandom(n))
                left -= n
    go = os.path.join(BUILD, "bench-transfer-go")
    side = os.path.join(HERE, "py_side.py")
    sides = {
        "smithycurl Go": lambda d, k, f: [go, "smithycurl", d, endpoint, MODEL, BUCKET, k, f],
        "smithycurl Python": lambda d, k, f: [PY, "-B", side, "smithycurl", d, endpoint, MODEL, BUCKET, k, f],
        "manager (Go)": lambda d, k, f: [go, "manager", d, endpoint, MODEL, BUCKET, k, f],
        "boto3": lambda d, k, f: [PY, "-B", side, "boto3", d, endpoint, MODEL, BUCKET, k, f],
    }
    # boto3 only in the sides: a child's ru_maxrss counts this process's
    # resident set at the fork, so this one stays small.
    run([PY, "-B", side, "boto3", "mkbucket", endpoint, MODEL, BUCKET, "-", "-"])
    res: dict[str, dict[str, list[tuple[float, float, float]]]] = {n: {"up": [], "down": []} for n in sides}
    mib = size / (1 << 20)
    print(f"S3 transfers on s3rver: {mib:.0f} MiB up and down per side, {rounds} interleaved round(s), 8 MiB parts, "
          f"10 at once (shared, loaded machine: one run)")
    for r in range(rounds):
        for name, argv in sides.items():
            key = f"bench/{name.split()[0]}-{r}"
            res[name]["up"].append(run(argv("up", key, src)))
            res[name]["down"].append(run(argv("down", key, dst)))
            if not filecmp.cmp(src, dst, shallow=False):
                sys.exit(f"{name}: the object downloaded differs from the file sent")
            os.remove(dst)
            run([PY, "-B", side, "boto3", "delete", endpoint, MODEL, BUCKET, key, "-"])
    print(f"{'side':<18} {'up MiB/s':>9} {'down MiB/s':>11} {'peak RSS up/down MiB':>21} {'CPU s up/down':>14}")
    rate: dict[str, tuple[float, float]] = {}
    cpu: dict[str, tuple[float, float]] = {}
    for name in sides:
        up = sum(t for t, _, _ in res[name]["up"])
        down = sum(t for t, _, _ in res[name]["down"])
        rate[name] = (mib * rounds / up, mib * rounds / down)
        cpu[name] = (sum(c for _, _, c in res[name]["up"]), sum(c for _, _, c in res[name]["down"]))
        rss = (max(m for _, m, _ in res[name]["up"]), max(m for _, m, _ in res[name]["down"]))
        print(f"{name:<18} {rate[name][0]:9.1f} {rate[name][1]:11.1f} {rss[0]:10.0f} / {rss[1]:<8.0f} "
              f"{cpu[name][0]:6.1f} / {cpu[name][1]:<6.1f}")
    for ours, theirs in (("smithycurl Go", "manager (Go)"), ("smithycurl Go", "boto3"),
                         ("smithycurl Python", "boto3")):
        print(f"{ours} / {theirs}: throughput up {rate[ours][0] / rate[theirs][0]:.2f}x, "
              f"down {rate[ours][1] / rate[theirs][1]:.2f}x (goal >= 1); CPU up {cpu[ours][0] / cpu[theirs][0]:.2f}x, "
              f"down {cpu[ours][1] / cpu[theirs][1]:.2f}x")
    print(f"peak RSS goal: <= {GOAL_MIB} MiB (64 MiB + 10 parts of 8 MiB in flight)")


if __name__ == "__main__":
    main()
