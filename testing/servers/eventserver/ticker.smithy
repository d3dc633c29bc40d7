$version: "2"
namespace smithycurl.test.events

use aws.protocols#restJson1

@restJson1
service Ticker {
    version: "2024-01-01"
    operations: [Tick, Echo]
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

/// A duplex stream: each say event of the input comes back at once as a
/// said event with the prefix added; the output ends with the input.
@http(method: "POST", uri: "/echo")
operation Echo {
    input := {
        @httpHeader("x-prefix")
        prefix: String
        @httpPayload
        @required
        events: SayStream
    }
    output := {
        @httpPayload
        events: SaidStream
    }
}

@streaming
union SayStream {
    say: SayEvent
}

structure SayEvent {
    @eventPayload
    text: String
}

@streaming
union SaidStream {
    said: SaidEvent
}

structure SaidEvent {
    message: String
}
