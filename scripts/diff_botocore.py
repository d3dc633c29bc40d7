#!/usr/bin/env python3
"""Differential test of smithycurl's wire requests against botocore's.

Reads cases as JSON lines from a file or stdin (internal/cmd/geninputs:
model, service, protocol, operation, seed, input in the document form),
sends each input with the project's Python package (smithycurl, through
libsmithycurl.so) to a capture server on 127.0.0.1 that records the request
as it arrived, serializes the same input with botocore's serializer, and
compares the two requests, normalized (see compare()). Prints each
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
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any, Callable, Iterable, Optional

import botocore
import botocore.serialize
import botocore.session
import botocore.utils

import smithycurl

# The Smithy protocol traits and botocore's names of them.
PROTOCOLS = {
    "aws.protocols#restJson1": "rest-json",
    "aws.protocols#awsJson1_0": "json",
    "aws.protocols#awsJson1_1": "json",
    "aws.protocols#restXml": "rest-xml",
    "aws.protocols#awsQuery": "query",
    "aws.protocols#ec2Query": "ec2",
}

# Headers the transport, the signer or botocore's handlers (not its
# serializer) set: never compared.
TRANSPORT_HEADERS = {
    "host", "user-agent", "authorization", "x-amz-date", "content-length", "x-amz-content-sha256",
    "x-amz-security-token", "x-amz-user-agent", "amz-sdk-invocation-id", "amz-sdk-request", "accept",
    "accept-encoding", "expect", "transfer-encoding", "connection", "content-md5",
}


# ---------------------------------------------------------------- capture


class Captured:
    """One request as it arrived: method, request target, headers (lower-case
    names, in order, repeated ones kept), body."""

    def __init__(self, method: str, target: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.method, self.target, self.headers, self.body = method, target, headers, body


class _Handler(http.server.BaseHTTPRequestHandler):
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
        else:
            try:
                n = int(self.headers.get("Content-Length") or 0)
            except ValueError:
                n = 0
            # A length beyond what a case sends would wait for bytes that never
            # come: read what there is, up to 64 MiB.
            body = self.rfile.read(min(n, 1 << 26)) if n > 0 else b""
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


def to_datetime(v: Any) -> datetime.datetime:
    """A document-form timestamp (epoch seconds or an RFC 3339 text) as an
    aware datetime, to the microsecond (what a datetime holds)."""
    if isinstance(v, str):
        m = re.fullmatch(r"(\d{4})-(\d\d)-(\d\d)[Tt](\d\d):(\d\d):(\d\d)(\.\d+)?([Zz]|[+-]\d\d:\d\d)", v)
        if not m:
            raise ValueError(f"timestamp {v!r}")
        frac = decimal.Decimal("0" + (m.group(7) or ".0"))
        us = int((frac * 1000000).to_integral_value(rounding=decimal.ROUND_FLOOR))
        tz = m.group(8)
        off = datetime.timezone.utc
        if tz not in "Zz":
            sign = 1 if tz[0] == "+" else -1
            off = datetime.timezone(sign * datetime.timedelta(hours=int(tz[1:3]), minutes=int(tz[4:6])))
        d = datetime.datetime(*(int(m.group(i)) for i in range(1, 7)), us, tzinfo=off)  # type: ignore[misc]
        return d.astimezone(datetime.timezone.utc)
    sec = decimal.Decimal(str(v))
    us = int((sec * 1000000).to_integral_value(rounding=decimal.ROUND_FLOOR))
    return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(microseconds=us)


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


# ---------------------------------------------------------------- compare


UNRESERVED = re.compile(r"%([0-9A-Fa-f]{2})")


def norm_pct(s: str) -> str:
    """RFC 3986 section 6.2.2 normalization: percent-encoded unreserved
    characters decoded, other percent-encodings in upper case. Keeps every
    real difference: '+' and '%20', '/' and '%2F' stay apart."""

    def one(m: re.Match[str]) -> str:
        c = chr(int(m.group(1), 16))
        if c.isascii() and (c.isalnum() or c in "-._~"):
            return c
        return "%" + m.group(1).upper()

    return UNRESERVED.sub(one, s)


def query_pairs(q: str) -> collections.Counter[str]:
    return collections.Counter(norm_pct(p) for p in q.split("&") if p != "")


DATE_TIME = re.compile(r"\d{1,4}-\d\d-\d\d[Tt]\d\d:\d\d:\d\d(\.\d+)?([Zz]|[+-]\d\d:\d\d)")
XML_INVALID = re.compile(rb"&#x?[0-9A-Fa-f]+;|[\x00-\x08\x0b\x0c\x0e-\x1f]")


def xml_canon(b: bytes) -> Any:
    """An XML document as a comparable tree: control characters, raw (which
    XML 1.0 cannot carry: both sides may send them) or as character
    references (which XML 1.0 forbids but for tab, line feed and carriage
    return), made into one marker each; the children of an element in a
    stable order by name, keeping the order of same-named ones (list items)
    but not of members (member order is not the protocol's); date-time texts
    as their instant to the microsecond (see date-time-digits)."""

    def ref(m: re.Match[bytes]) -> bytes:
        t = m.group(0)
        if t.startswith(b"&#"):
            n = int(t[3:-1], 16) if t[2:3] in (b"x", b"X") else int(t[2:-1])
            return t if n >= 0x20 or n in (9, 10) else b"\xee\x80\x80%02x" % n
        return b"\xee\x80\x80%02x" % t[0]

    def text(t: Optional[str]) -> Any:
        if t and DATE_TIME.fullmatch(t):  # botocore writes years before 1000 unpadded (see unpadded-year)
            year, rest = t.split("-", 1)
            t = year.zfill(4) + "-" + rest
        us = _instant(t) if t and DATE_TIME.fullmatch(t) else None
        return ("date-time", us) if us is not None else (t or "")

    def walk(e: ET.Element) -> Any:
        kids = sorted((walk(c) for c in e), key=lambda k: k[0])
        return (e.tag, sorted(e.attrib.items()), text(e.text), kids)

    return walk(ET.fromstring(XML_INVALID.sub(ref, b)))


def esc(key: str) -> str:
    """A JSON pointer segment (RFC 6901)."""
    return key.replace("~", "~0").replace("/", "~1")


def segments(pointer: str) -> list[str]:
    return [x.replace("~1", "/").replace("~0", "~") for x in pointer.strip("/").split("/")]


def json_diffs(a: Any, b: Any, path: str = "", out: Optional[list[str]] = None) -> list[str]:
    """The JSON pointers where two parsed values differ (at most 20)."""
    out = [] if out is None else out
    if len(out) >= 20:
        return out
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if k not in a or k not in b:
                out.append(f"{path}/{esc(k)}")
            else:
                json_diffs(a[k], b[k], f"{path}/{esc(k)}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(path or "/")
        else:
            for i, (x, y) in enumerate(zip(a, b)):
                json_diffs(x, y, f"{path}/{i}", out)
    elif type(a) is bool or type(b) is bool:
        if a is not b:
            out.append(path or "/")
    elif a != b:
        out.append(path or "/")
    return out


def json_first_diff(a: Any, b: Any) -> Optional[str]:
    d = json_diffs(a, b)
    return d[0] if d else None


class Diff:
    """One difference: where (a key that groups differences into classes)
    and both sides."""

    def __init__(self, where: str, ours: Any, theirs: Any, raw_where: str = "") -> None:
        self.where, self.ours, self.theirs = where, ours, theirs
        self.raw_where = raw_where or where

    def __repr__(self) -> str:
        return f"{self.where}: smithycurl {short(self.ours)} | botocore {short(self.theirs)}"


def short(v: Any, n: int = 300) -> str:
    s = v if isinstance(v, str) else repr(v)
    return s if len(s) <= n else s[:n] + f"... ({len(s)} chars)"


def form_pairs(body: bytes) -> collections.Counter[tuple[str, str]]:
    return collections.Counter(urllib.parse.parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=False))


def bound_headers(input_shape: Any) -> tuple[set[str], list[str]]:
    """The header names and prefixes bound to input members."""
    names: set[str] = set()
    prefixes: list[str] = []
    if input_shape is None:
        return names, prefixes
    for name, m in input_shape.members.items():
        loc = m.serialization.get("location")
        if loc == "header":
            names.add(m.serialization.get("name", name).lower())
        elif loc == "headers":
            prefixes.append(m.serialization.get("name", "").lower())
    return names, prefixes


def compare(proto: str, op_model: Any, ours: Captured, theirs: dict[str, Any]) -> list[Diff]:
    diffs: list[Diff] = []
    if ours.method != theirs["method"]:
        diffs.append(Diff("method", ours.method, theirs["method"]))
    # Path and query. botocore's url_path may carry the URI's literal query.
    path, _, q = ours.target.partition("?")
    tpath, _, tq = theirs["url_path"].partition("?")
    qs = theirs["query_string"]
    if isinstance(qs, dict) and qs:
        tq = "&".join(x for x in (tq, botocore.utils.percent_encode_sequence(qs)) if x)
    elif isinstance(qs, str) and qs:
        tq = "&".join(x for x in (tq, qs) if x)
    if norm_pct(path) != norm_pct(tpath):
        diffs.append(Diff("path", path, tpath))
    a, b = query_pairs(q), query_pairs(tq)
    if a != b:
        only_a = sorted((a - b).elements())
        only_b = sorted((b - a).elements())
        keys = sorted({x.split("=")[0] for x in only_a + only_b})
        diffs.append(Diff("query " + ",".join(keys)[:80], only_a, only_b))
    # Headers bound to members, x-amz-*, Content-Type.
    names, prefixes = bound_headers(op_model.input_shape)
    oh: dict[str, list[str]] = collections.defaultdict(list)
    for k, v in ours.headers:
        oh[k].append(v)
    th: dict[str, list[str]] = collections.defaultdict(list)
    for k, v in theirs["headers"].items():
        th[k.lower()].append(str(v))

    def compared(k: str) -> bool:
        if k in TRANSPORT_HEADERS:
            return False
        return k in names or any(k.startswith(p) for p in prefixes) or k.startswith("x-amz") or k == "content-type"

    for k in sorted(set(oh) | set(th)):
        if not compared(k):
            continue
        ov = ",".join(x.strip(" \t") for x in oh.get(k, [])) if k in oh else None
        tv = ",".join(x.strip(" \t") for x in th.get(k, [])) if k in th else None
        if k == "content-type" and ov is not None and tv is not None:
            if ov.replace(" ", "").lower() == tv.replace(" ", "").lower():
                continue
        if ov != tv:
            diffs.append(Diff(f"header {k}", ov, tv))
    diffs.extend(compare_body(proto, op_model, ours, theirs))
    return diffs


def compare_body(proto: str, op_model: Any, ours: Captured, theirs: dict[str, Any]) -> list[Diff]:
    tb = theirs["body"]
    if isinstance(tb, dict):  # query protocols: botocore hands the form over as a dict
        a = form_pairs(ours.body)
        b = collections.Counter((k, str(v)) for k, v in tb.items())
        if a == b:
            return []
        only_a, only_b = sorted((a - b).elements()), sorted((b - a).elements())
        keys = sorted({re.sub(r"\.\d+", ".N", k) for k, _ in only_a + only_b})
        return [Diff("form " + ",".join(keys)[:100], only_a, only_b)]
    if isinstance(tb, str):
        tb = tb.encode("utf-8")
    tb = tb or b""
    if hasattr(tb, "read"):
        tb = tb.read()
    ob = ours.body
    if ob == tb:
        return []
    ctype = dict(ours.headers).get("content-type", "")
    payload = (op_model.input_shape.serialization.get("payload") if op_model.input_shape is not None else None)
    payload_shape = op_model.input_shape.members.get(payload) if payload else None
    raw_payload = payload_shape is not None and payload_shape.type_name in ("blob", "string")
    if not raw_payload and ("json" in ctype or proto in ("json", "rest-json")) and ob and tb:
        try:
            x = json.loads(ob, parse_float=decimal.Decimal)
            y = json.loads(tb, parse_float=decimal.Decimal)
        except ValueError as e:
            return [Diff("body (not JSON)", ob, tb + f" ({e})".encode())]
        return [Diff("body " + re.sub(r"/\d+", "/N", d), pick(x, d), pick(y, d), "body " + d) for d in json_diffs(x, y)]
    if not raw_payload and proto == "rest-xml" and ob and tb:
        try:
            if xml_canon(ob) == xml_canon(tb):
                return []
        except ET.ParseError as e:
            return [Diff("body (not XML)", ob, tb + f" ({e})".encode())]
        where = "body xml"
        try:
            # What a parser reads from botocore 1.29's raw carriage returns
            # (XML 1.0 2.11: a line feed) against smithycurl's &#xD;.
            if b"\r" in tb and xml_canon(re.sub(rb"&#[xX]0*[dD];", b"\r", ob)) == xml_canon(tb):
                where = "body xml raw-cr"
        except ET.ParseError:
            pass
        return [Diff("body xml", ob.decode("utf-8", "replace"), tb.decode("utf-8", "replace"), where)]
    return [Diff("body", ob[:400], tb[:400])]


def pick(v: Any, pointer: str) -> Any:
    for seg in segments(pointer) if pointer not in ("", "/") else []:
        if isinstance(v, dict):
            v = v.get(seg, "<absent>")
        elif isinstance(v, list) and seg.isdigit() and int(seg) < len(v):
            v = v[int(seg)]
        else:
            return v
    return v


# ---------------------------------------------------------------- exclusions


class Ctx:
    """What an exclusion may look at: the case's protocol, botocore's
    operation model and the Smithy model's operation description (the C
    API's, through the Python package)."""

    def __init__(self, proto: str, op_model: Any, shapes: dict[str, Any], ours: Captured) -> None:
        self.proto, self.op_model, self.shapes, self.ours = proto, op_model, shapes, ours

    def smithy_member(self, pointer: str) -> Optional[dict[str, Any]]:
        """The Smithy member reference a body JSON pointer ends at (list
        items and map values are walked through), or None."""
        defs = self.shapes.get("shapes", {})
        ref: Optional[dict[str, Any]] = {"type": "structure", "target": self.shapes.get("input", "")}
        for seg in segments(pointer):
            if ref is None:
                return None
            shape = defs.get(ref.get("target", ""), {})
            t = ref.get("type")
            if t in ("list", "set"):
                ref = shape.get("member")
            elif t == "map":
                ref = shape.get("value")
            elif t in ("structure", "union"):
                ref = next((m for m in shape.get("members", [])
                            if m.get("traits", {}).get("smithy.api#jsonName", m["name"]) == seg), None)
            else:
                return None
        return ref

    def botocore_member(self, pointer: str) -> Any:
        shape = self.op_model.input_shape
        for seg in segments(pointer):
            if shape is None:
                return None
            t = shape.type_name
            if t == "list":
                shape = shape.member
            elif t == "map":
                shape = shape.value
            elif t == "structure":
                shape = next((m for k, m in shape.members.items() if m.serialization.get("name", k) == seg), None)
            else:
                return None
        return shape


def body_pointer(d: Diff) -> Optional[str]:
    return d.raw_where[len("body "):] if d.raw_where.startswith("body /") else None


def _idempotency_token(c: Ctx, d: Diff) -> bool:
    p = body_pointer(d)
    if p is None or d.theirs != "<absent>" or not isinstance(d.ours, str):
        return False
    ref = c.smithy_member(p)
    return ref is not None and "smithy.api#idempotencyToken" in ref.get("traits", {}) and \
        re.fullmatch(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}", d.ours) is not None


def _default_value(c: Ctx, d: Diff) -> bool:
    p = body_pointer(d)
    if p is None or d.theirs != "<absent>" or p.count("/") < 2:
        return False
    ref = c.smithy_member(p)
    return ref is not None and "default" in ref and json_first_diff(ref["default"], d.ours) is None


def _epoch_fraction(c: Ctx, d: Diff) -> bool:
    p = body_pointer(d)
    if p is None or isinstance(d.theirs, bool) or not isinstance(d.theirs, int):
        return False
    m = c.botocore_member(p)
    return m is not None and m.type_name == "timestamp" and isinstance(d.ours, (decimal.Decimal, float)) and \
        d.theirs == int(decimal.Decimal(d.ours).to_integral_value(rounding=decimal.ROUND_FLOOR))


def _instant(v: Any) -> Optional[int]:
    """An RFC 3339 text as epoch microseconds (botocore's precision: a
    datetime's), or None."""
    if not isinstance(v, str):
        return None
    try:
        t = to_datetime(v)
    except ValueError:
        return None
    epoch = datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)
    return (t - epoch) // datetime.timedelta(microseconds=1)


