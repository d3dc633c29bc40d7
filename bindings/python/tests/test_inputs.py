"""Python values checked against the member types before anything is sent
(TypeError naming the member and the types expected, as boto3 does), and
bigDecimal / bigInteger values sent and read with every digit. The bodies
are checked as go-httpbin received them (its "data" echo)."""

from __future__ import annotations

import decimal
import json
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import CannedServer, Servers

MODEL = """
$version: "2"
namespace test.inputs

@alloy#simpleRestJson
service Inputs {
    operations: [Echo]
}

@http(method: "POST", uri: "/anything")
operation Echo {
    input := {
        i: Integer
        flag: Boolean
        s: String
        d: Double
        bi: BigInteger
        bd: BigDecimal
        bl: Blob
        names: Names
        tags: Tags
        nested: Nested
        shape: Shape
        color: Color
        num: Num
    }
    output := {
        data: String
        bd: BigDecimal
        bi: BigInteger
    }
}

list Names {
    member: String
}

map Tags {
    key: String
    value: Names
}

structure Nested {
    names: Names
    n: Integer
}

union Shape {
    circle: Integer
    square: Nested
}

enum Color {
    RED
    GREEN
}

intEnum Num {
    ONE = 1
}
"""


@pytest.fixture(scope="module")
def echo(servers: Servers) -> Iterator[smithycurl.Client]:
    with smithycurl.load_model(text=MODEL).client(endpoint=servers.httpbin, timeout=20, retries=False) as c:
        yield c


def sent(client: smithycurl.Client, **kwargs: Any) -> str:
    """The JSON body the service received for Echo(**kwargs), as text."""
    data = client.echo(**kwargs).data
    assert isinstance(data, str)
    return data


@pytest.mark.parametrize("value, type_name", [
    ("All", "str"),  # would be sent as ["A", "l", "l"]
    ({"a": 1, "b": 2}, "dict"),  # would be sent as its keys
    ({"a"}, "set"),  # no order
    (b"ab", "bytes"),
    (7, "int"),
    ((x for x in "ab"), "generator"),
])
def test_a_list_member_takes_a_list_or_tuple(echo: smithycurl.Client, value: Any, type_name: str) -> None:
    with pytest.raises(TypeError) as e:
        echo.echo(names=value)
    assert str(e.value) == f"input for Echo: member names: expected a list or tuple, not {type_name}"
    assert isinstance(e.value, smithycurl.InputTypeError) and isinstance(e.value, smithycurl.UsageError)
    assert e.value.member == "names" and e.value.rc == 8
    assert json.loads(sent(echo, names=("a", "b"))) == {"names": ["a", "b"]}
    assert json.loads(sent(echo, names=[])) == {"names": []}


def test_the_member_path_of_a_nested_value(echo: smithycurl.Client) -> None:
    cases: list[tuple[dict[str, Any], str]] = [
        ({"nested": {"names": "xy"}}, "member nested.names: expected a list or tuple, not str"),
        ({"nested": {"names": ["a", 1]}}, "member nested.names[1]: expected str, not int"),
        ({"tags": {"k": "v"}}, "member tags['k']: expected a list or tuple, not str"),
        ({"tags": [("k", ["v"])]}, "member tags: expected a dict, not list"),
        ({"tags": "k"}, "member tags: expected a dict, not str"),
        ({"tags": {1: ["v"]}}, "member tags[1]: expected str keys, not int"),
        ({"shape": {"square": {"n": True}}}, "member shape.square.n: expected int, not bool"),
        ({"shape": ["circle", 1]}, "member shape: expected a Shape member class or a dict with one key, not list"),
        ({"nested": ["a"]}, "member nested: expected a Nested or a dict, not list"),
    ]
    for kwargs, want in cases:
        with pytest.raises(TypeError) as e:
            echo.echo(**kwargs)
        assert str(e.value) == f"input for Echo: {want}", kwargs
    # The same path through a dict input and through the classes.
    T = echo.types
    with pytest.raises(TypeError, match=r"^input for Echo: member nested\.names: expected a list or tuple, not str$"):
        echo.echo({"nested": {"names": "xy"}})
    with pytest.raises(TypeError, match=r"^input for Echo: member nested\.names: expected a list or tuple, not str$"):
        echo.echo(T.EchoInput(nested=T.Nested(names="xy")))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Nested or a dict, not EchoInput"):
        echo.echo(nested=T.EchoInput())


