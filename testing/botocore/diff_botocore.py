#!/usr/bin/env python3
"""Differential test of smithycurl's wire requests against botocore's.

Reads cases as JSON lines from a file or stdin (testing/cmd/geninputs:
model, service, protocol, operation, seed, input in the document form),
sends each input with the project's Python package (smithycurl, through
libsmithycurl.so) to a capture server on 127.0.0.1 that records the request
as it arrived, serializes the same input with botocore's serializer, and
compares the two requests, normalized (diff_botocore_compare.py), less
the documented exclusions (diff_botocore_exclusions.py). Prints each
difference, with the input shrunk to what still shows it, and ends with

    skipped: N (reasons...)
    N passed, N failed

Run it with `make diff-botocore` (DIFF_SEED, DIFF_N, DIFF_MODELS,
DIFF_PYTHON). It needs botocore; it runs on botocore 1.29 (Debian 12's
python3-botocore, models of December 2022) and on recent ones.
"""

from __future__ import annotations

import argparse
import base64
import collections
import datetime
import decimal
import http.server
import json
import os
import queue
import re
import socketserver
import sys
import threading
import time
from typing import Any, Callable, Optional

try:
    import botocore
    import botocore.handlers
    import botocore.serialize
    import botocore.session
    import botocore.utils
except ImportError:
    sys.exit(f"diff_botocore: {sys.executable} has no botocore (Debian: apt-get install python3-botocore)\n0 passed, 1 failed")

import smithycurl
from diff_botocore_compare import Captured, Diff, compare, to_datetime
from diff_botocore_exclusions import Ctx, excluded

# The Smithy protocol traits and botocore's names of them.
PROTOCOLS = {
    "aws.protocols#restJson1": "rest-json",
    "aws.protocols#awsJson1_0": "json",
    "aws.protocols#awsJson1_1": "json",
    "aws.protocols#restXml": "rest-xml",
    "aws.protocols#awsQuery": "query",
    "aws.protocols#ec2Query": "ec2",
}

# botocore's handlers that change what is sent and that smithycurl applies
# too (client/awscustom), run on botocore's side as its client runs them:
# on the parameters before serialization, on the request dict after. S3's
# sse_md5 runs for every operation (botocore names eight; smithycurl, as
# the JavaScript SDK, completes the key wherever the input has it).
def _empty_glacier_members_absent(params: dict[str, Any], model: Any, **kwargs: Any) -> None:
    """An empty Glacier accountId, or upload checksum (tree hash), is
    absent, as the JavaScript SDK (and smithycurl) take them; botocore
    fills in only a missing one."""
    names = ["accountId"]
    if model.name in ("UploadArchive", "UploadMultipartPart"):
        names.append("checksum")
    for name in names:
        if params.get(name) == "":
            del params[name]


def _get_to_post(params: dict[str, Any], **kwargs: Any) -> None:
    """botocore's change_get_to_post (on the request object, which the
    request dict here is not): the query string becomes a form body."""
    path, _, literal = params["url_path"].partition("?")
    query = botocore.utils.percent_encode_sequence(params.get("query_string") or {})
    if params["method"] == "GET" and (literal or query):
        params["method"], params["url_path"], params["query_string"] = "POST", path, {}
        params["headers"]["Content-Type"] = "application/x-www-form-urlencoded"
        params["body"] = "&".join(x for x in (literal, query) if x).encode("utf-8")


BEFORE_BUILD: dict[str, list[Callable[..., None]]] = {
    "glacier": [_empty_glacier_members_absent, botocore.handlers.inject_account_id],
    "route53": [botocore.handlers.fix_route53_ids],
    "s3": [botocore.handlers.sse_md5, botocore.handlers.copy_source_sse_md5],
}
BEFORE_CALL: dict[tuple[str, str], list[Callable[..., None]]] = {
    ("glacier", ""): [botocore.handlers.add_glacier_version],
    ("glacier", "UploadArchive"): [botocore.handlers.add_glacier_checksums],
    ("glacier", "UploadMultipartPart"): [botocore.handlers.add_glacier_checksums],
    # A long search query: CloudSearch Domain's Search goes as a POST with
    # the query in a form body (client/awscustom does the same).
    ("cloudsearchdomain", "Search"): [_get_to_post],
}


