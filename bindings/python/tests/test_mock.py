"""smithycurl.mock: the Todos example served from its model and the
fixtures of testing/fixtures/todo.json, every operation and modeled error
called from the dynamic client and from the module ``python -m smithycurl
gen`` writes; PizzaAdminService's and DynamoDB's modeled errors from
fixtures; the refusals of serve()."""

from __future__ import annotations

import os
import pathlib
import subprocess
import sys
from typing import Iterator

import pytest

import smithycurl
from conftest import PKG, REPO

TODO_MODEL = os.path.join(REPO, "examples", "todo")
TODO_FIXTURES = os.path.join(REPO, "testing", "fixtures", "todo.json")
TODO_ID = "0f8fad5b-d9cb-469f-a165-70867728950e"
OTHER_ID = "00000000-0000-4000-8000-000000000000"


@pytest.fixture(scope="module")
def todo_model() -> smithycurl.Model:
    return smithycurl.load_model(TODO_MODEL)


@pytest.fixture(scope="module")
def todo_url(todo_model: smithycurl.Model) -> Iterator[str]:
    with smithycurl.mock.serve(todo_model, "smithycurl.examples.todo#Todos", fixtures=TODO_FIXTURES, seed=3) as url:
        yield url


def test_todo_every_operation(todo_model: smithycurl.Model, todo_url: str) -> None:
    assert todo_url.startswith("http://127.0.0.1:")
    with todo_model.client(endpoint=todo_url, timeout=10) as c:
        item = c.create_todo(title="milk")
        assert (item.id, item.title, item.tags) == (TODO_ID, "milk", ["shop"])
        with pytest.raises(c.errors.TooManyTodos) as full:
            c.create_todo(title="full")
        assert (full.value.limit, full.value.status) == (3, 409)
        assert c.get_todo(id=TODO_ID).created.year == 2024
        with pytest.raises(c.errors.TodoNotFound) as missing:
            c.get_todo(id=OTHER_ID)
        assert missing.value.message == "no such item"
        assert [i.id for i in c.list_todos().items] == [TODO_ID]
        assert c.list_todos(done=True).items == []
        assert c.update_todo(id=TODO_ID, done=True).done is True
        with pytest.raises(c.errors.TodoNotFound):
            c.update_todo(id=OTHER_ID, done=True)
        c.delete_todo(id=TODO_ID)
        with pytest.raises(c.errors.TodoNotFound):
            c.delete_todo(id=OTHER_ID)
    # An input the model refuses, sent anyway: the mock's validation error.
    with todo_model.client(endpoint=todo_url, timeout=10, validate=False) as c:
        with pytest.raises(smithycurl.ServiceError) as bad:
            c.create_todo(title="")
        assert bad.value.status == 400 and "/title" in str(bad.value)


GENERATED_PROGRAM = '''
import sys

import todo_api

with todo_api.TodosClient(sys.argv[1], timeout=10) as c:
    print(c.create_todo(title="milk").priority.name)
    try:
        c.create_todo(title="full")
    except todo_api.TooManyTodos as e:
        print("full", e.limit)
    print(c.get_todo(id=sys.argv[2]).title)
    for op in (c.get_todo, c.update_todo, c.delete_todo):
        try:
            op(id=sys.argv[3])
        except todo_api.TodoNotFound as e:
            print("not found", e.status)
    print(len(c.list_todos().items), c.update_todo(id=sys.argv[2], done=True).done)
    c.delete_todo(id=sys.argv[2])
'''


