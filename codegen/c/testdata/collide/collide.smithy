$version: "2"

// Names that collide in C: keywords and library names as members, shapes
// whose names meet after snake_case, members that meet their presence
// flags, an enum value and union members named like the generated
// constants, an operation named like a generated function; recursion and a
// one-member union. The generated client must compile, with the
// disambiguations codegen/c's tests expect.
namespace smithycurl.test.collide

@aws.protocols#restJson1
service Collide {
    version: "1"
    operations: [GetThing, ErrorWhich, Type]
}

@http(method: "POST", uri: "/thing")
operation GetThing {
    input := {
        type: String
        int: Integer
        default: Integer
        errors: String
        new: String
        free: String
        union: OneMember
        fooBar: String
        foo_bar: String
        hasFoo: Boolean
        foo: Boolean
        unused: String
        tree: Tree
        kind: Kind
    }
    output: FooBar
}

@http(method: "POST", uri: "/which")
operation ErrorWhich {}

@http(method: "POST", uri: "/type")
operation Type {
    input := {
        tricky: Tricky
    }
}

structure FooBar {
    x: Foo_Bar
    other: smithycurl.test.other#FooBar
}

structure Foo_Bar {
    y: String
}

enum Kind {
    UNKNOWN
    A2B
    A2_B
}

union OneMember {
    only: String
}

union Tricky {
    tag: String
    u: Integer
    unknown: String
}

/// A recursive structure: through members and through a list.
structure Tree {
    @required
    value: Integer
    left: Tree
    right: Tree
    children: TreeList
}

list TreeList {
    member: Tree
}
