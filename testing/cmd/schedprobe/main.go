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
//
// Measured on the project's 2-core machine under a load average of about
// 20 (four runs of 5 to 7 rounds, 3000 calls), CPU per call as a multiple
// of c's: inside 1.17-1.30x, 1.21-1.71x, 1.28-1.59x at 1, 2 and 8 threads;
// split 1.14-1.34x, 1.31-1.59x, 1.24-1.67x. No run-to-run difference
// between the two: a C thread that returns to C between two entries keeps
// its P in the syscall state (cgocallbackg's reentersyscall) just as one
// blocked in a cgo call does, so sysmon treats both alike. What costs is
// entering Go at all (about 9 us of runtime and Go work, and sysmon's
// wake-ups, at 1 thread), not where the wait happens.
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
