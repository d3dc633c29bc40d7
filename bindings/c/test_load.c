// The version and codes, loading models (from paths, sources and
// snapshots) and what a model describes.

#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ctest.h"

void test_version(void) {
    CHECK(strcmp(smithycurl_version(), SMITHYCURL_VERSION) == 0);
    CHECK(smithycurl_version_number() == SMITHYCURL_VERSION_NUMBER);
    CHECK(SMITHYCURL_VERSION_NUMBER ==
          (SMITHYCURL_VERSION_MAJOR << 16 | SMITHYCURL_VERSION_MINOR << 8 | SMITHYCURL_VERSION_PATCH));
    for (int code = 0; code <= SMITHYCURL_E_INTERNAL; code++) {
        CHECK(strcmp(smithycurl_strerror(code), "unknown code") != 0);
    }
    CHECK(strcmp(smithycurl_strerror(999), "unknown code") == 0);
    CHECK(strcmp(smithycurl_error_kind_name(SMITHYCURL_KIND_DECODE), "decode") == 0);
    CHECK(strcmp(smithycurl_error_kind_name(42), "unknown") == 0);
    smithycurl_free(NULL);
}

void test_load(void) {
    smithycurl_model *m = load_httpbin();
    CHECK(m != NULL);
    char *json = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_model_services_json(m, &json, &n), SMITHYCURL_OK);
    CHECK(json && strlen(json) == n);
    CHECK_CONTAINS(json, "\"id\":\"smithycurl.examples.httpbin#HttpBin\"");
    CHECK_CONTAINS(json, "\"protocols\":[\"alloy#simpleRestJson\"]");
    const char *ops[] = {"Anything", "BasicAuth", "Bearer", "Delay", "Get", "GetIp", "Gzip", "Headers", "Status"};
    for (size_t i = 0; i < sizeof ops / sizeof *ops; i++) {
        char want[64];
        snprintf(want, sizeof want, "\"name\":\"%s\"", ops[i]);
        CHECK_CONTAINS(json, want);
    }
    CHECK_CONTAINS(json, "\"documentation\":\"Returns the caller's IP address.\"");
    // _v2 with flags 0: the same JSON; without documentation: the rest
    char *same = NULL, *brief = NULL;
    size_t same_n = 0, brief_n = 0;
    CHECK_RC(smithycurl_model_services_json_v2(m, 0, &same, &same_n), SMITHYCURL_OK);
    CHECK(same && same_n == n && memcmp(same, json, n) == 0);
    CHECK_RC(smithycurl_model_services_json_v2(m, SMITHYCURL_DESCRIBE_NO_DOCUMENTATION, &brief, &brief_n),
             SMITHYCURL_OK);
    CHECK(brief && strlen(brief) == brief_n && brief_n < n);
    CHECK(strstr(brief, "\"documentation\"") == NULL);
    CHECK_CONTAINS(brief, "\"name\":\"GetIp\",\"id\":\"smithycurl.examples.httpbin#GetIp\"");
    CHECK_CONTAINS(brief, "\"protocols\":[\"alloy#simpleRestJson\"]");
    CHECK_RC(smithycurl_model_services_json_v2(m, 4, &brief, &brief_n), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_free(same);
    smithycurl_free(brief);
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, NULL, "Anything", &json, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "{\"name\":\"id\",\"target\":\"smithy.api#Integer\",\"type\":\"integer\",\"required\":true");
    CHECK_CONTAINS(json, "\"http\":{\"location\":\"query\",\"name\":\"query\"}");
    CHECK_CONTAINS(json, "\"smithycurl.examples.httpbin#StringList\":{\"type\":\"list\",\"member\":{\"target\":\"smithy.api#String\"");
    // _v2: flags 0 the same JSON; plain documentation (httpbin's is plain
    // already: the same); without documentation; an unknown flag
    same = NULL;
    CHECK_RC(smithycurl_model_operation_json_v2(m, NULL, "Anything", 0, &same, &same_n), SMITHYCURL_OK);
    CHECK(same && same_n == n && memcmp(same, json, n) == 0);
    smithycurl_free(same);
    CHECK_RC(smithycurl_model_operation_json_v2(m, NULL, "Anything", SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION, &same,
                                                &same_n), SMITHYCURL_OK);
    CHECK(same && same_n == n && memcmp(same, json, n) == 0);
    smithycurl_free(same);
    CHECK_RC(smithycurl_model_operation_json_v2(m, NULL, "Anything", SMITHYCURL_DESCRIBE_NO_DOCUMENTATION, &brief,
                                                &brief_n), SMITHYCURL_OK);
    CHECK(brief && brief_n < n && strstr(brief, "\"documentation\"") == NULL);
    smithycurl_free(brief);
    CHECK_RC(smithycurl_model_operation_json_v2(m, NULL, "Anything", 4, &brief, &brief_n), SMITHYCURL_E_INVALID_ARGUMENT);
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, "smithycurl.examples.httpbin#HttpBin", "Status", &json, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"constraints\":{\"range\":{\"min\":100,\"max\":599}}");
    CHECK_CONTAINS(json, "\"smithycurl.examples.httpbin#ServerFailure\":{\"type\":\"structure\"");
    CHECK_CONTAINS(json, "\"error\":\"server\",\"http_error\":500");
    smithycurl_free(json);

    CHECK_RC(smithycurl_model_operation_json(m, NULL, "Bearer", &json, NULL), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"sensitive\":true");
    smithycurl_free(json);

    json = NULL;
    CHECK_RC(smithycurl_model_operation_json(m, NULL, "GetIP", &json, NULL), SMITHYCURL_E_NOT_FOUND);
    CHECK(json == NULL);
    char *msg = NULL;
    CHECK_RC(smithycurl_model_errmsg(m, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "GetIp");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_model_operation_json(m, "no.such#Service", "GetIp", &json, NULL), SMITHYCURL_E_NOT_FOUND);

    CHECK_RC(smithycurl_model_ast_json(m, &json, &n), SMITHYCURL_OK);
    CHECK_CONTAINS(json, "\"smithy\": \"2.0\"");
    smithycurl_free(json);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
}

