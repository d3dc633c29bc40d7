#include "shim.h"
#include "_cgo_export.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ---- share handle ---------------------------------------------------- */

typedef struct sc_share_locks {
	pthread_mutex_t mu[CURL_LOCK_DATA_LAST];
} sc_share_locks;

static void sc_lock(CURL *easy, curl_lock_data data, curl_lock_access access, void *ud) {
	(void)easy;
	(void)access;
	sc_share_locks *l = ud;
	if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_lock(&l->mu[data]);
}

static void sc_unlock(CURL *easy, curl_lock_data data, void *ud) {
	(void)easy;
	sc_share_locks *l = ud;
	if ((int)data >= 0 && data < CURL_LOCK_DATA_LAST) pthread_mutex_unlock(&l->mu[data]);
}

/* The lock table lives right behind a small registry so that sc_share_free
   can find it: libcurl has no getter for CURLSHOPT_USERDATA. */
typedef struct sc_share_reg {
	CURLSH *sh;
	sc_share_locks *locks;
	struct sc_share_reg *next;
} sc_share_reg;

static pthread_mutex_t sc_reg_mu = PTHREAD_MUTEX_INITIALIZER;
static sc_share_reg *sc_reg_head;

CURLSH *sc_share_new(void) {
	sc_share_locks *l = calloc(1, sizeof *l);
	sc_share_reg *r = calloc(1, sizeof *r);
	CURLSH *sh = curl_share_init();
	if (!l || !r || !sh) {
		free(l);
		free(r);
		if (sh) curl_share_cleanup(sh);
		return NULL;
	}
	for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_init(&l->mu[i], NULL);
	curl_share_setopt(sh, CURLSHOPT_LOCKFUNC, sc_lock);
	curl_share_setopt(sh, CURLSHOPT_UNLOCKFUNC, sc_unlock);
	curl_share_setopt(sh, CURLSHOPT_USERDATA, l);
	curl_share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_DNS);
	curl_share_setopt(sh, CURLSHOPT_SHARE, CURL_LOCK_DATA_SSL_SESSION);
	/* CURL_LOCK_DATA_CONNECT is not shared: each pooled handle keeps its
	   own connection, which is what makes reuse lock-free. */
	r->sh = sh;
	r->locks = l;
	pthread_mutex_lock(&sc_reg_mu);
	r->next = sc_reg_head;
	sc_reg_head = r;
	pthread_mutex_unlock(&sc_reg_mu);
	return sh;
}

int sc_share_free(CURLSH *sh) {
	if (!sh) return 0;
	sc_share_reg *found = NULL;
	pthread_mutex_lock(&sc_reg_mu);
	for (sc_share_reg **pp = &sc_reg_head; *pp; pp = &(*pp)->next) {
		if ((*pp)->sh == sh) {
			found = *pp;
			*pp = found->next;
			break;
		}
	}
	pthread_mutex_unlock(&sc_reg_mu);
	if (curl_share_cleanup(sh) != CURLSHE_OK) {
		/* Still in use (a handle attached): its locks must outlive it, so
		   they are kept (a leak, not a use after free). */
		return -1;
	}
	if (found) {
		for (int i = 0; i < CURL_LOCK_DATA_LAST; i++) pthread_mutex_destroy(&found->locks->mu[i]);
		free(found->locks);
		free(found);
	}
	return 0;
}

/* ---- buffers and callbacks --------------------------------------------- */

static int sc_append(sc_buf *b, const char *p, size_t n) {
	if (b->len + n > b->cap) {
		size_t c = b->cap ? b->cap : 1024;
		while (c < b->len + n) c *= 2;
		char *np = realloc(b->p, c);
		if (!np) return -1;
		b->p = np;
		b->cap = c;
	}
	memcpy(b->p + b->len, p, n);
	b->len += n;
	return 0;
}

