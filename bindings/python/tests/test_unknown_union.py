"""A union member the model does not know (a newer service's) is kept with
its name and value, through the real library from a real server on
127.0.0.1: by the run-time client and by a generated module (a @required
union is never None); sending it back raises naming the member path, and
nothing is sent."""

from __future__ import annotations

import importlib
import os
import sys
from typing import Any

import pytest

import smithycurl
import smithycurl.gen
from conftest import CannedServer

MODEL = """
$version: "2"
namespace test.unknown

use aws.protocols#awsJson1_0

@awsJson1_0
service Unknowns {
    version: "1"
    operations: [Get]
}

operation Get {
    input := {
        u: Value
    }
    output := {
        @required
        u: Value
        l: Values
    }
}

union Value {
    s: String
    n: Integer
}

list Values {
    member: Value
}
"""

BODY = b'{"u": {"NEWTYPE": {"k": [1, "v"]}}, "l": [{"s": "a"}, {"NEWTYPE": true}]}'
REFUSED = r'member u: union test\.unknown#Value: member "NEWTYPE" is one this model does not know'


def check(out: Any, unknown_cls: Any, client: Any, canned: CannedServer) -> None:
    assert isinstance(out.u, unknown_cls) and isinstance(out.u, smithycurl.UnknownUnionMember)
    assert (out.u.tag, out.u.value) == ("NEWTYPE", {"k": [1, "v"]})
    assert out.l[0].value == "a" and isinstance(out.l[1], unknown_cls) and out.l[1].value is True
    sent = len(canned.requests)
    with pytest.raises(smithycurl.UsageError, match=REFUSED):
        client.get(u=out.u)
    with pytest.raises(smithycurl.UsageError, match=REFUSED):
        client.get(u={"$unknown": ["NEWTYPE", 1]})
    assert len(canned.requests) == sent


def test_run_time_client(canned: CannedServer) -> None:
    canned.respond(200, BODY, Content_Type="application/x-amz-json-1.0")
    with smithycurl.load_model(text=MODEL).client(endpoint=canned.url, retries=False) as c:
        check(c.get(), c.types.Value, c, canned)


def test_generated_module(canned: CannedServer, tmp_path: Any) -> None:
    canned.respond(200, BODY, Content_Type="application/x-amz-json-1.0")
    smithycurl.gen.generate(smithycurl.load_model(text=MODEL), None, os.path.join(str(tmp_path), "unknown_api"))
    sys.path.insert(0, str(tmp_path))
    try:
        api = importlib.import_module("unknown_api")
        with api.UnknownsClient(canned.url, retries=False) as c:
            check(c.get(), api.ValueUnknown, c, canned)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("unknown_api", None)
