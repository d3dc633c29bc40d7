// S3 PutObject then GetObject of one object (1 KiB and 1 MiB) on s3rver
// from C: through the C API with the body as bytes beside the document
// (smithycurl_call_payload, smithycurl_result_payload) vs the same requests
// written directly against libcurl, SigV4 computed by this program
// (OpenSSL's SHA-256 and HMAC), the body sent from memory
// (CURLOPT_POSTFIELDS) and received into a growing buffer. Both send what
// the C API sends over http: the payload's SHA-256 signed
// (x-amz-content-sha256) with its CRC32 in x-amz-checksum-crc32 (zlib),
// and ask for the response checksum (s3rver sends none). Each side runs in
// its own child process (the libcurl one never loads the Go runtime:
// libsmithycurl is dlopen'ed by the other), three rounds each, alternating;
// medians of wall and CPU (user + system, all threads) per pair.
//
//   [BENCH_SIDE=capi|curl] bench-c-s3 <s3rver-url> <s3-model.json> <libsmithycurl.so> <pairs-1KiB> <pairs-1MiB>
#define _GNU_SOURCE
#include <curl/curl.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <zlib.h>

#include "aws.h"
#include "clock.h"
#include "smithycurl.h"

#define KEY BENCH_KEY
#define SECRET BENCH_SECRET
#define REGION BENCH_REGION
#define BUCKET "bench-c-s3"

// s3rver 3.7 now and then answers a GET right after the PUT of the same
// key with the object's ETag and no bytes (the file is not written yet):
// both sides send such a GET again, up to this many times.
#define S3RVER_TRIES 50

static unsigned char *body; // the object: random bytes
static size_t body_len;

// ---- the libcurl side: SigV4 by hand ----

static void hex(const unsigned char *p, size_t n, char *out) {
    for (size_t i = 0; i < n; i++) sprintf(out + 2 * i, "%02x", p[i]);
}

