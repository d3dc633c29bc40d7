"""Waiters (client.wait.<name>): DynamoDB's TableExists and TableNotExists
against dynalite, and waiters added to the httpbin model for the failure,
timeout and error paths."""

from __future__ import annotations

import builtins
import threading
import time

import pytest

import smithycurl
from conftest import HTTPBIN_MODEL, Servers
from test_aws import CREDENTIALS, aws_model, emulators  # noqa: F401 (the fixture)

# TestIs succeeds when go-httpbin echoes the input's test for id 1 and fails
# on test "failed"; StatusServerFailure succeeds on the ServerFailure error.
WAITERS = """$version: "2"
namespace smithycurl.examples.httpbin
apply Anything @smithy.waiters#waitable(
    TestIs: { minDelay: 1, acceptors: [
        { state: "failure", message: "join(' ', ['test is', json.test])",
          matcher: { output: { path: "json.test", comparator: "stringEquals", expected: "failed" } } }
        { state: "success", matcher: { inputOutput: {
            path: "input.test == output.json.test && input.id == `1`", comparator: "booleanEquals", expected: "true" } } }
    ] }
)
apply Status @smithy.waiters#waitable(
    StatusServerFailure: { acceptors: [
        { state: "success", matcher: { errorType: "ServerFailure" } }
        { state: "failure", matcher: { success: true } }
    ] }
)
"""


def test_dynamodb_waiters(emulators: dict[str, str]) -> None:  # noqa: F811
    model = aws_model("dynamodb.json")
    with model.client(endpoint=emulators["SMITHYCURL_DYNALITE_URL"], aws_credentials=CREDENTIALS,
                      waiter_delays=(0.05, 0.2)) as db:
        assert dir(db.wait) == ["table_exists", "table_not_exists"]
        name = f"py-wait-{time.time_ns()}"

        def create() -> None:
            time.sleep(0.3)
            db.create_table(table_name=name, billing_mode="PAY_PER_REQUEST",
                            attribute_definitions=[{"AttributeName": "pk", "AttributeType": "S"}],
                            key_schema=[{"AttributeName": "pk", "KeyType": "HASH"}])

        t = threading.Thread(target=create)
        t.start()
        start = time.monotonic()
        out = db.wait.table_exists(table_name=name, max_wait=20)
        took = time.monotonic() - start
        t.join()
        assert out.table is not None and out.table.table_status == "ACTIVE"
        assert 0.3 <= took < 5, took

        t = threading.Thread(target=lambda: (time.sleep(0.3), db.delete_table(table_name=name)))
        t.start()
        db.wait["TableNotExists"]({"TableName": name}, max_wait=20)
        t.join()
        with pytest.raises(smithycurl.ServiceError):
            db.describe_table(table_name=name)

        start = time.monotonic()
        with pytest.raises(smithycurl.WaiterTimeoutError) as info:
            db.wait.table_exists(table_name="never-" + name, max_wait=0.4)
        assert time.monotonic() - start < 2
        err = info.value
        assert isinstance(err, builtins.TimeoutError) and isinstance(err, smithycurl.WaiterError)
        assert err.waiter == "TableExists" and err.kind == "waiter_timeout" and err.attempts >= 2
        assert err.rc == smithycurl.errors._c.E_WAITER_TIMEOUT


@pytest.fixture()
def waiting(servers: Servers) -> smithycurl.Client:
    model = smithycurl.load_model(HTTPBIN_MODEL, text=WAITERS, name="waiters.smithy")
    return model.client(endpoint=servers.httpbin, waiter_delays=(0.02, 0.05), retries=False)


def test_waiter_success_failure_timeout(waiting: smithycurl.Client) -> None:
    out = waiting.wait.test_is(id=1, test="ok", max_wait=10)
    assert out.json == {"id": 1, "test": "ok"}

    with pytest.raises(smithycurl.WaiterFailureError) as info:
        waiting.wait.test_is(id=1, test="failed", max_wait=10)
    err = info.value
    assert err.waiter == "TestIs" and err.kind == "waiter_failure" and err.attempts == 1
    assert "acceptor 1 (output json.test stringEquals \"failed\") matched on attempt 1: test is failed" in str(err)

    with pytest.raises(smithycurl.WaiterTimeoutError, match="waiter TestIs timed out after"):
        waiting.wait.test_is(id=2, test="ok", max_wait=0.3)

    # errorType: the modeled error is the success; a success is a failure here.
    waiting.wait.status_server_failure(code=500, max_wait=10)
    with pytest.raises(smithycurl.WaiterFailureError, match=r"acceptor 2 \(success true\)"):
        waiting.wait.status_server_failure(code=200, max_wait=10)


def test_waiter_errors(waiting: smithycurl.Client) -> None:
    # An error no acceptor expects is raised as itself.
    with pytest.raises(smithycurl.ValidationError, match="id"):
        waiting.wait.test_is(test="ok", max_wait=10)
    with pytest.raises(AttributeError, match="has no waiter 'nope'; its waiters: status_server_failure, test_is"):
        waiting.wait.nope
    with pytest.raises(smithycurl.UsageError, match="max_wait must be a positive number"):
        waiting.wait.test_is(id=1, test="ok", max_wait=0)
    with pytest.raises(TypeError):
        waiting.wait.test_is(id=1, test="ok")  # type: ignore[call-arg]  # max_wait is required
    with pytest.raises(smithycurl.UsageError, match="waiter_delays"):
        smithycurl.load_model(HTTPBIN_MODEL).client(endpoint="http://127.0.0.1:1", waiter_delays=(-1, 0))
    assert "Waits with TestIs (calls Anything)" in (waiting.wait.test_is.__doc__ or "")
    assert repr(waiting.wait) == "<waiters of smithycurl.examples.httpbin#HttpBin: status_server_failure, test_is>"


CTRL_C = """
import sys, time
import smithycurl
m = smithycurl.load_model(sys.argv[2], text=sys.argv[3], name="waiters.smithy")
c = m.client(endpoint=sys.argv[1])
print("waiting", flush=True)
t = time.monotonic()
try:
    c.wait.test_is(id=2, test="ok", max_wait=60)   # never matches; sleeps 1 s and more between attempts
except KeyboardInterrupt:
    print("KeyboardInterrupt %.3f" % (time.monotonic() - t), flush=True)
    sys.exit(42)
print("no interrupt", flush=True)
"""


def test_ctrl_c_interrupts_a_wait(servers: Servers) -> None:
    from conftest import interrupt_child

    rc, out, err, took = interrupt_child(CTRL_C, servers.httpbin, HTTPBIN_MODEL, WAITERS, ready="waiting", settle=0.7)
    assert rc == 42, (out, err)
    assert took < 0.9, "the wait's sleep was not interrupted at once"
