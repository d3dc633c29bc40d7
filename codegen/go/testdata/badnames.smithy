$version: "2"

namespace test.bad

use aws.protocols#restJson1

/// Names that are Go keywords, predeclared names or collide after conversion.
@restJson1
service Bad {
    version: "1"
    operations: [DoIt, Close, Untyped]
}

@http(method: "POST", uri: "/do")
operation DoIt {
    input: Client
    output: New
    errors: [Error]
}

@http(method: "POST", uri: "/close")
operation Close {}

@http(method: "POST", uri: "/untyped")
operation Untyped {
    input := {
        serviceID: String
    }
}

/// Input of <b>DoIt</b> &amp; more.
structure Client {
    type: String
    int: Integer
    /// Use <code>type</code>.
    @deprecated(message: "use type", since: "2")
    default: String
    errors: String
    new: String
    free: String
    func: String
    range: String
    String: String
    MarshalJSON: String
    node: Node
    one: One
    floats: Floats
    @required
    req: Double
    @required
    reqNode: Node
    @required
    reqList: Floats
    big: BigInteger
    dec: BigDecimal
    when: Timestamp
    doc: Document
    data: Blob
    sparse: SparseFloats
    fooBar: FooBar
    foo_bar: fooBar
    kind: Kind
    num: Num
}

structure New {
    Error: String
    values: String
    one: One
}

@error("client")
structure Error {
    Error: String
    message: String
    Meta: String
    Status: Integer
    ErrorMeta: String
    Unwrap: String
}

structure Node {
    next: Node
    children: NodeList
    value: Float
    u: One
}

list NodeList {
    member: Node
}

union One {
    only: Double
}

list Floats {
    member: Float
}

structure FooBar {
    a: String
}

structure fooBar {
    b: String
}

enum Kind {
    type
    Values
    a_b = "a-b"
    x1 = "1x"
}

intEnum Num {
    ONE = 1
    String = 2
}

@sparse
list SparseFloats {
    member: Double
}