def botocore_request(svc_name: str, op_model: Any, serializer: Any, params: dict[str, Any]) -> dict[str, Any]:
    """botocore's request dict of params, with its handlers of BEFORE_BUILD
    and BEFORE_CALL applied."""
    for f in BEFORE_BUILD.get(svc_name, []):
        f(params=params, model=op_model)
    request = serializer.serialize_to_request(params, op_model)
    for key in ((svc_name, ""), (svc_name, op_model.name)):
        for f in BEFORE_CALL.get(key, []):
            f(params=request, model=op_model)
    return request


# ---------------------------------------------------------------- capture


class QuietHandler(http.server.BaseHTTPRequestHandler):
    """A keep-alive HTTP/1.1 handler that logs nothing and passes every
    request to _any (the servers of both differentials)."""

    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True  # the reply's two writes would wait for a delayed ACK (40 ms)

    def log_message(self, format: str, *args: Any) -> None:  # quiet
        pass

    def handle_one_request(self) -> None:
        # As the base class, without its 64 KiB bound on the request line
        # (long query strings are cases too).
        self.raw_requestline = self.rfile.readline(1 << 24)
        if not self.raw_requestline:
            self.close_connection = True
            return
        if self.parse_request():
            self._any()
            self.wfile.flush()

    def _any(self) -> None:
        raise NotImplementedError

    def read_body(self) -> bytes:
        """The request's body, chunked or not."""
        body = b""
        if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
            while True:
                size = int(self.rfile.readline().split(b";")[0].strip() or b"0", 16)
                if size == 0:
                    while self.rfile.readline() not in (b"\r\n", b"\n", b""):
                        pass
                    break
                body += self.rfile.read(size)
                self.rfile.readline()
            return body
        try:
            n = int(self.headers.get("Content-Length") or 0)
        except ValueError:
            n = 0
        # A length beyond what a case sends would wait for bytes that never
        # come: read what there is, up to 64 MiB.
        return self.rfile.read(min(n, 1 << 26)) if n > 0 else b""


class _Handler(QuietHandler):
    def _any(self) -> None:
        body = self.read_body()
        headers = [(k.lower(), v) for k, v in self.headers.items()]
        # The request target as sent (self.path folds a leading "//").
        target = self.requestline.split(" ")[1] if self.requestline.count(" ") >= 2 else self.path
        self.server.captured.put(Captured(self.command, target, headers, body))  # type: ignore[attr-defined]
        # Something harmless: an error every protocol reads as an error,
        # with no retry (retries are off anyway).
        reply = b'{"__type":"DiffTestStop","message":"captured"}'
        self.send_response(400)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(reply)))
        self.end_headers()
        if self.command != "HEAD":
            try:
                self.wfile.write(reply)
            except OSError:
                pass  # the client went away: the request is what counts

    do_GET = do_POST = do_PUT = do_DELETE = do_PATCH = do_HEAD = do_OPTIONS = _any


class CaptureServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.captured: "queue.Queue[Captured]" = queue.Queue()
        threading.Thread(target=self.serve_forever, daemon=True).start()

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}"


# ---------------------------------------------------------------- inputs


def b64(s: str) -> bytes:
    return base64.b64decode(s.encode("ascii"), validate=False)


class Skip(Exception):
    """A case that cannot be compared, with the reason."""


def to_float(v: Any) -> float:
    if isinstance(v, str):
        return float(v)  # "NaN", "Infinity", "-Infinity"
    return float(v)


def plain_document(v: Any) -> Any:
    """A document value with its numbers as botocore and json take them."""
    if isinstance(v, decimal.Decimal):
        f = float(v)
        if f in (float("inf"), float("-inf")):
            raise Skip("a document number beyond a double (botocore sends it as a float)")
        return f
    if isinstance(v, list):
        return [plain_document(x) for x in v]
    if isinstance(v, dict):
        return {k: plain_document(x) for k, x in v.items()}
    return v


class Pruned:
    """What pruning removed from an input: members botocore's model lacks."""

    def __init__(self) -> None:
        self.paths: list[str] = []


def prune(shape: Any, v: Any, path: str, pruned: Pruned) -> Any:
    """The input with the members botocore's shape lacks removed (recorded
    in pruned)."""
    if v is None:
        return None
    t = shape.type_name
    if t == "structure" and not getattr(shape, "is_document_type", False):
        out = {}
        for k, x in v.items():
            m = shape.members.get(k)
            if m is None:
                pruned.paths.append(f"{path}/{k}")
                continue
            out[k] = prune(m, x, f"{path}/{k}", pruned)
        return out
    if t == "list":
        return [prune(shape.member, x, f"{path}/{i}", pruned) for i, x in enumerate(v)]
    if t == "map":
        return {k: prune(shape.value, x, f"{path}/{k}", pruned) for k, x in v.items()}
    return v


