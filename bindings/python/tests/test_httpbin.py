"""Every operation of the httpbin model against go-httpbin, and the dynamic
client's behaviour: keyword checks, input forms, repr, closing."""

from __future__ import annotations

import dataclasses

import pytest

import smithycurl
from conftest import HTTPBIN_MODEL, REPO, Servers


def test_every_operation(httpbin: smithycurl.Client, servers: Servers) -> None:
    assert sorted(httpbin.operations) == sorted(
        ["anything", "basic_auth", "bearer", "delay", "get", "get_ip", "gzip", "headers", "status"]
    )
    assert httpbin.get_ip().origin == "127.0.0.1"

    out = httpbin.get(query="x y")
    assert out.args == {"q": ["x y"]} and out.url.endswith("/get?q=x%20y")

    echo = httpbin.anything(id=25, test="yo", query_param="hello")
    assert echo.method == "POST" and echo.json == {"id": 25, "test": "yo"} and echo.args == {"query": ["hello"]}
    assert dataclasses.is_dataclass(echo) and type(echo).__name__ == "AnythingOutput"

    assert httpbin.headers(custom="abc").headers["X-Custom"] == ["abc"]
    assert httpbin.status(code=204) is not None
    assert httpbin.delay(seconds=0).url.endswith("/delay/0")
    assert httpbin.gzip().gzipped is True

    with httpbin.model.client(endpoint=servers.httpbin, bearer_token="s3cret", basic_auth=("alice", "pw")) as auth:
        out = auth.bearer()
        assert out.authenticated is True and out.token == "s3cret"
        assert "s3cret" not in repr(out) and "token=***" in repr(out)
        assert auth.basic_auth(user="alice", passwd="pw").user == "alice"
        with pytest.raises(httpbin.errors.Unauthorized) as e:
            auth.basic_auth(user="bob", passwd="pw")
        assert e.value.status == 401 and isinstance(e.value, smithycurl.ServiceError)


