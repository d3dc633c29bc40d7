"""Where a call's CPU goes, per stage: reads `perf script -F tid,period,ip,sym,dso`
of a `perf record -g` profile of one bench-c worker (bench/c/stages.sh) on
stdin and prints, one line per stage, its share of the samples.

Each sample goes to the stage of the first frame, walking from the leaf
towards the root, that names one (so an allocation counts where it was
made, a poll where it waited):

  encode     the input checked and the request built (client prepare, the
             codec's encoders, the C API's input checks)
  transport  libcurl, the C shim of package transport, its Go side (handle
             pool, header lines, the response's headers), the kernel's
             send and receive below them
  wait       the poll that waits for the response (libcurl's, in the kernel)
  decode     the response decoded (client decode, the codec's decoders, the
             C API's result)
  copies     the body copied between libcurl, Go and the caller (the write
             callback's buffer, transport.copyC, the C API's output copy;
             the libcurl loop's own collect callback)
  runtime    the Go scheduler and garbage collector, sysmon, the cgo
             crossings
  client     the rest of the client's Go code (the retry loop, auth, hooks)
  other      what none of the above names (the caller, the dynamic loader)

usage: perf script ... | python3 stages.py       (one profile's shares)
       python3 stages.py summary FILE             (stages.sh's table)

FILE holds lines "NAME THREADS CALLS WALL CPU VCSW" for each measurement,
each followed by the shares of its profile ("STAGE SHARE" lines) when it
was profiled; the table has a column per NAME in order of appearance
(the libcurl loop first), medians over the rounds.
"""

from __future__ import annotations

import re
import statistics
import sys
from collections import Counter, defaultdict

_GO = r"github\.com/smithycurl/smithycurl/"
RULES: list[tuple[str, re.Pattern[str]]] = [
    ("runtime", re.compile(
        r"^runtime\.(sysmon|gcBgMarkWorker|gcDrain\w*|gcAssistAlloc\w*|bgsweep|bgscavenge|mstart\w*|schedule|"
        r"findRunnable|park_m|mcall|stopm|startm|stoplockedm|startlockedm|handoffp|wakep|notesleep|notewakeup|"
        r"futex|usleep|osyield|cgocall|cgocallback\w*|asmcgocall\w*|exitsyscall\w*|entersyscall\w*|"
        r"reentersyscall|lockOSThread|unlockOSThread|Gosched|gosched_m|goschedImpl|needm|dropm|morestack\w*|"
        r"newstack|gcStart|gcMarkDone|gcMarkTermination|stopTheWorld\w*|startTheWorld\w*|forEachP\w*|"
        r"sweepone|markroot\w*|scanobject|greyobject|gcWriteBarrier\w*|wbBufFlush\w*|semasleep|semawakeup)(\.|$)"
        r"|^gcWriteBarrier|^crosscall2$|^_cgo_(topofstack|wait_runtime_init_done|release_context)$")),
    ("copies", re.compile(r"^(" + _GO + r"transport\.copyC|main\.cBytes|sc_append|sc_write|collect)$")),
    ("wait", re.compile(r"^(__poll|poll|ppoll|__GI___poll|epoll_wait|do_sys_poll|__x64_sys_poll|__x64_sys_ppoll)$")),
    ("decode", re.compile(
        r"^" + _GO + r"client\.\(\*Client\)\.decode|^main\.(outcome|errorOutcome|finishCall)$"
        r"|^" + _GO + r"protocol\.\(.*\)\.Decode")),
    ("transport", re.compile(
        r"^" + _GO + r"transport\.|^(sc_\w+|curl_\w+|Curl_\w+|__send|__libc_send|__recv|__libc_recv|send|recv)$")),
    ("encode", re.compile(
        r"^" + _GO + r"client\.\(\*Client\)\.(prepare|encodeRequest)|^main\.(checkCall|checkInput|jsonProblem|startCall)$"
        r"|^" + _GO + r"protocol\.\(.*\)\.Encode")),
    ("client", re.compile(r"^" + _GO + r"client\.|^main\.|^_cgoexp_|^scx_|^smithycurl_")),
]
STAGES = ["encode", "transport", "wait", "decode", "copies", "runtime", "client", "other"]
_HEADER = re.compile(r"^\s*\d+\s+\d+\s*$")
_FRAME = re.compile(r"^\s+[0-9a-f]+\s+(.*?)\s+\((.*)\)\s*$")