def to_botocore(shape: Any, v: Any) -> Any:
    """A (pruned) document-form value as botocore's params."""
    if v is None:
        return None
    t = shape.type_name
    if t == "structure":
        if getattr(shape, "is_document_type", False):
            return plain_document(v)
        return {k: to_botocore(shape.members[k], x) for k, x in v.items() if x is not None}
    if t == "list":
        return [to_botocore(shape.member, x) for x in v]
    if t == "map":
        return {k: to_botocore(shape.value, x) for k, x in v.items()}
    if t == "blob":
        return b64(v)
    if t == "timestamp":
        return to_datetime(v)
    if t in ("float", "double"):
        return to_float(v)
    if t in ("integer", "long", "short", "byte") and isinstance(v, decimal.Decimal):
        return int(v)
    return v


def to_smithycurl(shapes: dict[str, Any], ref: dict[str, Any], v: Any) -> Any:
    """A document-form value as the Python package takes it (the member
    reference ref: its type and target in the C API's operation
    description)."""
    if v is None:
        return None
    t = ref.get("type", "")
    shape = shapes.get(ref.get("target", ""), {})
    if t in ("structure", "union"):
        by = {m["name"]: m for m in shape.get("members", [])}
        return {k: to_smithycurl(shapes, by[k], x) if k in by else x for k, x in v.items()}
    if t in ("list", "set"):
        return [to_smithycurl(shapes, shape["member"], x) for x in v]
    if t == "map":
        return {k: to_smithycurl(shapes, shape["value"], x) for k, x in v.items()}
    if t == "blob":
        return b64(v)
    if t in ("float", "double"):
        return to_float(v)
    if t == "bigDecimal":
        return decimal.Decimal(str(v))
    if t == "document":
        return plain_document(v)
    if t == "timestamp" and isinstance(v, decimal.Decimal):
        return float(v) if v != v.to_integral_value() else int(v)
    if isinstance(v, decimal.Decimal):
        return int(v)
    return v


# ---------------------------------------------------------------- runner


# A call whose endpoint rules put an input member in the host name (S3
# Control's {AccountId}.host) reaches no server on 127.0.0.1: curl cannot
# resolve the name, and the case is skipped at once (waiting for a capture
# that cannot come took 10 s a case).
UNRESOLVED_HOST = "Could not resolve host"
HOST_FROM_INPUT = "the endpoint rules put an input member in the host name, which does not resolve to 127.0.0.1"

def _uri_path(uri: str) -> str:
    """A URI pattern's path, labels unnamed and no trailing slash, to
    compare two models' URIs (botocore names labels after location names)."""
    return re.sub(r"\{[^}]*\}", "{}", uri.split("?", 1)[0]).rstrip("/")


_BY_SERVICE_ID: dict[str, str] = {}


def botocore_name(session: Any, model_path: str, service_id: str) -> str:
    """botocore's name of a model's service: the file's name (the models
    of models/aws are named so), else the sdkId as botocore writes names
    (dashed or run together) or the endpoint prefix, when botocore's
    service of that name has the model's sdkId as its serviceId, else the
    botocore service whose serviceId is the model's sdkId (the files of
    aws-models are named after their api-models-aws folder: s3-control is
    s3control, elasticsearch-service is es). The last reads every botocore
    model once (seconds)."""
    name = os.path.basename(model_path)[: -len(".json")]
    available = set(session.get_available_services())
    if name in available:
        return name
    with open(model_path, encoding="utf-8") as f:
        traits = json.load(f)["shapes"].get(service_id, {}).get("traits", {})
    svc = traits.get("aws.api#service", {})
    sdk_id = str(svc.get("sdkId", ""))
    for guess in (sdk_id.lower().replace(" ", "-"), sdk_id.lower().replace(" ", ""), str(svc.get("endpointPrefix", ""))):
        if guess in available and session.get_service_model(guess).metadata.get("serviceId") == sdk_id:
            return guess
    if not _BY_SERVICE_ID:
        loader = session.get_component("data_loader")
        for n in sorted(available):
            _BY_SERVICE_ID.setdefault(loader.load_service_model(n, "service-2")["metadata"].get("serviceId", ""), n)
    return _BY_SERVICE_ID.get(sdk_id, name)


