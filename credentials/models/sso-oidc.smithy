$version: "2.0"

// The operations the credential providers call and the shapes they reach,
// as in the AWS model (models_test.go compares them with it).

namespace com.amazonaws.ssooidc

use aws.api#service
use aws.auth#sigv4
use aws.protocols#restJson1

@service({sdkId: "SSO OIDC", arnNamespace: "sso-oauth", cloudFormationName: "SSOOIDC", cloudTrailEventSource: "ssooidc.amazonaws.com", endpointPrefix: "oidc"})
@sigv4({name: "sso-oauth"})
@restJson1
@title("AWS SSO OIDC")
service AWSSSOOIDCService {
    version: "2019-06-10"
    operations: [CreateToken]
}

@auth([])
@http({method: "POST", uri: "/token", code: 200})
@optionalAuth
operation CreateToken {
    input: CreateTokenRequest
    output: CreateTokenResponse
    errors: [AccessDeniedException, AuthorizationPendingException, ExpiredTokenException, InternalServerException, InvalidClientException, InvalidGrantException, InvalidRequestException, InvalidScopeException, SlowDownException, UnauthorizedClientException, UnsupportedGrantTypeException]
}

@input
structure CreateTokenRequest {
    @required
    clientId: ClientId
    @required
    clientSecret: ClientSecret
    @required
    grantType: GrantType
    deviceCode: DeviceCode
    code: AuthCode
    refreshToken: RefreshToken
    scope: Scopes
    redirectUri: URI
    codeVerifier: CodeVerifier
}

string ClientId

@sensitive
string ClientSecret

string GrantType

string DeviceCode

string AuthCode

@sensitive
string RefreshToken

list Scopes {
    member: Scope
}

string Scope

string URI

@sensitive
string CodeVerifier

@output
structure CreateTokenResponse {
    accessToken: AccessToken
    tokenType: TokenType
    @default(0)
    expiresIn: ExpirationInSeconds
    refreshToken: RefreshToken
    idToken: IdToken
}

@sensitive
string AccessToken

string TokenType

@default(0)
integer ExpirationInSeconds

@sensitive
string IdToken

@error("client")
@httpError(400)
structure AccessDeniedException {
    error: Error
    error_description: ErrorDescription
}

string Error

string ErrorDescription

@error("client")
@httpError(400)
structure AuthorizationPendingException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure ExpiredTokenException {
    error: Error
    error_description: ErrorDescription
}

@error("server")
@httpError(500)
structure InternalServerException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(401)
structure InvalidClientException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure InvalidGrantException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure InvalidRequestException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure InvalidScopeException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure SlowDownException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure UnauthorizedClientException {
    error: Error
    error_description: ErrorDescription
}

@error("client")
@httpError(400)
structure UnsupportedGrantTypeException {
    error: Error
    error_description: ErrorDescription
}