static size_t sc_write(char *ptr, size_t size, size_t nmemb, void *ud) {
	sc_handle *h = ud;
	size_t n = size * nmemb;
	if (h->stream_out && h->out_mode == 0) {
		/* The status is known once the body starts: only a success goes
		   to the caller's writer, an error body is decoded as usual. */
		long status = 0;
		curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
		h->out_mode = status >= 200 && status <= 299 ? 1 : 2;
	}
	if (h->out_mode == 1) {
		if (scGoWrite(h->stream_ref, ptr, n) != n) {
			h->stream_failed = 1;
			return 0; /* CURLE_WRITE_ERROR */
		}
		return n;
	}
	if (h->max_body >= 0 && (long long)(h->body.len + n) > h->max_body) {
		h->too_large = 1;
		return 0; /* CURLE_WRITE_ERROR */
	}
	if (h->body.len == 0) {
		/* The body's length, when announced, is the buffer's size: a
		   1 MiB object is read into 1 MiB, not grown by doubling (each
		   step a copy) to 2 MiB, which sc_trim would then free. */
		curl_off_t cl = -1;
		if (curl_easy_getinfo(h->easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &cl) == CURLE_OK && cl > 0 &&
		    (size_t)cl > h->body.cap && (h->max_body < 0 || cl <= h->max_body)) {
			char *np = malloc((size_t)cl); /* nothing to keep: len is 0 */
			if (np) {
				free(h->body.p);
				h->body.p = np;
				h->body.cap = (size_t)cl;
			}
		}
	}
	if (sc_append(&h->body, ptr, n) != 0) {
		h->oom = 1;
		return 0;
	}
	return n;
}

static size_t sc_read(char *buf, size_t size, size_t nitems, void *ud) {
	sc_handle *h = ud;
	size_t n = scGoRead(h->stream_ref, buf, size * nitems);
	if (n == (size_t)-2)
		return CURL_READFUNC_PAUSE; /* no data yet: sc_unpause resumes */
	if (n == (size_t)-1) {
		h->stream_failed = 1;
		return CURL_READFUNC_ABORT;
	}
	return n;
}

static size_t sc_header(char *ptr, size_t size, size_t nmemb, void *ud) {
	sc_handle *h = ud;
	size_t n = size * nmemb;
	/* A new status line (after 100 Continue, or a proxy's CONNECT reply)
	   starts a new header block. */
	if (n >= 5 && memcmp(ptr, "HTTP/", 5) == 0) h->hdr.len = 0;
	if (sc_append(&h->hdr, ptr, n) != 0) {
		h->oom = 1;
		return 0;
	}
	if (h->start_early && h->stream_ref && (n == 2 || n == 1) && (ptr[0] == '\r' || ptr[0] == '\n')) {
		long status = 0;
		curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
		if (status >= 200) {
			/* A final status. An error one ends the paused upload: the
			   transfer would otherwise wait for the rest of a body the
			   server no longer reads (HTTP/2 in libcurl 7.88). */
			h->start_early = 0;
			scGoStart(h->stream_ref, (int)status);
			if (status > 299) sc_unpause(h);
		}
	}
	return n;
}

static int sc_xferinfo(void *ud, curl_off_t dt, curl_off_t dn, curl_off_t ut, curl_off_t un) {
	(void)dt;
	(void)dn;
	(void)ut;
	(void)un;
	sc_handle *h = ud;
	return __atomic_load_n(&h->cancel, __ATOMIC_ACQUIRE) ? 1 : 0;
}

/* libcurl calls this before each request it sends on a connection. A
   second call within one transfer is libcurl re-sending the request on a
   fresh connection because the reused one died before any byte of the
   response (lib/transfer.c, Curl_retry_request): the server may have
   received and acted on the first copy, so that is refused unless the
   request may be sent twice. */
#if LIBCURL_VERSION_NUM >= 0x075000 /* CURLOPT_PREREQFUNCTION: 7.80.0 */
static int sc_prereq(void *ud, char *primary_ip, char *local_ip, int primary_port, int local_port) {
	(void)primary_ip;
	(void)local_ip;
	(void)primary_port;
	(void)local_port;
	sc_handle *h = ud;
	long status = 0;
	if (h->digest) curl_easy_getinfo(h->easy, CURLINFO_RESPONSE_CODE, &status);
	/* A digest challenge (401) is answered by a second request: the
	   server refused the first without acting on it. */
	if (h->sends++ > 0 && !h->may_resend && status != 401) {
		h->resend_blocked = 1;
		return CURL_PREREQFUNC_ABORT;
	}
	return CURL_PREREQFUNC_OK;
}
#endif