class Service:
    """One model's service: the smithycurl client and botocore's model."""

    def __init__(self, model_path: str, service_id: str, protocol: str, endpoint: str,
                 session: Any) -> None:
        self.name = botocore_name(session, model_path, service_id)
        self.service_id = service_id
        self.protocol = PROTOCOLS[protocol]
        self.skip_reason = ""
        try:
            self.botocore = session.get_service_model(self.name)
        except Exception as e:  # botocore.exceptions.UnknownServiceError
            self.skip_reason = f"botocore has no service {self.name} ({type(e).__name__})"
            return
        meta = self.botocore.metadata
        protos = meta.get("protocols") or [meta["protocol"]]
        if self.protocol not in protos:
            self.skip_reason = f"botocore's {self.name} speaks {meta['protocol']}, the model {self.protocol}"
            return
        self.serializer = botocore.serialize.create_serializer(self.protocol, include_validation=False)
        self.model = smithycurl.load_model(model_path)
        params: dict[str, Any] = {}
        if self.name == "s3":
            params["ForcePathStyle"] = True
        self.client = self.model.client(
            service_id, endpoint=endpoint, region="us-east-1", retries=False, timeout=20, host_prefix=False,
            endpoint_params=params,
            aws_credentials={"access_key_id": "AKIDEXAMPLE", "secret_access_key": "fake-secret", "region": "us-east-1"},
        )
        self.ops = set(self.botocore.operation_names)
        self.streams: set[str] = set()  # operations with an output event stream
        self.model_path = model_path
        self._http: Optional[dict[str, tuple[str, str]]] = None

    def http_changed(self, op: str) -> str:
        """Why botocore's model of op cannot be compared with the Smithy
        one, or "": its HTTP method or URI differs (botocore's data
        predates the change: QuickSight's /v2/ paths)."""
        if self._http is None:
            with open(self.model_path, encoding="utf-8") as f:
                shapes = json.load(f)["shapes"]
            self._http = {}
            for sid, shape in shapes.items():
                h = shape.get("traits", {}).get("smithy.api#http") if shape.get("type") == "operation" else None
                if h:
                    self._http[sid.split("#", 1)[1]] = (h["method"], _uri_path(h["uri"]))
        ours = self._http.get(op)
        http = self.botocore.operation_model(op).http
        theirs = (http.get("method", ""), _uri_path(http.get("requestUri", "")))
        if ours is None or not theirs[1] or ours == theirs:
            return ""
        return "botocore's model has another HTTP method or URI for the operation (its data predates the change)"


