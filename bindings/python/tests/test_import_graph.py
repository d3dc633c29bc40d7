"""The package's modules import each other without a cycle: every import of
one of its own modules counts, at module level, under ``if TYPE_CHECKING``
or inside a function (an import put there to dodge a cycle is still one)."""

from __future__ import annotations

import ast
import os
from typing import Optional

from conftest import PKG

PACKAGE = "smithycurl"


def _module_names(pkg_dir: str, package: str) -> dict[str, str]:
    """The package's modules by dotted name ("smithycurl.client"; the
    package itself for __init__.py), each with its file."""
    out = {}
    for name in sorted(os.listdir(pkg_dir)):
        if name.endswith(".py"):
            stem = name[:-3]
            out[package if stem == "__init__" else f"{package}.{stem}"] = os.path.join(pkg_dir, name)
    return out


def _resolve(module: str, level: int, target: Optional[str], is_init: bool) -> str:
    """The absolute name of the module an import statement names."""
    if level == 0:
        return target or ""
    base = module.split(".") if is_init else module.split(".")[:-1]
    if level > 1:
        base = base[: len(base) - (level - 1)]
    name = ".".join(base)
    return f"{name}.{target}" if target else name


def import_graph(pkg_dir: str, package: str = PACKAGE) -> dict[str, set[str]]:
    """Each module of the package and the package modules it imports,
    wherever the import statement is in its file."""
    modules = _module_names(pkg_dir, package)
    graph: dict[str, set[str]] = {m: set() for m in modules}
    for mod, path in modules.items():
        with open(path, encoding="utf-8") as f:
            tree = ast.parse(f.read(), path)
        is_init = path.endswith("__init__.py")
        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(mod, node.level, node.module, is_init)
                # "from . import errors" imports the module smithycurl.errors;
                # "from .client import Client" the module smithycurl.client.
                for a in node.names:
                    sub = f"{base}.{a.name}"
                    targets.append(sub if sub in modules else base)
            for t in targets:
                # "import smithycurl.aio" imports smithycurl.aio (and the package).
                while t and t not in modules:
                    t = t.rpartition(".")[0]
                if t and t != mod:
                    graph[mod].add(t)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> Optional[list[str]]:
    """A cycle of the graph as the modules along it, first repeated last;
    None when it has none."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> Optional[list[str]]:
        state[m] = 1
        path.append(m)
        for n in sorted(graph.get(m, ())):
            if state.get(n) == 1:
                return path[path.index(n):] + [n]
            if n not in state:
                found = visit(n)
                if found:
                    return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return None


def test_package_imports_form_a_dag() -> None:
    graph = import_graph(os.path.join(PKG, PACKAGE))
    assert "smithycurl.client" in graph and graph["smithycurl.client"], graph
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or ())


def test_the_check_sees_every_kind_of_import(tmp_path: object) -> None:
    """A cycle closed by a function-level import, or by one under
    TYPE_CHECKING, is found and named."""
    pkg = os.path.join(str(tmp_path), "pkg")
    os.mkdir(pkg)
    files = {
        "__init__.py": "from .a import A\n",
        "a.py": "from . import b\nA = 1\n",
        "b.py": "def f():\n    from .c import C\n    return C\n",
        "c.py": "TYPE_CHECKING = False\nif TYPE_CHECKING:\n    from pkg.a import A\nC = 1\n",
        "d.py": "import os\nfrom .. import nothing_here\n",
    }
    for name, text in files.items():
        with open(os.path.join(pkg, name), "w", encoding="utf-8") as f:
            f.write(text)
    graph = import_graph(pkg, "pkg")
    assert graph == {"pkg": {"pkg.a"}, "pkg.a": {"pkg.b"}, "pkg.b": {"pkg.c"}, "pkg.c": {"pkg.a"}, "pkg.d": set()}
    assert find_cycle(graph) == ["pkg.a", "pkg.b", "pkg.c", "pkg.a"]
    del graph["pkg.c"]
    assert find_cycle(graph) is None
