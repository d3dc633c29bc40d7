"""python -m smithycurl gen gives @paginated operations typed paginators
(client.paginate.list_todos): the Todos module, run against the Todos
server and checked with mypy --strict."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import PKG, REPO, Servers

PROGRAM = '''
import sys

import todo_api
from todo_api import ListTodosOutput, TodoItem, TodosClient

import smithycurl


def main(url: str) -> None:
    with TodosClient(url, timeout=10) as client:
        # The server is shared with other tests: items may exist already
        # (listed oldest first, so the new ones come last).
        before = sum(1 for _ in client.paginate.list_todos(page_size=2).items())
        for i in range(3):
            client.create_todo(title=f"gen-page-{i}")
        pages: smithycurl.Paginator[ListTodosOutput] = client.paginate.list_todos(limit=2)
        sizes = [len(p.items) for p in pages]
        items: list[TodoItem] = list(client.paginate.list_todos(page_size=2, max_items=before + 3).items())
        titles = [t.title for t in items]
        print(len(sizes) >= 2, max(sizes),
              len(items) == before + 3 and titles[before:] == [f"gen-page-{i}" for i in range(3)] or titles)


if __name__ == "__main__":
    main(sys.argv[1])
'''


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("genpage"))
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", os.path.join(REPO, "examples", "todo"),
                    "-o", os.path.join(out, "todo_api")], check=True, env=env)
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(PROGRAM)
    return out


def test_generated_paginator_runs(generated: str, servers: Servers) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([sys.executable, os.path.join(generated, "program.py"), servers.todo],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["True", "2", "True"]
    with open(os.path.join(generated, "todo_api", "__init__.py")) as f:
        src = f.read()
    assert "def list_todos(self, *, done: typing.Optional[bool] = None" in src
    assert "max_items: typing.Optional[int] = None" in src
    assert "-> smithycurl.Paginator[ListTodosOutput]:" in src


def test_generated_paginator_passes_mypy_strict(generated: str, mypy_strict: list[str]) -> None:
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(generated, "program.py"),
                        os.path.join(PKG, "smithycurl")], capture_output=True, text=True, env=env, cwd=generated,
                       timeout=180)
    assert r.returncode == 0, r.stdout + r.stderr
