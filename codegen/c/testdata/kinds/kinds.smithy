$version: "2"

// Every shape kind, for the typed C client's round trip through an echo
// server (codegen/c tests, bindings/c/typed/kinds_typed.c). Member
// names include C and C++ keywords and library names on purpose.
namespace smithycurl.test.kinds

/// Echoes what it is sent.
@aws.protocols#restJson1
service Kinds {
    version: "2024-01-01"
    operations: [Echo, Fail, Ping, Old]
}

/// Sends every kind and gets it back.
@http(method: "POST", uri: "/echo")
operation Echo {
    input: Everything
    output: Everything
}

/// Always fails with KindsError, whose members echo the input.
@http(method: "POST", uri: "/fail")
operation Fail {
    input := {
        @required
        message: String
        code: Integer
    }
    errors: [KindsError]
}

/// No input, no output.
@http(method: "POST", uri: "/ping")
operation Ping {}

@deprecated(message: "use Echo", since: "2024")
@http(method: "POST", uri: "/old")
operation Old {
    input := {
        @deprecated
        gone: String
    }
}

@error("client")
@httpError(400)
structure KindsError {
    @required
    message: String
    code: Integer
    details: StringList
}

structure Everything {
    @required
    name: String

    // scalars
    flag: Boolean
    tiny: Byte
    small: Short
    int: Integer
    long: Long
    float: Float
    double: Double
    when: Timestamp
    @timestampFormat("date-time")
    whenText: Timestamp
    data: Blob
    bigInt: BigInteger
    bigDec: BigDecimal
    doc: Document

    // enums
    color: Color
    size: Size

    // defaults (the model's values, set by _init)
    count: Integer = 7
    on: Boolean = true
    shade: Color = "green"
    ratio: Double = 0.5

    // C and C++ keywords and library names as member names
    type: String
    default: Integer
    errors: StringList
    new: Boolean
    free: String
    struct: Integer
    class: String
    errno: Integer

    // aggregates
    strings: StringList
    sparseStrings: SparseStringList
    sparseInts: SparseIntList
    nested: Nested
    nestedList: NestedList
    sparseNested: SparseNestedList
    map: StringMap
    sparseMap: SparseStringMap
    mapOfLists: MapOfLists
    shape: Shape
    shapes: ShapeList
    colors: ColorList
    node: Node
    only: OneMember
}

enum Color {
    RED = "red"
    GREEN = "green"
    UNKNOWN = "unknown"
}

intEnum Size {
    SMALL = 1
    LARGE = 100
}

structure Nested {
    label: String
    inner: Nested
    values: IntList
}

/// A recursive structure: a linked list.
structure Node {
    @required
    value: Integer
    next: Node
}

union Shape {
    circle: Circle
    square: Integer
    name: String
    tags: StringList
    nothing: Unit
    inner: Shape
}

/// A union of one member.
union OneMember {
    only: String
}

structure Circle {
    @required
    radius: Double
}

list StringList {
    member: String
}

list IntList {
    member: Integer
}

list ColorList {
    member: Color
}

@sparse
list SparseStringList {
    member: String
}

@sparse
list SparseIntList {
    member: Integer
}

list NestedList {
    member: Nested
}

@sparse
list SparseNestedList {
    member: Nested
}

list ShapeList {
    member: Shape
}

map StringMap {
    key: String
    value: String
}

@sparse
map SparseStringMap {
    key: String
    value: String
}

map MapOfLists {
    key: String
    value: IntList
}