def _date_time_digits(c: Ctx, d: Diff) -> bool:
    a, b = _instant(d.ours), _instant(d.theirs)
    return a is not None and a == b


def _header_timestamp_fraction(c: Ctx, d: Diff) -> bool:
    if not d.raw_where.startswith("header "):
        return False
    a, b = _instant(d.ours), _instant(d.theirs)
    return a is not None and b is not None and b % 1000000 == 0 and a // 1000000 * 1000000 == b and a != b


def _unpadded_year(c: Ctx, d: Diff) -> bool:
    if not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    m = re.fullmatch(r"(\d{1,3})(-\d\d-\d\dT.*)", d.theirs)
    return m is not None and d.ours == m.group(1).zfill(4) + m.group(2)


def _header_empty_list(c: Ctx, d: Diff) -> bool:
    if not d.raw_where.startswith("header ") or d.ours != "" or d.theirs is not None:
        return False
    name = d.raw_where[len("header "):]
    inp = c.op_model.input_shape
    return inp is not None and any(
        m.serialization.get("location") == "header" and m.serialization.get("name", k).lower() == name
        and m.type_name == "list" for k, m in inp.members.items())


def _empty_content_type(c: Ctx, d: Diff) -> bool:
    if d.raw_where != "header content-type" or d.theirs != "":
        return False
    inp = c.op_model.input_shape
    return inp is not None and any(m.serialization.get("location") == "header" and
                                   m.serialization.get("name", "").lower() == "content-type"
                                   for m in inp.members.values())


