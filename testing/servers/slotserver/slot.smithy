$version: "2"

namespace smithycurl.test.slot

use aws.protocols#httpChecksum
use aws.protocols#restJson1

/// Keeps one body: what PutData or PutStream sends, GetData and GetStream
/// answer, byte for byte (slotserver). The blob payloads go beside the
/// document as bytes in Go (client.WithPayload, WithPayloadOutput).
@restJson1
service Slot {
    version: "2026-12-01"
    operations: [PutData, GetData, PutStream, GetStream, Ping]
}

@streaming
blob Stream

enum Mode {
    ENABLED
}

@idempotent
@http(method: "PUT", uri: "/d/{Key}")
operation PutData {
    input := {
        @required
        @httpLabel
        Key: String

        @httpPayload
        Data: Blob
    }

    output := {
        @httpHeader("x-size")
        Size: Long

        @httpHeader("x-type")
        Type: String
    }
}

@readonly
@http(method: "GET", uri: "/d/{Key}")
@httpChecksum(requestValidationModeMember: "Mode", responseAlgorithms: ["CRC32"])
operation GetData {
    input := {
        @required
        @httpLabel
        Key: String

        @httpHeader("x-amz-checksum-mode")
        Mode: Mode
    }

    output := {
        @httpHeader("x-size")
        Size: Long

        @httpPayload
        Data: Blob
    }
}

@idempotent
@http(method: "PUT", uri: "/s/{Key}")
operation PutStream {
    input := {
        @required
        @httpLabel
        Key: String

        @httpPayload
        Body: Stream
    }

    output := {
        @httpHeader("x-size")
        Size: Long

        @httpHeader("x-type")
        Type: String
    }
}

@readonly
@http(method: "GET", uri: "/s/{Key}")
operation GetStream {
    input := {
        @required
        @httpLabel
        Key: String
    }

    output := {
        @httpHeader("x-size")
        Size: Long

        @httpPayload
        Body: Stream
    }
}

@readonly
@http(method: "GET", uri: "/ping")
operation Ping {}
