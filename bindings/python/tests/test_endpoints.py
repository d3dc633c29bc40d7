"""Endpoints from the model's rules: region= instead of endpoint=."""

from __future__ import annotations

import os
from typing import Any

import pytest

import smithycurl
from conftest import Servers, shared_path

# The rules put the region into the host name; libcurl resolves every
# *.localhost name to the loopback address.
RULES_MODEL = """$version: "2"
namespace test.rules
@alloy#simpleRestJson
@smithy.rules#clientContextParams(Port: {type: "string", documentation: "port"})
@smithy.rules#endpointRuleSet({version: "1.0", parameters: {
  Region: {type: "String", builtIn: "AWS::Region", documentation: "r"},
  UseFIPS: {type: "Boolean", builtIn: "AWS::UseFIPS", required: true, default: false, documentation: "f"},
  Endpoint: {type: "String", builtIn: "SDK::Endpoint", documentation: "e"},
  Port: {type: "String", required: true, default: "80", documentation: "p"}},
 rules: [
  {conditions: [{fn: "booleanEquals", argv: [{ref: "UseFIPS"}, true]}], type: "error", error: "FIPS is not offered in {Region}"},
  {conditions: [{fn: "isSet", argv: [{ref: "Endpoint"}]}], type: "endpoint", endpoint: {url: {ref: "Endpoint"}}},
  {conditions: [{fn: "isSet", argv: [{ref: "Region"}]}], type: "endpoint", endpoint: {url: "http://{Region}.localhost:{Port}"}},
  {conditions: [], type: "error", error: "Invalid Configuration: Missing Region"}]})
service Regional { operations: [Anything] }
@readonly @http(method: "GET", uri: "/anything")
operation Anything { input := {} output := { url: String } }
"""


@pytest.fixture(autouse=True)
def no_region_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)


def test_region_resolves_endpoint(servers: Servers) -> None:
    model = smithycurl.load_model(text=RULES_MODEL)
    port = servers.httpbin.rsplit(":", 1)[1]
    with model.client(region="eu-west-1", endpoint_params={"Port": port}, timeout=20) as c:
        assert c.endpoint is None
        assert "//eu-west-1.localhost:" + port + "/anything" in c.anything().url
    # An explicit endpoint goes through the rules as SDK::Endpoint.
    with model.client(endpoint=servers.httpbin, region="eu-west-1", timeout=20) as c:
        assert c.anything().url.startswith(servers.httpbin)
    # A rule's error is a UsageError with its message; nothing is sent.
    with model.client(region="eu-west-1", endpoint_params={"Port": port, "UseFIPS": True}) as c:
        with pytest.raises(smithycurl.UsageError, match="endpoint rules: FIPS is not offered in eu-west-1"):
            c.anything()


@pytest.mark.parametrize("kwargs,match", [
    ({}, "give a region"),
    ({"region": "us-east-1/../evil"}, "not a valid region name"),
    ({"region": "eu-west-1\r\nX: y"}, "not a valid region name"),
    ({"region": "eu-west-1", "endpoint_params": {"Nope": "x"}}, "Nope"),
    ({"region": "eu-west-1", "endpoint_params": {"Port": 80}}, "not a str or bool"),
])
def test_endpoint_usage_errors(kwargs: dict[str, Any], match: str) -> None:
    model = smithycurl.load_model(text=RULES_MODEL)
    with pytest.raises(smithycurl.UsageError, match=match):
        model.client(**kwargs)


def test_dynamodb_region_only() -> None:
    """DynamoDB's "local" region resolves to DynamoDB Local (the request
    as the trace shows it before sending)."""
    path = shared_path("models", "aws", "dynamodb.json")
    events: list[dict[str, Any]] = []
    creds = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "secret"}
    with smithycurl.load_model(path).client(region="local", aws_credentials=creds, retries=False, timeout=5,
                                            trace=events.append) as db:
        try:
            db.list_tables()
        except smithycurl.SmithycurlError:
            pass  # nothing may listen on localhost:8000: the request is what counts
    requests = [e for e in events if e["phase"] == "request"]
    assert requests and requests[0]["url"] == "http://localhost:8000/"
