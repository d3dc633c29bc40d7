$version: "2.0"

// Trait definitions of the aws.api namespace, written for smithycurl from the
// Smithy specification's AWS pages. Loaded on demand like the prelude.
namespace aws.api

/// Service-level metadata the AWS SDKs use to name and configure a client.
@trait(selector: "service")
structure service {
    /// The name SDKs derive client names from, e.g. "DynamoDB".
    @required
    sdkId: String

    /// The service part of the service's ARNs.
    arnNamespace: ArnNamespace

    /// The AWS CloudFormation name of the service.
    cloudFormationName: CloudFormationName

    /// The event source of the service's AWS CloudTrail records.
    cloudTrailEventSource: String

    /// Identifies the service's documentation set.
    docId: String

    /// The prefix of the service's endpoint host names.
    endpointPrefix: String

    /// The Amazon CloudWatch namespace of the service's metrics.
    cloudWatchNamespace: CloudWatchMetricNamespace
}

/// The ARN template of a resource.
@trait(selector: "resource")
structure arn {
    /// The resource part of the ARN, with {identifier} placeholders.
    @required
    template: String

    /// True when the template is a whole ARN rather than its resource part.
    absolute: Boolean

    /// True when the ARN has no region.
    noRegion: Boolean

    /// True when the ARN has no account id.
    noAccount: Boolean

    /// What separates the parts of the resource in the ARN.
    resourceDelimiter: ResourceDelimiter

    /// True when an ARN may name a new resource after the old one is deleted.
    reusable: Boolean
}

/// Marks a string as holding the ARN of a resource.
@trait(selector: "string")
structure arnReference {
    /// The AWS CloudFormation type of the resource.
    type: String

    /// The resource shape the ARN names.
    resource: String

    /// The service shape the ARN belongs to.
    service: String
}

/// Marks a streaming blob as sent with aws-chunked content encoding.
@trait(selector: "blob[trait|streaming]")
structure awsChunked {}

/// Marks an operation whose endpoint is found through endpoint discovery.
@trait(selector: "operation")
structure clientDiscoveredEndpoint {
    /// Whether the endpoint must be discovered before calling.
    @required
    required: Boolean
}

/// Configures endpoint discovery for a service.
@trait(selector: "service")
structure clientEndpointDiscovery {
    /// The operation that returns endpoints.
    @idRef(failWhenMissing: true, selector: "operation")
    @required
    operation: String

    /// The error returned when a discovered endpoint is no longer valid.
    @idRef(failWhenMissing: true, selector: "structure[trait|error]")
    @recommended
    error: String
}

/// Marks an input member whose value is part of the endpoint discovery cache key.
@trait(selector: "operation[trait|aws.api#clientDiscoveredEndpoint] -[input]-> structure > :test(member[trait|required] > string)")
structure clientEndpointDiscoveryId {}

/// Marks a service, resource or operation as part of the control plane.
@trait(selector: ":test(service, resource, operation)", conflicts: ["aws.api#dataPlane"])
structure controlPlane {}

/// Marks a service, resource or operation as part of the data plane.
@trait(selector: ":test(service, resource, operation)", conflicts: ["aws.api#controlPlane"])
structure dataPlane {}

/// Classifies the kind of data a shape holds.
@trait(selector: ":test(simpleType, list, structure, union, member)")
enum data {
    CUSTOMER_CONTENT = "content"
    CUSTOMER_ACCOUNT_INFORMATION = "account"
    SERVICE_ATTRIBUTES = "usage"
    TAG_DATA = "tagging"
    PERMISSIONS_DATA = "permissions"
}

/// Marks a service as supporting resource tags.
@trait(selector: "service")
@unstable
structure tagEnabled {
    /// True when the service has no TagResource/UntagResource/ListTagsForResource operations.
    disableDefaultOperations: Boolean

    /// The service's tagging operations, when not named as usual.
    apiConfig: TaggableServiceApiConfig
}

/// Marks a resource that can be tagged.
@trait(selector: "resource")
@unstable
structure taggable {
    /// The resource property that holds the tags.
    property: String

    /// The resource's tagging operations.
    apiConfig: TaggableApiConfig

    /// True when the resource does not take system tags.
    disableSystemTags: Boolean
}

@idRef(failWhenMissing: true, selector: "service > operation")
string ServiceTagOperationReference

structure TaggableServiceApiConfig {
    tagApi: ServiceTagOperationReference
    untagApi: ServiceTagOperationReference
    listTagsApi: ServiceTagOperationReference
}

@idRef(failWhenMissing: true, selector: "resource > operation")
string TagOperationReference

structure TaggableApiConfig {
    @required
    tagApi: TagOperationReference

    @required
    untagApi: TagOperationReference

    @required
    listTagsApi: TagOperationReference
}

@private
enum ResourceDelimiter {
    FORWARD_SLASH = "/"
    COLON = ":"
}

@private
@pattern("^[a-z0-9.\\-]{1,63}$")
string ArnNamespace

@private
@pattern("^[A-Z][A-Za-z0-9]+$")
string CloudFormationName

@private
@length(min: 1, max: 255)
@pattern("^[^:].*$")
string CloudWatchMetricNamespace