static const char bad_model[] =
    "$version: \"2\"\n"
    "namespace a.b\n"
    "\n"
    "structure Foo {\n"
    "    bar: Missing\n"
    "}\n";

void test_load_errors(void) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    char *msg = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_source(ld, "inline/bad.smithy", bad_model, strlen(bad_model)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK(m == NULL);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "inline/bad.smithy:5:5: error:");
    CHECK_CONTAINS(msg, "a.b#Missing");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);

    // A syntax error, from a file on disk.
    char path[] = "/tmp/smithycurl-test-XXXXXX.smithy";
    int fd = mkstemps(path, 7);
    CHECK(fd >= 0);
    const char *text = "$version: \"2\"\nnamespace a.b\nstructure {\n";
    CHECK(write(fd, text, strlen(text)) == (ssize_t)strlen(text));
    close(fd);
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    char want[128];
    snprintf(want, sizeof want, "%s:3:", path);
    CHECK_CONTAINS(msg, want);
    smithycurl_free(msg);
    unlink(path);

    CHECK_RC(smithycurl_loader_add_path(ld, "/no/such/model.smithy"), SMITHYCURL_E_NOT_FOUND);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "/no/such/model.smithy");
    smithycurl_free(msg);
    const char latin1[] = "namespace a.b\nstring Caf\xe9\n";
    CHECK_RC(smithycurl_loader_add_source(ld, "x.smithy", latin1, strlen(latin1)), SMITHYCURL_E_INVALID_UTF8);
    CHECK_RC(smithycurl_loader_add_source(ld, NULL, "x", 1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_add_source(ld, "x", NULL, 1), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_add_path(ld, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    // Text over the 256 MiB limit is refused before it is read.
    CHECK_RC(smithycurl_loader_add_source(ld, "huge.smithy", "x", (size_t)300 << 20), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "huge.smithy");
    CHECK_CONTAINS(msg, "256 MiB");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_load(ld, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
}

// A model's snapshot, written to a file, loads alone through
// smithycurl_loader_add_path and calls like the model; a damaged one is a
// load error naming the file; with other files it is an error.
void test_snapshot(void) {
    smithycurl_model *m = load_httpbin();
    char *data = NULL;
    size_t n = 0;
    CHECK_RC(smithycurl_model_snapshot(m, &data, NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_model_snapshot(m, &data, &n), SMITHYCURL_OK);
    CHECK(data != NULL && n > 24);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);
    char path[] = "/tmp/smithycurl-test-XXXXXX.scmodel";
    int fd = mkstemps(path, 8);
    CHECK(fd >= 0);
    CHECK(write(fd, data, n) == (ssize_t)n);
    close(fd);

    smithycurl_loader *ld = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    smithycurl_client *c = new_client(m, NULL, NULL);
    char *out = call_ok(c, "GetIp", NULL);
    CHECK_CONTAINS(out, "\"origin\":\"127.0.0.1\"");
    free(out);
    smithycurl_client_free(c);
    CHECK_RC(smithycurl_model_free(m), SMITHYCURL_OK);

    char *msg = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "cannot be loaded with other model files");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);

    data[n / 2] ^= 1;
    fd = open(path, O_WRONLY | O_TRUNC);
    CHECK(fd >= 0);
    CHECK(write(fd, data, n) == (ssize_t)n);
    close(fd);
    smithycurl_free(data);
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_add_path(ld, path), SMITHYCURL_OK);
    m = NULL;
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_E_LOAD);
    CHECK(m == NULL);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, path);
    CHECK_CONTAINS(msg, "checksum mismatch");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_free(ld), SMITHYCURL_OK);
    unlink(path);
}