def test_generated_client(todo_url: str, tmp_path: pathlib.Path) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(tmp_path), PKG]))
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", TODO_MODEL, "-o", str(tmp_path / "todo_api")],
                   check=True, env=env, timeout=60)
    prog = str(tmp_path / "program.py")
    with open(prog, "w") as f:
        f.write(GENERATED_PROGRAM)
    r = subprocess.run([sys.executable, prog, todo_url, TODO_ID, OTHER_ID], capture_output=True, text=True, env=env,
                       timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["HIGH", "full 3", "milk", "not found 404", "not found 404", "not found 404",
                                     "1 True"]


def test_fixtures_mapping_and_random(todo_model: smithycurl.Model) -> None:
    fixtures = {"GetTodo": [{"error": "TodoNotFound", "members": {"message": "gone"}}]}
    mock = smithycurl.mock.serve(TODO_MODEL, fixtures=fixtures, seed=5)
    try:
        with todo_model.client(endpoint=mock.url, timeout=10) as c:
            with pytest.raises(c.errors.TodoNotFound, match="gone"):
                c.get_todo(id=TODO_ID)
            # No fixture: a random output valid by the model, the same for the same request.
            a, b = c.update_todo(id=TODO_ID, title="x"), c.update_todo(id=TODO_ID, title="x")
            assert a == b and len(a.id) == 36
    finally:
        mock.stop()
    mock.stop()  # twice: nothing
    assert "stopped" in repr(mock)


def test_refusals(todo_model: smithycurl.Model) -> None:
    with pytest.raises(smithycurl.NotFoundError):
        smithycurl.mock.serve(todo_model, "smithycurl.examples.todo#Nope")
    with pytest.raises(smithycurl.UsageError, match="operation GetTodo, entry 1"):
        smithycurl.mock.serve(todo_model, fixtures={"GetTodo": [{"output": {"id": 7}}]})
    with pytest.raises(smithycurl.UsageError, match="no-such.json"):
        smithycurl.mock.serve(todo_model, fixtures=os.path.join(REPO, "no-such.json"))
    with pytest.raises(smithycurl.UsageError, match="max_body"):
        smithycurl.mock.serve(todo_model, max_body=0)


def test_pizza_errors(pizza_model: smithycurl.Model) -> None:
    """alloy's PizzaAdminService (alloy#simpleRestJson): modeled errors with
    a member in a header (PriceError's X-CODE), the output of a label."""
    fixtures = {
        "GetMenu": [{"match": {"restaurant": "nowhere"}, "error": "NotFoundError", "members": {"name": "nowhere"}},
                    {"match": {"restaurant": "odd"}, "error": "FallbackError", "members": {"error": "odd"}},
                    {"output": {"menu": {}}}],
        "AddMenuItem": [{"error": "PriceError", "members": {"message": "too cheap", "code": 7}}],
    }
    with smithycurl.mock.serve(pizza_model, "alloy.test#PizzaAdminService", fixtures=fixtures) as url:
        with pizza_model.client("alloy.test#PizzaAdminService", endpoint=url, timeout=10) as c:
            assert c.get_menu(restaurant="here").menu == {}
            with pytest.raises(c.errors.NotFoundError) as nf:
                c.get_menu(restaurant="nowhere")
            assert nf.value.name == "nowhere"
            with pytest.raises(c.errors.FallbackError):
                c.get_menu(restaurant="odd")
            with pytest.raises(c.errors.PriceError) as pe:
                c.add_menu_item(restaurant="r", menu_item={"food": {"salad": {"name": "s", "ingredients": []}},
                                                           "price": 1.0})
            assert (pe.value.message, pe.value.code) == ("too cheap", 7)


def test_dynamodb_fixtures() -> None:
    """DynamoDB (awsJson1_0, SigV4): an item from the fixtures, the modeled
    errors of GetItem and PutItem as their exception classes."""
    from conftest import shared_path

    model = smithycurl.load_model(shared_path("models", "aws", "dynamodb.json"))
    fixtures = {
        "GetItem": [{"match": {"TableName": "gone"}, "error": "ResourceNotFoundException",
                     "members": {"message": "Requested resource not found"}},
                    {"output": {"Item": {"id": {"S": "1"}, "n": {"N": "42"}}}}],
        "PutItem": [{"match": {"ConditionExpression": "attribute_not_exists(id)"},
                     "error": "ConditionalCheckFailedException", "members": {"message": "The conditional request failed"}}],
    }
    creds = {"access_key_id": "AKID", "secret_access_key": "secret", "region": "us-east-1"}
    with smithycurl.mock.serve(model, fixtures=fixtures, seed=1) as url:
        with model.client(endpoint=url, aws_credentials=creds, timeout=10, retries=False) as db:
            item = db.get_item(table_name="t", key={"id": {"S": "1"}}).item
            assert item is not None and item["n"].value == "42"
            with pytest.raises(db.errors.ResourceNotFoundException, match="not found"):
                db.get_item(table_name="gone", key={"id": {"S": "1"}})
            with pytest.raises(db.errors.ConditionalCheckFailedException):
                db.put_item(table_name="t", item={"id": {"S": "1"}}, condition_expression="attribute_not_exists(id)")
            db.put_item(table_name="t", item={"id": {"S": "2"}})  # no fixture: a random output