static void b64(const unsigned char *p, size_t n, char *out) {
    static const char a[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = p[i] << 16 | (i + 1 < n ? p[i + 1] << 8 : 0) | (i + 2 < n ? p[i + 2] : 0);
        out[o++] = a[v >> 18 & 63];
        out[o++] = a[v >> 12 & 63];
        out[o++] = i + 1 < n ? a[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? a[v & 63] : '=';
    }
    out[o] = 0;
}

static void hmac(const unsigned char *key, size_t klen, const char *msg, unsigned char out[32]) {
    unsigned int n = 32;
    HMAC(EVP_sha256(), key, (int)klen, (const unsigned char *)msg, strlen(msg), out, &n);
}

struct signer {
    char host[128];
    char day[9];           // the signing key's date
    unsigned char key[32]; // the signing key of day
};

// sign returns the Authorization header of a request whose x-amz headers
// (lower-case names, sorted, "name:value" lines) and payload hash are given.
static void sign(struct signer *s, const char *method, const char *path, const char *amz_date,
                 const char *headers, const char *signed_names, const char *payload_hash, char *auth, size_t cap) {
    if (strncmp(s->day, amz_date, 8) != 0) { // a new day: a new key
        memcpy(s->day, amz_date, 8);
        s->day[8] = 0;
        unsigned char k[32];
        hmac((const unsigned char *)"AWS4" SECRET, strlen("AWS4" SECRET), s->day, k);
        hmac(k, 32, REGION, k);
        hmac(k, 32, "s3", k);
        hmac(k, 32, "aws4_request", s->key);
    }
    char creq[1024], sts[512], h[65], sig[65];
    unsigned char d[32];
    snprintf(creq, sizeof creq, "%s\n%s\n\nhost:%s\n%s\nhost;%s\n%s", method, path, s->host, headers, signed_names,
             payload_hash);
    SHA256((const unsigned char *)creq, strlen(creq), d);
    hex(d, 32, h);
    snprintf(sts, sizeof sts, "AWS4-HMAC-SHA256\n%s\n%s/" REGION "/s3/aws4_request\n%s", amz_date, s->day, h);
    hmac(s->key, 32, sts, d);
    hex(d, 32, sig);
    snprintf(auth, cap,
             "Authorization: AWS4-HMAC-SHA256 Credential=" KEY "/%s/" REGION "/s3/aws4_request, SignedHeaders=host;%s, "
             "Signature=%s",
             s->day, signed_names, sig);
}

struct buf {
    unsigned char *p;
    size_t n, cap;
};

static size_t collect(char *p, size_t size, size_t n, void *ud) {
    struct buf *b = ud;
    size_t len = size * n;
    if (b->n + len > b->cap) {
        b->cap = b->n + len > 2 * b->cap ? b->n + len : 2 * b->cap;
        b->p = realloc(b->p, b->cap);
    }
    memcpy(b->p + b->n, p, len);
    b->n += len;
    return len;
}

static int curl_pair(CURL *h, struct signer *s, const char *url, const char *path, struct buf *got) {
    time_t t = time(NULL);
    static const char empty_sha[] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855";
    char date[17], headers[512], auth[512], amz[64], sha[128], crc_h[64], alg[64], mode[64], crc64[16], body_sha[65];
    unsigned char d[32];
    strftime(date, sizeof date, "%Y%m%dT%H%M%SZ", gmtime(&t));
    SHA256(body, body_len, d);
    hex(d, 32, body_sha);
    unsigned char crc[4];
    unsigned long c = crc32(0L, body, (uInt)body_len);
    crc[0] = c >> 24, crc[1] = c >> 16, crc[2] = c >> 8, crc[3] = c;
    b64(crc, 4, crc64);
    // PUT
    snprintf(headers, sizeof headers,
             "x-amz-checksum-crc32:%s\nx-amz-content-sha256:%s\nx-amz-date:%s\n"
             "x-amz-sdk-checksum-algorithm:CRC32\n",
             crc64, body_sha, date);
    sign(s, "PUT", path, date, headers,
         "x-amz-checksum-crc32;x-amz-content-sha256;x-amz-date;x-amz-sdk-checksum-algorithm", body_sha, auth,
         sizeof auth);
    snprintf(amz, sizeof amz, "X-Amz-Date: %s", date);
    snprintf(sha, sizeof sha, "X-Amz-Content-Sha256: %s", body_sha);
    snprintf(crc_h, sizeof crc_h, "X-Amz-Checksum-Crc32: %s", crc64);
    snprintf(alg, sizeof alg, "X-Amz-Sdk-Checksum-Algorithm: CRC32");
    struct curl_slist *hdr = curl_slist_append(NULL, auth);
    hdr = curl_slist_append(hdr, amz);
    hdr = curl_slist_append(hdr, sha);
    hdr = curl_slist_append(hdr, crc_h);
    hdr = curl_slist_append(hdr, alg);
    hdr = curl_slist_append(hdr, "Content-Type:"); // none, as the C API sends none
    hdr = curl_slist_append(hdr, "Expect:");
    char full[512];
    snprintf(full, sizeof full, "%s%s", url, path);
    struct buf sink = {0};
    curl_easy_setopt(h, CURLOPT_URL, full);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
    curl_easy_setopt(h, CURLOPT_POSTFIELDS, (char *)body);
    curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)body_len);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    long status = 0;
    int rc = curl_easy_perform(h) != CURLE_OK || (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status), status != 200);
    curl_slist_free_all(hdr);
    free(sink.p);
    if (rc) {
        fprintf(stderr, "libcurl PUT failed (HTTP %ld)\n", status);
        return 1;
    }
    // GET
    snprintf(headers, sizeof headers, "x-amz-checksum-mode:ENABLED\nx-amz-content-sha256:%s\nx-amz-date:%s\n", empty_sha,
             date);
    sign(s, "GET", path, date, headers, "x-amz-checksum-mode;x-amz-content-sha256;x-amz-date", empty_sha, auth,
         sizeof auth);
    snprintf(mode, sizeof mode, "X-Amz-Checksum-Mode: ENABLED");
    snprintf(sha, sizeof sha, "X-Amz-Content-Sha256: %s", empty_sha);
    hdr = curl_slist_append(NULL, auth);
    hdr = curl_slist_append(hdr, amz);
    hdr = curl_slist_append(hdr, sha);
    hdr = curl_slist_append(hdr, mode);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, NULL);
    curl_easy_setopt(h, CURLOPT_HTTPGET, 1L);
    curl_easy_setopt(h, CURLOPT_HTTPHEADER, hdr);
    curl_easy_setopt(h, CURLOPT_WRITEDATA, got);
    for (int tries = 0; tries <= S3RVER_TRIES; tries++) { // s3rver's race: see S3RVER_TRIES
        got->n = 0;
        rc = curl_easy_perform(h) != CURLE_OK || (curl_easy_getinfo(h, CURLINFO_RESPONSE_CODE, &status), status != 200);
        if (rc || got->n > 0) break;
    }
    curl_slist_free_all(hdr);
    if (rc || got->n != body_len || memcmp(got->p, body, body_len) != 0) {
        fprintf(stderr, "libcurl GET failed (HTTP %ld, %zu bytes)\n", status, got->n);
        return 1;
    }
    return 0;
}

