$version: "2.0"

// The operations the credential providers call and the shapes they reach,
// as in the AWS model (models_test.go compares them with it).

namespace com.amazonaws.sso

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service({sdkId: "SSO", arnNamespace: "awsssoportal", cloudFormationName: "SSO", cloudTrailEventSource: "sso.amazonaws.com", endpointPrefix: "portal.sso"})
@sigv4({name: "awsssoportal"})
@restJson1
@title("AWS Single Sign-On")
service SWBPortalService {
    version: "2019-06-10"
    operations: [GetRoleCredentials]
}

@auth([])
@http({method: "GET", uri: "/federation/credentials", code: 200})
@optionalAuth
operation GetRoleCredentials {
    input: GetRoleCredentialsRequest
    output: GetRoleCredentialsResponse
    errors: [InvalidRequestException, ResourceNotFoundException, TooManyRequestsException, UnauthorizedException]
}

@input
structure GetRoleCredentialsRequest {
    @httpQuery("role_name")
    @required
    roleName: RoleNameType
    @httpQuery("account_id")
    @required
    accountId: AccountIdType
    @httpHeader("x-amz-sso_bearer_token")
    @required
    accessToken: AccessTokenType
}

string RoleNameType

string AccountIdType

@sensitive
string AccessTokenType

@output
structure GetRoleCredentialsResponse {
    roleCredentials: RoleCredentials
}

structure RoleCredentials {
    accessKeyId: AccessKeyType
    secretAccessKey: SecretAccessKeyType
    sessionToken: SessionTokenType
    @default(0)
    expiration: ExpirationTimestampType
}

string AccessKeyType

@sensitive
string SecretAccessKeyType

@sensitive
string SessionTokenType

@default(0)
long ExpirationTimestampType

@error("client")
@httpError(400)
structure InvalidRequestException {
    message: ErrorDescription
}

string ErrorDescription

@error("client")
@httpError(404)
structure ResourceNotFoundException {
    message: ErrorDescription
}

@error("client")
@httpError(429)
structure TooManyRequestsException {
    message: ErrorDescription
}

@error("client")
@httpError(401)
structure UnauthorizedException {
    message: ErrorDescription
}

