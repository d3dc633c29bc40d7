"""The comparison of the differential test against botocore
(testing/botocore/diff_botocore.py): a request as smithycurl sent it against the one
botocore's serializer made, normalized, as a list of differences."""

from __future__ import annotations

import collections
import datetime
import decimal
import gzip
import json
import re
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any, Optional

import botocore.utils

# Headers the transport, the signer or botocore's handlers (not its
# serializer) set: never compared.
TRANSPORT_HEADERS = {
    "host", "user-agent", "authorization", "x-amz-date", "content-length", "x-amz-content-sha256",
    "x-amz-security-token", "x-amz-user-agent", "amz-sdk-invocation-id", "amz-sdk-request", "accept",
    "accept-encoding", "expect", "transfer-encoding", "connection", "content-md5",
}


class Captured:
    """One request as it arrived: method, request target, headers (lower-case
    names, in order, repeated ones kept), body."""

    def __init__(self, method: str, target: str, headers: list[tuple[str, str]], body: bytes) -> None:
        self.method, self.target, self.headers, self.body = method, target, headers, body


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
        y, mo, day, h, mi, sec = (int(m.group(i)) for i in range(1, 7))
        d = datetime.datetime(y, mo, day, h, mi, sec, us, tzinfo=off)
        return d.astimezone(datetime.timezone.utc)
    secs = decimal.Decimal(str(v))
    us = int((secs * 1000000).to_integral_value(rounding=decimal.ROUND_FLOOR))
    return datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc) + datetime.timedelta(microseconds=us)


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
    """A JSON pointer's unescaped segments; "/a/" ends with the empty key."""
    rest = pointer[1:] if pointer.startswith("/") else pointer
    return [x.replace("~1", "/").replace("~0", "~") for x in rest.split("/")]


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


def sent_body(ours: Captured) -> bytes:
    """The body smithycurl sent, decompressed when it is gzip
    (@requestCompression: CloudWatch PutMetricData; botocore compresses in
    its client, after the serializer compared here)."""
    if dict(ours.headers).get("content-encoding", "").strip().lower() == "gzip":
        return gzip.decompress(ours.body)
    return ours.body


def compare_body(proto: str, op_model: Any, ours: Captured, theirs: dict[str, Any]) -> list[Diff]:
    tb = theirs["body"]
    if isinstance(tb, dict):  # query protocols: botocore hands the form over as a dict
        a = form_pairs(sent_body(ours))
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
    ob = sent_body(ours)
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
