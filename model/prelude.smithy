$version: "2.0"

// Prelude model for the smithy.api namespace, written for this project from
// the Smithy 2.0 specification. Every model implicitly includes these shapes.

namespace smithy.api

// ---------------------------------------------------------------------------
// Simple shapes
// ---------------------------------------------------------------------------

string String

blob Blob

bigInteger BigInteger

bigDecimal BigDecimal

timestamp Timestamp

document Document

boolean Boolean

@default(false)
boolean PrimitiveBoolean

byte Byte

@default(0)
byte PrimitiveByte

short Short

@default(0)
short PrimitiveShort

integer Integer

@default(0)
integer PrimitiveInteger

long Long

@default(0)
long PrimitiveLong

float Float

@default(0)
float PrimitiveFloat

double Double

@default(0)
double PrimitiveDouble

/// The unit type: no meaningful value.
@unitType
structure Unit {}

/// Marks the structure that acts as the unit type.
@trait(selector: "structure")
structure unitType {}

// ---------------------------------------------------------------------------
// Shared private helper shapes
// ---------------------------------------------------------------------------

@private
@length(min: 1)
string NonEmptyString

@private
list StringList {
    member: String
}

@private
map StringMap {
    key: String
    value: String
}

@private
enum EventSeverity {
    NOTE
    WARNING
    DANGER
    ERROR
}

/// A shape ID that has to resolve to a trait shape.
@private
@idRef(failWhenMissing: true, selector: "[trait|trait]")
string TraitShapeId

@private
list TraitShapeIdList {
    member: TraitShapeId
}

// ---------------------------------------------------------------------------
// Trait definitions
// ---------------------------------------------------------------------------

/// Marks a shape as a trait.
@trait(selector: ":is(simpleType, list, map, structure, union)")
structure trait {
    /// Where the trait may be applied; "*" when not set.
    selector: String

    /// Traits that must not be applied together with this one.
    conflicts: TraitConflictList

    /// Limits the trait to one member (or one member target) per structure.
    structurallyExclusive: StructurallyExclusive

    /// Backward compatibility rules of the trait.
    breakingChanges: BreakingChangeRuleList
}

@private
list TraitConflictList {
    member: TraitConflictId
}

@private
@idRef
string TraitConflictId

@private
enum StructurallyExclusive {
    MEMBER = "member"
    TARGET = "target"
}

@private
list BreakingChangeRuleList {
    member: BreakingChangeRule
}

@private
structure BreakingChangeRule {
    @required
    change: BreakingChangeKind

    /// JSON pointer into the trait value; the whole value when empty.
    path: String

    /// ERROR when not set.
    severity: EventSeverity

    message: String
}

@private
enum BreakingChangeKind {
    ADD = "add"
    REMOVE = "remove"
    UPDATE = "update"
    ANY = "any"
    PRESENCE = "presence"
}

/// Limits which shapes a shape can reference when a trait is applied to it.
@trait(selector: "[trait|trait]")
map traitValidators {
    key: TraitValidatorEventId
    value: TraitValidatorDefinition
}

@private
@pattern("^(_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*(\\.(_+[A-Za-z0-9]|[A-Za-z])[A-Za-z0-9_]*)*$")
string TraitValidatorEventId

@private
structure TraitValidatorDefinition {
    @required
    selector: String

    message: String

    severity: EventSeverity
}

/// Gives a metadata key a type that its values are validated against.
@trait(selector: "dataType :not([trait|input]) :not([trait|output])")
structure metadata {
    @required
    key: NonEmptyString
}

/// Marks a shape as a mixin.
@trait(selector: ":not(member)")
structure mixin {
    /// Traits of the mixin that are not copied to shapes using it.
    localTraits: TraitShapeIdList
}

/// Suppresses the listed validation event IDs for the shape.
@trait
list suppress {
    member: String
}

// --- Documentation traits --------------------------------------------------

/// CommonMark documentation for a shape or member.
@trait
string documentation

/// Named links to external documentation.
@trait
map externalDocumentation {
    key: String
    value: String
}

/// Marks a shape or member as deprecated.
@trait
structure deprecated {
    message: String

    since: String
}

/// Version or date in which the shape was added.
@trait
string since

/// Arbitrary tags used to filter and group shapes.
@trait
list tags {
    member: String
}

/// A proper, human-friendly name for a shape.
@trait
string title

/// Marks a shape as unstable; it may change in the future.
@trait
structure unstable {}

/// Marks a shape as meant only for internal use.
@trait
structure internal {}