def _xml_raw_cr(c: Ctx, d: Diff) -> bool:
    return d.raw_where == "body xml raw-cr"


def _header_bool_case(c: Ctx, d: Diff) -> bool:
    return d.raw_where.startswith("header ") and d.theirs in ("True", "False") and d.ours == d.theirs.lower()


def _json_float_special(c: Ctx, d: Diff) -> bool:
    if body_pointer(d) is None or not isinstance(d.theirs, (float, decimal.Decimal)):
        return False
    t = float(d.theirs)
    want = "NaN" if t != t else "Infinity" if t == float("inf") else "-Infinity" if t == float("-inf") else None
    return want is not None and d.ours == want


def _query_charset(c: Ctx, d: Diff) -> bool:
    return c.proto in ("query", "ec2") and d.raw_where == "header content-type" and \
        d.ours == "application/x-www-form-urlencoded" and \
        (d.theirs or "").replace(" ", "").lower() == "application/x-www-form-urlencoded;charset=utf-8"


def _payload_content_type(c: Ctx, d: Diff) -> bool:
    if d.raw_where != "header content-type" or d.theirs is not None:
        return False
    inp = c.op_model.input_shape
    payload = inp.serialization.get("payload") if inp is not None else None
    if payload is None:
        return d.ours == "application/xml" and c.proto == "rest-xml"
    t = inp.members[payload].type_name
    want = {"blob": "application/octet-stream", "string": "text/plain", "structure": "application/xml"
            if c.proto == "rest-xml" else "application/json"}.get(t)
    return d.ours == want


