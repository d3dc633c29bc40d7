"""smithycurl.Stubber: outputs and modeled errors answered through the
library's codec, checked against the model, with botocore's API; a
generated client reads them as typed values. No server: the client's
endpoint has nothing listening."""

from __future__ import annotations

import asyncio
import datetime
import importlib
import os
import subprocess
import sys
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import PKG, REPO

TODO_MODEL = os.path.join(REPO, "examples", "todo")
ID = "0f8fad5b-d9cb-469f-a165-70867728950e"
ITEM = {"id": ID, "title": "milk", "priority": "HIGH", "created": datetime.datetime(2024, 5, 6, 7, 8, 9, tzinfo=datetime.timezone.utc),
        "tags": ["shop"]}


@pytest.fixture
def todo() -> Iterator[smithycurl.Client]:
    with smithycurl.load_model(TODO_MODEL).client(endpoint="http://127.0.0.1:1", retries=False) as c:
        yield c


def test_response_decodes_as_real(todo: smithycurl.Client) -> None:
    stubber = smithycurl.Stubber(todo)
    stubber.add_response("get_todo", ITEM, {"id": ID})
    stubber.add_response("DeleteTodo", {})
    with stubber:
        item = todo.get_todo(id=ID)
        todo.delete_todo(id=ID)
    assert isinstance(item, todo.types.TodoItem)
    assert item.title == "milk" and item.priority.value == "HIGH" and item.done is False
    assert item.created == ITEM["created"] and item.tags == ["shop"]
    stubber.assert_no_pending_responses()
    assert stubber.pending == 0
    stubber.close()


def test_client_error(todo: smithycurl.Client) -> None:
    stubber = smithycurl.Stubber(todo)
    stubber.add_client_error("get_todo", "TodoNotFound", "no such item", modeled_fields={"id": ID})
    stubber.add_client_error("update_todo", "smithycurl.examples.todo#TodoNotFound", "gone", http_status_code=410)
    with stubber:
        with pytest.raises(todo.errors.TodoNotFound) as e:
            todo.get_todo(id=ID)
        assert e.value.message == "no such item" and e.value.id == ID and e.value.status == 404
        with pytest.raises(todo.errors.TodoNotFound) as e:
            todo.update_todo(id=ID, done=True)
        assert e.value.status == 410
    stubber.assert_no_pending_responses()


def test_wrong_shapes_refused(todo: smithycurl.Client) -> None:
    stubber = smithycurl.Stubber(todo)
    with pytest.raises(smithycurl.InputTypeError, match=r"stub of GetTodo: output TodoItem: member tags\[0\]: expected str"):
        stubber.add_response("get_todo", {**ITEM, "tags": [1]})
    with pytest.raises(smithycurl.UsageError, match="has no member 'colour'"):
        stubber.add_response("get_todo", {**ITEM, "colour": "red"})
    with pytest.raises(smithycurl.UsageError, match="output of GetTodo: member title: is required"):
        stubber.add_response("get_todo", {"id": ID, "priority": "LOW", "created": ITEM["created"]})
    with pytest.raises(smithycurl.UsageError, match=r"'Gone' is not one of its errors \(TodoNotFound\)"):
        stubber.add_client_error("get_todo", "Gone")
    with pytest.raises(smithycurl.UsageError, match="has no output"):
        stubber.add_response("delete_todo", {"x": 1})
    assert stubber.pending == 0


def test_unexpected_params_and_calls(todo: smithycurl.Client) -> None:
    stubber = smithycurl.Stubber(todo)
    stubber.add_response("get_todo", ITEM, expected_params={"id": ID})
    stubber.add_response("list_todos", {"items": []})
    stubber.activate()
    other = "1f8fad5b-d9cb-469f-a165-70867728950e"
    with pytest.raises(smithycurl.UsageError, match=f'Expected parameters:\n{{"id":"{ID}"}},\nbut received:\n{{"id":"{other}"}}'):
        todo.get_todo(id=other)
    with pytest.raises(smithycurl.UsageError, match="operation mismatch: the call is to ListTodos, the next stub answers GetTodo"):
        todo.list_todos()
    assert todo.get_todo(id=ID).id == ID
    with pytest.raises(smithycurl.StubAssertionError, match="1 stubs not used: ListTodos") as e:
        stubber.assert_no_pending_responses()
    assert isinstance(e.value, AssertionError)
    assert todo.list_todos().items == []
    with pytest.raises(smithycurl.UsageError, match="no stub is left"):
        todo.list_todos()
    stubber.deactivate()
    with pytest.raises(smithycurl.TransportError):
        todo.list_todos()  # the endpoint again: nothing listens
    stubber.close()


def test_generated_client(tmp_path: Any) -> None:
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", TODO_MODEL, "-o", str(tmp_path / "stub_todo_api")],
                   check=True, env=env, timeout=60)
    sys.path.insert(0, str(tmp_path))
    try:
        api: Any = importlib.import_module("stub_todo_api")
    finally:
        sys.path.remove(str(tmp_path))
    with api.TodosClient("http://127.0.0.1:1", retries=False) as client:
        with smithycurl.Stubber(client) as stubber:
            stubber.add_response("get_todo", api.TodoItem(id=ID, title="bread", priority=api.Priority.LOW,
                                                          created=ITEM["created"]))
            stubber.add_client_error("delete_todo", "TodoNotFound", "nope")
            item = client.get_todo(id=ID)
            assert isinstance(item, api.TodoItem) and item.priority is api.Priority.LOW and item.title == "bread"
            with pytest.raises(api.TodoNotFound, match="nope"):
                client.delete_todo(id=ID)
        stubber.assert_no_pending_responses()


def test_asyncio_client() -> None:
    async def main() -> None:
        client = smithycurl.load_model(TODO_MODEL).async_client(endpoint="http://127.0.0.1:1", retries=False)
        async with client:
            with smithycurl.Stubber(client) as stubber:
                stubber.add_response("get_todo", ITEM, {"id": ID})
                stubber.add_client_error("delete_todo", "TodoNotFound", "nope")
                assert (await client.get_todo(id=ID)).title == "milk"
                with pytest.raises(client.errors.TodoNotFound):
                    await client.delete_todo(id=ID)
            stubber.assert_no_pending_responses()

    asyncio.run(main())
