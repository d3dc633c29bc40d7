"""The exclusions of the differential test against botocore
(testing/botocore/diff_botocore.py): differences that are not smithycurl's defects
(botocore's quirks, its older models, what its handlers rather than its
serializers do), each with the reason, decided with the Smithy spec and the
AWS protocol tests."""

from __future__ import annotations

import base64
import datetime
import decimal
import json
import re
import urllib.parse
import xml.etree.ElementTree as ET
from typing import Any, Callable, Optional

from diff_botocore_compare import Captured, Diff, _instant, json_first_diff, segments, to_datetime, xml_canon

class Ctx:
    """What an exclusion may look at: the case's protocol, botocore's
    operation model and the Smithy model's operation description (the C
    API's, through the Python package)."""

    def __init__(self, proto: str, op_model: Any, shapes: dict[str, Any], ours: Captured, doc: Any) -> None:
        self.proto, self.op_model, self.shapes, self.ours, self.doc = proto, op_model, shapes, ours, doc

    def smithy_member(self, pointer: str) -> Optional[dict[str, Any]]:
        """The Smithy member reference a body JSON pointer ends at (list
        items and map values are walked through), or None."""
        return self._walk(pointer)[0]

    def input_value(self, pointer: str) -> Any:
        """The input's value (document form) a body JSON pointer ends at,
        or None."""
        return self._walk(pointer)[1]

    def _walk(self, pointer: str) -> tuple[Optional[dict[str, Any]], Any]:
        defs = self.shapes.get("shapes", {})
        ref: Optional[dict[str, Any]] = {"type": "structure", "target": self.shapes.get("input", "")}
        v = self.doc
        for seg in segments(pointer):
            if ref is None:
                return None, None
            shape = defs.get(ref.get("target", ""), {})
            t = ref.get("type")
            if t in ("list", "set"):
                ref = shape.get("member")
                v = v[int(seg)] if isinstance(v, list) and seg.isdigit() and int(seg) < len(v) else None
            elif t == "map":
                ref = shape.get("value")
                v = v.get(seg) if isinstance(v, dict) else None
            elif t in ("structure", "union"):
                ref = next((m for m in shape.get("members", [])
                            if m.get("traits", {}).get("smithy.api#jsonName", m["name"]) == seg), None)
                v = v.get(ref["name"]) if isinstance(v, dict) and ref is not None else None
            else:
                return None, None
        return ref, v

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
    if m is None or m.type_name != "timestamp" or not isinstance(d.ours, (decimal.Decimal, float)):
        return False
    ours = decimal.Decimal(d.ours)
    if d.theirs != int(ours.to_integral_value(rounding=decimal.ROUND_FLOOR)):
        return False
    # botocore cannot check smithycurl's fraction: the input does.
    given = c.input_value(p)
    return given is not None and _instant_of(given) == _instant_of(ours)


def _instant_of(v: Any) -> Optional[int]:
    """A document-form timestamp as epoch microseconds."""
    try:
        t = to_datetime(v)
    except (ValueError, decimal.InvalidOperation):
        return None
    return (t - datetime.datetime(1970, 1, 1, tzinfo=datetime.timezone.utc)) // datetime.timedelta(microseconds=1)


def _date_time_digits(c: Ctx, d: Diff) -> bool:
    return _same_instant(d.ours, d.theirs)


def _same_instant(x: Any, y: Any) -> bool:
    a, b = _instant(x), _instant(y)
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
    if m is None:
        return False
    padded = m.group(1).zfill(4) + m.group(2)
    # the same instant, also when the fraction's digits differ as well
    # (date-time-digits): 0624-07-08T00:14:06.821Z vs 624-07-08T00:14:06.821000Z
    a, b = _instant(d.ours), _instant(padded)
    if d.ours == padded or a is not None and a == b:
        return True
    # In a header botocore drops the fraction too (header-timestamp-fraction).
    return d.raw_where.startswith("header ") and a is not None and b is not None and b % 1000000 == 0 and \
        a // 1000000 * 1000000 == b


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


_UUID4 = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")
_FLOAT_TEXT = {"nan": "NaN", "inf": "Infinity", "-inf": "-Infinity"}


def _input_members(c: Ctx) -> list[dict[str, Any]]:
    """The Smithy input's members (the C API's operation description)."""
    return list(c.shapes.get("shapes", {}).get(c.shapes.get("input", ""), {}).get("members", []))


def _token_bound(c: Ctx, location: str, name: str) -> bool:
    """Whether the Smithy input member bound to location (header, query, or
    "form" for a member of a query protocol's input) name is an
    @idempotencyToken."""
    for m in _input_members(c):
        http = m.get("http", {})
        bound = m["name"] == name if location == "form" else \
            http.get("location") == location and (http.get("name") or "").lower() == name.lower()
        if bound:
            return "smithy.api#idempotencyToken" in m.get("traits", {})
    return False


