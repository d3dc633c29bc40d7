// Small C shim around libcurl used by package transport. It keeps the hot
// path of a call in C: the write, header and transfer-info callbacks never
// call into Go, the request's header list is built and freed here, and the
// perform loop runs on a per-handle multi handle so that another thread can
// wake it (curl_multi_wakeup) to cancel a call at once.
#ifndef SMITHYCURL_TRANSPORT_SHIM_H
#define SMITHYCURL_TRANSPORT_SHIM_H

#include <stddef.h>
#include <stdint.h>
#include <curl/curl.h>

typedef struct sc_buf {
	char *p;
	size_t len;
	size_t cap;
} sc_buf;

typedef struct sc_result {
	int code;      /* CURLcode */
	int cancelled; /* the loop stopped because cancel was set */
	int too_large;
	long status;
	long request_size;
	long http_version;
	long long pretransfer_us;
	int sends;          /* requests libcurl began to send (the pre-request callback ran) */
	int resend_blocked; /* libcurl wanted to re-send on a fresh connection; refused */
	int stream_failed;  /* the Go reader or writer of a streamed body failed */
	int streamed;       /* the response body went to the Go writer */
	int yield_due;      /* the thread is due a yield to the Go scheduler (sc_yield_due) */
} sc_result;

typedef struct sc_handle {
	CURL *easy;
	CURLM *multi;
	sc_buf body;
	sc_buf hdr;
	long long max_body; /* < 0: unlimited */
	int too_large;
	int oom;
	int cancel; /* set atomically from any thread; read in the loop and xferinfo */
	int may_resend; /* this call's request may be sent twice */
	int sends;      /* requests libcurl started in this call */
	int resend_blocked;
	int digest; /* this call answers an HTTP digest challenge (sc_set_digest) */
	char errbuf[CURL_ERROR_SIZE];
	struct sc_result res;
	/* The request's header list: nodes owned by the handle, reused by every
	   call, whose data point into the call's strings (no copies). */
	struct curl_slist *hnodes;
	int hnodes_cap;
	/* Streamed bodies (SC_STREAM uploads, stream_out downloads): the
	   callbacks call into Go (scGoRead, scGoWrite in stream.go) with
	   stream_ref, the call's cgo.Handle. out_mode: 0 undecided, 1 the
	   body goes to Go (a 2xx response), 2 it is buffered (an error
	   response, decoded as usual). */
	uintptr_t stream_ref;
	int stream_out;
	int out_mode;
	int stream_failed; /* a Go reader or writer failed: see the Go side */
	int unpause;       /* set atomically by sc_unpause: resume a paused upload */
	int start_early;   /* duplex: tell Go the final headers are complete (scGoStart) */
	int kind;          /* the method kind of the call (SC_GET ...) */
	int raw_body;      /* set by Go per call: the response body as sent, no Content-Encoding decoding */
	/* The engine's bookkeeping (engine.c, struct sc_engine says who owns
	   which field). e_ref is the Go side's cgo.Handle of the handle. */
	uintptr_t e_ref;
	struct sc_handle *e_sub_next;                /* submissions (engine mu) */
	struct sc_handle *e_can_next, *e_can_prev;   /* cancel requests (engine mu) */
	int e_queued;                                /* on the submissions (engine mu) */
	int e_can_queued;                            /* on the cancel requests (engine mu) */
	unsigned e_gen, e_can_gen;                   /* call number, the cancelled one (engine mu) */
	int e_state;                                 /* loop thread: SC_E_* */
	struct sc_handle *e_in_next, *e_in_prev;     /* in the multi (loop thread) */
	struct sc_handle *e_done_next;               /* completions (loop thread) */
} sc_handle;


/* sc_share_new creates a share handle for DNS cache and TLS sessions with
   pthread lock callbacks; NULL on failure. */
CURLSH *sc_share_new(void);
/* sc_share_free frees a share handle; -1 (and the handle kept) when a
   handle still uses it. */
int sc_share_free(CURLSH *sh);

sc_handle *sc_new(CURL *easy, CURLSH *share);
void sc_free(sc_handle *h);
void sc_cancel(sc_handle *h);
/* sc_unpause asks the perform loop, from any thread, to resume an upload
   the read callback paused (a duplex body with no data yet). */
void sc_unpause(sc_handle *h);

/* sc_stream sets the streams of the next sc_perform: ref is the call's
   cgo.Handle (0: none), out says the response body goes to Go; early
   (a duplex body) calls scGoStart once the final headers of the response are
   complete, not at the body's first byte (which may wait for the
   request's). */
void sc_stream(sc_handle *h, uintptr_t ref, int out, int early);

/* sc_set_digest makes the next call of h answer an HTTP digest challenge
   (CURLAUTH_DIGEST) with user and password (libcurl copies them): its
   request may then be sent twice, the second time after a 401. sc_finish
   turns it off again. */
