// Internal: what every C entry point of libsmithycurl (smithycurl.c,
// payload.c) opens with. Included after smithycurl.h and scx.h.
#ifndef SMITHYCURL_ENTRY_H
#define SMITHYCURL_ENTRY_H

// Set in a child forked since the library was loaded (smithycurl.c).
extern volatile int scx_forked;

// The scheduling hints for Go of a call from this thread (smithycurl.c).
int scx_sched_hints(int *threads);

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

#endif