def _same_parameter(c: Ctx, key: str, ours: Optional[str], theirs: Optional[str], location: str) -> bool:
    """Whether one query or form parameter's two values differ only as an
    exclusion allows: the same date-time instant (date-time-digits,
    unpadded-year), botocore's nan/inf for NaN/Infinity, or a token
    smithycurl fills in that botocore's older model does not mark."""
    if ours is not None and theirs is not None:
        a, b = urllib.parse.unquote(ours), urllib.parse.unquote(theirs)
        m = re.fullmatch(r"(\d{1,3})(-\d\d-\d\dT.*)", b)
        if m is not None:
            b = m.group(1).zfill(4) + m.group(2)
        return a == b or _same_instant(a, b) or _FLOAT_TEXT.get(b.lower()) == a
    return theirs is None and ours is not None and _UUID4.fullmatch(ours) is not None and \
        _token_bound(c, location, key)


def _parameters(c: Ctx, d: Diff) -> bool:
    if not isinstance(d.ours, list) or not isinstance(d.theirs, list) or \
            not (d.where.startswith("query ") or d.where.startswith("form ")):
        return False
    location = "query" if d.where.startswith("query ") else "form"

    def pairs(v: list[Any]) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for x in v:
            k, val = (x.partition("=")[0], x.partition("=")[2]) if isinstance(x, str) else (str(x[0]), str(x[1]))
            out.setdefault(k, []).append(val)
        return out

    a, b = pairs(d.ours), pairs(d.theirs)
    for k in set(a) | set(b):
        xs, ys = a.get(k, []), b.get(k, [])
        if len(xs) > 1 or len(ys) > 1:
            return False
        if not _same_parameter(c, k, xs[0] if xs else None, ys[0] if ys else None, location):
            return False
    return True


def _header_token(c: Ctx, d: Diff) -> bool:
    return d.raw_where.startswith("header ") and d.theirs is None and isinstance(d.ours, str) and \
        _UUID4.fullmatch(d.ours) is not None and _token_bound(c, "header", d.raw_where[len("header "):])


def _target_prefix(c: Ctx, d: Diff) -> bool:
    if d.raw_where != "header x-amz-target" or not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    prefix = str(c.op_model.metadata.get("targetPrefix", ""))
    return d.ours.rsplit(".", 1)[-1] == d.theirs.rsplit(".", 1)[-1] == c.op_model.name and \
        d.ours.rsplit(".", 1)[0] != prefix


def _json_header_value(c: Ctx, d: Diff) -> bool:
    if not d.raw_where.startswith("header ") or not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    try:
        ours = base64.b64decode(d.ours).decode("utf-8")
        theirs = base64.b64decode(d.theirs).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return False
    return theirs == json.dumps(ours, separators=(",", ":"))


def _no_body_members(c: Ctx, d: Diff) -> bool:
    if c.proto != "rest-json":
        return False
    body: tuple[Any, Any] = (b"", b"{}")  # (smithycurl, botocore)
    ctype: tuple[Any, Any] = (None, "application/json")
    if any(not m.get("http") for m in _input_members(c)):  # body members in the Smithy model
        inp = c.op_model.input_shape
        if inp is not None and any(not m.serialization.get("location") for m in inp.members.values()):
            return False  # and in botocore's too
        body, ctype = (b"{}", b""), ("application/json", None)
    want: tuple[Any, Any] = body if d.where == "body" else ctype
    return d.where in ("body", "header content-type") and (d.ours, d.theirs) == want


def _xml_float_special(c: Ctx, d: Diff) -> bool:
    if d.where != "body xml" or not isinstance(d.ours, str) or not isinstance(d.theirs, str):
        return False
    fixed = re.sub(r">(nan|inf|-inf)<", lambda m: ">" + _FLOAT_TEXT[m.group(1)] + "<", d.theirs)
    try:
        return fixed != d.theirs and xml_canon(d.ours.encode("utf-8")) == xml_canon(fixed.encode("utf-8"))
    except ET.ParseError:
        return False


def _xml_empty_root(c: Ctx, d: Diff) -> bool:
    if d.where != "body" or c.proto != "rest-xml" or d.theirs not in (b"", None) or not isinstance(d.ours, bytes):
        return False
    try:
        root = ET.fromstring(d.ours)
    except ET.ParseError:
        return False
    return len(root) == 0 and not (root.text or "").strip()


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
    if not alg or d.theirs not in (None, "") or alg not in ("crc32", "crc32c", "crc64nvme", "sha1", "sha256"):
        return False
    return d.ours == checksum(alg, c.ours.body)


