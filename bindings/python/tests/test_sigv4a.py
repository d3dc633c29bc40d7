"""SigV4a from Python: EventBridge PutEvents with an EndpointId (the real
model), whose endpoint rules choose sigv4a, against the fake global endpoint
of build/testserver, which verifies the signature with the public key of
its test credentials (testing/servers/sigv4aserver)."""

from __future__ import annotations

import pytest

import smithycurl
from conftest import Servers, shared_path

# testing/servers/sigv4aserver's test credentials.
CREDENTIALS = {"access_key_id": "AKIDSIGV4ATEST", "secret_access_key": "sigv4a-test-secret-7c1e5b2d",
               "region": "us-east-1"}
ENTRIES = [{"Source": "test", "DetailType": "t", "Detail": "{}"}]


def test_sigv4a_eventbridge_global_endpoint(servers: Servers) -> None:
    model = smithycurl.load_model(shared_path("aws-models", "eventbridge.json"))
    with model.client(endpoint=servers.sigv4a, aws_credentials=CREDENTIALS, region="us-east-1") as events:
        out = events.put_events(endpoint_id="abcde.veo", entries=ENTRIES)
        assert [e.event_id for e in out.entries] == ["sigv4a events *"]
        # Without EndpointId the rules choose SigV4, which the fake refuses.
        with pytest.raises(smithycurl.ServiceError) as e:
            events.put_events(entries=ENTRIES)
        assert "not signed with SigV4a" in str(e.value)
