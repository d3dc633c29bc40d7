"""The exclusions of the differential test of response decoding against
botocore (testing/botocore/diff_botocore_responses.py): differences that are not
smithycurl's defects (botocore's quirks, its older models, artefacts of the
property tests' renderer), each with the reason, decided with the Smithy
spec and the AWS protocol tests. The same structure as the request
differential's (diff_botocore_exclusions.py)."""

from __future__ import annotations

import decimal
from typing import Any, Callable, Optional

from diff_botocore_compare import pick, segments


class RCtx:
    """What an exclusion may look at: the case (diff_botocore_responses.Case),
    botocore's operation model, the shape the compared members belong to
    (the output or the error shape), and both normalized sides."""

    def __init__(self, proto: str, case: Any, op_model: Any, shape: Any, ours: Any, theirs: Any,
                 shapes: dict[str, Any]) -> None:
        self.proto, self.case, self.op_model, self.shape = proto, case, op_model, shape
        self.ours, self.theirs, self.shapes = ours, theirs, shapes

    def smithy_member(self, pointer: str) -> Optional[dict[str, Any]]:
        """The Smithy member reference (the C API's operation description)
        a pointer ends at, or None."""
        segs = segments(pointer)
        defs = self.shapes.get("shapes", {})
        if segs[:1] == ["output"]:
            ref: Optional[dict[str, Any]] = {"type": "structure", "target": self.shapes.get("output", "")}
            segs = segs[1:]
        elif segs[:2] == ["error", "members"]:
            ref = {"type": "structure", "target": self.case.error}
            segs = segs[2:]
        else:
            return None
        for seg in segs:
            if ref is None:
                return None
            shape = defs.get(ref.get("target", ""), {})
            t = ref.get("type")
            if t in ("list", "set"):
                ref = shape.get("member")
            elif t == "map":
                ref = shape.get("value")
            elif t in ("structure", "union"):
                ref = next((m for m in shape.get("members", []) if m["name"] == seg), None)
            else:
                return None
        return ref

    def member(self, pointer: str) -> Any:
        """botocore's shape a pointer ("/output/A/0/B", "/error/members/M")
        ends at, or None."""
        segs = segments(pointer)
        if segs[:1] == ["output"]:
            segs = segs[1:]
        elif segs[:2] == ["error", "members"]:
            segs = segs[2:]
        else:
            return None
        shape = self.shape
        for seg in segs:
            if shape is None:
                return None
            t = shape.type_name
            shape = shape.member if t == "list" else shape.value if t == "map" else \
                shape.members.get(seg) if t == "structure" else None
        return shape

    def where(self, pointer: str) -> str:
        """The difference's class: the pointer with list indices and map
        keys as '*'."""
        segs = segments(pointer)
        head = segs[:1] if segs[:1] == ["output"] else segs[:2]
        out = list(head)
        shape = self.shape
        for seg in segs[len(head):]:
            t = shape.type_name if shape is not None else ""
            if t == "list":
                out.append("*")
                shape = shape.member
            elif t == "map":
                out.append("*")
                shape = shape.value
            elif t == "structure":
                out.append(seg)
                shape = shape.members.get(seg)
            else:
                out.append(seg)
                shape = None
        return "/" + "/".join(out)

    def values(self, pointer: str) -> tuple[Any, Any]:
        return pick(self.ours, pointer), pick(self.theirs, pointer)


def _absent(v: Any) -> bool:
    return isinstance(v, str) and v == "<absent>"


def _output_default(c: RCtx, p: str) -> bool:
    ours, theirs = c.values(p)
    ref = c.smithy_member(p)
    if not _absent(theirs) or ref is None:
        return False
    traits = ref.get("traits") or {}
    if "smithy.api#default" not in traits:
        return False
    d = traits["smithy.api#default"]
    if isinstance(d, bool) or isinstance(ours, bool):
        return ours is d
    if isinstance(d, (int, float)):
        return isinstance(ours, decimal.Decimal) and ours == decimal.Decimal(repr(d))
    return ours == d or ref.get("type") == "timestamp"  # "", [], {}, an enum value; a timestamp's instant


