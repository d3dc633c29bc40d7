$version: "2"

// A small service for the client's fault-injection tests
// (client/fault_test.go against testing/servers/faultserver). The label picks the
// fault the server scripts for the request's path.
namespace smithycurl.test.faults

@alloy#simpleRestJson
service Faults {
    version: "2024-01-01"
    operations: [Read, Write, Put, Get]
}

/// Safe to repeat: retried after any failure that may be transient.
@readonly
@http(method: "GET", uri: "/read/{name}")
operation Read {
    input := {
        @required
        @httpLabel
        name: String
    }
    output: Message
    errors: [Unavailable]
}

/// Not idempotent: never re-sent once it may have reached the server.
@http(method: "POST", uri: "/write/{name}")
operation Write {
    input := {
        @required
        @httpLabel
        name: String

        item: String
    }
    output: Message
    errors: [Unavailable]
}

/// Idempotent: re-sent after a reset.
@idempotent
@http(method: "PUT", uri: "/put/{name}")
operation Put {
    input := {
        @required
        @httpLabel
        name: String

        item: String
    }
    output: Message
}

/// A GET the model marks neither @readonly nor @idempotent, as the AWS S3
/// model's GetObject: HTTP defines GET as idempotent, so it is retried too.
@http(method: "GET", uri: "/get/{name}")
operation Get {
    input := {
        @required
        @httpLabel
        name: String
    }
    output: Message
    errors: [Unavailable]
}

structure Message {
    message: String
}

@error("server")
@httpError(503)
structure Unavailable {
    message: String
}
