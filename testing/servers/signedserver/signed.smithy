$version: "2"

// A service that signs with an auth scheme of its own (hmacAuth, which
// smithycurl does not know: the caller registers a signer for it) and
// with HTTP digest auth. testing/servers/signedserver serves it.
namespace com.example

/// Requests carry "Authorization: HMAC-SHA256 keyId=ID, signature=HEX",
/// HEX = hex(HMAC-SHA256(secret, METHOD "\n" PATH?QUERY "\n" DATE "\n"
/// hex(SHA-256(body)))), with DATE the X-Example-Date header (RFC 3339).
@trait(selector: "service")
@authDefinition
structure hmacAuth {
    /// The signature's algorithm; only HMAC-SHA256.
    algorithm: String
}

@alloy#simpleRestJson
@hmacAuth(algorithm: "HMAC-SHA256")
@httpDigestAuth
@auth([hmacAuth])
service Signed {
    version: "2026-01-01"
    operations: [
        Echo
        DigestAuth
    ]
}

/// Echoes the message, with the key id the signature was checked with.
@http(method: "POST", uri: "/echo")
operation Echo {
    input := {
        message: String
    }
    output := {
        message: String
        signedBy: String
    }
    errors: [Unauthorized]
}

/// go-httpbin's digest check: qop "auth", the user and password the
/// path names.
@readonly
@auth([httpDigestAuth])
@http(method: "GET", uri: "/digest-auth/{qop}/{user}/{passwd}")
operation DigestAuth {
    input := {
        @required
        @httpLabel
        qop: String

        @required
        @httpLabel
        user: String

        @required
        @httpLabel
        passwd: String
    }
    output := {
        authenticated: Boolean
        user: String
    }
    errors: [Unauthorized]
}

/// The signature or the digest was missing or wrong.
@error("client")
@httpError(401)
structure Unauthorized {
    message: String
}