/* ---- handles ----------------------------------------------------------- */

sc_handle *sc_new(CURL *easy, CURLSH *share) {
	sc_handle *h = calloc(1, sizeof *h);
	if (!h) return NULL;
	h->easy = easy;
	h->multi = curl_multi_init();
	if (!h->multi) {
		free(h);
		return NULL;
	}
	curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
	curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, sc_write);
	curl_easy_setopt(easy, CURLOPT_WRITEDATA, h);
	curl_easy_setopt(easy, CURLOPT_READFUNCTION, sc_read);
	curl_easy_setopt(easy, CURLOPT_READDATA, h);
	curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, sc_header);
	curl_easy_setopt(easy, CURLOPT_HEADERDATA, h);
	curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, sc_xferinfo);
	curl_easy_setopt(easy, CURLOPT_XFERINFODATA, h);
	curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
	curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, h->errbuf);
	curl_easy_setopt(easy, CURLOPT_PRIVATE, (void *)h);
#if LIBCURL_VERSION_NUM >= 0x075000 /* CURLOPT_PREREQFUNCTION: 7.80.0 */
	curl_easy_setopt(easy, CURLOPT_PREREQFUNCTION, sc_prereq);
	curl_easy_setopt(easy, CURLOPT_PREREQDATA, h);
#endif
	if (share) curl_easy_setopt(easy, CURLOPT_SHARE, share);
	return h;
}

void sc_free(sc_handle *h) {
	if (!h) return;
	/* The easy handle is never left in the multi between calls. Cleaning
	   the multi closes the connections in its cache. */
	curl_multi_cleanup(h->multi);
	curl_easy_setopt(h->easy, CURLOPT_ERRORBUFFER, NULL);
	curl_easy_setopt(h->easy, CURLOPT_SHARE, NULL);
	free(h->body.p);
	free(h->hdr.p);
	free(h->hnodes);
	free(h);
}

void sc_cancel(sc_handle *h) {
	__atomic_store_n(&h->cancel, 1, __ATOMIC_RELEASE);
	curl_multi_wakeup(h->multi);
}

void sc_unpause(sc_handle *h) {
	__atomic_store_n(&h->unpause, 1, __ATOMIC_RELEASE);
	curl_multi_wakeup(h->multi);
}

void sc_stream(sc_handle *h, uintptr_t ref, int out, int early) {
	h->stream_ref = ref;
	h->stream_out = out;
	h->start_early = early;
}

/* sc_clear_digest forgets the digest credentials of sc_set_digest. */
static void sc_clear_digest(sc_handle *h) {
	if (!h->digest) return;
	h->digest = 0;
	curl_easy_setopt(h->easy, CURLOPT_HTTPAUTH, (long)CURLAUTH_BASIC);
	curl_easy_setopt(h->easy, CURLOPT_USERNAME, NULL);
	curl_easy_setopt(h->easy, CURLOPT_PASSWORD, NULL);
}

