// Package contract is the one table of what C, Go and Python share: the
// library's version, its return codes, its error kinds and the client's
// options. The C header's enums and version macros, the C strerror and
// kind-name tables, the Go constants of export/ and client/, export's
// SCX_OPT_* numbers, the Python constants and option names and the
// README's options table are rendered from it by `make contract`
// (codegen/contract, which holds the renderers: the library links only
// the table); a test fails when a rendered file differs from what the
// table gives.
package contract

import "fmt"

// Version is the library's version: major, minor, patch.
var Version = [3]int{0, 1, 0}

// VersionString is "major.minor.patch".
func VersionString() string { return fmt.Sprintf("%d.%d.%d", Version[0], Version[1], Version[2]) }

// VersionNumber is 0xXXYYZZ, like LIBCURL_VERSION_NUM.
func VersionNumber() int { return Version[0]<<16 | Version[1]<<8 | Version[2] }

// Code is one smithycurl_code.
type Code struct {
	Name  string // after SMITHYCURL_ / E_ (C), code (Go), E_ (Python)
	Value int
	Text  string // smithycurl_strerror
	Doc   string // the header's comment; "" for none
}

// Codes are every smithycurl_code. Numbers are stable: codes are only ever
// added.
var Codes = []Code{
	{"OK", 0, "ok", ""},
	{"INVALID_ARGUMENT", 1, "invalid argument",
		"A required pointer argument is NULL, or a length or number is out of range."},
	{"INVALID_HANDLE", 2, "invalid handle (NULL, freed, or of another type)",
		"A handle is NULL, freed, never created, or of another type."},
	{"INVALID_UTF8", 3, "invalid UTF-8", "Input text (JSON, model source, a name) is not valid UTF-8."},
	{"INVALID_JSON", 4, "invalid JSON", "Input JSON is malformed."},
	{"NOT_FOUND", 5, "not found", "No such service, operation or path."},
	{"LOAD", 6, "the model has errors",
		"The model has errors; the loader's errmsg lists each with file:line:column."},
	{"NO_OUTPUT", 7, "the result holds an error, not an output", "The result holds an error, not an output."},
	{"USAGE", 8, "usage error", "A call failed: SMITHYCURL_KIND_USAGE."},
	{"VALIDATION", 9, "a required member is missing, or the input breaks the model's constraints",
		"A call failed: SMITHYCURL_KIND_VALIDATION."},
	{"SERVICE", 10, "the service returned an error", "A call failed: SMITHYCURL_KIND_SERVICE."},
	{"TRANSPORT", 11, "transport error (no complete response)", "A call failed: SMITHYCURL_KIND_TRANSPORT."},
	{"TIMEOUT", 12, "timeout", "A call failed: SMITHYCURL_KIND_TIMEOUT."},
	{"CANCELLED", 13, "cancelled", "A call failed: SMITHYCURL_KIND_CANCELLED."},
	{"DECODE", 14, "the response could not be decoded", "A call failed: SMITHYCURL_KIND_DECODE."},
	{"FORKED", 15, "smithycurl cannot be used in a child process after fork()",
		"Called from a child process after fork(); see THREADS above."},
	{"NOMEM", 16, "out of memory", "Out of memory."},
	{"INTERNAL", 17, "internal error (a bug in smithycurl)",
		"A bug in the library (an internal panic was caught); please report it with the errmsg. The handle stays usable."},
	{"WAITER_FAILURE", 18, "the waiter reached its failure state", "A wait failed: SMITHYCURL_KIND_WAITER_FAILURE."},
	{"WAITER_TIMEOUT", 19, "the waiter did not succeed within the time allowed", "A wait failed: SMITHYCURL_KIND_WAITER_TIMEOUT."},
	{"END", 20, "no more events or pages",
		"smithycurl_event_stream_next() and smithycurl_paginator_next(): the stream or the pages (items) are over; not an error."},
}

// Kind is one error kind: smithycurl_error_kind in C, client.Kind in Go,
// the exception classes' kind in Python.
type Kind struct {
	Name  string // after SMITHYCURL_KIND_ (C), Kind (Go, in CamelCase), KIND_ (Python)
	Value int
	Text  string // smithycurl_error_kind_name, client.Kind.String
	Code  string // the Codes entry a call failing with this kind returns
	Doc   string
}

// Kinds are every error kind; NONE is the kind of a call that succeeded.
var Kinds = []Kind{
	{"NONE", 0, "none", "OK", "The call succeeded."},
	{"USAGE", 1, "usage", "USAGE",
		"The call itself is wrong: unknown operation, malformed JSON, a value of the wrong type, an unknown member, missing credentials. Nothing was sent."},
	{"VALIDATION", 2, "validation", "VALIDATION",
		"A @required member is missing or, with validation on, the input breaks the model's constraints (length, range, pattern, enum). Nothing was sent."},
	{"SERVICE", 3, "service", "SERVICE", "The service answered with an error response (modeled or not)."},
	{"TRANSPORT", 4, "transport", "TRANSPORT", "No complete response: DNS, connect, TLS, reset, response too large."},
	{"TIMEOUT", 5, "timeout", "TIMEOUT", "A connect or total timeout expired, or the caller's deadline."},
	{"CANCELLED", 6, "cancelled", "CANCELLED", "The call was cancelled (its cancel token or context), or its client closed."},
	{"DECODE", 7, "decode", "DECODE", "The response could not be decoded."},
	{"WAITER_FAILURE", 8, "waiter_failure", "WAITER_FAILURE",
		"A waiter reached its failure state: one of its failure acceptors matched; the message says which."},
	{"WAITER_TIMEOUT", 9, "waiter_timeout", "WAITER_TIMEOUT",
		"A waiter was still retrying when the maximum time to wait ran out."},
}
