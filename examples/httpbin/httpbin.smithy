$version: "2"

// A Smithy model of a part of httpbin (https://httpbin.org), the HTTP
// request-and-response service. smithycurl's examples and tests call it on a
// local go-httpbin server.
namespace smithycurl.examples.httpbin

/// The httpbin HTTP testing service.
@alloy#simpleRestJson
@httpBasicAuth
@httpBearerAuth
service HttpBin {
    version: "2024-01-01"
    operations: [
        GetIp
        Get
        Anything
        Headers
        Status
        Delay
        Gzip
        Bearer
        BasicAuth
    ]
}

/// Returns the caller's IP address.
@readonly
@optionalAuth
@http(method: "GET", uri: "/ip")
operation GetIp {
    output := {
        @required
        origin: String
    }
}

/// Returns the request's query parameters and headers.
@readonly
@optionalAuth
@http(method: "GET", uri: "/get")
operation Get {
    input := {
        @httpQuery("q")
        query: String
    }
    output := with [Echo] {}
}

/// Echoes the request: method, query, headers and JSON body.
@optionalAuth
@http(method: "POST", uri: "/anything")
operation Anything {
    input := {
        @required
        id: Integer

        test: String

        @httpQuery("query")
        queryParam: String
    }
    output := with [Echo] {
        method: String
        json: Document
    }
}

/// Returns the request's headers.
@readonly
@optionalAuth
@http(method: "GET", uri: "/headers")
operation Headers {
    input := {
        @httpHeader("X-Custom")
        custom: String
    }
    output := {
        headers: MultiMap
    }
}

/// Answers with the given HTTP status code.
@readonly
@optionalAuth
@http(method: "GET", uri: "/status/{code}")
operation Status {
    input := {
        @required
        @httpLabel
        @range(min: 100, max: 599)
        code: Integer
    }
    output := {}
    errors: [ServerFailure]
}

/// Answers after the given number of seconds (at most 10).
@readonly
@optionalAuth
@http(method: "GET", uri: "/delay/{seconds}")
operation Delay {
    input := {
        @required
        @httpLabel
        @range(min: 0, max: 10)
        seconds: Integer
    }
    output := with [Echo] {}
}

/// Answers with a gzip-compressed body.
@readonly
@optionalAuth
@http(method: "GET", uri: "/gzip")
operation Gzip {
    output := {
        gzipped: Boolean
    }
}

/// Checks a bearer token.
@readonly
@auth([httpBearerAuth])
@http(method: "GET", uri: "/bearer")
operation Bearer {
    output := {
        authenticated: Boolean
        token: SensitiveString
    }
    errors: [Unauthorized]
}

/// Checks HTTP basic credentials against the user and password in the path.
@readonly
@auth([httpBasicAuth])
@http(method: "GET", uri: "/basic-auth/{user}/{passwd}")
operation BasicAuth {
    input := {
        @required
        @httpLabel
        user: String

        @required
        @httpLabel
        passwd: SensitiveString
    }
    output := {
        authenticated: Boolean
        user: String
    }
    errors: [Unauthorized]
}

@mixin
structure Echo {
    args: MultiMap
    headers: MultiMap
    origin: String
    url: String
}

/// httpbin answers query parameters and headers as lists of values.
map MultiMap {
    key: String
    value: StringList
}

list StringList {
    member: String
}

@sensitive
string SensitiveString

/// The credentials were missing or wrong.
@error("client")
@httpError(401)
structure Unauthorized {
    message: String
}

/// The server failed.
@error("server")
@httpError(500)
structure ServerFailure {
    message: String
}
