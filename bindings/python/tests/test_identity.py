"""credentials=, token= and api_key= as callables, and profile=: what a
local server receives (the SigV4 signature's access key, the bearer token,
the API key), caching and refresh, and a callable's exception failing the
call with its message, nothing sent."""

from __future__ import annotations

import datetime
import os
import textwrap
import time
import types
from typing import Any, Iterator

import pytest

import smithycurl
from conftest import CannedServer, run_python

MODEL = """
$version: "2"
namespace test.identity
@aws.protocols#restJson1
@aws.auth#sigv4(name: "echo")
@httpBearerAuth
@httpApiKeyAuth(name: "X-Api-Key", in: "header")
@auth([aws.auth#sigv4])
service Echo { operations: [Signed, WithToken, WithKey] }
@readonly @http(method: "GET", uri: "/signed")
operation Signed {}
@auth([httpBearerAuth]) @readonly @http(method: "GET", uri: "/token")
operation WithToken {}
@auth([httpApiKeyAuth]) @readonly @http(method: "GET", uri: "/key")
operation WithKey {}
"""


@pytest.fixture(scope="module")
def model() -> smithycurl.Model:
    return smithycurl.load_model(text=MODEL)


def header(canned: CannedServer, name: str) -> str:
    return canned.requests[-1][2].get(name, "")


class Leases:
    """A credentials callable counting its calls: AKIDPY<n>, expiring life
    seconds after it was called (None: never)."""

    def __init__(self, life: float | None = None) -> None:
        self.calls = 0
        self.life = life

    def __call__(self) -> dict[str, Any]:
        self.calls += 1
        exp = None if self.life is None else time.time() + self.life
        return {"access_key_id": f"AKIDPY{self.calls}", "secret_access_key": "SECRET-PY", "expiration": exp}


@pytest.fixture()
def client_of(model: smithycurl.Model, canned: CannedServer) -> Iterator[Any]:
    made: list[smithycurl.Client] = []

    def make(**kw: Any) -> smithycurl.Client:
        c = model.client(endpoint=canned.url, region="us-east-1", retries=False, **kw)
        made.append(c)
        return c

    yield make
    for c in made:
        c.close()


def test_credentials_callable_cached(client_of: Any, canned: CannedServer) -> None:
    far = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(hours=1)
    calls = []

    def creds() -> dict[str, Any]:
        calls.append(1)
        return {"access_key_id": "AKIDPY1", "secret_access_key": "SECRET-PY", "expiration": far}

    c = client_of(credentials=creds)
    for _ in range(3):
        c.signed()
        assert "Credential=AKIDPY1/" in header(canned, "Authorization")
        assert "/us-east-1/echo/aws4_request" in header(canned, "Authorization")
    assert len(calls) == 1


def test_credentials_object_with_retrieve(client_of: Any, canned: CannedServer) -> None:
    class Vault:
        def retrieve(self) -> Any:
            return types.SimpleNamespace(access_key_id="AKIDOBJ", secret_access_key="SECRET-OBJ",
                                         session_token="TOKEN-OBJ", expiration=None)

    client_of(credentials=Vault()).signed()
    assert "Credential=AKIDOBJ/" in header(canned, "Authorization")
    assert header(canned, "X-Amz-Security-Token") == "TOKEN-OBJ"


def test_credentials_refreshed_before_they_expire(client_of: Any, canned: CannedServer) -> None:
    leases = Leases(life=3)
    c = client_of(credentials=leases)
    c.signed()
    assert "Credential=AKIDPY1/" in header(canned, "Authorization")
    time.sleep(2.5)  # past three quarters of their life: calls wait for new ones
    c.signed()
    assert "Credential=AKIDPY2/" in header(canned, "Authorization")
    assert leases.calls == 2


def test_an_exception_fails_the_call(client_of: Any, canned: CannedServer) -> None:
    def sealed() -> Any:
        raise RuntimeError("vault sealed")

    with pytest.raises(smithycurl.UsageError, match="RuntimeError: vault sealed"):
        client_of(credentials=sealed).signed()
    assert canned.requests == []


@pytest.mark.parametrize("given, message", [
    (lambda: {"access_key_id": "AKID", "secret_acces_key": "SECRET-TYPO"}, "unknown key 'secret_acces_key'"),
    (lambda: {"access_key_id": "AKID"}, "empty"),
    (lambda: {"access_key_id": "AKID", "secret_access_key": 42}, "secret_access_key is a int, not a str"),
    (lambda: {"access_key_id": "AKID", "secret_access_key": "S", "expiration": "soon"}, "expiration is a str"),
    (lambda: {"access_key_id": "AKID", "secret_access_key": "SECRET-OLD", "expiration": 1000}, "expired"),
])
def test_bad_identities(client_of: Any, canned: CannedServer, given: Any, message: str) -> None:
    with pytest.raises(smithycurl.UsageError, match=message) as e:
        client_of(credentials=given).signed()
    assert "SECRET" not in str(e.value)
    assert canned.requests == []


def test_not_a_provider(client_of: Any) -> None:
    with pytest.raises(smithycurl.UsageError, match="option credentials: give a function of no arguments"):
        client_of(credentials={"access_key_id": "AKID"})