/// Indicates that a structure member should be set.
@trait(selector: "structure > member", conflicts: ["smithy.api#required"])
structure recommended {
    reason: String
}

/// Marks data that must be handled with care.
@trait(selector: ":not(:is(service, operation, resource, member))")
structure sensitive {}

/// Example inputs and outputs of an operation.
@trait(selector: "operation")
list examples {
    member: Example
}

@private
structure Example {
    @required
    title: String

    documentation: String

    input: Document

    output: Document

    error: ErrorExample

    allowConstraintErrors: Boolean
}

@private
structure ErrorExample {
    shapeId: ErrorShapeId

    content: Document
}

/// A shape ID that has to resolve to an error structure.
@private
@idRef(failWhenMissing: true, selector: "structure[trait|error]")
string ErrorShapeId

@private
list ErrorShapeIdList {
    member: ErrorShapeId
}

// --- Constraint traits -----------------------------------------------------

/// The string value must be a valid absolute shape ID.
@trait(selector: ":test(string, member > string)")
structure idRef {
    failWhenMissing: Boolean

    /// Selector the resolved shape has to match; "*" when not set.
    selector: String

    errorMessage: String
}

/// Minimum and maximum length or size.
@trait(selector: ":test(list, map, string, blob, member > :is(list, map, string, blob))")
structure length {
    min: Long

    max: Long
}

/// Regular expression that string values must match.
@trait(selector: ":test(string, member > string)")
string pattern

/// Keeps other namespaces from referencing the shape.
@trait
structure private {}

/// Inclusive lower and upper bounds of numbers.
@trait(selector: ":test(number, member > number)")
structure range {
    min: BigDecimal

    max: BigDecimal
}

/// Requires the items of a list to be unique.
@trait(selector: "list :not(> member ~> :is(float, double, document))", conflicts: ["smithy.api#sparse"])
structure uniqueItems {}

/// Fixed set of values for a string (deprecated: use an enum shape).
@deprecated(message: "Use an enum shape instead.", since: "2.0")
@trait(selector: "string :not(enum)")
list enum {
    member: EnumDefinition
}

@private
structure EnumDefinition {
    @required
    value: NonEmptyString

    name: EnumConstantName

    documentation: String

    tags: StringList

    deprecated: Boolean
}

@private
@pattern("^[a-zA-Z_]+[a-zA-Z_0-9]*$")
string EnumConstantName

// --- Type refinement traits ------------------------------------------------

/// Default value of a member or of a root-level shape.
@trait(selector: ":is(simpleType, list, map, structure > member :test(> :is(simpleType, list, map)))")
document default

/// The default trait was added after the member was first published.
@trait(selector: "structure > member [trait|default]")
structure addedDefault {}

/// Marks a structure member as required.
@trait(selector: "structure > member")
structure required {}

/// Non-authoritative consumers treat the member as optional.
@trait(selector: "structure > member")
structure clientOptional {}

/// Value of an enum or intEnum member.
@trait(selector: ":is(enum, intEnum) > member")
document enumValue

/// Marks a structure as an error, faulting the client or the server.
@trait(selector: "structure", conflicts: ["smithy.api#trait"])
enum error {
    CLIENT = "client"
    SERVER = "server"
}

/// Structure used only as the input of a single operation.
@trait(selector: "structure", conflicts: ["smithy.api#output", "smithy.api#error"])
structure input {}

/// Structure used only as the output of a single operation.
@trait(selector: "structure", conflicts: ["smithy.api#input", "smithy.api#error"])
structure output {}

/// Lists and maps that may contain null values.
@trait(selector: ":is(list, map)", breakingChanges: [{change: "presence"}])
structure sparse {}

/// Smithy 1.0 compatibility: a boxed shape or member has no default value.
@trait(selector: ":test(boolean, byte, short, integer, long, float, double, member > :test(boolean, byte, short, integer, long, float, double))")
structure box {}

// --- Behavior traits -------------------------------------------------------

/// Input member used to identify and discard replayed requests.
@notProperty
@trait(selector: "structure > :test(member > string)")
structure idempotencyToken {}

/// Repeating an identical request has the effect of a single one.
@trait(selector: "operation", conflicts: ["smithy.api#readonly"])
structure idempotent {
    /// Errors returned when the resource already exists.
    exists: ErrorShapeIdList

    /// Errors returned when the resource does not exist.
    notFound: ErrorShapeIdList
}

/// The operation is effectively read-only.
@trait(selector: "operation", conflicts: ["smithy.api#idempotent"])
structure readonly {}

