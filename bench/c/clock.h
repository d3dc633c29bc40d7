// Clocks the C benchmarks read: wall time, and this process's CPU time
// (user + system, every thread); and the median of their measurements.
#ifndef SMITHYCURL_BENCH_CLOCK_H
#define SMITHYCURL_BENCH_CLOCK_H

#include <stdlib.h>
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

// vcsw is this process's voluntary context switches so far (every thread):
// a thread that blocked (in poll, on a futex, in the Go scheduler).
static inline long vcsw(void) {
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return ru.ru_nvcsw;
}

static inline int cmp_double(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

// median sorts v (n > 0 values) and returns its median.
static inline double median(double *v, int n) {
    qsort(v, n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

#endif
