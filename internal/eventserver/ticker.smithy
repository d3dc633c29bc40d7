$version: "2"
namespace smithycurl.test.events

use aws.protocols#restJson1

@restJson1
service Ticker {
    version: "2024-01-01"
    operations: [Tick]
}

@http(method: "POST", uri: "/tick")
operation Tick {
    input := {
        @required
        count: Integer
        intervalMs: Integer
        fail: String
        /// bytes of padding added to each tick's message
        pad: Integer
    }
    output := {
        @httpHeader("x-session")
        session: String
        @httpPayload
        events: TickStream
    }
    errors: [BadRequest]
}

@streaming
union TickStream {
    tick: TickEvent
    note: NoteEvent
    tooFast: TooFast
}

structure TickEvent {
    @eventHeader
    seq: Integer
    @eventHeader
    at: Timestamp
    message: String
}

structure NoteEvent {
    @eventPayload
    text: String
}

@error("client")
structure TooFast {
    message: String
}

@error("client")
@httpError(400)
structure BadRequest {
    message: String
}