void sc_set_digest(sc_handle *h, const char *user, const char *password);

/* sc_perform runs one request on the handle's own multi handle, blocking
   until it is over: sc_prepare, the perform loop, then sc_finish. strs holds NUL-terminated strings: the URL,
   the custom method ("" for none), then nhdrs header lines. Unless
   may_resend, libcurl's own re-send of the request on a fresh connection
   (when a reused one dies before any response byte) is refused. */
void sc_perform(sc_handle *h, const char *strs, int nhdrs, int method_kind,
                const char *body, size_t body_len, long connect_ms,
                long total_ms, long long max_body, int may_resend);
/* sc_prepare sets the options of one request (the arguments of
   sc_perform) and resets the per-call state; 0 when the handle is ready,
   -1 when it failed (h->res is then the call's result). strs and body must
   stay valid and unmoved until sc_finish. */
int sc_prepare(sc_handle *h, const char *strs, int nhdrs, int method_kind,
               const char *body, size_t body_len, long connect_ms,
               long total_ms, long long max_body, int may_resend);
/* sc_finish fills h->res from the transfer's outcome res and drops every
   per-call pointer sc_prepare set. started says the transfer ran (a
   request never added to a multi handle has no transfer information). */
void sc_finish(sc_handle *h, CURLcode res, int started);
/* sc_yield_due says whether the calling thread should now let the Go
   scheduler run (runtime.Gosched): true once SC_YIELD_NS or more after its
   last yield, or its first question, and then not again for as long. A
   thread that enters Go from C, or a goroutine that loops on blocking
   transfers, keeps its P (Go's scheduling slot) in the system-call state
   while libcurl waits; sysmon preempts a P whose schedule tick has not
   moved for 10 ms (a signal, the P handed off, sysmon polling every 20 us
   again), and a yield moves the tick. The clock is per OS thread and shared
   by whoever asks on it (sc_perform for Curl.Do, the C API's calls through
   transport.YieldClock), so a thread yields once per period. Any thread. */
int sc_yield_due(void);
/* sc_trim frees a large body buffer kept from the last call. */
void sc_trim(sc_handle *h);

/* ---- the engine (engine.c) --------------------------------------------

   One multi handle for many requests, driven by one thread that calls
   sc_engine_wait in a loop. Other threads submit prepared handles and
   cancel them; each submitted handle completes exactly once (h->res set
   by sc_finish) and is handed back by sc_engine_wait. Between
   sc_engine_submit and that hand-back the loop thread owns the handle. */
typedef struct sc_engine sc_engine;

enum { SC_E_NONE = 0, SC_E_IN_MULTI = 1, SC_E_DONE = 2 };

/* max_host_conns: CURLMOPT_MAX_HOST_CONNECTIONS (0: no limit); max_conns:
   CURLMOPT_MAXCONNECTS, the idle connections kept. NULL on failure. */
sc_engine *sc_engine_new(long max_host_conns, long max_conns);
/* sc_engine_submit prepares h (sc_prepare's arguments) and queues it for
   the loop, with CURLOPT_PIPEWAIT set to pipewait. 0: queued, it will
   complete through sc_engine_wait; 1: it did not go out (prepare failed,
   or the engine is closing: cancelled) and h->res is its result. */
int sc_engine_submit(sc_engine *e, sc_handle *h, const char *strs, int nhdrs,
                     int method_kind, const char *body, size_t body_len,
                     long connect_ms, long total_ms, long long max_body,
                     int may_resend, int pipewait);
/* sc_engine_cancel asks the loop to abort h's current call (it then
   completes cancelled, unless it completed first). Any thread. */
void sc_engine_cancel(sc_engine *e, sc_handle *h);
/* sc_engine_forget drops a cancel request of h still pending: call it
   after h completed, before h is reused or freed, when it was cancelled. */
void sc_engine_forget(sc_engine *e, sc_handle *h);
/* sc_engine_close makes the loop cancel every call queued or in flight,
   refuse new ones and end: sc_engine_wait then returns -1 once every
   completion has been handed back. Any thread; once. */
void sc_engine_close(sc_engine *e);
/* sc_engine_wait runs the transfers until at least one call completed and
   writes up to cap completed handles to out: their number, or -1 when the
   engine is closed and nothing is left to hand back (the multi handle is
   then cleaned up). The loop thread only. */
int sc_engine_wait(sc_engine *e, sc_handle **out, int cap);
/* sc_engine_free frees the engine after sc_engine_wait returned -1 and no
   thread will call sc_engine_cancel or sc_engine_forget any more. */
void sc_engine_free(sc_engine *e);

/* SC_STREAM uploads a body read from Go (scGoRead) with method as the
   custom method; body_len is its length, or (size_t)-1 when unknown (the
   caller then sends Transfer-Encoding: chunked). */
enum { SC_GET = 0, SC_HEAD = 1, SC_BODY = 2, SC_STREAM = 3 };

#endif