def test_credentials_read_from_files(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    # A token read from a file ends with a newline: one is removed.
    with httpbin_model.client(endpoint=servers.httpbin, bearer_token="file-token\r\n",
                              basic_auth=("alice", "pw\n")) as auth:
        assert auth.bearer().token == "file-token"
        assert auth.basic_auth(user="alice", passwd="pw").user == "alice"
    # Any other control character is refused at construction; the message
    # names the option and never shows the value.
    bad: list[dict[str, object]] = [
        {"bearer_token": "SECRET-TOK\x00"},
        {"bearer_token": "SECRET-TOK\n\n"},
        {"basic_auth": ("alice", "SECRET-PW\r")},
        {"api_key": "SECRET-KEY\x1b"},
        {"aws_credentials": {"access_key_id": "AKID", "secret_access_key": "SECRET-AWS\t", "region": "r"}},
    ]
    for kwargs in bad:
        with pytest.raises(smithycurl.UsageError, match="control character") as e:
            httpbin_model.client(endpoint=servers.httpbin, **kwargs)  # type: ignore[arg-type]
        assert "SECRET" not in str(e.value) and "SECRET" not in repr(e.value), e.value
        assert str(e.value).startswith("option " + next(iter(kwargs)))
    with pytest.raises(smithycurl.UsageError, match="must not hold a user or password") as e:
        httpbin_model.client(endpoint="http://alice:SECRET-PW@127.0.0.1:8080")
    assert "SECRET" not in str(e.value)
    with pytest.raises(smithycurl.UsageError, match="port 70000"):
        httpbin_model.client(endpoint="http://127.0.0.1:70000")


PREFIX_MODEL = """
$version: "2"
namespace test.prefix
@alloy#simpleRestJson
service Zoned { operations: [Get] }
@readonly @endpoint(hostPrefix: "{zone}.") @http(method: "GET", uri: "/get")
operation Get { input := { @required @hostLabel zone: String } output := { url: String } }
"""


def test_host_prefix_option(servers: Servers) -> None:
    model = smithycurl.load_model(text=PREFIX_MODEL)
    # libcurl resolves every *.localhost name to the loopback address.
    endpoint = servers.httpbin.replace("127.0.0.1", "localhost")
    with model.client(endpoint=endpoint) as on, model.client(endpoint=endpoint, host_prefix=False) as off:
        assert "//eu1.localhost:" in on.get(zone="eu1").url
        with pytest.raises(smithycurl.UsageError, match="host"):
            on.get(zone="evil.com/x")
        # Off: neither the prefix nor its label is looked at.
        assert "//localhost:" in off.get(zone="evil.com/x").url


def test_missing_credentials_is_a_usage_error(httpbin: smithycurl.Client) -> None:
    with pytest.raises(smithycurl.UsageError, match="httpBearerAuth"):
        httpbin.bearer()


def test_keywords_are_checked_before_the_call(httpbin: smithycurl.Client) -> None:
    with pytest.raises(TypeError) as e:
        httpbin.anything(id=1, querry_param="x")
    assert "querry_param" in str(e.value) and "id, test, query_param" in str(e.value)
    with pytest.raises(TypeError, match="no input"):
        httpbin.get_ip({"x": 1})
    with pytest.raises(TypeError, match="not both"):
        httpbin.anything({"id": 1}, test="x")
    with pytest.raises(AttributeError, match="no operation 'nope'.*get_ip"):
        httpbin.nope()


def test_input_forms(httpbin: smithycurl.Client) -> None:
    AnythingInput = httpbin.types.AnythingInput
    a = httpbin.anything(AnythingInput(id=3, test="dc"))
    b = httpbin.anything({"id": 3, "test": "dc"})
    c = httpbin.anything({"id": 3, "queryParam": "q"})  # Smithy names work in dicts
    d = httpbin.call("Anything", id=3, test="dc")
    assert a.json == b.json == d.json == {"id": 3, "test": "dc"}
    assert c.args == {"query": ["q"]}
    with pytest.raises(TypeError, match="required keyword-only argument: 'id'"):
        AnythingInput(test="x")  # the dataclass requires what the model requires
    with pytest.raises(TypeError, match="no member 'bogus'"):
        httpbin.anything({"id": 1, "bogus": 2})


def test_classes_from_the_model(httpbin: smithycurl.Client) -> None:
    T = httpbin.types
    fields = {f.name: f for f in dataclasses.fields(T.AnythingInput)}
    assert list(fields) == ["id", "test", "query_param"]
    assert fields["test"].default is None and fields["id"].default is dataclasses.MISSING
    assert T["smithycurl.examples.httpbin#AnythingInput"] is T.AnythingInput
    assert T.AnythingInput.shape_id == "smithycurl.examples.httpbin#AnythingInput"
    assert "Unauthorized" in dir(httpbin.errors) and "AnythingOutput" in dir(T)
    assert "Echoes the request" in (httpbin.anything.__doc__ or "")
    assert "query_param: str" in (httpbin.anything.__doc__ or "")
    assert "get_ip" in dir(httpbin)
    secret = T.BasicAuthInput(user="u", passwd="hunter2")
    assert repr(secret) == "BasicAuthInput(user='u', passwd=***)"


def test_repr_and_close(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    c = httpbin_model.client(endpoint=servers.httpbin)
    assert repr(c) == f"<smithycurl.Client smithycurl.examples.httpbin#HttpBin at {servers.httpbin}>"
    assert "HttpBin" in repr(httpbin_model)
    assert "get_ip()" in repr(c.get_ip)
    with c:
        c.get_ip()
    assert "(closed)" in repr(c)
    with pytest.raises(smithycurl.UsageError, match="closed"):
        c.get_ip()
    c.close()  # idempotent


def test_trace(httpbin_model: smithycurl.Model, servers: Servers) -> None:
    events: list[dict] = []
    with httpbin_model.client(endpoint=servers.httpbin, trace=events.append, bearer_token="tok") as c:
        c.get_ip()
    assert [e["phase"] for e in events] == ["request", "response"]
    assert events[1]["status"] == 200 and events[0]["url"].endswith("/ip")


def test_services_and_ast(httpbin_model: smithycurl.Model) -> None:
    svc = httpbin_model.service()
    assert svc.id == "smithycurl.examples.httpbin#HttpBin" and svc.version == "2024-01-01"
    op = svc.operation("get_ip")
    assert (op.name, op.http and op.http["uri"], op.readonly) == ("GetIp", "/ip", True)
    assert "smithycurl.examples.httpbin#HttpBin" in httpbin_model.ast()["shapes"]
    with pytest.raises(smithycurl.NotFoundError, match="GetIp"):
        svc.operation("GetIpp")


def test_documentation_read_when_asked() -> None:
    # The services are described without their documentation (what making
    # a client needs); the first documentation asked for reads all of it.
    model = smithycurl.load_model(HTTPBIN_MODEL)
    svc = model.service()
    assert model._docs is None
    assert svc.documentation == "The httpbin HTTP testing service."
    assert model._docs is not None
    assert svc.operation("GetIp").documentation == "Returns the caller's IP address."
    assert svc.operation("Anything").documentation.startswith("Echoes the request")
    with model.client(endpoint="http://127.0.0.1:9") as c:
        assert (c.get_ip.__doc__ or "").startswith("Returns the caller's IP address.")
    # an operation's help needs no call for the whole documentation
    model2 = smithycurl.load_model(HTTPBIN_MODEL)
    with model2.client(endpoint="http://127.0.0.1:9") as c:
        assert (c.anything.__doc__ or "").startswith("Echoes the request")
    assert model2._docs is None


def test_example_script(servers: Servers) -> None:
    import os
    import subprocess
    import sys

    env = dict(os.environ, PYTHONPATH=os.path.join(REPO, "bindings", "python"))
    r = subprocess.run([sys.executable, os.path.join(REPO, "examples", "python", "httpbin.py"), servers.httpbin],
                       capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "GetIp: GetIpOutput(origin='127.0.0.1')",
        "Anything: method=POST json={'id': 25, 'test': 'yo'} args={'query': ['hello']}",
    ]
