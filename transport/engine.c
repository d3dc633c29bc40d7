/* The engine's loop (see shim.h, "the engine"): one libcurl multi handle
   driven by one thread, fed through two intrusive lists under a mutex (no
   allocation on any path, so a submission or a cancel never fails for
   lack of memory), completions handed back in batches. */
#include "shim.h"

#include <pthread.h>
#include <stdlib.h>

struct sc_engine {
	CURLM *multi; /* loop thread (other threads: curl_multi_wakeup while !closing, under mu) */

	pthread_mutex_t mu;
	/* Under mu. */
	sc_handle *sub_head, *sub_tail; /* submissions, in order */
	sc_handle *can_head;            /* cancel requests */
	int closing;
	int sleeping; /* the loop is (about to be) in curl_multi_poll */
	int woken;    /* ... and was woken already */

	/* The loop thread's alone. */
	sc_handle *in_head;               /* handles in the multi */
	sc_handle *done_head, *done_tail; /* completions not handed back yet */
	int finished;                     /* closed and drained: the multi is gone */
};

sc_engine *sc_engine_new(long max_host_conns, long max_conns) {
	sc_engine *e = calloc(1, sizeof *e);
	if (!e) return NULL;
	e->multi = curl_multi_init();
	if (!e->multi) {
		free(e);
		return NULL;
	}
	pthread_mutex_init(&e->mu, NULL);
	curl_multi_setopt(e->multi, CURLMOPT_PIPELINING, (long)CURLPIPE_MULTIPLEX);
	if (max_host_conns > 0) curl_multi_setopt(e->multi, CURLMOPT_MAX_HOST_CONNECTIONS, max_host_conns);
	if (max_conns > 0) curl_multi_setopt(e->multi, CURLMOPT_MAXCONNECTS, max_conns);
	return e;
}

void sc_engine_free(sc_engine *e) {
	if (!e) return;
	if (e->multi) curl_multi_cleanup(e->multi);
	pthread_mutex_destroy(&e->mu);
	free(e);
}

/* wake_locked wakes the loop if it sleeps (mu held, not closing). */
static void wake_locked(sc_engine *e) {
	if (e->sleeping && !e->woken) {
		e->woken = 1;
		curl_multi_wakeup(e->multi);
	}
}

/* Loop thread: h is over with res (cancelled: by the engine, res is then
   CURLE_ABORTED_BY_CALLBACK); it joins the completions. */
static void complete(sc_engine *e, sc_handle *h, CURLcode res, int started, int cancelled) {
	if (h->e_state == SC_E_IN_MULTI) {
		curl_multi_remove_handle(e->multi, h->easy);
		if (h->e_in_prev) h->e_in_prev->e_in_next = h->e_in_next;
		else e->in_head = h->e_in_next;
		if (h->e_in_next) h->e_in_next->e_in_prev = h->e_in_prev;
		h->e_in_next = h->e_in_prev = NULL;
	}
	if (cancelled) {
		__atomic_store_n(&h->cancel, 1, __ATOMIC_RELEASE); /* sc_finish: cancelled */
		h->resend_blocked = 0;
	}
	sc_finish(h, res, started);
	h->e_state = SC_E_DONE;
	h->e_done_next = NULL;
	if (e->done_tail) e->done_tail->e_done_next = h;
	else e->done_head = h;
	e->done_tail = h;
}

int sc_engine_submit(sc_engine *e, sc_handle *h, const char *strs, int nhdrs,
                     int method_kind, const char *body, size_t body_len,
                     long connect_ms, long total_ms, long long max_body,
                     int may_resend, int pipewait) {
	if (sc_prepare(h, strs, nhdrs, method_kind, body, body_len, connect_ms, total_ms, max_body, may_resend) != 0)
		return 1;
	curl_easy_setopt(h->easy, CURLOPT_PIPEWAIT, pipewait ? 1L : 0L);
	pthread_mutex_lock(&e->mu);
	if (e->closing) {
		pthread_mutex_unlock(&e->mu);
		__atomic_store_n(&h->cancel, 1, __ATOMIC_RELEASE);
		sc_finish(h, CURLE_ABORTED_BY_CALLBACK, 0);
		return 1;
	}
	h->e_gen++;
	h->e_queued = 1;
	h->e_sub_next = NULL;
	if (e->sub_tail) e->sub_tail->e_sub_next = h;
	else e->sub_head = h;
	e->sub_tail = h;
	wake_locked(e);
	pthread_mutex_unlock(&e->mu);
	return 0;
}

static void unlink_cancel_locked(sc_engine *e, sc_handle *h) {
	if (!h->e_can_queued) return;
	if (h->e_can_prev) h->e_can_prev->e_can_next = h->e_can_next;
	else e->can_head = h->e_can_next;
	if (h->e_can_next) h->e_can_next->e_can_prev = h->e_can_prev;
	h->e_can_next = h->e_can_prev = NULL;
	h->e_can_queued = 0;
}

