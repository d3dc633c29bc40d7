"""The seed's example in Python: call httpbin's GET /ip, then POST /anything
with a query parameter and a required member, through the smithycurl package.

    PYTHONPATH=bindings/python SMITHYCURL_LIBRARY=build/libsmithycurl.so \\
        python3 examples/python/httpbin.py [endpoint [model-path]]

endpoint: argv[1], else $HTTPBIN_URL, else http://127.0.0.1:8080 (start a
local httpbin with build/testserver). model-path: argv[2], else the
examples/httpbin folder next to this one. (After `pip install
./bindings/python`, neither variable is needed.)
"""

import os
import sys

import smithycurl


def main() -> int:
    endpoint = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("HTTPBIN_URL", "http://127.0.0.1:8080")
    model_path = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "httpbin")
    try:
        model = smithycurl.load_model(model_path)
    except smithycurl.LoadError as e:
        print("\n".join(e.errors), file=sys.stderr)  # file:line:column: ...
        return 1

    # One client for the model's only service, with a 10 s bound on each call.
    with model.client(endpoint=endpoint, timeout=10) as client:
        try:
            ip = client.get_ip()
            print(f"GetIp: {ip}")
            echo = client.anything(id=25, test="yo", query_param="hello")
            print(f"Anything: method={echo.method} json={echo.json} args={echo.args}")
        except smithycurl.ServiceError as e:
            print(f"service error: {e} (HTTP {e.status})", file=sys.stderr)
            return 1
        except smithycurl.SmithycurlError as e:
            print(f"{e.kind or 'error'}: {e}", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