def _crc(data: bytes, poly: int, bits: int) -> int:
    """A reflected CRC with all-ones init and final XOR (CRC-32C, CRC-64/NVME)."""
    mask = (1 << bits) - 1
    c = mask
    for b in data:
        c ^= b
        for _ in range(8):
            c = (c >> 1) ^ poly if c & 1 else c >> 1
    return c ^ mask


def checksum(alg: str, data: bytes) -> str:
    import hashlib
    import zlib

    if alg == "crc32":
        raw = zlib.crc32(data).to_bytes(4, "big")
    elif alg == "crc32c":
        raw = _crc(data, 0x82F63B78, 32).to_bytes(4, "big")
    elif alg == "crc64nvme":
        raw = _crc(data, 0x9A6C9329AC4BC9B5, 64).to_bytes(8, "big")
    else:
        raw = hashlib.new(alg, data).digest()
    return base64.b64encode(raw).decode("ascii")


def _flexible_checksum(c: Ctx, d: Diff) -> bool:
    alg = d.raw_where[len("header x-amz-checksum-"):] if d.raw_where.startswith("header x-amz-checksum-") else ""
    if not alg or d.theirs is not None or alg not in ("crc32", "crc32c", "crc64nvme", "sha1", "sha256"):
        return False
    return d.ours == checksum(alg, c.ours.body)


