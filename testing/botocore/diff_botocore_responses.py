#!/usr/bin/env python3
"""Differential test of smithycurl's response decoding against botocore's
parsers.

Reads response cases as JSON lines (testing/cmd/geninputs -responses:
model, service, protocol, operation, seed, input, error shape of an error
case, status, headers, body in base64, the output or error members the
response carries). For each, a server on 127.0.0.1 answers the project's
Python package (smithycurl, through libsmithycurl.so) with exactly that
response and the runner records what the client returned (the output as
plain data, or the raised error's code and members); botocore's parser
(botocore.parsers) reads the same response for the same operation, and its
second pass for a modeled error's members, as botocore's endpoint does. The
two are compared normalized (blobs as bytes, timestamps as instants,
numbers exactly, absent members and nulls dropped as botocore drops them,
its ResponseMetadata ignored), less the documented exclusions
(diff_botocore_responses_exclusions.py). Prints each difference and ends
with

    skipped: N (reasons...)
    N passed, N failed

Run it with `make diff-botocore-responses` (DIFF_SEED, DIFF_RESP_N,
DIFF_RESP_MODELS, DIFF_PYTHON). The request differential
(diff_botocore.py) shares its client setup and input conversion.
"""

from __future__ import annotations

import argparse
import base64
import collections
import datetime
import decimal
import enum
import http.server
import io
import json
import os
import socketserver
import sys
import threading
import time
from typing import Any, Optional

from diff_botocore import HOST_FROM_INPUT, UNRESOLVED_HOST, PerModel, QuietHandler, Service, Skip, add_common_args, b64, botocore, summary, to_smithycurl  # exits when botocore is missing

import botocore.awsrequest
import botocore.parsers
import botocore.response
import smithycurl
import smithycurl.types
from diff_botocore_compare import json_diffs, pick, short
from diff_botocore_responses_exclusions import RCtx, excluded

# ---------------------------------------------------------------- server


class _Handler(QuietHandler):
    def _any(self) -> None:
        self.read_body()
        status, headers, body = self.server.reply  # type: ignore[attr-defined]
        self.send_response_only(status)
        for k, vs in headers.items():
            if k.lower() in ("content-length", "transfer-encoding", "connection"):
                continue
            for v in vs:
                # As UTF-8 bytes (send_header takes Latin-1 only): the
                # renderer's header values may be any text.
                self._headers_buffer.append(f"{k}: {v}\r\n".encode("utf-8"))  # type: ignore[attr-defined]
        self.send_header("Content-Length", str(len(body)))
        if status in (204, 304) and body:
            # A client reads no body after these (RFC 9110): the bytes
            # would be read as the next response on this connection.
            self.send_header("Connection", "close")
            self.close_connection = True
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(body)
            except OSError:
                pass

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _any


class ReplyServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """Answers every request with the response in reply (status, headers
    as lists of values, body)."""

    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.reply: tuple[int, dict[str, list[str]], bytes] = (500, {}, b"")
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"

    def handle_error(self, request: Any, client_address: Any) -> None:
        # A client that gives up on a response (a transport error, which
        # the comparison reports) resets the connection: not news.
        if not isinstance(sys.exc_info()[1], (ConnectionResetError, BrokenPipeError)):
            super().handle_error(request, client_address)


# ---------------------------------------------------------------- plain data


def ours_plain(v: Any) -> Any:
    """A value the Python package returned as plain data with the Smithy
    member names (structures as dicts, union members as one-key dicts)."""
    if isinstance(v, smithycurl.types.UnknownUnionMember):
        return {v.tag: v.value}
    if isinstance(v, smithycurl.types.Union):
        return {type(v).member_name: ours_plain(v.value)}
    if isinstance(v, smithycurl.types.Structure):
        return {name: ours_plain(getattr(v, py)) for py, name in type(v)._sc_members}
    if isinstance(v, enum.Enum):
        return v.value
    if isinstance(v, (list, tuple)):
        return [ours_plain(x) for x in v]
    if isinstance(v, dict):
        return {k: ours_plain(x) for k, x in v.items()}
    if hasattr(v, "read") and callable(v.read):
        return v.read()
    return v