static int run_curl(const char *url, const char *key, int pairs, double out[2]) {
    CURL *h = curl_easy_init();
    struct signer s = {0};
    const char *host = strstr(url, "://");
    snprintf(s.host, sizeof s.host, "%s", host ? host + 3 : url);
    char path[256];
    snprintf(path, sizeof path, "/" BUCKET "/%s", key);
    curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    struct buf got = {0};
    for (int i = 0; i < 5; i++)
        if (curl_pair(h, &s, url, path, &got)) return 1;
    double w0 = now_s(), c0 = cpu_s();
    for (int i = 0; i < pairs; i++)
        if (curl_pair(h, &s, url, path, &got)) return 1;
    out[0] = (now_s() - w0) / pairs * 1e6;
    out[1] = (cpu_s() - c0) / pairs * 1e6;
    free(got.p);
    curl_easy_cleanup(h);
    return 0;
}

// ---- the C API side ----

static int run_smithycurl(const char *url, const char *model_path, const char *so, const char *key, int pairs,
                          double out[2]) {
    smithycurl_client *c = NULL;
    void *lib = bench_client(so, model_path, "com.amazonaws.s3#AmazonS3", url, &c);
    if (!lib) return 1;
    SYM(call_payload);
    SYM(result_payload);
    SYM(result_free);
    char in[256];
    int in_len = snprintf(in, sizeof in, "{\"Bucket\": \"" BUCKET "\", \"Key\": \"%s\"}", key);
    smithycurl_payload p = SMITHYCURL_PAYLOAD_INIT;
    p.data = body;
    p.len = body_len;
    double w0 = 0, c0 = 0;
    for (int i = -5; i < pairs; i++) { // 5 to warm up
        if (i == 0) w0 = now_s(), c0 = cpu_s();
        smithycurl_result *r = NULL;
        const void *data = NULL;
        size_t n = 0;
        if (call_payload(c, "PutObject", in, in_len, &p, NULL, &r) != SMITHYCURL_OK) {
            fprintf(stderr, "smithycurl PutObject failed\n");
            return 1;
        }
        result_free(r);
        int rc;
        for (int tries = 0; (rc = call_payload(c, "GetObject", in, in_len, NULL, NULL, &r)) == SMITHYCURL_OK &&
                            result_payload(r, &data, &n) == SMITHYCURL_OK && n == 0 && tries < S3RVER_TRIES;
             tries++)
            result_free(r); // s3rver's race: see S3RVER_TRIES
        if (rc != SMITHYCURL_OK || n != body_len || memcmp(data, body, n) != 0) {
            const char *json = NULL;
            SYM(result_output);
            result_output(r, &json, NULL);
            fprintf(stderr, "smithycurl GetObject failed (%zu bytes): %s\n", n, json ? json : "");
            return 1;
        }
        result_free(r);
    }
    out[0] = (now_s() - w0) / pairs * 1e6;
    out[1] = (cpu_s() - c0) / pairs * 1e6;
    return 0;
}

