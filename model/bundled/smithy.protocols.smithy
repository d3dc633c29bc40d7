$version: "2.0"

// Trait definitions of the smithy.protocols namespace, written for smithycurl
// from the Smithy specification's RPC v2 protocol pages.
namespace smithy.protocols

/// RPC v2 with CBOR bodies: POST /service/{name}/operation/{name}.
@protocolDefinition(traits: [cors, endpoint, hostLabel, httpError, requestCompression])
@trait(selector: "service")
structure rpcv2Cbor {
    /// HTTP versions for plain requests, most preferred first.
    http: StringList

    /// HTTP versions for requests with event streams.
    eventStreamHttp: StringList
}

/// RPC v2 with JSON bodies.
@protocolDefinition(traits: [cors, endpoint, hostLabel, httpError, requestCompression])
@trait(selector: "service")
structure rpcv2Json {
    /// HTTP versions for plain requests, most preferred first.
    http: StringList

    /// HTTP versions for requests with event streams.
    eventStreamHttp: StringList
}

@private
list StringList {
    member: String
}