EPOCH = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)


def norm(shape: Any, v: Any) -> Any:
    """A value (either side's) in the form the comparison takes, walked
    with botocore's shape: structures without their None members (botocore
    drops absent members), blobs as base64 texts, timestamps as epoch
    microseconds, numbers as Decimals (NaN and infinities as texts)."""
    if v is None:
        return None
    t = shape.type_name if shape is not None else ""
    if hasattr(v, "read") and callable(v.read):
        v = v.read()
    if t == "structure" and isinstance(v, dict) and not getattr(shape, "is_document_type", False):
        out = {}
        for k, x in v.items():
            if x is None or k == "ResponseMetadata":
                continue
            out[k] = norm(shape.members.get(k), x)
        return out
    if isinstance(v, dict):
        return {k: norm(shape.value if t == "map" else None, x) for k, x in v.items()}
    if isinstance(v, (list, tuple)):
        return [norm(shape.member if t == "list" else None, x) for x in v]
    if isinstance(v, (bytes, bytearray, memoryview)):
        return "b64:" + base64.b64encode(bytes(v)).decode()
    if isinstance(v, datetime.datetime):
        if v.tzinfo is None:
            v = v.replace(tzinfo=datetime.timezone.utc)
        return "t:" + str((v - EPOCH) // datetime.timedelta(microseconds=1))
    if isinstance(v, bool):
        return v
    if isinstance(v, float):
        if v != v:
            return "NaN"
        if v in (float("inf"), float("-inf")):
            return "Infinity" if v > 0 else "-Infinity"
        return decimal.Decimal(repr(v))
    if isinstance(v, (int, decimal.Decimal)):
        return decimal.Decimal(v)
    return v


# ---------------------------------------------------------------- runner


class Case:
    """One response case as geninputs wrote it."""

    def __init__(self, d: dict[str, Any], shared: str) -> None:
        self.model, self.service, self.protocol = d["model"], d["service"], d["protocol"]
        self.model_path = os.path.join(shared, "models", self.model)
        self.op, self.seed, self.input = d["operation"], d["seed"], d["input"]
        self.error: str = d.get("error", "")
        self.status: int = d["status"]
        self.headers: dict[str, list[str]] = d.get("headers") or {}
        self.body = b64(d.get("body") or "")
        self.expected = d["expected"]

    @property
    def kind(self) -> str:
        return "error" if self.error else "output"


class Runner:
    def __init__(self) -> None:
        self.server = ReplyServer()
        self.session = botocore.session.get_session()
        self.services: dict[tuple[str, str], Service] = {}
        self.passed = self.failed = 0
        self.skipped: collections.Counter[str] = collections.Counter()
        self.excluded: collections.Counter[str] = collections.Counter()
        self.classes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.per_protocol: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.shown: set[tuple[str, str, str]] = set()
        self.verbose = False
        self.show_excluded = ""

    def service(self, c: Case) -> Service:
        key = (c.model_path, c.service)
        s = self.services.get(key)
        if s is None:
            self.services.clear()  # one at a time, as the request differential
            s = Service(c.model_path, c.service, c.protocol, self.server.url, self.session)
            self.services[key] = s
        return s

    def ours(self, svc: Service, c: Case) -> Any:
        """What the Python package returns for the case's response:
        {"output": ...} or {"error": {"code", "shape", "members"}}."""
        shapes = svc.model.operation_shapes(c.op)
        in_ref = {"type": "structure", "target": shapes.get("input", "")}
        has_input = shapes.get("input") not in (None, "", "smithy.api#Unit")
        value = to_smithycurl(shapes.get("shapes", {}), in_ref, c.input) if has_input else None
        self.server.reply = (c.status, c.headers, c.body)
        try:
            out = svc.client.call(c.op, value)
        except smithycurl.ServiceError as e:
            members: dict[str, Any] = {}
            if type(e).shape_id and type(e) is not smithycurl.ServiceError:
                reg = svc.client._operation(c.op)._registry
                for m in reg.codec(type(e).shape_id, "structure").members:
                    members[m.name] = ours_plain(getattr(e, m.py, None))
            # meta.error_code: the service's code (members named code or
            # ErrorCode win on e.code, e.error_code).
            return {"error": {"code": e.meta.error_code or None, "shape": (e.shape_id or "").split("#")[-1] or None,
                              "members": members}}
        except (smithycurl.UsageError, smithycurl.ValidationError, TypeError) as e:
            raise Skip(f"smithycurl refused the input: {str(e)[:160]}")
        except smithycurl.SmithycurlError as e:
            if UNRESOLVED_HOST in str(e):
                raise Skip(HOST_FROM_INPUT)
            return {"raised": f"{type(e).__name__}: {e}"}
        return {"output": ours_plain(out)}

    def theirs(self, svc: Service, c: Case) -> Any:
        """What botocore's parser makes of the same response, as
        botocore's endpoint runs it (a second pass for a modeled error's
        members)."""
        op_model = svc.botocore.operation_model(c.op)
        headers = botocore.awsrequest.HeadersDict()
        for k, vs in c.headers.items():
            if k.lower() not in ("content-length", "transfer-encoding", "connection"):
                headers[k] = ", ".join(vs)
        headers["Content-Length"] = str(len(c.body))  # as the reply server sends it
        body: Any = c.body if op_model.http.get("method") != "HEAD" else b""
        if op_model.has_streaming_output and c.status < 300:
            # As botocore's endpoint hands it over (convert_to_response_dict).
            body = botocore.response.StreamingBody(io.BytesIO(body), len(body))
        resp = {"status_code": c.status, "headers": headers, "body": body}
        parser = botocore.parsers.create_parser(svc.protocol)
        try:
            parsed = parser.parse(resp, op_model.output_shape)
        except Exception as e:  # botocore's parser failing on the response is a difference too
            return {"raised": f"{type(e).__name__}: {e}"}
        if c.status < 300:
            return {"output": parsed}
        code = parsed.get("Error", {}).get("Code")
        # botocore 1.29 keeps the namespace of X-Amzn-Errortype in the code
        # (exclusion errortype-namespace); its shape is looked up without it
        # so that the members are still compared.
        lookup = code.split("#")[-1] if code and svc.protocol == "rest-json" else code
        shape = svc.botocore.shape_for_error_code(lookup) if lookup else None
        if shape is None and parsed.get("Error", {}).get("QueryErrorCode"):
            # An awsQueryCompatible service's x-amzn-query-error code: recent
            # botocore keeps the JSON code in QueryErrorCode and picks the
            # exception by it (handlers: SQS's error_code_override).
            shape = svc.botocore.shape_for_error_code(parsed["Error"]["QueryErrorCode"])
        members: dict[str, Any] = {}
        if shape is not None:
            members = parser.parse(dict(resp), shape)
        return {"error": {"code": code, "shape": shape.name if shape is not None else None,
                          "members": members}, "_shape": shape,
                "_message": parsed.get("Error", {}).get("Message")}

    def run_case(self, c: Case) -> None:
        svc = self.service(c)
        proto = f"{svc.protocol} {c.kind}"
        if svc.skip_reason:
            self.skipped[svc.skip_reason] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        if c.op not in svc.ops:
            self.skipped[f"operation not in botocore's model ({svc.name})"] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        changed = svc.http_changed(c.op)
        if changed:
            self.skipped[changed] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        op_model = svc.botocore.operation_model(c.op)
        if op_model.get_event_stream_output() is not None:
            self.skipped["an event stream output"] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        try:
            ours = self.ours(svc, c)
            theirs = self.theirs(svc, c)
        except Skip as e:
            self.skipped[str(e).split(":")[0]] += 1
            self.per_protocol[proto]["skipped"] += 1
            if self.verbose:
                print(f"SKIP {c.model} {c.op} (seed {c.seed}): {e}")
            return
        shape = theirs.pop("_shape", None) if c.error else op_model.output_shape
        message = theirs.pop("_message", None)
        if "error" in ours and "error" in theirs and message is not None:
            # Many of botocore's exception shapes have no message member:
            # the message is Error.Message, compared with the Smithy one.
            for k in ("message", "Message"):
                mine = ours["error"]["members"].get(k)
                # botocore's Error.Message is "" both when the message is
                # empty and when there is none.
                if mine is not None and (shape is None or k not in shape.members) and (message or mine == ""):
                    theirs["error"]["members"][k] = message
        a, b = self.normalized(ours, shape), self.normalized(theirs, shape)
        ctx = RCtx(svc.protocol, c, op_model, shape, a, b, svc.model.operation_shapes(c.op))
        real: list[tuple[str, str]] = []  # ("", pointer)
        gone: list[tuple[str, str]] = []  # (exclusion, pointer)
        for p in json_diffs(a, b):
            name = excluded(ctx, p) or ""
            (gone if name else real).append((name, p))
        for name, p in gone:
            self.excluded[name] += 1
            if name == self.show_excluded:
                print(f"EXCLUDED {name} {c.model} {c.op} {c.error} (seed {c.seed}) {ctx.where(p)}: "
                      f"smithycurl {short(pick(a, p), 120)} | botocore {short(pick(b, p), 120)}")
        if not real:
            self.passed += 1
            self.per_protocol[proto]["passed"] += 1
            return
        self.failed += 1
        self.per_protocol[proto]["failed"] += 1
        wheres = sorted({ctx.where(p) for _, p in real})
        for w in wheres:
            self.classes[(c.model, w)] += 1
        key = (c.model, c.op, wheres[0])
        if key in self.shown:
            return
        self.shown.add(key)
        print(f"FAIL {c.model} {c.op} {c.kind} {c.error} (seed {c.seed})")
        print(f"  response: {c.status} {json.dumps(c.headers, ensure_ascii=False)} body {short(c.body, 400)}")
        print(f"  expected (generator): {short(json.dumps(c.expected, default=str, ensure_ascii=False), 400)}")
        for _, p in real:
            print(f"  {p}: smithycurl {short(pick(a, p), 200)} | botocore {short(pick(b, p), 200)}")
        sys.stdout.flush()

    @staticmethod
    def normalized(side: dict[str, Any], shape: Any) -> Any:
        if "raised" in side:
            return side
        if "output" in side:
            out = side["output"] if side["output"] is not None else {}  # a Unit output: None in the package
            if isinstance(out, dict):  # absent members as botocore has them, without its metadata
                out = {k: v for k, v in out.items() if k != "ResponseMetadata" and v is not None}
            return {"output": norm(shape, out)}
        e = dict(side["error"])
        members = {k: v for k, v in e["members"].items() if v is not None}  # absent, as botocore has it
        e["members"] = norm(shape, members)
        return {"error": e}


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="?", default="-", help="JSON lines of geninputs -responses (default: stdin)")
    add_common_args(ap)
    ap.add_argument("-v", "--verbose", action="store_true", help="print why each skipped case was skipped")
    ap.add_argument("--show-excluded", default="", metavar="NAME", help="print each difference exclusion NAME matches")
    args = ap.parse_args(argv)
    f = sys.stdin if args.inputs == "-" else open(args.inputs, encoding="utf-8")
    runner = Runner()
    runner.verbose = args.verbose
    runner.show_excluded = args.show_excluded
    per_model = PerModel(args.per_model)
    print(f"botocore {botocore.__version__} on Python {sys.version.split()[0]}; reply server {runner.server.url}")
    start = time.monotonic()
    cases = 0
    for line in f:
        if not line.strip():
            continue
        c = Case(json.loads(line, parse_float=decimal.Decimal, parse_int=int), args.shared)
        cases += 1
        per_model.run(runner, c.model, lambda: runner.run_case(c))
    per_model.write()
    return summary(runner, "RESPONSE_EXCLUSIONS", f"{cases} cases in {time.monotonic() - start:.0f} s")


if __name__ == "__main__":
    sys.exit(main())
