$version: "2"

// The streaming blob test service of testing/servers/blobserver: uploads are
// read and discarded (the answer says how many bytes came and whether
// they were the pattern: byte i is i % 251), downloads are generated.
// PutChecked and GetChecked show the checksums of aws.protocols#httpChecksum.
namespace smithycurl.test.blobs

use aws.protocols#httpChecksum
use aws.protocols#restJson1

@restJson1
service Blobs {
    operations: [PutBlob, GetBlob, PutChecked, GetChecked]
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

enum ChecksumAlgorithm {
    CRC32
    CRC32C
    SHA1
    SHA256
    CRC64NVME
}

enum ChecksumMode {
    ENABLED
}

/// Answers with the checksum headers it got (it keeps nothing).
@idempotent
@http(method: "PUT", uri: "/checked/{key}")
@httpChecksum(requestAlgorithmMember: "checksumAlgorithm")
operation PutChecked {
    input := {
        @required
        @httpLabel
        key: String

        @httpHeader("x-amz-sdk-checksum-algorithm")
        checksumAlgorithm: ChecksumAlgorithm

        @httpHeader("x-amz-checksum-crc32")
        checksumCrc32: String

        @httpPayload
        body: Blob
    }
    output := {
        /// The x-amz-checksum-crc32 header it got ("" when none).
        crc32: String

        /// The x-amz-sdk-checksum-algorithm header it got ("" when none).
        algorithm: String
    }
}

/// The bytes "checked body", with their CRC32 in x-amz-checksum-crc32
/// when the request's x-amz-checksum-mode is ENABLED (as S3): a wrong one
/// for the key "bad", a multipart object's composite one ("...-2") for
/// the key "parts".
@readonly
@http(method: "GET", uri: "/checked/{key}")
@httpChecksum(requestValidationModeMember: "checksumMode", responseAlgorithms: ["CRC32"])
operation GetChecked {
    input := {
        @required
        @httpLabel
        key: String

        @httpHeader("x-amz-checksum-mode")
        checksumMode: ChecksumMode
    }
    output := {
        @httpPayload
        body: Body
    }
}
