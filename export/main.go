// Command export is libsmithycurl.so, the C API of smithycurl, built with
//
//	go build -buildmode=c-shared -o build/libsmithycurl.so ./export
//
// The public contract is include/smithycurl.h. The C entry points in
// smithycurl.c check for a forked process and call the scx_* functions of
// this package with handles as integers: no Go pointer ever reaches C, every
// buffer handed to C is C memory, and every scx_* function recovers panics
// into SMITHYCURL_E_INTERNAL.
package main

/*
#cgo CFLAGS: -I${SRCDIR}/../include -O2
#include "scx.h"
*/
import "C"

func main() {}
