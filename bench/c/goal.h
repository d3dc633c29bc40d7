// One line per performance goal, the form every benchmark prints and
// scripts/bench.sh collects into make bench's goal table:
//   goal: WHAT: MEASURED (goal OP TARGET): met|NOT met
#ifndef SMITHYCURL_BENCH_GOAL_H
#define SMITHYCURL_BENCH_GOAL_H

#include <stdio.h>

// goal prints the line of one goal: at_most says the measured value must be
// <= target (else >=); unit follows both numbers ("x", " MiB", ...).
static inline void goal(const char *what, double measured, int at_most, double target, const char *unit) {
    int met = at_most ? measured <= target : measured >= target;
    printf("goal: %s: %.2f%s (goal %s %.2f%s): %s\n", what, measured, unit, at_most ? "<=" : ">=", target, unit,
           met ? "met" : "NOT met");
}

#endif
