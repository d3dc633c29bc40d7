// Code generated from internal/contract by `make contract`; do not edit.

package main

import "github.com/smithycurl/smithycurl/client"

// Return codes of include/smithycurl.h (smithycurl_code).
const (
	codeOK              = 0
	codeInvalidArgument = 1
	codeInvalidHandle   = 2
	codeInvalidUTF8     = 3
	codeInvalidJSON     = 4
	codeNotFound        = 5
	codeLoad            = 6
	codeNoOutput        = 7
	codeUsage           = 8
	codeValidation      = 9
	codeService         = 10
	codeTransport       = 11
	codeTimeout         = 12
	codeCancelled       = 13
	codeDecode          = 14
	codeForked          = 15
	codeNoMem           = 16
	codeInternal        = 17
	codeDone            = 18
)

// codeOfKind is the code a call failing with kind k returns.
func codeOfKind(k client.Kind) int {
	switch k {
	case client.KindUsage:
		return codeUsage
	case client.KindValidation:
		return codeValidation
	case client.KindService:
		return codeService
	case client.KindTransport:
		return codeTransport
	case client.KindTimeout:
		return codeTimeout
	case client.KindCancelled:
		return codeCancelled
	case client.KindDecode:
		return codeDecode
	}
	return codeInternal
}
