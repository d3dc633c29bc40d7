$version: "2.0"

// Trait definitions of the smithy.rules namespace (endpoint rules), written for
// smithycurl from the Smithy specification's rules engine pages.
namespace smithy.rules

/// The endpoint rule set of a service, kept as a document.
@unstable
@trait(selector: "service")
document endpointRuleSet

/// The endpoint rules of a service as a binary decision diagram.
@unstable
@trait(selector: "service")
structure endpointBdd {
    @required
    version: String

    @required
    parameters: Parameters

    @required
    conditions: Conditions

    @required
    results: Results

    /// The root node reference.
    @required
    @range(min: -1)
    root: Integer

    @required
    @range(min: 0)
    nodeCount: Integer

    /// The nodes, base64-encoded.
    @required
    nodes: String
}

@private
map Parameters {
    key: String
    value: Parameter
}

@private
structure Parameter {
    @required
    type: ParameterType

    deprecated: Boolean

    documentation: String

    default: Document

    builtIn: String

    required: Boolean
}

enum ParameterType {
    STRING = "string"
    BOOLEAN = "boolean"
    STRING_ARRAY = "stringArray"
}

@private
list Conditions {
    member: Condition
}

@private
structure Condition {
    @required
    fn: String

    @required
    argv: DocumentList

    assign: String
}

@private
list DocumentList {
    member: Document
}

@private
list Results {
    member: Result
}

@private
structure Result {
    @required
    type: ResultType

    documentation: String

    error: Document

    endpoint: EndpointObject

    conditions: Conditions
}

@private
enum ResultType {
    ENDPOINT = "endpoint"
    ERROR = "error"
}

@private
structure EndpointObject {
    @required
    url: Document

    properties: EndpointProperties

    headers: EndpointObjectHeaders
}

@private
map EndpointProperties {
    key: String
    value: Document
}

@private
map EndpointObjectHeaders {
    key: String
    value: DocumentList
}

/// Test cases of a service's endpoint rules.
@unstable
@trait(selector: "service :is([trait|smithy.rules#endpointRuleSet], [trait|smithy.rules#endpointBdd])")
structure endpointTests {
    @required
    version: String

    testCases: EndpointTestList
}

/// Binds an input member to an endpoint rule parameter.
@unstable
@trait(selector: "operation -[input]-> structure > member")
structure contextParam {
    /// The parameter's name.
    @required
    name: String
}

/// Endpoint rule parameters with fixed values for an operation.
@unstable
@trait(selector: "operation")
map staticContextParams {
    key: String
    value: StaticContextParamDefinition
}

/// Endpoint rule parameters taken from an operation's input by a JMESPath path.
@unstable
@trait(selector: "operation")
map operationContextParams {
    key: String
    value: OperationContextParamDefinition
}

/// Endpoint rule parameters set when a client is configured.
@unstable
@trait(selector: "service")
map clientContextParams {
    key: String
    value: ClientContextParamDefinition
}

@unstable
@private
structure StaticContextParamDefinition {
    @required
    value: Document
}

@unstable
@private
structure OperationContextParamDefinition {
    @required
    path: String
}

@unstable
@private
structure ClientContextParamDefinition {
    @required
    type: ShapeType

    documentation: String
}

@unstable
@private
enum ShapeType {
    STRING = "string"
    BOOLEAN = "boolean"
}

@unstable
@private
list EndpointTestList {
    member: EndpointTest
}

@unstable
@private
structure EndpointTest {
    documentation: String

    params: Document

    operationInputs: OperationInputs

    @required
    expect: EndpointTestExpectation
}

@unstable
@private
list OperationInputs {
    member: OperationInput
}

@unstable
@private
structure OperationInput {
    @required
    operationName: String

    operationParams: Document

    builtInParams: Document

    clientParams: Document
}

@unstable
@private
union EndpointTestExpectation {
    error: String
    endpoint: EndpointExpectation
}

@unstable
@private
structure EndpointExpectation {
    url: String

    headers: EndpointHeaders

    properties: Properties
}

@unstable
@private
map EndpointHeaders {
    key: String
    value: EndpointHeaderValue
}

@unstable
@private
list EndpointHeaderValue {
    member: String
}

@unstable
@private
map Properties {
    key: String
    value: Document
}