def _s3_x_id(c: Ctx, d: Diff) -> bool:
    return d.raw_where == "query x-id" and d.theirs == [] and len(d.ours) == 1 and \
        d.ours[0] == "x-id=" + c.op_model.name


def _trailing_slash(c: Ctx, d: Diff) -> bool:
    return d.raw_where == "path" and isinstance(d.theirs, str) and d.theirs == d.ours + "/" and \
        c.op_model.http.get("requestUri", "").split("?")[0].endswith("/")


def _header_not_latin1(c: Ctx, d: Diff) -> bool:
    if not d.raw_where.startswith("header ") or not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    try:
        return d.ours.encode("latin-1").decode("utf-8") == d.theirs and not d.theirs.isascii()
    except UnicodeError:
        return False


def _header_list_spacing(c: Ctx, d: Diff) -> bool:
    if not d.raw_where.startswith("header ") or not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    return d.ours.replace(", ", ",") == d.theirs and d.ours != d.theirs


# Differences that are not smithycurl's defects: (name, predicate, reason).
# A difference one matches counts as excluded, not failed.
Exclusion = tuple[str, Callable[[Ctx, Diff], bool], str]
EXCLUSIONS: list[Exclusion] = [
    ("idempotency-token", _idempotency_token,
     "smithycurl fills an absent @idempotencyToken member with a UUID v4 (Smithy spec); botocore does it in "
     "a handler (generate_idempotent_uuid), not in the serializer this test calls"),
    ("nested-default", _default_value,
     "smithycurl sends the @default of an absent member of a nested structure (protocol test "
     "RestJsonClientPopulatesDefaultValuesInInput); botocore's models carry no defaults"),
    ("epoch-seconds-fraction", _epoch_fraction,
     "botocore's epoch-seconds serializer drops the fraction (int(calendar.timegm(...))); Smithy's "
     "epoch-seconds keeps millisecond precision (protocol tests with 1.5e9 style values)"),
    ("date-time-digits", _date_time_digits,
     "the same RFC 3339 date-time instant to the microsecond: botocore writes six digits (.286000Z, a datetime "
     "holds no more), smithycurl the digits the instant needs, up to nanoseconds (Smithy: 'optional "
     "fractional precision'); XML bodies compare date-time texts the same way (xml_canon)"),
    ("header-timestamp-fraction", _header_timestamp_fraction,
     "a date-time timestamp in a header: botocore drops the fraction (calendar.timegm), smithycurl keeps it "
     "(RFC 3339 allows it; Smithy: 'optional fractional precision')"),
    ("unpadded-year", _unpadded_year,
     "a date-time before the year 1000: botocore writes strftime's unpadded year (1-01-01T00:00:00Z, not RFC "
     "3339); smithycurl writes four digits (0001-01-01T00:00:00Z)"),
    ("header-empty-list", _header_empty_list,
     "an empty list bound to a header: smithycurl sends the header with an empty value, as protocol test "
     "RestJsonNullAndEmptyHeaders says ('do send empty strings and empty lists'); botocore omits it"),
    ("empty-content-type-member", _empty_content_type,
     "an empty string for a member bound to Content-Type: smithycurl takes it as no value and sends the "
     "protocol's content type (a deliberate choice, see internal/proptest checkRequest), botocore an empty "
     "Content-Type, which is no media type (RFC 9110 8.3); RestJsonNullAndEmptyHeaders covers other headers"),
    ("xml-raw-cr", _xml_raw_cr,
     "botocore 1.29 writes a carriage return in XML text raw, which every XML parser reads as a line feed "
     "(XML 1.0 section 2.11); smithycurl writes &#xD; and the value arrives intact (the bodies are "
     "otherwise the same)"),
    ("header-bool-case", _header_bool_case,
     "botocore 1.29 writes a boolean header as Python's True/False; the Smithy spec and the protocol tests "
     "(and recent botocore) write true/false"),
    ("json-float-special", _json_float_special,
     "botocore 1.29 writes NaN and infinities as bare NaN/Infinity tokens (not JSON); the Smithy JSON protocols "
     "(and recent botocore) send the strings \"NaN\", \"Infinity\", \"-Infinity\""),
    ("query-content-type-charset", _query_charset,
     "botocore adds '; charset=utf-8' to the form's Content-Type; the awsQuery/ec2Query protocol tests "
     "want application/x-www-form-urlencoded (the form is UTF-8 either way)"),
    ("payload-content-type", _payload_content_type,
     "smithycurl sets the Content-Type of an @httpPayload (application/octet-stream for a blob, "
     "text/plain for a string, application/xml for a restXml structure) as the Smithy spec and the "
     "protocol tests say; botocore's serializer leaves it to the HTTP layer"),
    ("flexible-checksum", _flexible_checksum,
     "the x-amz-checksum-<algorithm> header of an @httpChecksum operation whose request algorithm member is "
     "set: botocore's handlers add it, not its serializer; the runner checks smithycurl's value against "
     "the body it sent"),
    ("s3-x-id", _s3_x_id,
     "the Smithy S3 model's URIs carry a literal ?x-id=<Operation>; botocore's S3 model has none"),
    ("uri-trailing-slash", _trailing_slash,
     "botocore's requestUri ends with '/' where the Smithy model's @http uri does not (EFS "
     "/2015-02-01/tags/{FileSystemId}); smithycurl follows its model"),
    ("header-not-latin1", _header_not_latin1,
     "a header value outside ASCII: smithycurl sends its UTF-8 bytes; botocore hands http.client a str it "
     "sends as Latin-1 (and cannot send at all beyond it); no Smithy rule says which (RFC 9110: opaque octets)"),
    ("header-list-spacing", _header_list_spacing,
     "a list in a header: smithycurl joins items with ', ' (protocol test RestJsonInputAndOutputWithStringHeaders: "
     "'a, b, c'), botocore with ','; the same list (RFC 9110 5.6.1)"),
]


