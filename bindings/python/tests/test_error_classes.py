"""One class per shape across loads of the same model (an error raised by a
client of a second load is caught by the first load's class), separate
classes for different definitions, and ``e.code``: the service's error code
as boto3 reports it. SQS (its real model, awsJson1_0 and
awsQueryCompatible) is played by a canned server on 127.0.0.1."""

from __future__ import annotations

import os
import threading
from typing import Any

import pytest

import smithycurl
from conftest import CannedServer, Servers, pizza_model_paths, shared_path, PIZZA_SERVICE

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
               "region": "us-east-1"}
NO_QUEUE = b'{"__type":"com.amazonaws.sqs#QueueDoesNotExist","message":"The specified queue does not exist."}'


def sqs_path() -> str:
    return shared_path("models", "aws", "sqs.json")


def test_an_error_of_a_second_load_is_caught_by_the_first_loads_class(canned: CannedServer) -> None:
    path = sqs_path()
    canned.respond(400, NO_QUEUE, x_amzn_query_error="AWS.SimpleQueueService.NonExistentQueue;Sender")
    c1 = smithycurl.load_model(path).client(endpoint=canned.url, aws_credentials=CREDENTIALS, retries=False)
    c2 = smithycurl.load_model(path).client(endpoint=canned.url, aws_credentials=CREDENTIALS, retries=False)
    with c1, c2:
        assert c1.model is not c2.model
        try:
            c2.get_queue_url(queue_name="nope")
        except c1.errors.QueueDoesNotExist as e:
            caught: Any = e
        assert type(caught) is c2.errors.QueueDoesNotExist is c1.errors.QueueDoesNotExist
        # The same for the other classes: structures and enums.
        assert c1.types.GetQueueUrlRequest is c2.types.GetQueueUrlRequest
        assert c1.types.QueueAttributeName is c2.types.QueueAttributeName
        assert c2.types.GetQueueUrlRequest(queue_name="q") == c1.types.GetQueueUrlRequest(queue_name="q")


def test_code_is_the_services_error_code(canned: CannedServer) -> None:
    path = sqs_path()
    with smithycurl.load_model(path).client(endpoint=canned.url, aws_credentials=CREDENTIALS, retries=False) as c:
        # awsQueryCompatible: the awsQuery code, as boto3 gives it.
        canned.respond(400, NO_QUEUE, x_amzn_query_error="AWS.SimpleQueueService.NonExistentQueue;Sender")
        with pytest.raises(c.errors.QueueDoesNotExist) as e:
            c.get_queue_url(queue_name="nope")
        assert e.value.code == "AWS.SimpleQueueService.NonExistentQueue" == e.value.error_code
        assert e.value.rc == 10 and e.value.status == 400 and e.value.message == "The specified queue does not exist."
        # Without that header: the error's name.
        canned.respond(400, NO_QUEUE)
        with pytest.raises(c.errors.QueueDoesNotExist) as e:
            c.get_queue_url(queue_name="nope")
        assert e.value.code == "QueueDoesNotExist"
        # An error the model does not have: the name the service sent.
        canned.respond(400, b'{"__type":"com.amazonaws.sqs#SomethingNew","message":"new"}')
        with pytest.raises(smithycurl.ServiceError) as e:
            c.get_queue_url(queue_name="nope")
        assert type(e.value) is smithycurl.ServiceError and e.value.code == "SomethingNew" and e.value.rc == 10
        # The example: a str for a list member is refused before sending.
        n = len(canned.requests)
        with pytest.raises(TypeError, match="member message_attribute_names: expected a list or tuple, not str"):
            c.receive_message(queue_url="https://q", message_attribute_names="All")
        assert len(canned.requests) == n