class Runner:
    def __init__(self, shrink: int) -> None:
        self.server = CaptureServer()
        self.session = botocore.session.get_session()
        self.services: dict[tuple[str, str], Service] = {}
        self.shrink_budget = shrink
        self.verbose = False
        self.passed = self.failed = 0
        self.skipped: collections.Counter[str] = collections.Counter()
        self.excluded: collections.Counter[str] = collections.Counter()
        self.classes: collections.Counter[tuple[str, str]] = collections.Counter()
        self.per_protocol: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)
        self.pruned_cases = 0
        self.shown: set[tuple[str, str, str]] = set()
        self.shrunk: set[tuple[str, str]] = set()

    def service(self, model_path: str, sid: str, protocol: str) -> Service:
        key = (model_path, sid)
        s = self.services.get(key)
        if s is None:
            # Cases come model by model (geninputs): one service at a
            # time is kept (a model and its client hold megabytes).
            self.services.clear()
            s = Service(model_path, sid, protocol, self.server.url, self.session)
            self.services[key] = s
        return s

    def requests(self, svc: Service, op: str, doc: Any) -> tuple[Captured, dict[str, Any]]:
        """Both requests of one (pruned) input; Skip when one side cannot
        make it."""
        op_model = svc.botocore.operation_model(op)
        shapes = svc.model.operation_shapes(op)
        in_ref = {"type": "structure", "target": shapes.get("input", "")}
        if isinstance(shapes.get("input"), dict):
            in_ref = {"type": "structure", "target": shapes["input"].get("target", "")}
        params = to_botocore(op_model.input_shape, doc) if op_model.input_shape is not None else {}
        try:
            theirs = botocore_request(svc.name, op_model, svc.serializer, params)
        except KeyError as e:
            # Security Lake's {id}: botocore's older URI labels another member.
            raise Skip(f"botocore's model labels its URI with a member the input lacks: {e}")
        while not self.server.captured.empty():  # a late request of an earlier call
            self.server.captured.get_nowait()
        has_input = shapes.get("input") not in (None, "", "smithy.api#Unit")
        value = to_smithycurl(shapes.get("shapes", {}), in_ref, doc) if has_input else None
        try:
            if shapes.get("outputEventStream") or op in svc.streams:
                getattr(svc.client, svc.model.service(svc.service_id).operation(op).py_name).stream(value).close()
            else:
                svc.client.call(op, value)
        except smithycurl.ServiceError:
            pass  # the capture server's answer
        except (smithycurl.UsageError, smithycurl.ValidationError, TypeError) as e:
            if "its output is an event stream" in str(e) and op not in svc.streams:
                svc.streams.add(op)  # opened as a stream from now on
                return self.requests(svc, op, doc)
            raise Skip(f"smithycurl refused the input: {str(e)[:160]}")
        except smithycurl.SmithycurlError as e:
            if UNRESOLVED_HOST in str(e):
                raise Skip(HOST_FROM_INPUT)
        try:
            ours = self.server.captured.get(timeout=10)
        except queue.Empty:
            raise Skip("smithycurl sent no request")
        return ours, theirs

    def diffs(self, svc: Service, op: str, doc: Any) -> tuple[list[Diff], list[tuple[str, Diff]]]:
        """The differences of one input: those no exclusion matches, and
        the excluded ones with the exclusion's name."""
        ours, theirs = self.requests(svc, op, doc)
        op_model = svc.botocore.operation_model(op)
        ctx = Ctx(svc.protocol, op_model, svc.model.operation_shapes(op), ours, doc)
        real: list[Diff] = []
        gone: list[tuple[str, Diff]] = []
        for d in compare(svc.protocol, op_model, ours, theirs):
            name = excluded(ctx, d)
            if name:
                gone.append((name, d))
            else:
                real.append(d)
        return real, gone

    def run_case(self, case: dict[str, Any]) -> None:
        model_path, op = case["model_path"], case["operation"]
        svc = self.service(model_path, case["service"], case["protocol"])
        proto = svc.protocol
        if svc.skip_reason:
            self.skipped[svc.skip_reason] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        if op not in svc.ops:
            self.skipped[f"operation not in botocore's model ({svc.name})"] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        changed = svc.http_changed(op)
        if changed:
            self.skipped[changed] += 1
            self.per_protocol[proto]["skipped"] += 1
            return
        pruned = Pruned()
        op_model = svc.botocore.operation_model(op)
        doc = prune(op_model.input_shape, case["input"], "", pruned) if op_model.input_shape is not None else {}
        if pruned.paths:
            self.pruned_cases += 1
        try:
            real, gone = self.diffs(svc, op, doc)
        except Skip as e:
            self.skipped[str(e).split(":")[0]] += 1
            if self.verbose:
                print(f"SKIP {case['model']} {op} (seed {case['seed']}): {e}")
            self.per_protocol[proto]["skipped"] += 1
            return
        for name, _ in gone:
            self.excluded[name] += 1
        if not real:
            self.passed += 1
            self.per_protocol[proto]["passed"] += 1
            return
        self.failed += 1
        self.per_protocol[proto]["failed"] += 1
        for where in sorted({d.where for d in real}):
            self.classes[(case["model"], where)] += 1
        # Each (model, operation, difference) once; shrunk once per class.
        key = (case["model"], op, real[0].where)
        if key in self.shown:
            return
        self.shown.add(key)
        print(f"FAIL {case['model']} {op} (seed {case['seed']})")
        if pruned.paths:
            print(f"  pruned (not in botocore's model): {', '.join(pruned.paths)}")
        cls = (case["model"], real[0].where)
        if cls not in self.shrunk:
            self.shrunk.add(cls)
            small = self.shrink(svc, op, doc, real[0].where)
            real = self.diffs(svc, op, small)[0] or real
            print(f"  minimal input: {json.dumps(small, default=str, ensure_ascii=False)[:600]}")
        else:
            print(f"  input: {json.dumps(doc, default=str, ensure_ascii=False)[:300]}")
        for d in real:
            print(f"  {d}")
        sys.stdout.flush()

    def shrink(self, svc: Service, op: str, doc: Any, where: str) -> Any:
        """A smaller input that still shows the difference at where: drop
        members, map entries and list items while it does (bounded)."""
        budget = [self.shrink_budget]

        def still(candidate: Any) -> bool:
            if budget[0] <= 0:
                return False
            budget[0] -= 1
            try:
                return any(d.where == where for d in self.diffs(svc, op, candidate)[0])
            except Exception:
                return False

        def walk(v: Any, rebuild: Callable[[Any], Any]) -> Any:
            if isinstance(v, dict):
                for k in list(v):
                    if budget[0] <= 0:
                        break
                    trial = {x: y for x, y in v.items() if x != k}
                    if still(rebuild(trial)):
                        v = trial
                for k in list(v):
                    cur = v

                    def rb(x: Any, k: str = k, cur: Any = cur) -> Any:
                        return rebuild({**cur, k: x})

                    v = {**v, k: walk(v[k], rb)}
            elif isinstance(v, list):
                i = 0
                while i < len(v) and budget[0] > 0:
                    shorter = v[:i] + v[i + 1:]
                    if still(rebuild(shorter)):
                        v = shorter
                    else:
                        i += 1
            return v

        return walk(doc, lambda x: x)


