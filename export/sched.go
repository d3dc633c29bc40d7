package main

/*
#include "scx.h"
*/
import "C"

import (
	"os"
	"runtime"
	"sync"

	"github.com/smithycurl/smithycurl/transport"
)

// How C threads that call in get along with the Go scheduler.
//
// A C thread that calls an exported function borrows a P (a Go scheduler
// slot) and keeps it, in the "in a system call" state, when it returns to
// C and while smithycurl_call waits for the network inside libcurl. Two
// runtime behaviours then cost more than the call itself:
//
//   - sysmon takes a P away from a system call when the P's schedule tick
//     has not moved for 10 ms (it takes that for a goroutine running too
//     long). Nothing moves it on a thread that only calls in from C, so
//     after the first 10 ms every call lost its P: sysmon woke to take it,
//     the thread took an idle one back on its next call and woke the
//     sleeping sysmon again, a futex wake-up and context switches per
//     call. A yield (runtime.Gosched, which reschedules the goroutine and
//     moves the tick) when the thread's last one is 5 ms old keeps sysmon
//     asleep; it costs a few context switches every 5 ms. The clock is
//     the transport's (transport.YieldClock), per thread, which its
//     blocking transfers share: a call that waits in libcurl on this
//     thread yields there, after the transfer, and the next call's hint
//     then finds no yield due.
//   - with more calling threads than Ps, a thread that enters Go finds no
//     idle P (the others are held by threads waiting in libcurl) and
//     sleeps until sysmon takes one away (from 20 µs up to 10 ms). So
//     GOMAXPROCS is raised to one more than the number of live threads
//     that have called smithycurl_call (never above maxProcs, never
//     lowered, and not at all when the GOMAXPROCS environment variable is
//     set). An asynchronous call started from a completion callback, on one
//     of the runtime's threads, does not count it (ASYNC_PROLOGUE in
//     entry.h): that thread has its P. Go code runs only briefly per call, so the extra Ps are slots
//     for waiting threads, not extra parallel work.
//
// The hints come from C (smithycurl.c, sched_hints): the clock and the
// thread count are per thread there.

var (
	maxProcs     = max(64, runtime.NumCPU())
	procsMu      sync.Mutex
	procsFromEnv = os.Getenv("GOMAXPROCS") != ""
)

func init() { C.scx_set_yield_clock(transport.YieldClock()) }

func schedHints(hints, threads int) {
	if hints&C.SCX_HINT_NEW_THREAD != 0 && !procsFromEnv {
		if n := min(threads+1, maxProcs); n > runtime.GOMAXPROCS(0) {
			procsMu.Lock()
			if n > runtime.GOMAXPROCS(0) {
				runtime.GOMAXPROCS(n)
			}
			procsMu.Unlock()
		}
	}
	if hints&C.SCX_HINT_YIELD != 0 {
		runtime.Gosched()
	}
}