// What a side of one measurement is given.
struct side_args {
    char **argv;
    const char *key;
    int smithy, pairs;
};

static int side(const void *arg, double out[2]) {
    const struct side_args *a = arg;
    return a->smithy ? run_smithycurl(a->argv[1], a->argv[2], a->argv[3], a->key, a->pairs, out)
                     : run_curl(a->argv[1], a->key, a->pairs, out);
}

// measure runs one side in a child process and reads its two figures back.
static int measure(int smithy, char **argv, const char *key, int pairs, double out[2]) {
    struct side_args a = {argv, key, smithy, pairs};
    return in_child(side, &a, out);
}

int main(int argc, char **argv) {
    if (argc != 6) {
        fprintf(stderr, "usage: %s S3RVER-URL S3-MODEL.json LIBSMITHYCURL.so PAIRS-1KIB PAIRS-1MIB\n", argv[0]);
        return 2;
    }
    // BENCH_SIDE=capi or curl runs one side only (to profile it).
    const char *side = getenv("BENCH_SIDE") ? getenv("BENCH_SIDE") : "";
    curl_global_init(CURL_GLOBAL_DEFAULT);
    // The bucket (s3rver takes an unsigned request; an existing one is fine).
    CURL *h = curl_easy_init();
    char url[512];
    snprintf(url, sizeof url, "%s/" BUCKET, argv[1]);
    curl_easy_setopt(h, CURLOPT_URL, url);
    curl_easy_setopt(h, CURLOPT_CUSTOMREQUEST, "PUT");
    curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, collect);
    struct buf sink = {0};
    curl_easy_setopt(h, CURLOPT_WRITEDATA, &sink);
    curl_easy_perform(h);
    curl_easy_cleanup(h);
    free(sink.p);
    printf("S3 PutObject+GetObject on s3rver from C, medians of 3 alternating rounds (wall / CPU per pair)\n");
    printf("%-6s %6s %12s %9s %12s %9s %10s\n", "", "pairs", "C API wall", "CPU", "libcurl wall", "CPU", "CPU ratio");
    static const struct {
        const char *name;
        size_t size;
        int arg;
    } sizes[] = {{"1KiB", 1 << 10, 4}, {"1MiB", 1 << 20, 5}};
    for (int z = 0; z < 2; z++) {
        int pairs = atoi(argv[sizes[z].arg]);
        body_len = sizes[z].size;
        body = malloc(body_len);
        srand(1);
        for (size_t i = 0; i < body_len; i++) body[i] = (unsigned char)rand();
        double sw[3] = {0}, sc[3] = {0}, cw[3] = {0}, cc[3] = {0}, r[2];
        for (int i = 0; i < 3; i++) {
            if (strcmp(side, "curl") != 0) {
                if (measure(1, argv, sizes[z].name, pairs, r)) return 1;
                sw[i] = r[0], sc[i] = r[1];
            }
            if (strcmp(side, "capi") != 0) {
                if (measure(0, argv, sizes[z].name, pairs, r)) return 1;
                cw[i] = r[0], cc[i] = r[1];
            }
        }
        printf("%-6s %6d %9.0f µs %6.0f µs %9.0f µs %6.0f µs %9.2fx\n", sizes[z].name, pairs, median(sw, 3),
               median(sc, 3), median(cw, 3), median(cc, 3), median(sc, 3) / median(cc, 3));
        free(body);
    }
    return 0;
}
