package model

// Prelude traits (smithy.api), by what they describe. A test keeps other
// packages from spelling these ids again.
const (
	// TraitTrait marks a shape as a trait definition.
	TraitTrait ShapeID = "smithy.api#trait"
	// TraitMixin marks a shape as a mixin.
	TraitMixin ShapeID = "smithy.api#mixin"
	// TraitProtocolDefinition marks a trait as a protocol.
	TraitProtocolDefinition ShapeID = "smithy.api#protocolDefinition"
	// TraitAuthDefinition marks a trait as an auth scheme.
	TraitAuthDefinition ShapeID = "smithy.api#authDefinition"
	// TraitSuppress lists the validation events suppressed on a shape.
	TraitSuppress ShapeID = "smithy.api#suppress"

	// TraitDocumentation is a shape's documentation.
	TraitDocumentation ShapeID = "smithy.api#documentation"
	// TraitDeprecated marks a shape as deprecated.
	TraitDeprecated ShapeID = "smithy.api#deprecated"
	// TraitSensitive marks data that must not be logged.
	TraitSensitive ShapeID = "smithy.api#sensitive"
	// TraitExamples lists an operation's example inputs and outputs.
	TraitExamples ShapeID = "smithy.api#examples"
	// TraitInternal marks a shape or enum value as not for public use.
	TraitInternal ShapeID = "smithy.api#internal"

	// TraitRequired marks a member that must be set.
	TraitRequired ShapeID = "smithy.api#required"
	// TraitDefault is a member's or shape's default value.
	TraitDefault ShapeID = "smithy.api#default"
	// TraitClientOptional makes a member optional for clients despite
	// @required or @default.
	TraitClientOptional ShapeID = "smithy.api#clientOptional"
	// TraitBox marks an IDL 1.0 member or shape as nullable.
	TraitBox ShapeID = "smithy.api#box"
	// TraitSparse lets a list or map hold nulls.
	TraitSparse ShapeID = "smithy.api#sparse"
	// TraitLength bounds a length or size.
	TraitLength ShapeID = "smithy.api#length"
	// TraitRange bounds a number.
	TraitRange ShapeID = "smithy.api#range"
	// TraitPattern is the regular expression a string matches.
	TraitPattern ShapeID = "smithy.api#pattern"
	// TraitUniqueItems forbids duplicates in a list.
	TraitUniqueItems ShapeID = "smithy.api#uniqueItems"
	// TraitEnum is the IDL 1.0 enum of a string shape.
	TraitEnum ShapeID = "smithy.api#enum"
	// TraitEnumValue is the value of an enum or intEnum member.
	TraitEnumValue ShapeID = "smithy.api#enumValue"
	// TraitIdempotencyToken marks a member the client fills with a token.
	TraitIdempotencyToken ShapeID = "smithy.api#idempotencyToken"
	// TraitMediaType is the media type of a blob or string.
	TraitMediaType ShapeID = "smithy.api#mediaType"
	// TraitTimestampFormat is a timestamp's wire format.
	TraitTimestampFormat ShapeID = "smithy.api#timestampFormat"
	// TraitJSONName is a member's JSON key.
	TraitJSONName ShapeID = "smithy.api#jsonName"
	// TraitStreaming marks a streaming blob or an event stream union.
	TraitStreaming ShapeID = "smithy.api#streaming"
	// TraitEventHeader binds an event member to a message header.
	TraitEventHeader ShapeID = "smithy.api#eventHeader"
	// TraitEventPayload binds an event member to the message payload.
	TraitEventPayload ShapeID = "smithy.api#eventPayload"
	// TraitXMLName is a shape's or member's XML element name.
	TraitXMLName ShapeID = "smithy.api#xmlName"
	// TraitXMLFlattened writes a list or map without a wrapper element.
	TraitXMLFlattened ShapeID = "smithy.api#xmlFlattened"
	// TraitXMLAttribute writes a member as an XML attribute.
	TraitXMLAttribute ShapeID = "smithy.api#xmlAttribute"
	// TraitXMLNamespace is an element's XML namespace.
	TraitXMLNamespace ShapeID = "smithy.api#xmlNamespace"

	// TraitInput marks an operation's input structure.
	TraitInput ShapeID = "smithy.api#input"
	// TraitOutput marks an operation's output structure.
	TraitOutput ShapeID = "smithy.api#output"
	// TraitError marks an error structure ("client" or "server").
	TraitError ShapeID = "smithy.api#error"
	// TraitRetryable marks an error that may be retried.
	TraitRetryable ShapeID = "smithy.api#retryable"
	// TraitReadonly marks an operation without side effects.
	TraitReadonly ShapeID = "smithy.api#readonly"
	// TraitIdempotent marks an operation safe to repeat.
	TraitIdempotent ShapeID = "smithy.api#idempotent"
	// TraitPaginated is an operation's or service's pagination.
	TraitPaginated ShapeID = "smithy.api#paginated"
	// TraitEndpoint is an operation's host prefix.
	TraitEndpoint ShapeID = "smithy.api#endpoint"
	// TraitHostLabel binds a member to the host prefix.
	TraitHostLabel ShapeID = "smithy.api#hostLabel"
	// TraitRequestCompression lists the encodings a request may be
	// compressed with.
	TraitRequestCompression ShapeID = "smithy.api#requestCompression"
	// TraitHTTPChecksumRequired makes a request carry a checksum.
	TraitHTTPChecksumRequired ShapeID = "smithy.api#httpChecksumRequired"

	// TraitHTTP is an operation's method, URI and status code.
	TraitHTTP ShapeID = "smithy.api#http"
	// TraitHTTPError is an error's status code.
	TraitHTTPError ShapeID = "smithy.api#httpError"
	// TraitHTTPLabel binds a member to a URI label.
	TraitHTTPLabel ShapeID = "smithy.api#httpLabel"
	// TraitHTTPQuery binds a member to a query parameter.
	TraitHTTPQuery ShapeID = "smithy.api#httpQuery"
	// TraitHTTPQueryParams binds a map member to the query parameters.
	TraitHTTPQueryParams ShapeID = "smithy.api#httpQueryParams"
	// TraitHTTPHeader binds a member to a header.
	TraitHTTPHeader ShapeID = "smithy.api#httpHeader"
	// TraitHTTPPrefixHeaders binds a map member to the headers with a prefix.
	TraitHTTPPrefixHeaders ShapeID = "smithy.api#httpPrefixHeaders"
	// TraitHTTPPayload binds a member to the body.
	TraitHTTPPayload ShapeID = "smithy.api#httpPayload"
	// TraitHTTPResponseCode binds a member to the status code.
	TraitHTTPResponseCode ShapeID = "smithy.api#httpResponseCode"

	// TraitAuth lists the auth schemes of a service or operation, by
	// priority.
	TraitAuth ShapeID = "smithy.api#auth"
	// TraitOptionalAuth lets an operation be called without auth.
	TraitOptionalAuth ShapeID = "smithy.api#optionalAuth"
	// TraitHTTPAPIKeyAuth is the API key auth scheme.
	TraitHTTPAPIKeyAuth ShapeID = "smithy.api#httpApiKeyAuth"
	// TraitHTTPBasicAuth is the HTTP basic auth scheme.
	TraitHTTPBasicAuth ShapeID = "smithy.api#httpBasicAuth"
	// TraitHTTPBearerAuth is the HTTP bearer token auth scheme.
	TraitHTTPBearerAuth ShapeID = "smithy.api#httpBearerAuth"
	// TraitHTTPDigestAuth is the HTTP digest auth scheme.
	TraitHTTPDigestAuth ShapeID = "smithy.api#httpDigestAuth"
)

// UnitID is the prelude's Unit shape: no input, no output, a member
// without a value.
const UnitID ShapeID = "smithy.api#Unit"

// Traits of other namespaces that several packages read.
const (
	// TraitWaitable declares an operation's waiters.
	TraitWaitable ShapeID = "smithy.waiters#waitable"
	// TraitSigV4 is the AWS Signature Version 4 auth scheme.
	TraitSigV4 ShapeID = "aws.auth#sigv4"
)