def _message_fallback(c: RCtx, p: str) -> bool:
    ours, theirs = c.values(p)
    e = c.ours.get("error") if isinstance(c.ours, dict) else None
    return (p in ("/error/members/message", "/error/members/Message") and _absent(theirs) and isinstance(ours, str) and e is not None
            and any(x and ours.startswith(x) for x in (c.case.error, e.get("code"))))


def _epoch_float(c: RCtx, p: str) -> bool:
    ours, theirs = c.values(p)
    if not (isinstance(ours, str) and isinstance(theirs, str) and ours.startswith("t:") and theirs.startswith("t:")):
        return False
    a, b = int(ours[2:]), int(theirs[2:])
    # Within the precision of a double holding the seconds (2^-52 of the
    # value, and at least a microsecond).
    return c.proto in ("json", "rest-json") and abs(a - b) <= max(1, abs(a) // (1 << 52))


def _error_not_in_botocore(c: RCtx, p: str) -> bool:
    e, t = c.ours.get("error"), c.theirs.get("error")
    if not isinstance(e, dict) or not isinstance(t, dict) or t.get("shape") is not None or not e.get("shape"):
        return False
    known = {s.name for s in c.op_model.service_model.error_shapes}
    return e["shape"] not in known and (p == "/error/shape" or p.startswith("/error/members/"))


def _not_in_botocore_model(c: RCtx, p: str) -> bool:
    segs = segments(p)
    if len(segs) == 2 and segs[0] == "output" and c.shape is None:
        return True  # botocore's operation has no output shape
    return len(segs) > 1 and segs[:2] != ["error", "shape"] and segs[:2] != ["error", "code"] and \
        c.member(p) is None and c.member("/" + "/".join(segs[:-1])) is not None and \
        c.member("/" + "/".join(segs[:-1])).type_name == "structure"


def _not_in_smithy_model(c: RCtx, p: str) -> bool:
    ours, _ = c.values(p)
    return _absent(ours) and c.smithy_member(p) is None and c.member(p) is not None


def _empty_structure_payload(c: RCtx, p: str) -> bool:
    out = c.op_model.output_shape
    payload = out.serialization.get("payload") if out is not None else None
    ours, theirs = c.values(p)
    return (p == f"/output/{payload}" and out.members[payload].type_name == "structure" and not c.case.body
            and _absent(ours) and theirs == {})


def _double_from_integer(c: RCtx, p: str) -> bool:
    m = c.member(p)
    ours, theirs = c.values(p)
    return (m is not None and m.type_name in ("double", "float") and isinstance(theirs, decimal.Decimal)
            and isinstance(ours, decimal.Decimal) and theirs == theirs.to_integral_value()
            and decimal.Decimal(repr(float(theirs))) == ours)


def _http_date_early_year(c: RCtx, p: str) -> bool:
    ours, theirs = c.values(p)
    m = c.member(p)
    return (m is not None and m.type_name == "timestamp" and m.serialization.get("location") == "header"
            and isinstance(ours, str) and ours.startswith("t:") and int(ours[2:]) < -59011459200000000)  # < year 100


def _head_error(c: RCtx, p: str) -> bool:
    return c.op_model.http.get("method") == "HEAD" and p.startswith("/error/")


def _errortype_namespace(c: RCtx, p: str) -> bool:
    e, t = c.ours.get("error"), c.theirs.get("error")
    if not isinstance(e, dict) or not isinstance(t, dict) or not p.startswith("/error/"):
        return False
    code = t.get("code") or ""
    return p == "/error/code" and "#" in code and code.split("#")[-1] == e.get("code") and c.proto == "rest-json"


def _empty_string_payload(c: RCtx, p: str) -> bool:
    out = c.op_model.output_shape
    payload = out.serialization.get("payload") if out is not None else None
    ours, theirs = c.values(p)
    return (p == f"/output/{payload}" and out.members[payload].type_name == "string" and not c.case.body
            and not any(k.lower() == "content-type" for k in c.case.headers) and _absent(ours) and theirs == "")


def _response_checksum(c: RCtx, p: str) -> bool:
    raised = c.ours.get("raised", "") if isinstance(c.ours, dict) else ""
    return "response checksum mismatch" in raised and \
        any(k.lower().startswith("x-amz-checksum-") for k in c.case.headers)


def _s3_bucket_location(c: RCtx, p: str) -> bool:
    return c.case.model.endswith("s3.json") and c.case.op == "GetBucketLocation" and p == "/output/LocationConstraint"


def _botocore_model_type(c: RCtx, p: str) -> bool:
    raised = c.theirs.get("raised", "") if isinstance(c.theirs, dict) else ""
    if p in ("/output", "/raised") and raised.startswith("ValueError: invalid literal for int()"):
        return True
    m, (ours, theirs) = c.member(p), c.values(p)
    if m is not None and m.type_name == "string" and isinstance(ours, decimal.Decimal) and isinstance(theirs, str):
        return theirs.strip() == str(ours)  # the other way round: Route 53's MaxItems
    return (m is not None and m.type_name in ("integer", "long") and isinstance(ours, str)
            and isinstance(theirs, decimal.Decimal) and ours.strip() == str(theirs))


def _no_content_body(c: RCtx, p: str) -> bool:
    ours, _ = c.values(p)
    return c.case.status == 204 and bool(c.case.body) and p.startswith("/output/") and _absent(ours)


def _query_error_code_member(c: RCtx, p: str) -> bool:
    members = c.shapes.get("shapes", {}).get(c.case.error, {}).get("members", [])
    return c.proto == "query" and p.startswith("/error/") and any(m["name"] == "Code" for m in members)


def _errortype_header(c: RCtx) -> Optional[str]:
    for k, v in c.case.headers.items():
        if k.lower() == "x-amzn-errortype" and v:
            return str(v[0])
    return None


def _errortype_member(c: RCtx, p: str) -> bool:
    ours, theirs = c.values(p)
    return p == "/error/code" and _errortype_header(c) == "" and ours is None and theirs == ""


def _errortype_empty_body(c: RCtx, p: str) -> bool:
    header = _errortype_header(c)
    if c.proto != "rest-json" or not header or c.case.body or p not in ("/error/code", "/error/shape"):
        return False
    name = header.split(":", 1)[0].rsplit("#", 1)[-1]
    ours, theirs = c.values(p)
    return ours == name and theirs in (str(c.case.status), None)


def _json_header_not_json(c: RCtx, p: str) -> bool:
    raised = c.theirs.get("raised", "") if isinstance(c.theirs, dict) else ""
    return p in ("/output", "/raised") and raised.startswith("JSONDecodeError") and "output" in c.ours


# Differences that are not smithycurl's defects: (name, predicate, reason).
# A difference one matches counts as excluded, not failed.
ResponseExclusion = tuple[str, Callable[[RCtx, str], bool], str]
RESPONSE_EXCLUSIONS: list[ResponseExclusion] = [
    ("epoch-seconds-float", _epoch_float,
     "an epoch-seconds timestamp in a JSON body: botocore reads the number as a double and makes a datetime of "
     "it, off by some microseconds for large instants (datetime.fromtimestamp of 191013980480.448 is "
     ".447998); smithycurl reads the decimal digits exactly (the instant the text says)"),
    ("error-not-in-botocore-model", _error_not_in_botocore,
     "a modeled error botocore's model of the service does not have (DynamoDB's InvalidEndpointException): "
     "botocore reports the code only, with no shape and no members"),
    ("errortype-namespace", _errortype_namespace,
     "botocore 1.29's REST JSON parser keeps the shape id's namespace of X-Amzn-Errortype "
     "('com.amazonaws.apigateway#NotFoundException') as the code, finds no error shape and so no members; "
     "the restJson1 spec and protocol test RestJsonFooErrorUsingXAmznErrorTypeWithUriAndNamespace strip it "
     "(recent botocore does)"),
    ("response-checksum", _response_checksum,
     "the renderer's x-amz-checksum-* headers are random texts, not the body's checksums: smithycurl "
     "validates a response checksum (@httpChecksum requestValidationModeMember set, as smithycurl does by "
     "default since 2025: response_checksum_validation when_supported; Smithy/S3 flexible "
     "checksums) and rejects the response; botocore validates in a handler, not in its parser"),
    ("s3-get-bucket-location", _s3_bucket_location,
     "S3 GetBucketLocation answers <LocationConstraint>region</LocationConstraint>, the root element's text "
     "as the member (an S3 customization: smithycurl's codec reads it, botocore in a handler "
     "(parse_get_bucket_location), not in its parser); the renderer writes the output's root element"),
    ("botocore-model-type", _botocore_model_type,
     "a member botocore's model types otherwise than the Smithy model (S3 GetObjectAttributes' "
     "PartNumberMarker, NextPartNumberMarker: integers there, strings here): botocore's parser fails on a "
     "text that is no integer, and gives an int for one that is; and the other way round: Route 53's "
     "MaxItems, a string in botocore 1.29's model, an integer in the Smithy model, read as the text"),
    ("member-not-in-botocore-model", _not_in_botocore_model,
     "a member botocore's model of the structure lacks (an older or newer model; many of its exception shapes "
     "carry no message member and put the message in Error.Message): botocore's parser reads only the "
     "members its model has (the request differential prunes these members from the input)"),
    ("member-not-in-smithy-model", _not_in_smithy_model,
     "a member only botocore's model has (Lambda DeleteFunction's StatusCode, bound to the status code; the "
     "Smithy model's output is Unit): smithycurl decodes the members its model has"),
    ("empty-structure-payload", _empty_structure_payload,
     "a structure @httpPayload and an empty body: smithycurl reads no payload (absent, as the renderer "
     "and, for requests, the unset-payload protocol tests mean it), botocore parses the empty body as {}; "
     "no response protocol test settles it"),
    ("empty-string-payload", _empty_string_payload,
     "a string @httpPayload, an empty body and no Content-Type: smithycurl reads no payload (absent: the "
     "body cannot tell \"\" from no value, and the property tests' renderer writes an absent payload so; "
     "with a Content-Type it is \"\"), botocore gives \"\"; no protocol test settles it"),
    ("double-from-integer", _double_from_integer,
     "a JSON integer literal for a double member beyond 2^53: botocore keeps Python's int (json.loads, no "
     "coercion), smithycurl rounds it to the nearest double as the member's type says"),
    ("http-date-early-year", _http_date_early_year,
     "an http-date header before the year 100 ('Mon, 01 Jan 0001 00:00:00 GMT'): botocore's dateutil parser "
     "takes the year as two digits (2001); smithycurl reads the four digits RFC 9110 IMF-fixdate has"),
    ("head-error-body", _head_error,
     "an error response to a HEAD operation: its body never arrives (RFC 9110 9.3.2), so members the renderer "
     "put in the body cannot be compared, and botocore, with no body, reports the status as the code "
     "(generic error) where smithycurl reads the X-Amzn-Errortype header"),
    ("output-default", _output_default,
     "a member with a Smithy @default absent from the response: smithycurl gives the default (Smithy 2.0: "
     "a deserializer sets the default value of an absent member with one); botocore's models carry no defaults"),
    ("no-content-body", _no_content_body,
     "a 204 response (the operation's @http code, or an @httpResponseCode member) with a body the renderer "
     "wrote all the same: a 204 has no content (RFC 9110 15.3.5) and libcurl reads none; botocore parses it"),
    ("query-error-code-member", _query_error_code_member,
     "an awsQuery error shape with a member named Code (CloudSearch's): the renderer writes it beside the "
     "envelope's Code, two Code elements; botocore's parser reads them as a dict, smithycurl the envelope's"),
    ("errortype-member", _errortype_member,
     "an error member bound to the X-Amzn-Errortype header (Connect Campaigns' xAmzErrorType) given \"\" by "
     "the renderer: botocore reports the empty text as the code, smithycurl no code"),
    ("errortype-empty-body", _errortype_empty_body,
     "a restJson1 error with an empty body and its type in X-Amzn-Errortype (namespace#Name:uri): "
     "smithycurl reads the header, as the restJson1 spec says; botocore 1.29 reports the status code"),
    ("json-header-not-json", _json_header_not_json,
     "a @mediaType(\"application/json\") header the renderer gave a text that is no JSON (Lex PutSession's "
     "activeContexts): botocore json-decodes it and raises, smithycurl returns the text"),
    ("error-message-fallback", _message_fallback,
     "an error's message member the response leaves out: the Python package's exception carries the library's "
     "own description of the error in `message` (errors.ServiceError: a member of that name wins only when "
     "the service sent it); botocore leaves it out"),
]


def excluded(c: RCtx, pointer: str) -> Optional[str]:
    for name, pred, _ in RESPONSE_EXCLUSIONS:
        if pred(c, pointer):
            return name
    return None