void sc_engine_cancel(sc_engine *e, sc_handle *h) {
	pthread_mutex_lock(&e->mu);
	if (!e->closing) { /* closing cancels everything anyway */
		h->e_can_gen = h->e_gen;
		if (!h->e_can_queued) {
			h->e_can_queued = 1;
			h->e_can_prev = NULL;
			h->e_can_next = e->can_head;
			if (e->can_head) e->can_head->e_can_prev = h;
			e->can_head = h;
		}
		wake_locked(e);
	}
	pthread_mutex_unlock(&e->mu);
}

void sc_engine_forget(sc_engine *e, sc_handle *h) {
	pthread_mutex_lock(&e->mu);
	unlink_cancel_locked(e, h);
	pthread_mutex_unlock(&e->mu);
}

void sc_engine_close(sc_engine *e) {
	pthread_mutex_lock(&e->mu);
	if (!e->closing) {
		e->closing = 1;
		/* The last wakeup anyone sends: the multi may go once the loop
		   has seen closing. */
		curl_multi_wakeup(e->multi);
	}
	pthread_mutex_unlock(&e->mu);
}

/* take_done hands back up to cap completions. */
static int take_done(sc_engine *e, sc_handle **out, int cap) {
	int n = 0;
	while (n < cap && e->done_head) {
		sc_handle *h = e->done_head;
		e->done_head = h->e_done_next;
		if (!e->done_head) e->done_tail = NULL;
		h->e_done_next = NULL;
		out[n++] = h;
	}
	return n;
}

/* add puts a submitted handle into the multi (or completes it). */
static void add(sc_engine *e, sc_handle *h, int closing) {
	h->e_state = SC_E_NONE;
	if (closing) {
		complete(e, h, CURLE_ABORTED_BY_CALLBACK, 0, 1);
		return;
	}
	CURLMcode mc = curl_multi_add_handle(e->multi, h->easy);
	if (mc != CURLM_OK) {
		complete(e, h, mc == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT, 0, 0);
		return;
	}
	h->e_state = SC_E_IN_MULTI;
	h->e_in_prev = NULL;
	h->e_in_next = e->in_head;
	if (e->in_head) e->in_head->e_in_prev = h;
	e->in_head = h;
}

int sc_engine_wait(sc_engine *e, sc_handle **out, int cap) {
	for (;;) {
		if (e->done_head) return take_done(e, out, cap);
		if (e->finished) return -1;

		pthread_mutex_lock(&e->mu);
		sc_handle *subs = e->sub_head;
		e->sub_head = e->sub_tail = NULL;
		for (sc_handle *h = subs; h; h = h->e_sub_next) h->e_queued = 0;
		int closing = e->closing;
		pthread_mutex_unlock(&e->mu);

		for (sc_handle *h = subs, *next; h; h = next) {
			next = h->e_sub_next;
			h->e_sub_next = NULL;
			add(e, h, closing);
		}

		/* Cancel requests are handled under mu: sc_engine_forget (before
		   the handle is reused or freed) then never races with this walk.
		   A request for a call still on the submissions waits for the
		   next round; one for an earlier call of the handle is dropped. */
		pthread_mutex_lock(&e->mu);
		for (sc_handle *h = e->can_head, *next; h; h = next) {
			next = h->e_can_next;
			if (h->e_queued && !closing) continue;
			if (h->e_can_gen == h->e_gen && h->e_state == SC_E_IN_MULTI)
				complete(e, h, CURLE_ABORTED_BY_CALLBACK, 1, 1);
			unlink_cancel_locked(e, h);
		}
		pthread_mutex_unlock(&e->mu);

		if (closing) {
			while (e->in_head) complete(e, e->in_head, CURLE_ABORTED_BY_CALLBACK, 1, 1);
			curl_multi_cleanup(e->multi);
			e->multi = NULL;
			e->finished = 1;
			continue;
		}

		int running = 0;
		CURLMcode mc = curl_multi_perform(e->multi, &running);
		int q;
		CURLMsg *m;
		while ((m = curl_multi_info_read(e->multi, &q)) != NULL) {
			if (m->msg != CURLMSG_DONE) continue;
			char *priv = NULL;
			curl_easy_getinfo(m->easy_handle, CURLINFO_PRIVATE, &priv);
			sc_handle *h = (sc_handle *)priv;
			if (h && h->e_state == SC_E_IN_MULTI) complete(e, h, m->data.result, 1, 0);
		}
		if (mc != CURLM_OK && mc != CURLM_CALL_MULTI_PERFORM) {
			/* The multi handle itself failed (out of memory): fail what
			   it holds rather than spin. */
			CURLcode res = mc == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT;
			while (e->in_head) complete(e, e->in_head, res, 1, 0);
		}
		if (e->done_head) continue;

		pthread_mutex_lock(&e->mu);
		int more = e->sub_head || e->can_head || e->closing;
		if (!more) {
			e->sleeping = 1;
			e->woken = 0;
		}
		pthread_mutex_unlock(&e->mu);
		if (more) continue;
		curl_multi_poll(e->multi, NULL, 0, 1000, NULL);
		pthread_mutex_lock(&e->mu);
		e->sleeping = 0;
		pthread_mutex_unlock(&e->mu);
	}
}
