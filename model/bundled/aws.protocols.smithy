$version: "2.0"

// Trait definitions of the aws.protocols namespace, written for smithycurl from
// the Smithy specification's AWS protocol pages.
namespace aws.protocols

/// The AWS restJson1 protocol: HTTP bindings with JSON documents.
@protocolDefinition(
    traits: [
        timestampFormat, cors, endpoint, hostLabel, http, httpError, httpHeader, httpLabel,
        httpPayload, httpPrefixHeaders, httpQuery, httpQueryParams, httpResponseCode,
        httpChecksum, httpChecksumRequired, jsonName
    ]
)
@trait(selector: "service")
structure restJson1 with [HttpConfiguration] {}

/// The AWS JSON 1.0 protocol: POST / with an X-Amz-Target header.
@protocolDefinition(traits: [timestampFormat, cors, endpoint, hostLabel])
@trait(selector: "service")
structure awsJson1_0 with [HttpConfiguration] {}

/// The AWS JSON 1.1 protocol: like awsJson1_0 with another content type.
@protocolDefinition(traits: [timestampFormat, cors, endpoint, hostLabel])
@trait(selector: "service")
structure awsJson1_1 with [HttpConfiguration] {}

/// The AWS restXml protocol: HTTP bindings with XML documents.
@protocolDefinition(
    traits: [
        timestampFormat, cors, endpoint, hostLabel, http, httpError, httpHeader, httpLabel,
        httpPayload, httpPrefixHeaders, httpQuery, httpQueryParams, httpResponseCode,
        httpChecksum, httpChecksumRequired, xmlAttribute, xmlFlattened, xmlName, xmlNamespace
    ]
)
@trait(selector: "service")
structure restXml with [HttpConfiguration] {
    /// True when error responses are not wrapped in an ErrorResponse element.
    noErrorWrapping: Boolean
}

/// The AWS query protocol: form-encoded requests, XML responses.
@protocolDefinition(
    traits: [
        timestampFormat, cors, endpoint, hostLabel, awsQueryError,
        xmlAttribute, xmlFlattened, xmlName, xmlNamespace
    ]
)
@trait(selector: "service [trait|xmlNamespace]")
structure awsQuery {}

/// The Amazon EC2 query protocol.
@protocolDefinition(
    traits: [
        timestampFormat, cors, endpoint, hostLabel, ec2QueryName,
        xmlAttribute, xmlFlattened, xmlName, xmlNamespace
    ]
)
@trait(selector: "service [trait|xmlNamespace]")
structure ec2Query {}

/// The name of a member in ec2Query requests.
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
@trait(selector: "structure > member")
string ec2QueryName

/// The error code and HTTP status of an error in the awsQuery protocol.
@trait(selector: "structure [trait|error]")
structure awsQueryError {
    /// The error code written in responses.
    @required
    code: String

    /// The HTTP status code of the error.
    @required
    httpResponseCode: Integer
}

/// Marks a service moved from awsQuery to another protocol that still
/// answers with awsQuery error codes.
@trait(selector: "service :test([trait|aws.protocols#awsJson1_0], [trait|smithy.protocols#rpcv2Cbor], [trait|smithy.protocols#rpcv2Json])")
structure awsQueryCompatible {}

/// Request and response checksums of an operation.
@trait(selector: "operation")
@unstable
structure httpChecksum {
    /// The input member that names the request checksum algorithm.
    requestAlgorithmMember: String

    /// True when a request checksum is required.
    requestChecksumRequired: Boolean

    /// The input member that turns on response checksum validation.
    requestValidationModeMember: String

    /// The algorithms a response checksum may use.
    responseAlgorithms: ChecksumAlgorithmSet
}

/// The HTTP versions a protocol may use, most preferred first.
@mixin(localTraits: [private])
@private
structure HttpConfiguration {
    /// HTTP versions (ALPN ids such as "http/1.1", "h2") for plain requests.
    http: StringList

    /// HTTP versions for requests with event streams.
    eventStreamHttp: StringList
}

@private
list StringList {
    member: String
}

@private
@length(min: 1)
@uniqueItems
list ChecksumAlgorithmSet {
    member: ChecksumAlgorithm
}

@private
enum ChecksumAlgorithm {
    CRC32
    CRC32C
    CRC64NVME
    MD5
    SHA1
    SHA256
    SHA512
    XXHASH64
    XXHASH3
    XXHASH128
}