def excluded(c: Ctx, d: Diff) -> Optional[str]:
    for name, pred, _ in EXCLUSIONS:
        if pred(c, d):
            return name
    return None


# ---------------------------------------------------------------- runner


class Service:
    """One model's service: the smithycurl client and botocore's model."""

    def __init__(self, model_path: str, service_id: str, protocol: str, endpoint: str,
                 session: Any) -> None:
        self.name = os.path.basename(model_path)[: -len(".json")]
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


class Runner:
    def __init__(self, botocore_version: str, shrink: int) -> None:
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
        theirs = svc.serializer.serialize_to_request(params, op_model)
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
        except smithycurl.SmithycurlError:
            pass
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
        ctx = Ctx(svc.protocol, op_model, svc.model.operation_shapes(op), ours)
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
                    trial = v[:i] + v[i + 1:]
                    if still(rebuild(trial)):
                        v = trial
                    else:
                        i += 1
            return v

        return walk(doc, lambda x: x)


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("inputs", nargs="?", default="-", help="JSON lines of geninputs (default: stdin)")
    ap.add_argument("--shared", default=os.environ.get("SMITHYCURL_SHARED", "../shared"))
    ap.add_argument("--shrink", type=int, default=150, help="most requests spent shrinking one input")
    ap.add_argument("-v", "--verbose", action="store_true", help="print why each skipped case was skipped")
    args = ap.parse_args(argv)
    f = sys.stdin if args.inputs == "-" else open(args.inputs, encoding="utf-8")
    runner = Runner(botocore.__version__, args.shrink)
    runner.verbose = args.verbose
    print(f"botocore {botocore.__version__} on Python {sys.version.split()[0]}; capture server {runner.server.url}")
    start = time.monotonic()
    cases = 0
    for line in f:
        if not line.strip():
            continue
        case = json.loads(line, parse_float=decimal.Decimal, parse_int=int)
        case["model_path"] = os.path.join(args.shared, "models", case["model"])
        cases += 1
        runner.run_case(case)
    print()
    print("difference classes (model, where: failing cases):")
    for (model, where), n in sorted(runner.classes.items()):
        print(f"  {model} {where}: {n}")
    print("per protocol: " + "; ".join(
        f"{p} {c['passed']} passed, {c['failed']} failed, {c['skipped']} skipped" for p, c in sorted(runner.per_protocol.items())))
    if runner.excluded:
        print("excluded differences (see EXCLUSIONS for why): " + ", ".join(f"{k} {v}" for k, v in sorted(runner.excluded.items())))
    print(f"{cases} cases in {time.monotonic() - start:.0f} s; {runner.pruned_cases} pruned of members botocore's model lacks")
    total_skipped = sum(runner.skipped.values())
    print(f"skipped: {total_skipped}" + "".join(f"\n  {n} {r}" for r, n in sorted(runner.skipped.items())))
    print(f"{runner.passed} passed, {runner.failed} failed")
    return 1 if runner.failed else 0


if __name__ == "__main__":
    sys.exit(main())