int sc_prepare(sc_handle *h, const char *strs, int nhdrs, int method_kind,
               const char *body, size_t body_len, long connect_ms,
               long total_ms, long long max_body, int may_resend) {
	CURL *e = h->easy;
	sc_result *out = &h->res;
	memset(out, 0, sizeof *out);
	h->body.len = 0;
	h->hdr.len = 0;
	h->too_large = 0;
	h->oom = 0;
	h->errbuf[0] = 0;
	h->max_body = max_body;
	h->may_resend = may_resend;
	h->sends = 0;
	h->resend_blocked = 0;
	h->out_mode = 0;
	h->stream_failed = 0;
	h->kind = method_kind;
	__atomic_store_n(&h->unpause, 0, __ATOMIC_RELEASE);

	const char *url = strs;
	const char *method = url + strlen(url) + 1;
	const char *p = method + strlen(method) + 1;
	/* The header list is built in place, not with curl_slist_append (a
	   malloc and a strdup per line, freed again after the call): libcurl
	   only reads the list, and CURLOPT_HTTPHEADER is cleared by sc_finish,
	   so no pointer into strs outlives the call. */
	if (nhdrs > h->hnodes_cap) {
		int cap = nhdrs < 16 ? 16 : nhdrs;
		struct curl_slist *nodes = realloc(h->hnodes, (size_t)cap * sizeof *nodes);
		if (!nodes) {
			out->code = CURLE_OUT_OF_MEMORY;
			sc_clear_digest(h);
			h->stream_ref = 0;
			h->stream_out = 0;
			h->start_early = 0;
			return -1;
		}
		h->hnodes = nodes;
		h->hnodes_cap = cap;
	}
	struct curl_slist *hl = nhdrs > 0 ? h->hnodes : NULL;
	for (int i = 0; i < nhdrs; i++) {
		h->hnodes[i].data = (char *)p;
		h->hnodes[i].next = i + 1 < nhdrs ? &h->hnodes[i + 1] : NULL;
		p += strlen(p) + 1;
	}

	curl_easy_setopt(e, CURLOPT_URL, url);
	curl_easy_setopt(e, CURLOPT_NOBODY, 0L);
	switch (method_kind) {
	case SC_HEAD:
		curl_easy_setopt(e, CURLOPT_NOBODY, 1L);
		break;
	case SC_BODY:
		curl_easy_setopt(e, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
		curl_easy_setopt(e, CURLOPT_POSTFIELDS, body ? body : "");
		break;
	case SC_STREAM:
		curl_easy_setopt(e, CURLOPT_UPLOAD, 1L);
		curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE,
		                 body_len == (size_t)-1 ? (curl_off_t)-1 : (curl_off_t)body_len);
		break;
	default:
		curl_easy_setopt(e, CURLOPT_HTTPGET, 1L);
	}
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, method[0] ? method : NULL);
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, hl);
	/* CURLOPT_ACCEPT_ENCODING stays set on the handle; a raw body is
	   passed on as it arrived (an S3 object stored with a Content-Encoding
	   is its stored bytes, in whatever encoding, known to libcurl or not). */
	curl_easy_setopt(e, CURLOPT_HTTP_CONTENT_DECODING, h->raw_body ? 0L : 1L);
	curl_easy_setopt(e, CURLOPT_CONNECTTIMEOUT_MS, connect_ms);
	curl_easy_setopt(e, CURLOPT_TIMEOUT_MS, total_ms);
	/* A duplex body's first bytes may wait for the response: never hold
	   them back for a 100 Continue (libcurl's own Expect goes out with a
	   signed chunked upload). */
	curl_easy_setopt(e, CURLOPT_EXPECT_100_TIMEOUT_MS, h->start_early ? 1L : 1000L);
	/* The Content-Length check; HEAD has no body to limit. */
	curl_easy_setopt(e, CURLOPT_MAXFILESIZE_LARGE,
	                 (curl_off_t)(max_body >= 0 && method_kind != SC_HEAD && !h->stream_out ? max_body : 0));
	return 0;
}

/* sc_run drives the prepared transfer on the handle's own multi handle
   until it is over or cancelled (sc_cancel). */
static CURLcode sc_run(sc_handle *h) {
	CURL *e = h->easy;
	CURLcode res = CURLE_OK;
	CURLMcode mc = curl_multi_add_handle(h->multi, e);
	if (mc != CURLM_OK) return CURLE_FAILED_INIT;
	for (;;) {
		int running = 0;
		int done = 0;
		/* Resumed here, on the thread that drives the transfer:
		   curl_easy_pause is not safe from another thread. */
		if (__atomic_exchange_n(&h->unpause, 0, __ATOMIC_ACQ_REL))
			curl_easy_pause(e, CURLPAUSE_CONT);
		mc = curl_multi_perform(h->multi, &running);
		if (mc != CURLM_OK) {
			res = mc == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT;
			break;
		}
		int q;
		CURLMsg *m;
		while ((m = curl_multi_info_read(h->multi, &q)) != NULL) {
			if (m->msg == CURLMSG_DONE && m->easy_handle == e) {
				res = m->data.result;
				done = 1;
			}
		}
		if (done) break;
		if (__atomic_load_n(&h->cancel, __ATOMIC_ACQUIRE)) {
			res = CURLE_ABORTED_BY_CALLBACK;
			break;
		}
		mc = curl_multi_poll(h->multi, NULL, 0, 1000, NULL);
		if (mc != CURLM_OK) {
			res = CURLE_FAILED_INIT;
			break;
		}
	}
	curl_multi_remove_handle(h->multi, e);
	return res;
}