def test_rc_is_the_smithycurl_code(httpbin: smithycurl.Client, httpbin_model: smithycurl.Model,
                                   servers: Servers) -> None:
    with httpbin_model.client(endpoint=servers.httpbin, validate=True) as checked:
        with pytest.raises(smithycurl.ValidationError) as v:
            checked.status(code=1000)
    assert v.value.rc == 9 and not hasattr(v.value, "code")
    with pytest.raises(smithycurl.UsageError) as u:
        httpbin.bearer()  # no credentials: the library's usage error
    assert u.value.rc == 8 and not hasattr(u.value, "code")
    with pytest.raises(smithycurl.NotFoundError) as nf:
        smithycurl.load_model("/nonexistent/model.smithy")
    assert nf.value.rc == 5


def test_code_beside_members_named_like_it(pizza: smithycurl.Client) -> None:
    # UnknownServerError has an errorCode member: error_code is that member,
    # code the service's code; PriceError's code member wins over it.
    with pytest.raises(pizza.errors.UnknownServerError) as us:
        pizza.health(query="fail")
    assert us.value.code == "UnknownServerError" and us.value.error_code is pizza.types.UnknownServerErrorCode.ERROR_CODE
    assert us.value.meta.error_code == "UnknownServerError"
    with pytest.raises(pizza.errors.PriceError) as pe:
        pizza.add_menu_item(restaurant="bobs", menu_item={"food": {"salad": {"name": "air", "ingredients": []}}, "price": 0})
    assert pe.value.code == 400 and pe.value.meta.error_code == "PriceError"


def test_unions_are_shared_between_loads(pizza: smithycurl.Client, servers: Servers) -> None:
    with smithycurl.load_model(*pizza_model_paths()).client(PIZZA_SERVICE, endpoint=servers.pizza) as p2:
        T1, T2 = pizza.types, p2.types
        assert T1.Food is T2.Food and T1.FoodPizza is T2.FoodPizza and T1.PizzaBase is T2.PizzaBase
        item = T1.MenuItem(food=T1.FoodSalad(T1.Salad(name="s", ingredients=[])), price=1.0)
        assert p2.types.MenuItem is T1.MenuItem
        with pytest.raises(p2.errors.PriceError):
            pizza.add_menu_item(restaurant="bobs", menu_item=dict(item.__dict__, price=0))


MODEL_A = """
$version: "2"
namespace test.shared

@alloy#simpleRestJson
service S {
    operations: [Op]
}

@http(method: "POST", uri: "/op")
operation Op {
    input := {
        e: Color
        t: Thing
    }
    errors: [Oops]
}

@error("client")
structure Oops {
    message: String
}

structure Thing {
    color: Color = "RED"
}

enum Color {
    RED
    GREEN
}
"""


def test_different_definitions_get_different_classes() -> None:
    def classes(text: str) -> tuple[Any, Any, Any]:
        c = smithycurl.load_model(text=text).client(endpoint="http://127.0.0.1:1")
        return c.errors.Oops, c.types.Thing, c.types.Color

    a = classes(MODEL_A)
    assert classes(MODEL_A) == a
    # Another member in the error: another error class, the others shared.
    b = classes(MODEL_A.replace("message: String", "message: String\n    why: String"))
    assert b[0] is not a[0] and b[1:] == a[1:]
    # Another enum value: another enum, and another Thing (its default is one).
    c = classes(MODEL_A.replace("GREEN", "GREEN\n    BLUE"))
    assert c[0] is a[0] and c[1] is not a[1] and c[2] is not a[2]
    assert c[1]().color is c[2].RED and a[1]().color is a[2].RED


def test_classes_are_shared_between_threads() -> None:
    text = MODEL_A.replace("Oops", "OopsThreads")
    got: list[tuple[Any, Any]] = []
    start = threading.Barrier(6)

    def load() -> None:
        c = smithycurl.load_model(text=text).client(endpoint="http://127.0.0.1:1")
        start.wait(10)
        got.append((c.errors.OopsThreads, c.types.Thing))

    threads = [threading.Thread(target=load) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert len(got) == 6 and len(set(got)) == 1, got
