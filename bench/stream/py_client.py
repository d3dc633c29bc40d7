"""The Python front end of make bench-stream: SIZE bytes up from a binary
readable (neither sized nor seekable: chunked) and down to a file object
(os.devnull), through the smithycurl package. Prints the seconds each
took; bench/stream/run.py reads the process's peak RSS.

    python3 bench/stream/py_client.py ENDPOINT MODEL SIZE
"""

import io
import os
import sys
import time

import smithycurl

PERIOD = bytes(i % 251 for i in range(251 * 1024))


class Pattern(io.RawIOBase):
    def __init__(self, n: int) -> None:
        self.off, self.n = 0, n
        self.src = memoryview(PERIOD * 2)

    def readable(self) -> bool:
        return True

    def readinto(self, b):  # type: ignore[no-untyped-def]
        k = min(len(b), self.n - self.off, len(PERIOD))
        at = self.off % 251
        b[:k] = self.src[at:at + k]
        self.off += k
        return k


def main(endpoint: str, model: str, size: int) -> None:
    c = smithycurl.load_model(model).client(endpoint=endpoint, timeout=600)
    t0 = time.monotonic()
    out = c.put_blob(key="bench-py", body=Pattern(size))
    assert out.size == size and out.intact, out
    t1 = time.monotonic()
    with open(os.devnull, "wb") as f:
        got = c.get_blob.download(f, size=size)
    assert got.content_length == size
    print(f"{t1 - t0:.3f} {time.monotonic() - t1:.3f}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], int(sys.argv[3]))
