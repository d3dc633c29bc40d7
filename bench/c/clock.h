// Clocks the C benchmarks read: wall time, and this process's CPU time
// (user + system, every thread).
#ifndef SMITHYCURL_BENCH_CLOCK_H
#define SMITHYCURL_BENCH_CLOCK_H

#include <sys/resource.h>
#include <time.h>

static inline double now_s(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec / 1e9;
}

static inline double cpu_s(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6;
}

#endif
