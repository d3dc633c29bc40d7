$version: "1.0"

// IDL 1.0 @enum strings (as most AWS JSON models have them), for the typed
// clients' generators: C enums and Python Enums like IDL 2.0 enums.
namespace smithycurl.test.enums1

@aws.protocols#restJson1
service Enums1 {
    version: "2024-05-23"
    operations: [Paint]
}

@http(method: "POST", uri: "/paint")
operation Paint {
    input: PaintInput
    output: PaintOutput
}

structure PaintInput {
    @required
    color: Color
    colors: ColorList
    byColor: ColorMap
    unnamed: Unnamed
}

structure PaintOutput {
    color: Color
    colors: ColorList
    byColor: ColorMap
    unnamed: Unnamed
}

/// The colours.
@enum([
    { value: "red", name: "RED", documentation: "<p>Warm.</p>" },
    { value: "dark-green", name: "DARK_GREEN" },
    { value: "blue", name: "BLUE", deprecated: true },
])
string Color

/// Values without names.
@enum([
    { value: "t2.micro" },
    { value: "m5.large" },
])
string Unnamed

list ColorList {
    member: Color
}

map ColorMap {
    key: Color
    value: Color
}
