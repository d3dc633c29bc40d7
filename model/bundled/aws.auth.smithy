$version: "2.0"

// Trait definitions of the aws.auth namespace, written for smithycurl from the
// Smithy specification's AWS authentication page.
namespace aws.auth

/// AWS Signature Version 4 request signing.
@authDefinition(traits: [unsignedPayload])
@trait(selector: "service")
structure sigv4 {
    /// The signing name of the service, e.g. "dynamodb".
    @length(min: 1)
    @required
    name: String
}

/// AWS Signature Version 4a (multi-region) request signing.
@authDefinition(traits: [unsignedPayload])
@trait(selector: "service[trait|aws.auth#sigv4]")
structure sigv4a {
    /// The signing name of the service.
    @length(min: 1)
    @required
    name: String
}

/// Marks an operation whose payload is not part of the signature.
@trait(selector: "operation")
structure unsignedPayload {}

/// Amazon Cognito user pool authentication.
@authDefinition
@internal
@tags(["internal"])
@trait(selector: "service")
structure cognitoUserPools {
    /// The ARNs of the user pools.
    @required
    providerArns: StringList
}

/// The OAuth scopes an operation needs with Cognito user pools.
@internal
@tags(["internal"])
@length(min: 1)
@trait(selector: "service[trait|aws.auth#cognitoUserPools] ~> operation")
list cognitoUserPoolsScopes {
    member: String
}

@private
list StringList {
    member: String
}
