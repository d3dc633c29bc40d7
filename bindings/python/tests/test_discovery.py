"""endpoint_discovery=: Timestream Write's operations go to the cell
testing/servers/timestreamserver's DescribeEndpoints names, cached, and
discovered again after InvalidEndpointException; off, they fail. The
library reads the environment when it loads: each case runs in a fresh
interpreter whose configured endpoint (AWS_ENDPOINT_URL, which discovery
goes through) is the fake's regional endpoint."""

from __future__ import annotations

import os
import textwrap

from conftest import Servers, run_python, shared_path

CODE = textwrap.dedent("""
    import json, sys, urllib.request
    import smithycurl

    model, control, mode = sys.argv[1], sys.argv[2], sys.argv[3]

    def fake(period, invalidate):
        req = urllib.request.Request(f"{control}/_set?period={period}&invalidate={invalidate}", method="POST")
        urllib.request.urlopen(req, timeout=10).read()

    def stats():
        with urllib.request.urlopen(f"{control}/_stats", timeout=10) as r:
            s = json.load(r)
        return s["describes"], s["cell"]

    creds = {"access_key_id": "AKIDDISCOVERY", "secret_access_key": "secret"}
    m = smithycurl.load_model(model)
    if mode == "off":
        fake(10, 0)
        with m.client(aws_credentials=creds, endpoint_discovery=False) as c:
            try:
                c.list_databases()
                raise SystemExit("no error")
            except smithycurl.UsageError as e:
                assert "requires endpoint discovery, which is turned off" in str(e), e
        assert stats() == (0, 0), stats()
        print("off ok")
        raise SystemExit(0)
    fake(10, 0)
    with m.client(aws_credentials=creds, endpoint_discovery="auto") as c:
        assert c.list_databases().databases[0].database_name == "cell-db"
        c.describe_database(database_name="d")
        assert stats() == (1, 2), stats()
        fake(10, 1)
        assert c.describe_database(database_name="d").database.database_name == "d"
        assert stats() == (1, 1), stats()
    fake(0, 0)
    with m.client(aws_credentials=creds, endpoint_discovery=True) as c:
        c.list_databases()
        c.list_databases()
        assert stats() == (2, 2), stats()
    print("on ok")
""")


def run(servers: Servers, mode: str) -> str:
    env = {"AWS_ENDPOINT_URL": servers.timestream, "AWS_REGION": "us-east-1", "AWS_CONFIG_FILE": os.devnull,
           "AWS_SHARED_CREDENTIALS_FILE": os.devnull, "AWS_PROFILE": "", "AWS_ENABLE_ENDPOINT_DISCOVERY": ""}
    p = run_python(CODE, shared_path("aws-models", "timestream-write.json"), servers.timestream, mode, env=env)
    assert p.returncode == 0, p.stdout + p.stderr
    return p.stdout.strip()


def test_discovered_cached_refreshed(servers: Servers) -> None:
    assert run(servers, "on") == "on ok"


def test_turned_off(servers: Servers) -> None:
    assert run(servers, "off") == "off ok"