def _default_checksum_member(c: Ctx, d: Diff) -> bool:
    """The header of the algorithm member as CRC32, or of the validation mode
    member as ENABLED, where the input left it out."""
    hc = getattr(c.op_model, "http_checksum", None) or {}
    shape = c.op_model.input_shape
    if d.theirs not in (None, "") or shape is None:
        return False
    for key, value in (("requestAlgorithmMember", "CRC32"), ("requestValidationModeMember", "ENABLED")):
        member = shape.members.get(hc.get(key, ""))
        if member is not None and d.raw_where == "header " + member.serialization.get("name", "").lower():
            return bool(d.ours == value)
    return False


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
     "epoch-seconds keeps millisecond precision (protocol tests with 1.5e9 style values); smithycurl's value "
     "is checked against the input's instant (to the microsecond) instead"),
    ("date-time-digits", _date_time_digits,
     "the same RFC 3339 date-time instant to the microsecond: botocore writes six digits (.286000Z, a datetime "
     "holds no more), smithycurl the digits the instant needs, up to nanoseconds (Smithy: 'optional "
     "fractional precision'); XML bodies compare date-time texts the same way (xml_canon), query and form parameters one by one (parameters)"),
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
     "an empty string for a member bound to Content-Type of an operation with a payload (mediastore-data "
     "PutObject): smithycurl takes it as no value and sends the payload's media type (application/octet-stream), "
     "botocore an empty Content-Type, which is no media type (RFC 9110 8.3); without a body both send it empty "
     "(S3 CreateMultipartUpload); RestJsonNullAndEmptyHeaders covers other headers"),
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
    ("parameters", _parameters,
     "query or form parameters that differ only as the exclusions of single values allow: the same "
     "date-time instant (date-time-digits, unpadded-year), botocore's nan/inf for NaN/Infinity (Smithy's "
     "texts, protocol tests AwsQuerySupportsNaNFloatInputs), or an @idempotencyToken smithycurl fills in "
     "where botocore's older model has no token (Connect's clientToken, CloudFormation's OperationId)"),
    ("header-idempotency-token", _header_token,
     "an @idempotencyToken bound to a header (x-amzn-client-token) that smithycurl fills in, as Smithy "
     "says; botocore's older model does not mark it, or lacks the member"),
    ("target-prefix", _target_prefix,
     "an awsJson X-Amz-Target whose prefix botocore's older model gives otherwise (CloudTrail's "
     "com.amazonaws.cloudtrail.v20131101.CloudTrail_20131101): the Smithy model's service name is the prefix"),
    ("json-header-value", _json_header_value,
     "a @mediaType(\"application/json\") string in a header: smithycurl base64-encodes the string, which "
     "holds the JSON text (Smithy); botocore's jsonvalue takes it for a value and encodes it as JSON first"),
    ("no-body-members", _no_body_members,
     "a restJson1 input whose members are all bound to the URI, query or headers in one model and not in "
     "the other (botocore's is older): with none in the Body, no body (protocol test "
     "RestJsonNoInputAndNoOutput), else {} (M2 CancelBatchJobExecution, OpenSearch AssociatePackage)"),
    ("xml-float-special", _xml_float_special,
     "a NaN or infinite float in an XML body: smithycurl writes NaN, Infinity, -Infinity (Smithy's texts), "
     "botocore Python's nan, inf"),
    ("xml-empty-root", _xml_empty_root,
     "a restXml input with members bound to the body, none of them set (Route 53 UpdateHostedZoneComment "
     "without Comment): smithycurl sends the input's root element, empty, as the AWS SDK for Go v2 does; "
     "botocore sends no body"),
    ("payload-content-type", _payload_content_type,
     "smithycurl sets the Content-Type of an @httpPayload (application/octet-stream for a blob, "
     "text/plain for a string, application/xml for a restXml structure) as the Smithy spec and the "
     "protocol tests say; botocore's serializer leaves it to the HTTP layer"),
    ("flexible-checksum", _flexible_checksum,
     "the x-amz-checksum-<algorithm> header of an @httpChecksum operation whose request algorithm member is "
     "set: botocore's handlers add it, not its serializer; the runner checks smithycurl's value against "
     "the body it sent. Also when the input gives the checksum member as \"\": smithycurl takes an empty "
     "value as none and computes it (client/checksum.go), botocore sends the empty header (not settled by the "
     "spec; an empty checksum is never a valid one)"),
    ("default-checksum-member", _default_checksum_member,
     "the 2025 checksum defaults (issue 26): an @httpChecksum operation's algorithm member header "
     "(x-amz-sdk-checksum-algorithm) is CRC32 and its validation mode header (x-amz-checksum-mode) ENABLED "
     "when the input leaves them out; botocore >= 1.36 sets both in its handlers (resolve_request_checksum_algorithm, "
     "_handle_request_validation_mode_member), Debian's 1.29 predates them; the CRC32 itself is checked by "
     "flexible-checksum"),
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
