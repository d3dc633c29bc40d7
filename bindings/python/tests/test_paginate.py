"""client.paginate against the Todos service (testing/servers/todoserver):
ListTodos is @paginated(inputToken/outputToken nextToken, pageSize limit,
items items)."""

from __future__ import annotations

import os

import pytest

import smithycurl
from conftest import REPO, Servers


@pytest.fixture(scope="module")
def todos(servers: Servers) -> smithycurl.Client:
    model = smithycurl.load_model(os.path.join(REPO, "examples", "todo"))
    c = model.client(endpoint=servers.todo)
    for i in range(5):
        c.create_todo(title=f"py-page-{i}")
    return c


def ours(titles: list[str]) -> list[str]:
    return [t for t in titles if t.startswith("py-page-")]


def test_pages(todos: smithycurl.Client) -> None:
    pages = list(todos.paginate.list_todos(limit=2))
    assert len(pages) >= 3
    assert all(type(p) is type(pages[0]) for p in pages)
    assert type(pages[0]).__name__ == type(todos.list_todos(limit=1)).__name__
    assert all(len(p.items) <= 2 for p in pages)
    assert pages[0].next_token == "2" and pages[-1].next_token is None
    assert ours([t.title for p in pages for t in p.items]) == [f"py-page-{i}" for i in range(5)]
    # page_size sets the limit member.
    assert [len(p.items) for p in todos.paginate.list_todos(page_size=3)][0] == 3


def test_items_and_max_items(todos: smithycurl.Client) -> None:
    titles = [t.title for t in todos.paginate.list_todos(limit=2).items()]
    assert ours(titles) == [f"py-page-{i}" for i in range(5)]
    cut = list(todos.paginate.list_todos(limit=2, max_items=3).items())
    assert len(cut) == 3 and type(cut[0]).__name__ == "TodoItem"
    pages = list(todos.paginate.list_todos(page_size=2, max_items=3))
    assert [len(p.items) for p in pages] == [2, 1]


def test_errors(todos: smithycurl.Client) -> None:
    with pytest.raises(AttributeError):
        todos.paginate.list_todoz
    with pytest.raises(smithycurl.UsageError, match="GetTodo: the operation is not paginated"):
        todos.paginate.get_todo(id="x")
    with pytest.raises(TypeError, match="unexpected keyword argument 'limt'"):
        todos.paginate.list_todos(limt=2)
    with pytest.raises(ValueError):
        todos.paginate.list_todos(max_items=-1)
    # A value of the wrong type is refused by the call itself.
    with pytest.raises(smithycurl.UsageError, match="member limit: expected int"):
        todos.paginate.list_todos({"limit": "x"})
    assert dir(todos.paginate) == ["list_todos"]


def test_error_of_the_first_page(todos: smithycurl.Client, servers: Servers) -> None:
    # The library's validation fails the first page; then the iteration is over.
    with todos.model.client(endpoint=servers.todo, validate=True) as strict:
        p = strict.paginate.list_todos(limit=0)
        with pytest.raises(smithycurl.ValidationError, match="limit"):
            next(p)
        assert list(p) == []


def test_close_early(todos: smithycurl.Client) -> None:
    with todos.paginate.list_todos(limit=1) as p:
        first = next(p)
        assert len(first.items) == 1
    assert list(p) == [] and "ended" in repr(p)
