package benchserver

/*
#cgo pkg-config: libcurl
#include <curl/curl.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
	char data[4096];
	size_t len;
} bs_buf;

static size_t bs_collect(char *p, size_t size, size_t n, void *ud) {
	bs_buf *b = ud;
	size_t k = size * n;
	if (b->len + k < sizeof b->data) {
		memcpy(b->data + b->len, p, k);
		b->len += k;
	}
	return k;
}

// bs_loop is the hand-written libcurl loop of bench/c/bench.c: n POSTs of
// body to url on one reused easy handle, each response compared with want.
// It returns the number of failed calls.
static int bs_loop(const char *url, const char *body, size_t body_len, const char *want, size_t want_len, int n) {
	CURL *h = curl_easy_init();
	if (!h) return n;
	bs_buf b;
	struct curl_slist *hdrs = curl_slist_append(NULL, "Content-Type: application/json");
	hdrs = curl_slist_append(hdrs, "Accept: application/json");
	curl_easy_setopt(h, CURLOPT_URL, url);
	curl_easy_setopt(h, CURLOPT_POSTFIELDS, body);
	curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE, (long)body_len);
	curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdrs);
	curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, bs_collect);
	curl_easy_setopt(h, CURLOPT_WRITEDATA, &b);
	curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(h, CURLOPT_TIMEOUT, 60L);
	int failures = 0;
	for (int i = 0; i < n; i++) {
		b.len = 0;
		long status = 0;
		if (curl_easy_perform(h) != CURLE_OK || (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status), status != 200) ||
		    b.len != want_len || memcmp(b.data, want, want_len) != 0)
			failures++;
	}
	curl_slist_free_all(hdrs);
	curl_easy_cleanup(h);
	return failures;
}
*/
import "C"

import (
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"
	"unsafe"

	curl "github.com/andelf/go-curl"
)

// CLoop runs calls POSTs of Request to url in C (bench/c/bench.c's
// libcurl loop: one easy handle per thread, curl_easy_perform, the answer
// compared with Response), split over workers threads, each one cgo call
// that never returns to Go in between. It returns the wall and the
// process's CPU time.
func CLoop(url string, workers, calls int) (wall, cpu time.Duration, err error) {
	if err := curl.GlobalInit(curl.GLOBAL_ALL); err != nil {
		return 0, 0, err
	}
	cu := C.CString(url)
	defer C.free(unsafe.Pointer(cu))
	body, want := C.CBytes(Request), C.CBytes(Response)
	defer C.free(body)
	defer C.free(want)
	var failed int64
	var mu sync.Mutex
	run := func(n int) {
		f := C.bs_loop(cu, (*C.char)(body), C.size_t(len(Request)), (*C.char)(want), C.size_t(len(Response)), C.int(n))
		mu.Lock()
		failed += int64(f)
		mu.Unlock()
	}
	run(20) // warm up: the connection, the caches
	w0, c0 := time.Now(), CPUTime()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() { defer wg.Done(); run(calls / workers) }()
	}
	wg.Wait()
	wall, cpu = time.Since(w0), CPUTime()-c0
	if failed > 0 {
		return wall, cpu, fmt.Errorf("C loop: %d failed calls", failed)
	}
	return wall, cpu, nil
}

// GoLoop runs fn calls times over workers goroutines (after 20 warm-up
// calls) and returns the wall and the process's CPU time.
func GoLoop(workers, calls int, fn func() error) (wall, cpu time.Duration, err error) {
	for range 20 {
		if err := fn(); err != nil {
			return 0, 0, err
		}
	}
	w0, c0 := time.Now(), CPUTime()
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range calls / workers {
				if err := fn(); err != nil {
					errs <- err
					return
				}
			}
		}()
	}
	wg.Wait()
	wall, cpu = time.Since(w0), CPUTime()-c0
	select {
	case err = <-errs:
	default:
	}
	return wall, cpu, err
}

// CompareToC measures fn (calls calls over workers goroutines) and the C
// libcurl loop on url (CLoop, the same calls over as many threads)
// alternately, rounds times each, and reports the medians: CPU per call
// and calls/s of each, and their ratios (fn / C: "cpu-x", "calls/s-x"),
// measured in the same run, and returns the two ratios. It ignores b.N:
// run it with -benchtime 1x.
func CompareToC(b *testing.B, url string, workers, calls, rounds int, fn func() error) (cpuX, cpsX float64) {
	calls = calls / workers * workers
	var cpu [2][]float64
	var cps [2][]float64
	for range rounds {
		for k := range 2 {
			var wall, c time.Duration
			var err error
			if k == 0 {
				wall, c, err = GoLoop(workers, calls, fn)
			} else {
				wall, c, err = CLoop(url, workers, calls)
			}
			if err != nil {
				b.Fatal(err)
			}
			cpu[k] = append(cpu[k], float64(c.Nanoseconds())/1e3/float64(calls))
			cps[k] = append(cps[k], float64(calls)/wall.Seconds())
		}
	}
	med := func(v []float64) float64 {
		sort.Float64s(v)
		if n := len(v); n%2 == 0 {
			return (v[n/2-1] + v[n/2]) / 2
		}
		return v[len(v)/2]
	}
	goCPU, cCPU, goCPS, cCPS := med(cpu[0]), med(cpu[1]), med(cps[0]), med(cps[1])
	b.ReportMetric(goCPU, "cpu-µs/call")
	b.ReportMetric(cCPU, "c-cpu-µs/call")
	b.ReportMetric(goCPU/cCPU, "cpu-x")
	b.ReportMetric(goCPS, "calls/s")
	b.ReportMetric(cCPS, "c-calls/s")
	b.ReportMetric(goCPS/cCPS, "calls/s-x")
	return goCPU / cCPU, goCPS / cCPS
}

// Goal prints the line of one performance goal, the form every benchmark
// prints and scripts/bench.sh collects into make bench's goal table
// (bench/c/goal.h): "goal: WHAT: MEASURED (goal OP TARGET): met|NOT met".
// atMost says measured must be <= target (else >=). The line starts on a
// line of its own: go test prints a benchmark's name before running it.
func Goal(what string, measured float64, atMost bool, target float64, unit string) {
	met, op := measured <= target, "<="
	if !atMost {
		met, op = measured >= target, ">="
	}
	verdict := "met"
	if !met {
		verdict = "NOT met"
	}
	fmt.Printf("\ngoal: %s: %.2f%s (goal %s %.2f%s): %s\n", what, measured, unit, op, target, unit, verdict)
}