def test_token_and_api_key_callables(client_of: Any, canned: CannedServer) -> None:
    tokens = iter(["tok-1", "tok-2"])
    c = client_of(token=lambda: {"value": next(tokens), "expiration": time.time() + 3600},
                  api_key=types.SimpleNamespace(retrieve=lambda: "key-1"))
    c.with_token()
    assert header(canned, "Authorization") == "Bearer tok-1"
    c.with_token()
    assert header(canned, "Authorization") == "Bearer tok-1"  # cached
    c.with_key()
    assert header(canned, "X-Api-Key") == "key-1"
    client_of(api_key="fixed-key").with_key()
    assert header(canned, "X-Api-Key") == "fixed-key"


def test_profile_missing(model: smithycurl.Model, canned: CannedServer) -> None:
    with pytest.raises(smithycurl.UsageError, match="smithycurl-no-such-profile"):
        model.client(endpoint=canned.url, profile="smithycurl-no-such-profile", credentials=Leases())


def test_profile_region(tmp_path: Any, canned: CannedServer) -> None:
    # A fresh interpreter whose environment names the files from the start.
    config = tmp_path / "config"
    config.write_text("[profile dev]\nregion = eu-west-3\n")
    code = textwrap.dedent("""
        import sys, smithycurl
        m = smithycurl.load_model(text=sys.argv[1])
        creds = lambda: {"access_key_id": "AKIDPROFILE", "secret_access_key": "SECRET"}
        with m.client(endpoint=sys.argv[2], profile="dev", credentials=creds, retries=False) as c:
            c.signed()
    """)
    env = {"AWS_CONFIG_FILE": str(config), "AWS_SHARED_CREDENTIALS_FILE": str(tmp_path / "credentials"),
           "AWS_REGION": "", "AWS_DEFAULT_REGION": "", "AWS_PROFILE": "", "HOME": str(tmp_path)}
    p = run_python(code, MODEL, canned.url, env=env)
    assert p.returncode == 0, p.stderr
    assert "Credential=AKIDPROFILE/" in header(canned, "Authorization")
    assert "/eu-west-3/echo/aws4_request" in header(canned, "Authorization")
    assert os.environ.get("AWS_CONFIG_FILE") != str(config)


def test_environment_changed_after_loading(model: smithycurl.Model, canned: CannedServer, tmp_path: Any,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    # os.environ set after the library loaded is what the next client reads,
    # as botocore reads it (Go's copy of the environment is the load's).
    config = tmp_path / "config"
    config.write_text("[profile later]\nregion = ap-south-2\n")
    monkeypatch.setenv("AWS_CONFIG_FILE", str(config))
    monkeypatch.setenv("AWS_SHARED_CREDENTIALS_FILE", str(tmp_path / "credentials"))
    monkeypatch.setenv("AWS_PROFILE", "later")
    monkeypatch.delenv("AWS_REGION", raising=False)
    monkeypatch.delenv("AWS_DEFAULT_REGION", raising=False)
    monkeypatch.setenv("AWS_ACCESS_KEY_ID", "AKIDLATER")
    monkeypatch.setenv("AWS_SECRET_ACCESS_KEY", "SECRET-LATER")
    with model.client(endpoint=canned.url, retries=False) as c:
        c.signed()
    auth = header(canned, "Authorization")
    assert "Credential=AKIDLATER/" in auth
    assert "/ap-south-2/echo/aws4_request" in auth
    monkeypatch.setenv("AWS_REGION", "eu-north-1")
    with model.client(endpoint=canned.url, retries=False) as c:
        c.signed()
    assert "/eu-north-1/echo/aws4_request" in header(canned, "Authorization")


def test_async_client(model: smithycurl.Model, canned: CannedServer) -> None:
    # Many calls in flight at once: one call of the callable.
    import asyncio

    leases = Leases()

    async def main() -> None:
        async with model.async_client(endpoint=canned.url, region="us-east-1", credentials=leases) as c:
            await asyncio.gather(*(c.signed() for _ in range(20)))

    asyncio.run(asyncio.wait_for(main(), 30))
    assert leases.calls == 1
    assert len(canned.requests) == 20
    assert all("Credential=AKIDPY1/" in r[2]["Authorization"] for r in canned.requests)


def test_close_while_the_callable_runs(model: smithycurl.Model, canned: CannedServer) -> None:
    # Closing the client waits for the callable to return, then drops it.
    import gc
    import threading

    started, returned = threading.Event(), threading.Event()

    def slow() -> dict[str, str]:
        started.set()
        time.sleep(0.3)
        returned.set()
        return {"access_key_id": "AKIDSLOW", "secret_access_key": "SECRET"}

    c = model.client(endpoint=canned.url, region="us-east-1", credentials=slow, retries=False)
    errs: list[BaseException] = []

    def call() -> None:
        try:
            c.signed()
        except smithycurl.SmithycurlError as e:
            errs.append(e)

    t = threading.Thread(target=call)
    t.start()
    assert started.wait(10)
    c.close()
    assert returned.is_set()
    t.join(10)
    del c
    gc.collect()
    assert len(errs) == 1 and isinstance(errs[0], smithycurl.CancelledError), errs
