"""A call's output reaches Python in one copy: the C API decodes it into
its result's buffer, and Python makes its str from that memory in place
(PyUnicode_DecodeUTF8), not through bytes first (ctypes.string_at, then
bytes.decode: two copies)."""

from __future__ import annotations

import os
import tracemalloc

import smithycurl
from conftest import REPO

TODO_MODEL = os.path.join(REPO, "examples", "todo")
ID = "0f8fad5b-d9cb-469f-a165-70867728950e"


def test_large_output_copied_once() -> None:
    title = "abcdefgh" * (1 << 17)  # 1 MiB
    n = len(title)
    with smithycurl.load_model(TODO_MODEL).client(endpoint="http://127.0.0.1:1", retries=False) as c:
        stubber = smithycurl.Stubber(c)
        for _ in range(2):
            stubber.add_response("get_todo", {"id": ID, "title": title, "priority": "HIGH", "created": 0}, {"id": ID})
        with stubber:
            c.get_todo(id=ID)  # warm
            tracemalloc.start()
            try:
                item = c.get_todo(id=ID)
                _, peak = tracemalloc.get_traced_memory()
            finally:
                tracemalloc.stop()
    assert item.title == title
    # The output's text (1 MiB) and the title parsed from it (1 MiB) at
    # once; bytes of it too made 3 MiB.
    assert peak < 2.5 * n, f"peak {peak} bytes for a {n}-byte output: more than one copy of it"
