$version: "2"

// A key-value store served by testing/servers/kvserver in both RPC v2 protocols:
// KVCbor speaks smithy.protocols#rpcv2Cbor, KVJson smithy.protocols#rpcv2Json.
// The C, Python, Go and command-line tests call them end to end.
namespace smithycurl.kv

use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json

@rpcv2Cbor
service KVCbor {
    version: "2026-12-01"
    operations: [Put, Get, Delete, List, Ping]
    errors: [Unavailable]
}

@rpcv2Json
service KVJson {
    version: "2026-12-01"
    operations: [Put, Get, Delete, List, Ping]
    errors: [Unavailable]
}

/// Stores an item; with ifVersion, only when the stored item has that version.
operation Put {
    input := {
        @required
        key: Key
        value: Blob
        tags: Tags
        score: Double
        size: BigInteger
        ratio: BigDecimal
        expires: Timestamp
        @sensitive
        secret: String
        ifVersion: Long
    }
    output := {
        @required
        version: Long
        @required
        stored: Timestamp
    }
    errors: [Conflict]
}

@readonly
operation Get {
    input := {
        @required
        key: Key
    }
    output := {
        @required
        item: Item
    }
    errors: [NotFound]
}

@idempotent
operation Delete {
    input := {
        @required
        key: Key
    }
    output := {}
    errors: [NotFound]
}

@readonly
operation List {
    input := {
        prefix: String
    }
    output := {
        @required
        items: Items
    }
}

@readonly
operation Ping {}

structure Item {
    @required
    key: Key
    value: Blob
    tags: Tags
    score: Double
    size: BigInteger
    ratio: BigDecimal
    expires: Timestamp
    @required
    version: Long
    @required
    stored: Timestamp
}

@length(min: 1, max: 256)
string Key

map Tags {
    key: String
    value: String
}

list Items {
    member: Item
}

@error("client")
structure NotFound {
    message: String
    @required
    key: Key
}

@error("client")
structure Conflict {
    message: String
    @required
    current: Long
}

@error("server")
@retryable
structure Unavailable {
    message: String
}
