$version: "2"

namespace smithycurl.test.extras

use aws.protocols#restJson1
use smithy.waiters#waitable

/// Paginated, waitable and streamed operations for the typed generators'
/// tests, served by testing/servers/extraserver.
@restJson1
service Extras {
    version: "2024-01-01"
    operations: [ListItems, GetJob, Upload, Download, Echo]
}

@readonly
@paginated(inputToken: "next", outputToken: "next", items: "items", pageSize: "size")
@http(method: "GET", uri: "/items")
operation ListItems {
    input := {
        @httpQuery("next")
        next: String
        @httpQuery("size")
        size: Integer
        /// how many items there are
        @httpQuery("total")
        total: Integer
    }
    output := {
        items: Names
        next: String
    }
}

list Names {
    member: String
}

@readonly
@waitable(
    JobDone: {
        documentation: "Waits until the job is done."
        minDelay: 1
        maxDelay: 2
        acceptors: [
            { state: "success", matcher: { output: { path: "status", expected: "done", comparator: "stringEquals" } } }
            { state: "failure", matcher: { output: { path: "status", expected: "failed", comparator: "stringEquals" } } }
            { state: "retry", matcher: { errorType: "NoSuchJob" } }
        ]
    }
)
@http(method: "GET", uri: "/jobs/{id}")
operation GetJob {
    input := {
        @required
        @httpLabel
        id: String
    }
    output := {
        id: String
        status: String
    }
    errors: [NoSuchJob, JobLocked]
}

@error("client")
@httpError(404)
structure NoSuchJob {
    message: String
}

/// A job another caller holds. It models no message member: the message
/// the service sends in the body is the error's message.
@error("client")
@httpError(409)
structure JobLocked {
    holder: String
}

@streaming
blob Body

@http(method: "PUT", uri: "/blob/{name}")
operation Upload {
    input := {
        @required
        @httpLabel
        name: String
        @httpPayload
        body: Body
    }
    output := {
        size: Long
        sum: Long
    }
}

@readonly
@http(method: "GET", uri: "/blob/{name}")
operation Download {
    input := {
        @required
        @httpLabel
        name: String
        @httpQuery("n")
        n: Long
    }
    output := {
        @httpHeader("x-name")
        name: String
        @httpPayload
        body: Body
    }
}

/// Answers with the body it got: a blob payload in and out that is not
/// @streaming (as Lambda Invoke's Payload).
@http(method: "PUT", uri: "/echo/{name}")
operation Echo {
    input := {
        @required
        @httpLabel
        name: String
        @httpPayload
        body: Blob
    }
    output := {
        @httpHeader("x-name")
        name: String
        @httpPayload
        body: Blob
    }
}
