// Command schedprobe is built with -buildmode=c-shared for bench/c/sched.c
// (make bench-sched): it measures what the Go runtime costs a C thread that
// calls in around a blocking libcurl transfer, apart from any codec, to test
// where the transfer should wait. Three ways to make the same call:
//
//   - c: curl_easy_perform in C, the runtime loaded but never entered;
//   - inside: one entry into Go (probe_inside) that works, performs in a
//     cgo call (the wait happens inside Go, as smithycurl_call does) and
//     works again;
//   - split: an entry into Go to prepare (probe_prepare), the perform in
//     C, an entry to finish (probe_finish): the wait never happens inside
//     Go.
//
// The Go work per call is the same in both (a little garbage, like a
// codec's).
package main

/*
#cgo pkg-config: libcurl
#include <curl/curl.h>

static int probe_perform(void *h) { return (int)curl_easy_perform(h); }
*/
import "C"

import "unsafe"

var sink [][]byte

// work allocates what a small call's codec would: about 20 objects.
func work() {
	out := make([][]byte, 0, 16)
	for i := 0; i < 16; i++ {
		out = append(out, make([]byte, 64))
	}
	sink = out
}

//export probe_inside
func probe_inside(h unsafe.Pointer) C.int {
	work()
	rc := C.probe_perform(h)
	work()
	return rc
}

//export probe_prepare
func probe_prepare() { work() }

//export probe_finish
func probe_finish() { work() }

func main() {}