def test_scalar_types(echo: smithycurl.Client) -> None:
    refused: list[tuple[str, Any, str]] = [
        ("i", True, "int"),  # bool is an int subclass; it is not an Integer
        ("i", 1.0, "int"),
        ("i", "1", "int"),
        ("bi", 2.5, "int"),
        ("flag", 1, "bool"),
        ("s", 5, "str"),
        ("s", b"x", "str"),
        ("d", "1.5", "float or int"),
        ("d", True, "float or int"),
        ("bl", 5, "bytes, bytearray, memoryview or str"),
        ("color", 1, "str or an enum member"),
        ("num", "ONE", "int or an enum member"),
        ("num", True, "int or an enum member"),
        ("bd", True, "decimal.Decimal, int or float"),
        ("bd", [1], "decimal.Decimal, int or float"),
    ]
    for name, value, expected in refused:
        with pytest.raises(TypeError) as e:
            echo.echo(**{name: value})
        assert str(e.value) == f"input for Echo: member {name}: expected {expected}, not {type(value).__name__}"
    T = echo.types
    got = json.loads(sent(echo, i=3, flag=False, s="x", d=2, bl="é", color=T.Color.RED, num=T.Num.ONE))
    # A str for a blob is sent as its UTF-8 bytes (as boto3 does).
    assert got == {"i": 3, "flag": False, "s": "x", "d": 2, "bl": "w6k=", "color": "RED", "num": 1}


def test_big_decimal_and_big_integer_keep_every_digit(echo: smithycurl.Client) -> None:
    pi = "3.14159265358979323846264338327950288419716939937510"
    big = 2**200 + 1
    # Members that target the prelude's BigDecimal and BigInteger.
    assert sent(echo, bd=decimal.Decimal(pi)) == '{"bd":' + pi + "}"
    assert sent(echo, bd=decimal.Decimal("-1.2345678901234567890123E+30")) == '{"bd":-1.2345678901234567890123E+30}'
    assert sent(echo, bd=big) == '{"bd":' + str(big) + "}"
    assert sent(echo, bd=0.1) == '{"bd":0.1}'
    assert sent(echo, bd=" 12.50") == '{"bd":12.50}'
    assert sent(echo, bi=big) == '{"bi":' + str(big) + "}"
    assert sent(echo, bd=decimal.Decimal("1.5"), nested={"names": ["a"]}) == '{"bd":1.5,"nested":{"names":["a"]}}'
    # No NaN nor Infinity in a bigDecimal's document form: an error, not a string.
    for bad in (decimal.Decimal("NaN"), decimal.Decimal("-Infinity"), float("nan"), float("inf"), "abc", "NaN"):
        with pytest.raises(smithycurl.UsageError, match=r"^input for Echo: member bd: expected a (finite|decimal) number") as e:
            echo.echo(bd=bad)
        assert e.value.rc == 8 and e.value.member == "bd"


def test_big_decimal_output_keeps_every_digit(canned: CannedServer) -> None:
    pi = "3.14159265358979323846264338327950288419716939937510"
    big = 2**200 + 1
    canned.respond(200, ('{"bd":' + pi + ',"bi":' + str(big) + "}").encode())
    with smithycurl.load_model(text=MODEL).client(endpoint=canned.url, retries=False) as c:
        out = c.echo()
    assert out.bd == decimal.Decimal(pi) and isinstance(out.bd, decimal.Decimal)
    assert out.bi == big
