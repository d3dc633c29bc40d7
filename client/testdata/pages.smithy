$version: "2"

namespace smithycurl.test.pages

use aws.protocols#awsJson1_0

/// A service whose operations page through a fixed list (pages_test.go
/// serves it). The service's @paginated gives the tokens and page size; the
/// operations add their items and override the output token.
@awsJson1_0
@paginated(inputToken: "Marker", outputToken: "NextMarker", pageSize: "Limit")
service Pages {
    version: "2024-01-01"
    operations: [ListThings, ListWrapped, ListCounts, GetThing]
}

@readonly
@paginated(items: "Things")
operation ListThings {
    input := {
        Marker: String
        Limit: Integer
        /// "repeat": the token never changes; "empty": the first page ends
        /// with an empty token; "fail": the second page is an error.
        Mode: String
    }
    output := {
        Things: StringList
        NextMarker: String
    }
}

@readonly
@paginated(outputToken: "Result.Token", items: "Result.Items")
operation ListWrapped {
    input := {
        Marker: String
        Limit: Integer
    }
    output := {
        Result: Wrapper
    }
}

structure Wrapper {
    Token: String
    Items: StringList
}

@readonly
@paginated(items: "Counts")
operation ListCounts {
    input := {
        Marker: String
        Limit: Integer
    }
    output := {
        Counts: CountMap
        NextMarker: String
    }
}

@readonly
operation GetThing {
    input := {
        Id: String
    }
    output := {
        Id: String
    }
}

list StringList {
    member: String
}

map CountMap {
    key: String
    value: Integer
}