/// The error may be retried by the client.
@trait(selector: "structure[trait|error]")
structure retryable {
    throttling: Boolean
}

/// The operation returns its results over several pages.
@trait(
    selector: ":is(operation, service)"
    breakingChanges: [
        {change: "remove"}
        {change: "any", path: "/inputToken"}
        {change: "any", path: "/outputToken"}
        {change: "any", path: "/items"}
        {change: "remove", path: "/pageSize"}
        {change: "update", path: "/pageSize"}
    ]
)
structure paginated {
    inputToken: String

    outputToken: String

    items: String

    pageSize: String
}

/// The service may hold requests to the operation open before responding.
@unstable
@trait(selector: "operation")
structure longPoll {
    /// Milliseconds a client should wait for a response.
    @required
    @range(min: 1)
    timeoutMillis: Integer
}

/// The operation accepts compressed requests.
@trait(selector: "operation")
structure requestCompression {
    /// Supported compression algorithms, in priority order.
    @required
    encodings: StringList
}

// --- Protocol traits -------------------------------------------------------

/// Marks a trait as a protocol definition trait.
@trait(selector: "[trait|trait]")
structure protocolDefinition {
    traits: TraitShapeIdList

    noInlineDocumentSupport: Boolean
}

/// JSON property name of a structure or union member.
@trait(selector: ":is(structure, union) > member")
string jsonName

/// Design-time media type of a blob or string.
@trait(selector: ":is(blob, string)")
string mediaType

/// Serialization format of a timestamp.
@trait(selector: ":test(timestamp, member > timestamp)")
enum timestampFormat {
    DATE_TIME = "date-time"
    HTTP_DATE = "http-date"
    EPOCH_SECONDS = "epoch-seconds"
}

/// Serializes a member as an XML attribute.
@trait(selector: "structure > :test(member > :test(boolean, number, string, timestamp))", conflicts: ["smithy.api#xmlNamespace"])
structure xmlAttribute {}

/// Unwraps list or map values into the containing structure.
@trait(selector: ":is(structure, union) > :test(member > :test(list, map))")
structure xmlFlattened {}

/// XML element or attribute name.
@trait(selector: ":is(structure, union, member)")
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*(:[a-zA-Z_][a-zA-Z_0-9-]*)?$")
string xmlName

/// XML namespace of an element.
@trait(selector: ":is(service, member, simpleType, list, map, structure, union)", conflicts: ["smithy.api#xmlAttribute"])
structure xmlNamespace {
    @required
    uri: NonEmptyString

    prefix: XmlNamespacePrefix
}

@private
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
string XmlNamespacePrefix

// --- Authentication traits -------------------------------------------------

/// Marks a trait as an authentication scheme.
@trait(selector: "[trait|trait]")
structure authDefinition {
    traits: TraitShapeIdList
}

/// HTTP Basic Authentication (RFC 2617).
@authDefinition
@trait(selector: "service")
structure httpBasicAuth {}

/// HTTP Digest Authentication (RFC 2617).
@authDefinition
@trait(selector: "service")
structure httpDigestAuth {}

/// HTTP Bearer Authentication (RFC 6750).
@authDefinition
@trait(selector: "service")
structure httpBearerAuth {}

/// API key sent in a header or query string parameter.
@authDefinition
@trait(selector: "service")
structure httpApiKeyAuth {
    @required
    name: NonEmptyString

    @required
    in: HttpApiKeyLocation

    /// Authorization header scheme; only with a header location.
    scheme: String
}

@private
enum HttpApiKeyLocation {
    HEADER = "header"
    QUERY = "query"
}

/// The operation may be called without authentication.
@trait(selector: "operation")
structure optionalAuth {}

/// Priority-ordered authentication schemes of a service or operation.
@trait(selector: ":is(service, operation)")
@uniqueItems
list auth {
    member: AuthSchemeId
}

@private
@idRef(failWhenMissing: true, selector: "[trait|authDefinition]")
string AuthSchemeId

// --- Resource traits -------------------------------------------------------

/// Resource properties are bound inside the targeted structure.
@trait(selector: "operation -[input, output]-> structure > member :test(> structure)")
structure nestedProperties {}

/// The member (or members marked with this trait) are not resource properties.
@trait(selector: ":is(operation -[input, output]-> structure > member, [trait|trait])")
structure notProperty {}

/// The put lifecycle operation cannot replace an existing resource.
@trait(selector: "resource:test(-[put]->)")
structure noReplace {}

/// Binds a member to a resource property with a different name.
@trait(selector: "structure > member")
structure property {
    @required
    name: String
}