// count_entries counts the model cache's snapshots (*.scmodel) in dir;
// with remove, removes every file of dir instead.
static int count_entries(const char *dir, int remove) {
    DIR *d = opendir(dir);
    if (!d) return 0;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));) {
        size_t len = strlen(e->d_name);
        if (remove && e->d_name[0] != '.') {
            char path[512];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            unlink(path);
        } else if (len > 8 && strcmp(e->d_name + len - 8, ".scmodel") == 0) {
            n++;
        }
    }
    closedir(d);
    return n;
}

// load_cached loads model_dir with the cache in mode and dir.
static int load_cached(const char *mode, const char *dir) {
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    int rc = smithycurl_loader_set_cache(ld, mode, dir);
    if (rc == SMITHYCURL_OK) {
        CHECK_RC(smithycurl_loader_add_path(ld, model_dir), SMITHYCURL_OK);
        CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
        smithycurl_model_free(m);
    }
    smithycurl_loader_free(ld);
    return rc;
}

// smithycurl_loader_set_cache: "off" and "memory" write no snapshot to the
// folder, "on" writes one, and a model loads from it; another mode is
// SMITHYCURL_E_INVALID_ARGUMENT with a message.
void test_model_cache(void) {
    char dir[] = "/tmp/smithycurl-test-cache-XXXXXX";
    CHECK(mkdtemp(dir) != NULL);
    CHECK_RC(load_cached("off", dir), SMITHYCURL_OK);
    CHECK_RC(load_cached("memory", dir), SMITHYCURL_OK);
    CHECK(count_entries(dir, 0) == 0);
    // "on": a model the process's cache does not hold yet is written.
    smithycurl_loader *ld = NULL;
    smithycurl_model *m = NULL;
    CHECK_RC(smithycurl_loader_new(&ld), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_set_cache(ld, "on", dir), SMITHYCURL_OK);
    const char *src = "$version: \"2\"\nnamespace ex\nstructure CacheC {}\n";
    CHECK_RC(smithycurl_loader_add_source(ld, "cache.smithy", src, strlen(src)), SMITHYCURL_OK);
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK(count_entries(dir, 0) == 1);
    smithycurl_model_free(m);
    m = NULL;
    CHECK_RC(smithycurl_loader_load(ld, &m), SMITHYCURL_OK);
    CHECK(m != NULL);
    smithycurl_model_free(m);
    char *msg = NULL;
    CHECK_RC(smithycurl_loader_set_cache(ld, "sometimes", NULL), SMITHYCURL_E_INVALID_ARGUMENT);
    CHECK_RC(smithycurl_loader_errmsg(ld, &msg), SMITHYCURL_OK);
    CHECK_CONTAINS(msg, "model cache mode \"sometimes\"");
    smithycurl_free(msg);
    CHECK_RC(smithycurl_loader_set_cache(ld, NULL, NULL), SMITHYCURL_OK);
    smithycurl_loader_free(ld);
    count_entries(dir, 1);
    CHECK(rmdir(dir) == 0);
}
