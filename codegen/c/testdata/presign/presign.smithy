$version: "2"

// A SigV4 service for the typed presigners (bindings/c/typed/presign_typed.c):
// GetText is the S3 documentation's presigned GET example, PutText a PUT
// whose Content-Type header is signed and must be sent.
namespace test.presign

@aws.protocols#restJson1
@aws.auth#sigv4(name: "s3")
service Bucket {
    operations: [GetText, PutText]
}

@readonly
@http(method: "GET", uri: "/test.txt")
operation GetText {
    output := {}
}

@idempotent
@http(method: "PUT", uri: "/{key}")
operation PutText {
    input := {
        @required
        @httpLabel
        key: String

        @httpHeader("Content-Type")
        contentType: String
    }
}
