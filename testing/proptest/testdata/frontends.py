"""Calls each case of a JSON file through the C API (libsmithycurl.so by
ctypes, as a C program calls it) and through the Python package, and prints
one JSON line per case: {"case": i, "c": <output or error>, "py": <...>}.

Run by TestFrontEnds (frontends_test.go); standard library only."""
import ctypes
import json
import sys

import smithycurl
from smithycurl import _interrupt, _lib, errors
from smithycurl.client import _dumps


def c_api(client, op, body):
    """The raw C API call: the output document, or the error's shape and
    members as the C accessors give them."""
    lib = client._lib
    r = ctypes.c_void_p()
    rc = _interrupt.call(lib, client._handle, op._op, body, r)
    if rc == _lib.OK:
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        try:
            lib.result_output(r, ctypes.byref(p), ctypes.byref(n))
            return {"output": ctypes.string_at(p, n.value).decode()}
        finally:
            lib.result_free(r)
    if not r.value:
        return {"error": "rc %d" % rc}
    try:
        s = ctypes.c_char_p()
        status = ctypes.c_int()
        lib.result_http_status(r, ctypes.byref(status))
        lib.result_error_shape(r, ctypes.byref(s))
        shape = (s.value or b"").decode()
        p, n = ctypes.c_void_p(), ctypes.c_size_t()
        lib.result_error_members(r, ctypes.byref(p), ctypes.byref(n))
        members = ctypes.string_at(p, n.value).decode() if p.value else ""
    finally:
        lib.result_free(r)
    return {"error": shape, "status": status.value, "members": members}


def py_error(op, exc):
    if isinstance(exc, errors.ServiceError):
        return {"error": exc.shape_id, "status": exc.status}
    return {"error": type(exc).__name__, "message": str(exc)}


def package(client, op, body):
    """The Python package: the typed output, turned back into the document
    form by the package's own codec."""
    try:
        obj = client._call(op, body)
    except errors.SmithycurlError as exc:
        return py_error(op, exc)
    out = op._out
    if out is None or obj is None:
        return {"output": "{}"}
    return {"output": _dumps(out.enc(obj))}


def main():
    cases = json.load(open(sys.argv[1]))
    models = {}
    for i, c in enumerate(cases):
        m = models.get(c["model"])
        if m is None:
            m = models[c["model"]] = smithycurl.load_model(c["model"])
        creds = {"access_key_id": "AKIDEXAMPLE", "secret_access_key": "secret", "region": "us-east-1"}
        with m.client(c["service"], endpoint=c["endpoint"], retries=False, host_prefix=False, aws_credentials=creds) as client:
            op = client._operation(c["op"])
            body = c["input"].encode()
            row = {"case": i, "c": c_api(client, op, body), "py": package(client, op, body)}
        print(json.dumps(row), flush=True)


main()