class PerModel:
    """Each model's cases, passed, failed and skipped with why, written
    as JSON by --per-model FILE (make reach, testing/reach, counts a case
    per model from them)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.counts: dict[str, collections.Counter[str]] = collections.defaultdict(collections.Counter)

    def run(self, runner: Any, model: str, run: Callable[[], None]) -> None:
        """Runs one case of model on runner and counts its outcome."""
        passed, failed, skipped = runner.passed, runner.failed, collections.Counter(runner.skipped)
        try:
            run()
        except Exception as e:  # noqa: BLE001 - a case the harness cannot compare fails alone
            print(f"FAIL {model} (the harness failed: {type(e).__name__}: {e})")
            runner.failed += 1
        c = self.counts[model]
        c["passed"] += runner.passed - passed
        c["failed"] += runner.failed - failed
        for reason, n in (runner.skipped - skipped).items():
            c["skipped: " + reason] += n

    def write(self) -> None:
        if self.path:
            with open(self.path, "w", encoding="utf-8") as f:
                json.dump(self.counts, f, indent=1, sort_keys=True)


def add_common_args(ap: argparse.ArgumentParser) -> None:
    """The arguments both differentials take."""
    ap.add_argument("--shared", default=os.environ.get("SMITHYCURL_SHARED", "../shared"))
    ap.add_argument("--per-model", default="", metavar="FILE", help="write each model's passed, failed and skipped cases to FILE (JSON)")


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="?", default="-", help="JSON lines of geninputs (default: stdin)")
    add_common_args(ap)
    ap.add_argument("--shrink", type=int, default=150, help="most requests spent shrinking one input")
    ap.add_argument("-v", "--verbose", action="store_true", help="print why each skipped case was skipped")
    args = ap.parse_args(argv)
    f = sys.stdin if args.inputs == "-" else open(args.inputs, encoding="utf-8")
    runner = Runner(args.shrink)
    runner.verbose = args.verbose
    per_model = PerModel(args.per_model)
    print(f"botocore {botocore.__version__} on Python {sys.version.split()[0]}; capture server {runner.server.url}")
    start = time.monotonic()
    cases = 0
    for line in f:
        if not line.strip():
            continue
        case = json.loads(line, parse_float=decimal.Decimal, parse_int=int)
        case["model_path"] = os.path.join(args.shared, "models", case["model"])
        cases += 1
        per_model.run(runner, case["model"], lambda: runner.run_case(case))
    per_model.write()
    return summary(runner, "EXCLUSIONS",
                   f"{cases} cases in {time.monotonic() - start:.0f} s; {runner.pruned_cases} pruned of members botocore's model lacks")


def summary(runner: Any, exclusions: str, timing: str) -> int:
    """Prints a run's figures (the runner's classes, per_protocol, excluded,
    skipped, passed and failed; exclusions names the table of reasons),
    ending with `N passed, N failed`; 1 when a case failed."""
    print()
    print("difference classes (model, where: failing cases):")
    for (model, where), n in sorted(runner.classes.items()):
        print(f"  {model} {where}: {n}")
    print("per protocol: " + "; ".join(
        f"{p} {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped" for p, c in sorted(runner.per_protocol.items())))
    if runner.excluded:
        print(f"excluded differences (see {exclusions} for why): " + ", ".join(f"{k} {v}" for k, v in sorted(runner.excluded.items())))
    print(timing)
    total_skipped = sum(runner.skipped.values())
    print(f"skipped: {total_skipped}" + "".join(f"\n  {n} {r}" for r, n in sorted(runner.skipped.items())))
    print(f"{runner.passed} passed, {runner.failed} failed")
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