void sc_finish(sc_handle *h, CURLcode res, int started) {
	CURL *e = h->easy;
	sc_result *out = &h->res;
	if (res == CURLE_ABORTED_BY_CALLBACK && __atomic_load_n(&h->cancel, __ATOMIC_ACQUIRE))
		out->cancelled = 1;
	if (h->oom && res == CURLE_WRITE_ERROR) res = CURLE_OUT_OF_MEMORY;

	out->code = (int)res;
	out->too_large = h->too_large;
	out->stream_failed = h->stream_failed;
	out->streamed = h->out_mode == 1;
	out->resend_blocked = h->resend_blocked && res == CURLE_ABORTED_BY_CALLBACK;
	out->sends = h->sends;
	if (started) {
		curl_easy_getinfo(e, CURLINFO_RESPONSE_CODE, &out->status);
		curl_easy_getinfo(e, CURLINFO_REQUEST_SIZE, &out->request_size);
		curl_easy_getinfo(e, CURLINFO_HTTP_VERSION, &out->http_version);
		curl_off_t pt = 0;
		curl_easy_getinfo(e, CURLINFO_PRETRANSFER_TIME_T, &pt);
		out->pretransfer_us = (long long)pt;
	}

	/* Drop every per-call pointer: the body is Go memory pinned only for
	   the duration of the call, and the header list points into strs. */
	curl_easy_setopt(e, CURLOPT_POSTFIELDS, NULL);
	if (h->kind == SC_STREAM) {
		curl_easy_setopt(e, CURLOPT_UPLOAD, 0L);
		curl_easy_setopt(e, CURLOPT_INFILESIZE_LARGE, (curl_off_t)-1);
	}
	h->stream_ref = 0;
	h->stream_out = 0;
	h->start_early = 0;
	curl_easy_setopt(e, CURLOPT_HTTPHEADER, NULL);
	curl_easy_setopt(e, CURLOPT_CUSTOMREQUEST, NULL);
	sc_clear_digest(h);
}

void sc_set_digest(sc_handle *h, const char *user, const char *password) {
	h->digest = 1;
	curl_easy_setopt(h->easy, CURLOPT_HTTPAUTH, (long)CURLAUTH_DIGEST);
	curl_easy_setopt(h->easy, CURLOPT_USERNAME, user);
	curl_easy_setopt(h->easy, CURLOPT_PASSWORD, password);
}

void sc_perform(sc_handle *h, const char *strs, int nhdrs, int method_kind,
                const char *body, size_t body_len, long connect_ms,
                long total_ms, long long max_body, int may_resend) {
	if (sc_prepare(h, strs, nhdrs, method_kind, body, body_len, connect_ms, total_ms, max_body, may_resend) == 0)
		sc_finish(h, sc_run(h), 1);
	h->res.yield_due = sc_yield_due(); /* asked here: no crossing of its own */
}

/* The period of sc_yield_due: under sysmon's 10 ms with room for its
   sampling (it looks at a P every 20 us to 10 ms). */
#define SC_YIELD_NS 5000000LL
static __thread long long sc_yield_tick; /* CLOCK_MONOTONIC ns of the last yield; 0: never asked */

int sc_yield_due(void) {
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	long long now = (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
	if (sc_yield_tick == 0) {
		sc_yield_tick = now;
		return 0;
	}
	if (now - sc_yield_tick < SC_YIELD_NS) return 0;
	sc_yield_tick = now;
	return 1;
}

void sc_trim(sc_handle *h) {
	free(h->body.p);
	h->body.p = NULL;
	h->body.len = h->body.cap = 0;
}

