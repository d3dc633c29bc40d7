"""python -m smithycurl gen gives waiters (client.wait.job_done) and event
streams (client.tick_stream) typed methods: the Extras and Ticker modules
run against build/testserver's services and pass mypy --strict, and the
DynamoDB module's TableExists waiter and ListTables paginator run against
dynalite."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

import smithycurl
from conftest import PKG, REPO, Servers, shared_path
from test_aws import emulators  # noqa: F401 (the fixture)

PROGRAM = '''
import sys

from extras_api import ExtrasClient, GetJobOutput, JobLocked
from ticker_api import TickerClient, TickOutput, TickStream, TickStreamTick, TooFast

import smithycurl


def main(extras_url: str, events_url: str) -> None:
    with ExtrasClient(extras_url, timeout=10, waiter_delays=(0.01, 0.04)) as c:
        out: GetJobOutput = c.wait.job_done(id="done-3", max_wait=20)
        print(out.status)
        try:
            c.wait.job_done(id="failed", max_wait=20)
        except smithycurl.WaiterFailureError as e:
            print("failure", e.waiter)
        try:
            c.wait.job_done(id="never", max_wait=0.3)
        except smithycurl.WaiterTimeoutError as e:
            print("timeout", e.attempts >= 2)
        try:
            c.get_job(id="locked")
        except JobLocked as e:
            print("locked", e.message, e.holder)
    with TickerClient(events_url, timeout=10) as t:
        stream: smithycurl.EventStream[TickStream] = t.tick_stream(count=3, fail="exception")
        initial: TickOutput = stream.initial
        print(initial.session)
        seqs = []
        try:
            for ev in stream:
                assert isinstance(ev, TickStreamTick)
                seqs.append(ev.value.seq)
        except TooFast as e:
            print("too fast", e.message)
        print(seqs)
        with t.tick_stream(count=100, interval_ms=50) as s:
            print(type(next(s)).__name__)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
'''

DDB_PROGRAM = '''
import sys
import time

from ddb_api import AttributeDefinition, DynamoDB_20120810Client, KeySchemaElement

CREDENTIALS = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "secret", "region": "us-east-1"}


def main(url: str) -> None:
    with DynamoDB_20120810Client(url, aws_credentials=CREDENTIALS, waiter_delays=(0.05, 0.2)) as db:
        prefix = f"py-typed-{time.time_ns()}-"
        for i in range(3):
            db.create_table(table_name=f"{prefix}{i}", billing_mode="PAY_PER_REQUEST",
                            attribute_definitions=[AttributeDefinition(attribute_name="pk", attribute_type="S")],
                            key_schema=[KeySchemaElement(attribute_name="pk", key_type="HASH")])
            out = db.wait.table_exists(table_name=f"{prefix}{i}", max_wait=60)
            assert out.table is not None and out.table.table_status == "ACTIVE"
        pages = list(db.paginate.list_tables(page_size=1))
        names = [n for p in pages for n in (p.table_names or []) if n.startswith(prefix)]
        print(len(names), all(len(p.table_names or []) <= 1 for p in pages))
        for i in range(3):
            db.delete_table(table_name=f"{prefix}{i}")
            db.wait.table_not_exists(table_name=f"{prefix}{i}", max_wait=60)
        print("deleted")


if __name__ == "__main__":
    main(sys.argv[1])
'''


def _gen(model: str, out: str) -> None:
    env = dict(os.environ, PYTHONPATH=PKG)
    subprocess.run([sys.executable, "-m", "smithycurl", "gen", model, "-o", out], check=True, env=env,
                   capture_output=True)


@pytest.fixture(scope="module")
def generated(tmp_path_factory: pytest.TempPathFactory) -> str:
    out = str(tmp_path_factory.mktemp("genextras"))
    _gen(os.path.join(REPO, "testing", "servers", "extraserver", "extras.smithy"), os.path.join(out, "extras_api"))
    _gen(os.path.join(REPO, "testing", "servers", "eventserver", "ticker.smithy"), os.path.join(out, "ticker_api"))
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(PROGRAM)
    return out


def test_generated_waiter_and_event_stream_run(generated: str, servers: Servers) -> None:
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([sys.executable, os.path.join(generated, "program.py"), servers.extras, servers.events],
                       capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["done", "failure JobDone", "timeout True", "locked job locked is held by ann ann",
                                     "s-1", "too fast slow down",
                                     "[0, 1, 2]", "TickStreamTick"]
    with open(os.path.join(generated, "extras_api", "__init__.py")) as f:
        src = f.read()
    assert "def job_done(self, *, id: str, max_wait: float) -> GetJobOutput:" in src
    with open(os.path.join(generated, "ticker_api", "__init__.py")) as f:
        src = f.read()
    assert "-> smithycurl.EventStream[TickStream]:" in src


def test_generated_waiter_and_event_stream_pass_mypy_strict(generated: str, mypy_strict: list[str]) -> None:
    mypy = shutil.which("mypy")
    if mypy is None:
        if os.environ.get("CI"):
            pytest.fail("mypy is needed in CI (Debian package mypy)")
        pytest.skip("mypy not installed")
    env = dict(os.environ, MYPYPATH=os.pathsep.join([generated, PKG]))
    r = subprocess.run([mypy, *mypy_strict, os.path.join(generated, "program.py"),
                        os.path.join(PKG, "smithycurl")], capture_output=True, text=True, env=env, cwd=generated,
                       timeout=300)
    assert r.returncode == 0, r.stdout + r.stderr


def test_generated_dynamodb_waiters_and_pages(tmp_path: str, emulators: dict[str, str]) -> None:  # noqa: F811
    out = str(tmp_path)
    _gen(shared_path("models", "aws", "dynamodb.json"), os.path.join(out, "ddb_api"))
    with open(os.path.join(out, "program.py"), "w") as f:
        f.write(DDB_PROGRAM)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([out, PKG]))
    r = subprocess.run([sys.executable, os.path.join(out, "program.py"), emulators["SMITHYCURL_DYNALITE_URL"]],
                       capture_output=True, text=True, env=env, timeout=180)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["3 True", "deleted"]


def test_modeled_error_message_without_member(servers: Servers) -> None:
    """JobLocked models no message member: the message the service sends in
    the body is e.message (it was "...JobLocked (HTTP 409)")."""
    m = smithycurl.load_model(os.path.join(REPO, "testing", "servers", "extraserver", "extras.smithy"))
    with m.client(endpoint=servers.extras, timeout=20) as c:
        with pytest.raises(smithycurl.ServiceError) as info:
            c.call("GetJob", id="locked")
    assert info.value.message == "job locked is held by ann"
    assert info.value.code == "JobLocked"
