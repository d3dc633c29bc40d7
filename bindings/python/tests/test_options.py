"""Model.client's options against internal/contract's table (rendered into
smithycurl._contract.CLIENT_OPTIONS): each keyword of the table is one
Model.client accepts, with the table's default; each option keyword of
Model.client is in the table; each reaches its C setter."""

from __future__ import annotations

import inspect
from typing import Any

import pytest

import smithycurl
from smithycurl import _contract, _lib, _options

# Model.client's parameters that are not options: New's arguments, and the
# deprecated alias of validate.
NOT_OPTIONS = {"self", "service", "endpoint", "validation"}

# A value other than the default for each keyword, which its C setter accepts.
SAMPLES: dict[str, Any] = {
    "timeout": 5.0, "connect_timeout": 2.5, "retries": 2, "validate": True, "max_response_bytes": 1024,
    "headers": {"X-Test": "yes"}, "user_agent": "test/1", "bearer_token": "token", "basic_auth": ("ann", "pw"),
    "api_key": "key", "aws_credentials": {"access_key_id": "AKID", "secret_access_key": "secret"},
    "ca_file": "/nonexistent/ca.pem", "cert_file": "/nonexistent/cert.pem", "key_file": "/nonexistent/key.pem",
    "insecure": True, "proxy": "-", "host_prefix": False, "region": "us-east-1",
    "endpoint_params": {"UseFIPS": True}, "waiter_delays": (1, 2), "max_transfers": 10,
    "max_host_connections": 2, "trace": True,
    "credentials": lambda: {"access_key_id": "AKID", "secret_access_key": "secret"}, "token": lambda: "token",
    "profile": "dev", "request_checksum_calculation": "when_required", "response_checksum_validation": "when_supported",
    "interceptors": [smithycurl.Interceptor()], "auth_schemes": {"com.example#hmacAuth": lambda ctx: None},
    "trace_spans": True, "digest_auth": ("ann", "pw"),
    "retry_mode": "adaptive", "request_min_compression_size_bytes": 100, "disable_request_compression": True,
    "app_id": "tests",
    "endpoint_discovery": True,
}


def test_keywords_accepted() -> None:
    params = inspect.signature(smithycurl.Model.client).parameters
    for keyword, (_, default) in _contract.CLIENT_OPTIONS.items():
        p = params.get(keyword)
        assert p is not None, f"Model.client has no keyword {keyword} (internal/contract's ClientOptions)"
        assert p.kind is inspect.Parameter.KEYWORD_ONLY, keyword
        assert p.default is default, f"{keyword}: Model.client's default {p.default!r}, the table's {default!r}"


def test_every_option_is_in_the_table() -> None:
    params = set(inspect.signature(smithycurl.Model.client).parameters) - NOT_OPTIONS
    assert params == set(_contract.CLIENT_OPTIONS), "Model.client's options and internal/contract's ClientOptions differ"


def test_setters_declared() -> None:
    declared = set(getattr(_lib, "_FUNCTIONS"))
    for setter in _options.SETTERS:
        assert setter in declared, f"{setter}: not declared in smithycurl._lib"


@pytest.mark.parametrize("keyword", sorted(_contract.CLIENT_OPTIONS))
def test_keyword_reaches_its_setter(keyword: str) -> None:
    assert set(SAMPLES) == set(_contract.CLIENT_OPTIONS), "give each keyword of the table a sample"
    o = {k: default for k, (_, default) in _contract.CLIENT_OPTIONS.items()}
    o[keyword] = SAMPLES[keyword]
    lib = _lib.load()
    h, _keep = _options.make_options(lib, **o)
    lib.options_free(h)


@pytest.mark.parametrize("timeout", [0, -1.5])
def test_timeout_not_positive(httpbin_model: smithycurl.Model, timeout: float) -> None:
    # C takes 0 as the default; a Python timeout of 0 or less is refused, as
    # the CLI's --timeout is, rather than made 1 ms.
    for keyword in ("timeout", "connect_timeout"):
        with pytest.raises(smithycurl.UsageError, match=f"option {keyword}: give a positive number of seconds"):
            httpbin_model.client(endpoint="http://127.0.0.1:9", **{keyword: timeout})


def test_retries_zero_sends_once(httpbin_model: smithycurl.Model, servers: Any) -> None:
    # 0 attempts is not the default 3: it sends once, as retries=False and
    # the CLI's --retries 0 do.
    with httpbin_model.client(endpoint=servers.httpbin, retries=0) as c:
        with pytest.raises(smithycurl.ServiceError) as e:
            c.status(code=500)
    assert e.value.status == 500 and e.value.attempts == 1


def test_aws_credentials_unknown_key() -> None:
    o = {k: default for k, (_, default) in _contract.CLIENT_OPTIONS.items()}
    o["aws_credentials"] = {"access_key_id": "AKID", "secret_access_key": "s3cr3t-value", "session_tokn": "t0ken-value"}
    with pytest.raises(smithycurl.UsageError, match="unknown key 'session_tokn'") as e:
        _options.make_options(_lib.load(), **o)
    assert all(v not in str(e.value) for v in ("AKID", "s3cr3t-value", "t0ken-value"))
