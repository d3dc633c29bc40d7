$version: "2"

// The streaming blob test service of testing/servers/blobserver: uploads are
// read and discarded (the answer says how many bytes came and whether
// they were the pattern: byte i is i % 251), downloads are generated.
namespace smithycurl.test.blobs

use aws.protocols#restJson1

@restJson1
service Blobs {
    operations: [PutBlob, GetBlob]
}

@streaming
blob Body

/// Reads the body to its end. The first failFirst sends for a key are
/// answered with 503 after the body was read (the operation is idempotent:
/// the client retries them when it can rewind the body).
@idempotent
@http(method: "PUT", uri: "/blobs/{key}")
operation PutBlob {
    input := {
        @required
        @httpLabel
        key: String

        @httpQuery("failFirst")
        failFirst: Integer

        @httpPayload
        body: Body
    }
    output := {
        /// The bytes read.
        size: Long

        /// Whether they were the pattern (byte i is i % 251).
        intact: Boolean

        /// The sends of this key so far, this one included.
        attempt: Integer
    }
}

/// size bytes of the pattern (byte i is i % 251), written as they are made.
@readonly
@http(method: "GET", uri: "/blobs/{size}")
operation GetBlob {
    input := {
        @required
        @httpLabel
        size: Long
    }
    output := {
        @httpHeader("Content-Length")
        contentLength: Long

        @httpPayload
        body: Body
    }
}
