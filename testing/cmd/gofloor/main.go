// Command gofloor is built with -buildmode=c-shared for the cold-start
// benchmark (make bench-startup, bench/c/bench.c): a Go library with no
// packages of its own and one no-op export, so a C program that loads it
// and makes one libcurl request costs what any Go library adds to a
// process (the runtime's start-up, threads and page faults) and nothing
// of smithycurl's. The benchmark prints it beside libcurl alone and
// smithycurl, so a report can tell the runtime's share from the library's.
package main

import "C"

//export gofloor_enter
func gofloor_enter() C.int { return 0 }

func main() {}
