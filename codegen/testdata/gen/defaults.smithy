$version: "2"

// Timestamp defaults in every form the model may write them, members named
// after Python builtins, and HTML documentation, for the typed clients'
// generators (codegen/c, codegen/go, bindings/python tests).
namespace smithycurl.test.gen

/// <p>Keeps <b>notes</b> &amp; their dates.</p><p>A second paragraph.</p>
@aws.protocols#restJson1
service Defaults {
    version: "2024-05-23"
    operations: [PutNote]
}

/// <p>Stores a note and returns it, defaults filled in.</p>
@http(method: "POST", uri: "/note")
operation PutNote {
    input: Note
    output: Note
}

/// <p>A note; see <a href="https://example.com">the docs</a>.</p>
structure Note {
    @timestampFormat("http-date")
    httpDate: Timestamp = "Thu, 23 May 2024 10:20:30 GMT"

    @timestampFormat("http-date")
    @httpHeader("X-Http-Date")
    headerDate: Timestamp = "Thu, 23 May 2024 10:20:31 GMT"

    iso: Timestamp = "2024-05-23T10:20:32.5Z"

    epoch: Timestamp = 1716459633

    @timestampFormat("epoch-seconds")
    epochFraction: Timestamp = 1716459634.25

    /// <p>Named after a builtin: <code>list</code>.</p>
    list: Strings

    float: Float
    int: Integer
    str: String
    bytes: Blob
    type: String
    bool: Boolean
    dict: Pairs
    object: String
    set: Strings
    tuple: String
    id: String
    len: Integer
    typing: String
    datetime: Timestamp
    decimal: BigDecimal
    builtins: String
    smithycurl: String
    dataclasses: String
    ClassVar: String
    Optional: String
}

list Strings {
    member: String
}

map Pairs {
    key: String
    value: Integer
}
