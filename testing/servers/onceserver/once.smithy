$version: "2"

// A counter for the exactly-once tests: testing/servers/onceserver serves it,
// behind its fault-injecting proxy. Add is not idempotent; the tests check
// that no call of it is executed twice and no success is lost.
namespace smithycurl.once

use aws.protocols#restJson1

@restJson1
service Once {
    version: "2026-12-01"
    operations: [Add, Count, Settle]
}

/// Adds one to the counter of id and returns its new value: not idempotent.
@http(method: "POST", uri: "/add/{id}")
operation Add {
    input := {
        @required
        @httpLabel
        id: String
    }
    output := {
        @required
        count: Integer
    }
}

/// The counter of id: how many times Add was executed for it.
@readonly
@http(method: "GET", uri: "/count/{id}")
operation Count {
    input := {
        @required
        @httpLabel
        id: String
    }
    output := {
        @required
        count: Integer
    }
}

/// Served by the proxy: waits until it answers no other request (a delayed
/// one may still reach the counter), then returns how many requests got
/// each fault ("forward": none).
@readonly
@http(method: "GET", uri: "/_settle")
operation Settle {
    output := {
        @required
        faults: FaultCounts
    }
}

map FaultCounts {
    key: String
    value: Integer
}
