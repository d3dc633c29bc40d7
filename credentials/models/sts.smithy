$version: "2.0"

// The operations the credential providers call and the shapes they reach,
// as in the AWS model (models_test.go compares them with it).

namespace com.amazonaws.sts

use aws.api#service
use aws.auth#sigv4
use aws.protocols#awsQuery
use aws.protocols#awsQueryError

@service({sdkId: "STS", arnNamespace: "sts", cloudFormationName: "STS", cloudTrailEventSource: "sts.amazonaws.com", endpointPrefix: "sts"})
@sigv4({name: "sts"})
@awsQuery
@title("AWS Security Token Service")
@xmlNamespace({uri: "https://sts.amazonaws.com/doc/2011-06-15/"})
service AWSSecurityTokenServiceV20110615 {
    version: "2011-06-15"
    operations: [AssumeRole, AssumeRoleWithWebIdentity, GetCallerIdentity]
}

operation AssumeRole {
    input: AssumeRoleRequest
    output: AssumeRoleResponse
    errors: [ExpiredTokenException, MalformedPolicyDocumentException, PackedPolicyTooLargeException, RegionDisabledException]
}

@input
structure AssumeRoleRequest {
    @required
    RoleArn: arnType
    @required
    RoleSessionName: roleSessionNameType
    PolicyArns: policyDescriptorListType
    Policy: unrestrictedSessionPolicyDocumentType
    DurationSeconds: roleDurationSecondsType
    Tags: tagListType
    TransitiveTagKeys: tagKeyListType
    ExternalId: externalIdType
    SerialNumber: serialNumberType
    TokenCode: tokenCodeType
    SourceIdentity: sourceIdentityType
    ProvidedContexts: ProvidedContextsListType
}

@length({min: 20, max: 2048})
@pattern("^[\\u0009\\u000A\\u000D\\u0020-\\u007E\\u0085\\u00A0-\\uD7FF\\uE000-\\uFFFD\\u10000-\\u10FFFF]+$")
string arnType

@length({min: 2, max: 64})
@pattern("^[\\w+=,.@-]*$")
string roleSessionNameType

list policyDescriptorListType {
    member: PolicyDescriptorType
}

structure PolicyDescriptorType {
    arn: arnType
}

@length({min: 1})
@pattern("^[\\u0009\\u000A\\u000D\\u0020-\\u00FF]+$")
string unrestrictedSessionPolicyDocumentType

@range({min: 900, max: 43200})
integer roleDurationSecondsType

@length({min: 0, max: 50})
list tagListType {
    member: Tag
}

structure Tag {
    @required
    Key: tagKeyType
    @required
    Value: tagValueType
}

@length({min: 1, max: 128})
@pattern("^[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]+$")
string tagKeyType

@length({min: 0, max: 256})
@pattern("^[\\p{L}\\p{Z}\\p{N}_.:/=+\\-@]*$")
string tagValueType

@length({min: 0, max: 50})
list tagKeyListType {
    member: tagKeyType
}

@length({min: 2, max: 1224})
@pattern("^[\\w+=,.@:\\/-]*$")
string externalIdType

@length({min: 9, max: 256})
@pattern("^[\\w+=/:,.@-]*$")
string serialNumberType

@length({min: 6, max: 6})
@pattern("^[\\d]*$")
string tokenCodeType

@length({min: 2, max: 64})
@pattern("^[\\w+=,.@-]*$")
string sourceIdentityType

@length({min: 0, max: 5})
list ProvidedContextsListType {
    member: ProvidedContext
}

structure ProvidedContext {
    ProviderArn: arnType
    ContextAssertion: contextAssertionType
}

@length({min: 4, max: 2048})
string contextAssertionType

@output
structure AssumeRoleResponse {
    Credentials: Credentials
    AssumedRoleUser: AssumedRoleUser
    PackedPolicySize: nonNegativeIntegerType
    SourceIdentity: sourceIdentityType
}

structure Credentials {
    @required
    AccessKeyId: accessKeyIdType
    @required
    SecretAccessKey: accessKeySecretType
    @required
    SessionToken: tokenType
    @required
    Expiration: dateType
}

