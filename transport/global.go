package transport

/*
#include "shim.h"
*/
import "C"

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"

	curl "github.com/andelf/go-curl"
)

// libcurl's process-wide state, shared by every transport.
var (
	initOnce sync.Once
	initErr  error
	// liveHandles counts easy handles alive in all Curl transports.
	liveHandles atomic.Int64
	// shareInUse counts share handles a transport let go while an easy
	// handle still used them (kept, not freed: a defect the tests check
	// never happens).
	shareInUse atomic.Int64
)

// globalInit runs curl_global_init once and learns which encodings libcurl
// decodes.
func globalInit() error {
	initOnce.Do(func() {
		if err := curl.GlobalInit(curl.GLOBAL_ALL); err != nil {
			initErr = fmt.Errorf("transport: curl_global_init: %w", err)
		}
		acceptEncoding = acceptEncodingLine(C.curl_version_info(C.CURLVERSION_NOW).features)
	})
	return initErr
}

// acceptEncoding is the header line ("Name: value", no CRLF) that libcurl
// writes for CURLOPT_ACCEPT_ENCODING "" (every encoding it can decode, in
// its order), or "" when it can decode none. Do sends it as a header of
// its own: libcurl then skips formatting that line for every request
// (curl_maprintf, ~4,600 instructions a call) and still decodes the
// response, because CURLOPT_ACCEPT_ENCODING stays set on the handle.
var acceptEncoding string

func acceptEncodingLine(features C.int) string {
	var encs []string
	if features&C.CURL_VERSION_LIBZ != 0 {
		encs = append(encs, "deflate", "gzip")
	}
	if features&C.CURL_VERSION_BROTLI != 0 {
		encs = append(encs, "br")
	}
	if features&C.CURL_VERSION_ZSTD != 0 {
		encs = append(encs, "zstd")
	}
	if len(encs) == 0 {
		return ""
	}
	return "Accept-Encoding: " + strings.Join(encs, ", ")
}

// LiveHandles reports the number of libcurl easy handles currently alive in
// all Curl transports of the process (for leak checks).
func LiveHandles() int64 { return liveHandles.Load() }