/// Design-time references to resources.
@trait(selector: ":is(structure, string)")
list references {
    member: Reference
}

@private
structure Reference {
    service: ServiceShapeId

    @required
    resource: ResourceShapeId

    /// Resource identifier name to structure member name.
    ids: StringMap

    rel: String
}

@private
@idRef(selector: "service")
string ServiceShapeId

@private
@idRef(selector: "resource")
string ResourceShapeId

/// The member provides the named identifier of a resource.
@trait(selector: "structure > :test(member[trait|required] > string)")
string resourceIdentifier

// --- Streaming traits ------------------------------------------------------

/// The data of the shape is streamed.
@trait(selector: ":is(blob, union)", structurallyExclusive: "target")
structure streaming {}

/// The streaming blob has a known, finite size.
@trait(selector: "blob[trait|streaming]")
structure requiresLength {}

/// Serializes the member as an event header.
@trait(selector: "structure > :test(member > :test(boolean, byte, short, integer, long, blob, string, timestamp))", conflicts: ["smithy.api#eventPayload"])
structure eventHeader {}

/// Serializes the member as the event payload.
@trait(selector: "structure > :test(member > :test(blob, string, structure, union))", conflicts: ["smithy.api#eventHeader"], structurallyExclusive: "member")
structure eventPayload {}

// --- HTTP binding traits ---------------------------------------------------

/// HTTP bindings of an operation.
@trait(selector: "operation")
structure http {
    @required
    method: NonEmptyString

    @required
    uri: NonEmptyString

    /// Success status code; 200 when not set.
    @range(min: 100, max: 999)
    code: Integer
}

/// HTTP status code of an error.
@trait(selector: "structure[trait|error]")
integer httpError

/// Binds a member to an HTTP header.
@trait(
    selector: "structure > :test(member > :test(boolean, number, string, timestamp, list > member > :test(boolean, number, string, timestamp)))"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
    ]
)
@length(min: 1)
string httpHeader

/// Binds a string map member to headers with a common prefix.
@trait(
    selector: "structure > member :test(> map :not([trait|sparse]) > member[id|member=value] > string)"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpHeader"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
    ]
    structurallyExclusive: "member"
)
string httpPrefixHeaders

/// Binds a required input member to a URI label.
@trait(
    selector: "structure > member[trait|required] :test(> :test(string, number, boolean, timestamp))"
    conflicts: [
        "smithy.api#httpHeader"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
    ]
)
structure httpLabel {}

/// Binds a member to the body of the HTTP message.
@trait(
    selector: "structure > member"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpResponseCode"
    ]
    structurallyExclusive: "member"
)
structure httpPayload {}

/// Binds an input member to a query string parameter.
@trait(
    selector: "structure > member :test(> :test(string, number, boolean, timestamp), > list > member > :test(string, number, boolean, timestamp))"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpHeader"
        "smithy.api#httpQueryParams"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
    ]
)
@length(min: 1)
string httpQuery

/// Binds a map member to query string parameters.
@trait(
    selector: "structure > member :test(> map > member[id|member=value] > :test(string, list > member > string))"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpHeader"
        "smithy.api#httpQuery"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpResponseCode"
    ]
    structurallyExclusive: "member"
)
structure httpQueryParams {}

/// Binds an integer member to the HTTP response status code.
@trait(
    selector: "structure :not([trait|input]) > member :test(> integer)"
    conflicts: [
        "smithy.api#httpLabel"
        "smithy.api#httpHeader"
        "smithy.api#httpPrefixHeaders"
        "smithy.api#httpPayload"
        "smithy.api#httpQuery"
        "smithy.api#httpQueryParams"
    ]
)
structure httpResponseCode {}

/// Cross-origin resource sharing settings of a service.
@trait(selector: "service")
structure cors {
    /// Allowed origin; "*" when not set.
    origin: String

    /// Named allowed origins.
    origins: StringMap

    /// Seconds a preflight response may be cached; 600 when not set.
    maxAge: Integer

    additionalAllowedHeaders: StringList

    additionalExposedHeaders: StringList
}

/// The HTTP request of the operation must carry a checksum.
@trait(selector: "operation")
structure httpChecksumRequired {}

// --- Endpoint traits -------------------------------------------------------

/// Custom endpoint host prefix of an operation.
@trait(selector: "operation")
structure endpoint {
    @required
    hostPrefix: NonEmptyString
}

/// Binds a required input member to a label of the endpoint host prefix.
@trait(selector: "structure > member[trait|required] :test(> string)")
structure hostLabel {}