def classify(frames: list[tuple[str, str]]) -> str:
    """The stage of one sample, frames leaf first as (symbol, dso)."""
    for sym, dso in frames:
        for name, rx in RULES:
            if rx.search(sym):
                return name
        if "libcurl" in dso or "libssl" in dso or "libnghttp2" in dso:
            return "transport"
    # libc called from libcurl, which has no frame pointers: its callers
    # show as [unknown].
    if frames and "libc.so" in frames[0][1] and all(s == "[unknown]" for s, _ in frames[1:]):
        return "transport"
    return "other"


def summary(path: str) -> None:
    """Prints stages.sh's table from the measurements in path."""
    names: list[str] = []
    threads: list[int] = []
    figs: dict[tuple[str, int, str], list[float]] = defaultdict(list)
    key: tuple[str, int] | None = None
    us = 0.0
    with open(path, encoding="utf-8") as f:
        for line in f:
            p = line.split()
            if len(p) == 6:
                name, t, calls, wall, cpu, vcs = p[0], int(p[1]), int(p[2]), float(p[3]), float(p[4]), int(p[5])
                if name not in names:
                    names.append(name)
                if t not in threads:
                    threads.append(t)
                key, us = (name, t), cpu / calls * 1e6
                figs[(name, t, "cpu")].append(us)
                figs[(name, t, "calls/s")].append(calls / wall)
                figs[(name, t, "vcs")].append(vcs / calls)
            elif len(p) == 2 and key is not None:
                figs[(key[0], key[1], p[0])].append(float(p[1]) * us)

    def med(name: str, t: int, what: str) -> float | None:
        v = figs.get((name, t, what))
        return statistics.median(v) if v else None

    def row(label: str, vals: list[float | None], fmt: str) -> None:
        cells = "".join(f"{fmt.format(v) if v is not None else '-':>14}" for v in vals)
        print(f"  {label:<26}{cells}")

    base = names[0]
    for t in threads:
        print(f"{t} thread{'s' if t > 1 else ''}" + " " * 21 + "".join(f"{n:>14}" for n in names))
        for s in STAGES:
            if any(med(n, t, s) is not None for n in names):
                row(f"{s} (us/call)", [med(n, t, s) for n in names], "{:.1f}")
        row("CPU (us/call)", [med(n, t, "cpu") for n in names], "{:.1f}")
        b = med(base, t, "cpu")
        row(f"  x {base}", [(c / b if c is not None and b else None) for c in (med(n, t, "cpu") for n in names)], "{:.2f}x")
        row("calls/s", [med(n, t, "calls/s") for n in names], "{:.0f}")
        b = med(base, t, "calls/s")
        row(f"  x {base}", [(c / b if c is not None and b else None) for c in (med(n, t, "calls/s") for n in names)],
            "{:.2f}x")
        row("voluntary switches/call", [med(n, t, "vcs") for n in names], "{:.2f}")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "summary":
        summary(sys.argv[2])
        return
    weights: Counter[str] = Counter()
    frames: list[tuple[str, str]] | None = None
    weight = 0

    def flush() -> None:
        if frames is not None:
            weights[classify(frames)] += weight

    for line in sys.stdin:
        if _HEADER.match(line):
            flush()
            weight = int(line.split()[1])
            frames = []
            continue
        m = _FRAME.match(line)
        if m and frames is not None:
            frames.append((re.sub(r"\+0x[0-9a-f]+$", "", m.group(1)), m.group(2)))
    flush()
    total = sum(weights.values()) or 1
    for s in STAGES:
        print(s, f"{weights[s] / total:.5f}")


if __name__ == "__main__":
    main()