@length({min: 16, max: 128})
@pattern("^[\\w]*$")
string accessKeyIdType

@sensitive
string accessKeySecretType

string tokenType

timestamp dateType

structure AssumedRoleUser {
    @required
    AssumedRoleId: assumedRoleIdType
    @required
    Arn: arnType
}

@length({min: 2, max: 193})
@pattern("^[\\w+=,.@:-]*$")
string assumedRoleIdType

@range({min: 0})
integer nonNegativeIntegerType

@awsQueryError({code: "ExpiredTokenException", httpResponseCode: 400})
@error("client")
@httpError(400)
structure ExpiredTokenException {
    message: expiredIdentityTokenMessage
}

string expiredIdentityTokenMessage

@awsQueryError({code: "MalformedPolicyDocument", httpResponseCode: 400})
@error("client")
@httpError(400)
structure MalformedPolicyDocumentException {
    message: malformedPolicyDocumentMessage
}

string malformedPolicyDocumentMessage

@awsQueryError({code: "PackedPolicyTooLarge", httpResponseCode: 400})
@error("client")
@httpError(400)
structure PackedPolicyTooLargeException {
    message: packedPolicyTooLargeMessage
}

string packedPolicyTooLargeMessage

@awsQueryError({code: "RegionDisabledException", httpResponseCode: 403})
@error("client")
@httpError(403)
structure RegionDisabledException {
    message: regionDisabledMessage
}

string regionDisabledMessage

operation AssumeRoleWithWebIdentity {
    input: AssumeRoleWithWebIdentityRequest
    output: AssumeRoleWithWebIdentityResponse
    errors: [ExpiredTokenException, IDPCommunicationErrorException, IDPRejectedClaimException, InvalidIdentityTokenException, MalformedPolicyDocumentException, PackedPolicyTooLargeException, RegionDisabledException]
}

@input
structure AssumeRoleWithWebIdentityRequest {
    @required
    RoleArn: arnType
    @required
    RoleSessionName: roleSessionNameType
    @required
    WebIdentityToken: clientTokenType
    ProviderId: urlType
    PolicyArns: policyDescriptorListType
    Policy: sessionPolicyDocumentType
    DurationSeconds: roleDurationSecondsType
}

@length({min: 4, max: 20000})
@sensitive
string clientTokenType

@length({min: 4, max: 2048})
string urlType

@length({min: 1, max: 2048})
@pattern("^[\\u0009\\u000A\\u000D\\u0020-\\u00FF]+$")
string sessionPolicyDocumentType

@output
structure AssumeRoleWithWebIdentityResponse {
    Credentials: Credentials
    SubjectFromWebIdentityToken: webIdentitySubjectType
    AssumedRoleUser: AssumedRoleUser
    PackedPolicySize: nonNegativeIntegerType
    Provider: Issuer
    Audience: Audience
    SourceIdentity: sourceIdentityType
}

@length({min: 6, max: 255})
string webIdentitySubjectType

string Issuer

string Audience

@awsQueryError({code: "IDPCommunicationError", httpResponseCode: 400})
@error("client")
@httpError(400)
structure IDPCommunicationErrorException {
    message: idpCommunicationErrorMessage
}

string idpCommunicationErrorMessage

@awsQueryError({code: "IDPRejectedClaim", httpResponseCode: 403})
@error("client")
@httpError(403)
structure IDPRejectedClaimException {
    message: idpRejectedClaimMessage
}

string idpRejectedClaimMessage

@awsQueryError({code: "InvalidIdentityToken", httpResponseCode: 400})
@error("client")
@httpError(400)
structure InvalidIdentityTokenException {
    message: invalidIdentityTokenMessage
}

string invalidIdentityTokenMessage

operation GetCallerIdentity {
    input: GetCallerIdentityRequest
    output: GetCallerIdentityResponse
}

@input
structure GetCallerIdentityRequest {
}

@output
structure GetCallerIdentityResponse {
    UserId: userIdType
    Account: accountType
    Arn: arnType
}

string userIdType

string accountType

