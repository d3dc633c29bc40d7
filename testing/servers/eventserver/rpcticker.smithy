$version: "2"
namespace smithycurl.test.events.rpc

use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use smithy.protocols#rpcv2Cbor
use smithy.protocols#rpcv2Json
use aws.auth#sigv4

// The Ticker of ticker.smithy in the four RPC protocols: the event stream
// is the whole response body, the initial response (session) its first
// message, an event of type initial-response.

@awsJson1_0
service TickerJson10 {
    version: "2024-01-01"
    operations: [Tick, Echo]
}

@awsJson1_1
service TickerJson11 {
    version: "2024-01-01"
    operations: [Tick, Echo]
}

/// Echo with SigV4: each input event is signed (the server checks the
/// chain with the secret key eventserver.TestSecretKey).
@awsJson1_1
@sigv4(name: "ticker")
service SignedTicker {
    version: "2024-01-01"
    operations: [Echo]
}

@rpcv2Cbor
service TickerCbor {
    version: "2024-01-01"
    operations: [Tick, Echo]
}

@rpcv2Json
service TickerRpcJson {
    version: "2024-01-01"
    operations: [Tick, Echo]
}

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
        session: String
        @required
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
structure BadRequest {
    message: String
}

/// A duplex stream: each say event of the input comes back at once as a
/// said event with the prefix added; the output ends with the input.
operation Echo {
    input := {
        prefix: String
        @required
        events: SayStream
    }
    output := {
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
