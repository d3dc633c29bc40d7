// Internal: what every C entry point of libsmithycurl (smithycurl.c,
// payload.c) opens with. Included after smithycurl.h and scx.h.
#ifndef SMITHYCURL_ENTRY_H
#define SMITHYCURL_ENTRY_H

// Set in a child forked since the library was loaded (smithycurl.c).
extern volatile int scx_forked;

// The scheduling hints for Go of a call from this thread (smithycurl.c):
// of one that may wait on it, and of one that starts an asynchronous call.
int scx_sched_hints(int *threads);
int scx_async_hints(int *threads);

#define FORK_CHECK()                                                                               \
    do {                                                                                           \
        if (scx_forked) return SMITHYCURL_E_FORKED;                                                \
    } while (0)

#define H(x) ((uintptr_t)(void *)(x))

// CALL_PROLOGUE opens the functions that call the service (and may wait):
// SMITHYCURL_E_FORKED in a forked child, then bad_rc when bad is true; it
// then declares hints and threads, the scheduling hints for Go.
#define CALL_PROLOGUE(bad, bad_rc)                                                                 \
    FORK_CHECK();                                                                                  \
    if (bad) return (bad_rc);                                                                      \
    int threads = 0;                                                                               \
    int hints = scx_sched_hints(&threads)

// ASYNC_PROLOGUE is CALL_PROLOGUE for the functions that start an
// asynchronous call: on one of the Go runtime's own threads (a completion
// callback starting the next call) the thread is not counted as one that
// holds a Go P outside Go (sched.go: GOMAXPROCS is raised for those); it
// has its P already. Counted, each such thread raised GOMAXPROCS: 64 Ps and
// 76 threads on 2 cores for one thread's 1,000 calls in flight (issue 27).
#define ASYNC_PROLOGUE(bad, bad_rc)                                                                \
    FORK_CHECK();                                                                                  \
    if (bad) return (bad_rc);                                                                      \
    int threads = 0;                                                                               \
    int hints = scx_async_hints(&threads)

#endif
