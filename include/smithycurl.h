/*
 * smithycurl.h - the C API of libsmithycurl: call Smithy-modelled services
 * over libcurl, with the model loaded at run time.
 *
 * This is the only public header of the library. Build with
 *
 *     cc prog.c $(pkg-config --cflags --libs smithycurl)
 *
 * A complete program (error handling shortened):
 *
 *     smithycurl_loader *ld; smithycurl_model *m; smithycurl_client *c;
 *     smithycurl_result *r; const char *out; size_t n;
 *     smithycurl_loader_new(&ld);
 *     smithycurl_loader_add_path(ld, "httpbin.smithy");
 *     if (smithycurl_loader_load(ld, &m) != SMITHYCURL_OK) {
 *         char *msg; smithycurl_loader_errmsg(ld, &msg);   // file:line:column: ...
 *         fprintf(stderr, "%s\n", msg); smithycurl_free(msg); return 1;
 *     }
 *     smithycurl_loader_free(ld);
 *     smithycurl_client_new(m, "smithycurl.examples.httpbin#HttpBin",
 *                           "http://127.0.0.1:8080", NULL, &c);
 *     if (smithycurl_call(c, "GetIp", "{}", 2, NULL, &r) == SMITHYCURL_OK) {
 *         smithycurl_result_output(r, &out, &n);
 *         printf("%.*s\n", (int)n, out);
 *     }
 *     smithycurl_result_free(r);
 *     smithycurl_client_free(c);
 *     smithycurl_model_free(m);
 *
 * ======================================================================
 * CONVENTIONS (read once; they hold for every function below)
 * ======================================================================
 *
 * Return codes. Every function returns a smithycurl_code, except
 * smithycurl_version(), smithycurl_version_number(), smithycurl_strerror(),
 * smithycurl_error_kind_name(), smithycurl_free(), and those of the JSON
 * runtime of typed clients (smithycurl_json_*, which say what they return).
 * SMITHYCURL_OK is 0.
 * Codes are stable: new ones are only ever added at the end.
 * smithycurl_strerror() turns a code into a short text; the detail of a
 * failure (which file, which line, which member) is kept by the handle the
 * call was made on, and read with that handle's *_errmsg function, or, for
 * calls, by the result handle.
 *
 * Handles. loader, model, options, client, result, cancel tokens and
 * completion queues are opaque handles. They are not pointers to memory: never dereference them.
 * Every handle is created by a *_new (or *_load, smithycurl_call) function
 * and released by its *_free function. A NULL, already freed, or wrong-type
 * handle is detected: the call returns SMITHYCURL_E_INVALID_HANDLE and does
 * nothing else (it never crashes). Freeing NULL returns
 * SMITHYCURL_E_INVALID_HANDLE too, and is otherwise harmless.
 *
 * Out-parameters. On failure, out-parameters are left unchanged unless the
 * function says otherwise.
 *
 * Strings and buffers. Input strings are NUL-terminated UTF-8 unless a
 * length is given; the library copies what it keeps and never retains a
 * caller's pointer after the call returns. Every returned buffer says who
 * owns it:
 *   - "owned by the result": valid until smithycurl_result_free() of that
 *     result; the caller must not free it;
 *   - "caller frees with smithycurl_free()": a copy allocated with malloc.
 * Returned JSON buffers are NUL-terminated as a convenience; the length
 * excludes the NUL. All JSON is UTF-8.
 *
 * Values are JSON in the "document form": objects keyed by Smithy member
 * names (never jsonName), blobs as base64 strings, timestamps as epoch
 * seconds or RFC 3339 strings on input and RFC 3339 UTC strings on output,
 * big numbers with every digit, unions as objects with one member, enums as
 * their value, NaN and infinities as "NaN", "Infinity", "-Infinity".
 *
 * ======================================================================
 * THREADS, PROCESSES AND LIFETIME
 * ======================================================================
 *
 * - Models and clients are safe to share between threads: any number of
 *   threads may call smithycurl_call() on one client at the same time, and
 *   one model may serve many clients. A client reuses connections.
 * - Loaders and options handles are not to be used from two threads at the
 *   same time (the library does not crash, but the result is unspecified).
 * - A result belongs to the thread that received it; its accessors may be
 *   called from any thread as long as nobody frees it meanwhile.
 * - smithycurl_cancel_token_cancel() may be called from any thread at any
 *   time (it is not async-signal-safe: do not call it from a signal handler).
 * - The *_errmsg functions return a copy of the handle's last failure; when a
 *   handle is shared, that failure may come from another thread's call.
 * - Asynchronous calls (smithycurl_call_async(), smithycurl_call_queued())
 *   complete on library threads: their callbacks, and trace callbacks of
 *   their requests, run there (see smithycurl_done_fn for what a callback
 *   may do). A completion queue may be shared by threads and clients.
 * - Freeing a handle while another thread uses it is the caller's bug; it
 *   does not crash, but the other call may fail with
 *   SMITHYCURL_E_INVALID_HANDLE. Freeing a client cancels its calls in flight
 *   (they fail with SMITHYCURL_E_CANCELLED). A model may be freed while its
 *   clients live: they keep what they need.
 * - The library is written in Go: loading it starts the Go runtime, which
 *   starts threads. Consequences:
 *     * after fork(), the child must not use the library: every call from a
 *       forked child returns SMITHYCURL_E_FORKED at once, without touching
 *       the runtime (the child's changed process id is noticed by a
 *       pthread_atfork handler, so a child made by a raw clone() system call
 *       is not detected). Fork before the first use, or exec() right after
 *       fork(). Asynchronous calls in flight at the fork complete in the
 *       parent only (see "Asynchronous calls");
 *     * the library cannot be unloaded: do not dlclose() it (the Go runtime
 *       does not support it); load it once per process;
 *     * it installs signal handlers for its own use (it chains to handlers
 *       installed before it); SIGPIPE from libcurl is ignored per transfer;
 *     * it raises the Go runtime's GOMAXPROCS to one more than the number of
 *       live threads that have called smithycurl_call() (capped at the
 *       larger of 64 and the number of CPUs, never lowered), so that threads
 *       waiting in libcurl do not keep others out of Go; it does not when
 *       the GOMAXPROCS environment variable is set. The library's own
 *       threads that run completion callbacks are not counted for the
 *       asynchronous calls those start (they never wait there).
 */
#ifndef SMITHYCURL_H
#define SMITHYCURL_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ======================================================================
 * Version
 * ====================================================================== */

/** The version of this header, as a string and as 0xXXYYZZ (major, minor,
 * patch), like LIBCURL_VERSION_NUM. Compare with smithycurl_version_number()
 * to check that the library loaded at run time is at least as new. */
/* contract:version - generated from internal/contract by `make contract`; do not edit */
#define SMITHYCURL_VERSION "0.1.0"
#define SMITHYCURL_VERSION_MAJOR 0
#define SMITHYCURL_VERSION_MINOR 1
#define SMITHYCURL_VERSION_PATCH 0
#define SMITHYCURL_VERSION_NUMBER 0x000100
/* end contract:version */

/** The version of the loaded library ("0.1.0"); a static string, never
 * freed. Thread-safe; works in a forked child. */
const char *smithycurl_version(void);

/** The version of the loaded library as 0xXXYYZZ. Thread-safe; works in a
 * forked child.
 *
 *     if (smithycurl_version_number() < SMITHYCURL_VERSION_NUMBER) abort();
 */
int smithycurl_version_number(void);

/* ======================================================================
 * Return codes and error kinds
 * ====================================================================== */

/* contract:codes - generated from internal/contract by `make contract`; do not edit */
/** What a function did. Stable numbers: codes are only ever added. */
typedef enum smithycurl_code {
    SMITHYCURL_OK = 0,
    /** A required pointer argument is NULL, or a length or number is out of
     * range. */
    SMITHYCURL_E_INVALID_ARGUMENT = 1,
    /** A handle is NULL, freed, never created, or of another type. */
    SMITHYCURL_E_INVALID_HANDLE = 2,
    /** Input text (JSON, model source, a name) is not valid UTF-8. */
    SMITHYCURL_E_INVALID_UTF8 = 3,
    /** Input JSON is malformed. */
    SMITHYCURL_E_INVALID_JSON = 4,
    /** No such service, operation or path. */
    SMITHYCURL_E_NOT_FOUND = 5,
    /** The model has errors; the loader's errmsg lists each with
     * file:line:column. */
    SMITHYCURL_E_LOAD = 6,
    /** The result holds an error, not an output. */
    SMITHYCURL_E_NO_OUTPUT = 7,
    /** A call failed: SMITHYCURL_KIND_USAGE. */
    SMITHYCURL_E_USAGE = 8,
    /** A call failed: SMITHYCURL_KIND_VALIDATION. */
    SMITHYCURL_E_VALIDATION = 9,
    /** A call failed: SMITHYCURL_KIND_SERVICE. */
    SMITHYCURL_E_SERVICE = 10,
    /** A call failed: SMITHYCURL_KIND_TRANSPORT. */
    SMITHYCURL_E_TRANSPORT = 11,
    /** A call failed: SMITHYCURL_KIND_TIMEOUT. */
    SMITHYCURL_E_TIMEOUT = 12,
    /** A call failed: SMITHYCURL_KIND_CANCELLED. */
    SMITHYCURL_E_CANCELLED = 13,
    /** A call failed: SMITHYCURL_KIND_DECODE. */
    SMITHYCURL_E_DECODE = 14,
    /** Called from a child process after fork(); see THREADS above. */
    SMITHYCURL_E_FORKED = 15,
    /** Out of memory. */
    SMITHYCURL_E_NOMEM = 16,
    /** A bug in the library (an internal panic was caught); please report it
     * with the errmsg. The handle stays usable. */
    SMITHYCURL_E_INTERNAL = 17,
    /** A wait failed: SMITHYCURL_KIND_WAITER_FAILURE. */
    SMITHYCURL_E_WAITER_FAILURE = 18,
    /** A wait failed: SMITHYCURL_KIND_WAITER_TIMEOUT. */
    SMITHYCURL_E_WAITER_TIMEOUT = 19,
    /** smithycurl_event_stream_next() and smithycurl_paginator_next(): the
     * stream or the pages (items) are over; not an error. */
    SMITHYCURL_E_END = 20
} smithycurl_code;

/** Why a call failed: a small closed set, the same as the Go client's and
 * the Python package's error kinds. */
typedef enum smithycurl_error_kind {
    /** The call succeeded. */
    SMITHYCURL_KIND_NONE = 0,
    /** The call itself is wrong: unknown operation, malformed JSON, a value of
     * the wrong type, an unknown member, missing credentials. Nothing was
     * sent. */
    SMITHYCURL_KIND_USAGE = 1,
    /** A @required member is missing or, with validation on, the input breaks
     * the model's constraints (length, range, pattern, enum). Nothing was
     * sent. */
    SMITHYCURL_KIND_VALIDATION = 2,
    /** The service answered with an error response (modeled or not). */
    SMITHYCURL_KIND_SERVICE = 3,
    /** No complete response: DNS, connect, TLS, reset, response too large. */
    SMITHYCURL_KIND_TRANSPORT = 4,
    /** A connect or total timeout expired, or the caller's deadline. */
    SMITHYCURL_KIND_TIMEOUT = 5,
    /** The call was cancelled (its cancel token or context), or its client
     * closed. */
    SMITHYCURL_KIND_CANCELLED = 6,
    /** The response could not be decoded. */
    SMITHYCURL_KIND_DECODE = 7,
    /** A waiter reached its failure state: one of its failure acceptors
     * matched; the message says which. */
    SMITHYCURL_KIND_WAITER_FAILURE = 8,
    /** A waiter was still retrying when the maximum time to wait ran out. */
    SMITHYCURL_KIND_WAITER_TIMEOUT = 9
} smithycurl_error_kind;
/* end contract:codes */

/** A short English description of code ("invalid handle"); a static
 * string, never freed; "unknown code" for numbers not listed above.
 * Thread-safe; works in a forked child. */
const char *smithycurl_strerror(smithycurl_code code);

/** The kind's name: "none", "usage", "validation", "service", "transport",
 * "timeout", "cancelled", "decode", "waiter_failure", "waiter_timeout", or
 * "unknown". A static string.
 * Thread-safe. */
const char *smithycurl_error_kind_name(smithycurl_error_kind kind);

/** Frees a buffer the library returned with "caller frees with
 * smithycurl_free()". NULL is ignored. Thread-safe. Never pass it a buffer
 * owned by a result or any other pointer. */
void smithycurl_free(void *ptr);

/* ======================================================================
 * Opaque handles
 * ====================================================================== */

typedef struct smithycurl_loader smithycurl_loader;
typedef struct smithycurl_model smithycurl_model;
typedef struct smithycurl_options smithycurl_options;
typedef struct smithycurl_client smithycurl_client;
typedef struct smithycurl_result smithycurl_result;
typedef struct smithycurl_cancel_token smithycurl_cancel_token;
typedef struct smithycurl_event_stream smithycurl_event_stream;

/* ======================================================================
 * Loading models
 * ====================================================================== */

/** Creates an empty loader: add model files, directories and in-memory
 * sources, then load them into one model. IDL 2.0 and 1.0 (.smithy) and
 * JSON AST (.json) can be mixed; every file is merged into one model.
 *
 * @param out receives the loader; free it with smithycurl_loader_free().
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (out is NULL).
 * Thread-safety: any thread; the new loader is used by one thread at a time.
 */
smithycurl_code smithycurl_loader_new(smithycurl_loader **out);

/** Adds a model file, a smithy-build.json (its sources and imports), or a
 * directory: every .smithy file and JSON AST under it (recursively, in name
 * order; other JSON files, FIFOs and devices are skipped), or the sources and
 * imports of the smithy-build.json at its top. Files are read now, each up
 * to 256 MiB. A model snapshot (smithycurl_model_snapshot(), `smithycurl
 * compile`; recognised by its first bytes) is a whole, checked model: it
 * loads alone (with other files, smithycurl_loader_load() fails), without
 * being parsed or validated again; a damaged one fails to load with a
 * message naming the file.
 *
 * @param path a NUL-terminated path; copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_NOT_FOUND (no such file or directory,
 *   or unreadable: see smithycurl_loader_errmsg()),
 *   SMITHYCURL_E_INVALID_ARGUMENT (path NULL, or a file over 256 MiB),
 *   SMITHYCURL_E_LOAD (a smithy-build.json that cannot be used),
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per loader.
 */
smithycurl_code smithycurl_loader_add_path(smithycurl_loader *loader, const char *path);

/** Adds model text from memory. It is read as a JSON AST when name ends in
 * ".json" or the text starts with '{', else as Smithy IDL.
 *
 * @param name the name used in error locations ("inline.smithy"); copied.
 * @param source model text, source_len bytes, UTF-8, need not be
 *   NUL-terminated; copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_UTF8,
 *   SMITHYCURL_E_INVALID_ARGUMENT (name NULL, source NULL with a non-zero
 *   length, or source_len over 256 MiB), SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per loader.
 */
smithycurl_code smithycurl_loader_add_source(smithycurl_loader *loader, const char *name,
                                             const char *source, size_t source_len);

/** Sets which model caches smithycurl_loader_load() uses. Loading the same
 * files again reuses the model: in this process (the last 16 models), and
 * across processes through snapshots written to dir (by default
 * $XDG_CACHE_HOME/smithycurl/models, else ~/.cache/smithycurl/models),
 * keyed by the files' names and contents and the library's build; a
 * damaged entry is ignored and written again (see the README's model
 * cache).
 *
 * @param mode "on" (both), "memory" (this process only), "off" (none), or
 *   NULL: as the SMITHYCURL_MODEL_CACHE environment variable says when the
 *   library was loaded (the same words; "on" when unset). Copied.
 * @param dir the folder of the snapshots, or NULL for the default; copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (another mode),
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per loader; the caches themselves
 *   are shared by every thread and process safely.
 */
smithycurl_code smithycurl_loader_set_cache(smithycurl_loader *loader, const char *mode, const char *dir);

/** Assembles and validates everything added so far into a model. The
 * loader may be given more files and loaded again.
 *
 * @param out receives the model on success; free it with
 *   smithycurl_model_free(). Unchanged on failure.
 * @return SMITHYCURL_OK; SMITHYCURL_E_LOAD when the model has errors:
 *   smithycurl_loader_errmsg() then lists every one, one per line, as
 *   "file:line:column: error: shape: message [EventId]";
 *   SMITHYCURL_E_INVALID_ARGUMENT, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per loader.
 */
smithycurl_code smithycurl_loader_load(smithycurl_loader *loader, smithycurl_model **out);

/** Copies the message of the loader's last failure ("" when none).
 *
 * @param msg receives a NUL-terminated copy; caller frees with
 *   smithycurl_free().
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT,
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread.
 */
smithycurl_code smithycurl_loader_errmsg(smithycurl_loader *loader, char **msg);

/** Frees a loader. Models it loaded stay valid.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE (NULL, or freed twice).
 * Thread-safety: not while another thread uses the loader. */
smithycurl_code smithycurl_loader_free(smithycurl_loader *loader);

/* ======================================================================
 * Inspecting models (for tools and language bindings)
 * ====================================================================== */

/** Lists the model's services and their operations as JSON.
 *
 * Schema (keys absent when empty or false):
 *
 *     {"services": [{
 *        "id": "ns#Service", "name": "Service", "version": "2024-01-01",
 *        "documentation": "...",
 *        "protocols": ["alloy#simpleRestJson"],   // protocol traits applied
 *        "auth": ["smithy.api#httpBearerAuth"],   // auth schemes, in order
 *        "operations": [{                         // sorted by name
 *          "name": "GetIp", "id": "ns#GetIp", "documentation": "...",
 *          "http": {"method": "GET", "uri": "/ip", "code": 200},
 *          "readonly": true, "idempotent": true, "deprecated": true,
 *          "input": "ns#GetIpInput",              // "smithy.api#Unit": none
 *          "output": "ns#GetIpOutput",
 *          "errors": ["ns#Unauthorized"],         // operation's, then service's
 *          "waiters": ["TableExists"],            // smithy.waiters#waitable, sorted
 *          "extra_input": ["SourceRegion"],       // string members beyond the model's
 *                                                 // an AWS customization takes (RDS)
 *          "paginated": {"inputToken": "NextToken", // @paginated, the service's
 *            "outputToken": "Result.NextToken",     // merged in; items and
 *            "items": "Result.Items", "pageSize": "MaxResults"}}]}]}  // pageSize optional
 *
 * @param json receives the JSON (caller frees with smithycurl_free());
 * @param len receives its length (may be NULL).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT,
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread; models are immutable.
 */
smithycurl_code smithycurl_model_services_json(smithycurl_model *model, char **json, size_t *len);

/** Flags of smithycurl_model_services_json_v2(). */
enum {
    /** Leave out the "documentation" of services and operations (for
     * DynamoDB, 26 KB instead of 114 KB): for bindings that make clients
     * and read the documentation only when asked. */
    SMITHYCURL_DESCRIBE_NO_DOCUMENTATION = 1,
    /** Give the "documentation" (of the services, operations, shapes,
     * members and enum values) as plain text, as the typed-client
     * generators write it: the HTML of AWS models becomes paragraphs
     * separated by a blank line, list items starting with "- ", entities
     * decoded. (SMITHYCURL_DESCRIBE_NO_DOCUMENTATION wins over it.) */
    SMITHYCURL_DESCRIBE_PLAIN_DOCUMENTATION = 2
};

/** smithycurl_model_services_json() with flags: SMITHYCURL_DESCRIBE_*
 * or'ed, or 0 (the same JSON as smithycurl_model_services_json()).
 * @return as smithycurl_model_services_json(), and
 *   SMITHYCURL_E_INVALID_ARGUMENT for an unknown flag.
 * Thread-safety: any thread; models are immutable.
 */
smithycurl_code smithycurl_model_services_json_v2(smithycurl_model *model, unsigned flags, char **json,
                                                  size_t *len);

/** Describes an operation's input, output and errors, with every shape they
 * reach, as JSON: what a binding needs to generate types (dataclasses,
 * structs) and documentation.
 *
 * Schema (keys absent when empty, false or not applicable):
 *
 *     {"service": "ns#Svc", "operation": "ns#Op", "name": "Op",
 *      "documentation": "...",
 *      "streaming": true,               // a member of the input or output
 *                                       // streams (a blob or event stream)
 *      "input": "ns#OpInput", "output": "ns#OpOutput",  // or "smithy.api#Unit"
 *      "blob_payload": {"input": "Body", "output": "Body"}, // the members
 *                                       // smithycurl_call_payload() passes
 *                                       // as bytes (@streaming or not);
 *                                       // absent when none, a side too
 *      "errors": ["ns#Err"],
 *      "shapes": {                      // every reachable shape outside the
 *                                       // smithy.api namespace, by id
 *        "ns#OpInput": {
 *          "type": "structure",         // structure union list map enum
 *                                       // intEnum string integer ... (JSON
 *                                       // AST type names; an IDL 1.0
 *                                       // string with @enum is an enum,
 *                                       // its unnamed values named after
 *                                       // the value: "t2.micro" T2_MICRO)
 *          "documentation": "...",
 *          "sensitive": true, "deprecated": true,
 *          "streaming": true,           // @streaming blob or union
 *          "error": "client",           // error structures: "client"|"server"
 *          "http_error": 401,           // error structures with @httpError
 *          "members": [{                // structure and union, in order
 *            "name": "id",
 *            "target": "smithy.api#Integer",
 *            "type": "integer",         // the target's type
 *            "required": true,
 *            "default": 0,              // present when the member has a
 *                                       // default (may be null)
 *            "sensitive": true,         // member or target is @sensitive
 *            "streaming": "blob",       // target is @streaming: "blob", or
 *                                       // "events" (an event stream union)
 *            "documentation": "...",    // member's, else target's
 *            "http": {"location": "query", "name": "q"},  // label, query,
 *                                       // queryParams, header,
 *                                       // prefixHeaders, payload,
 *                                       // responseCode
 *            "constraints": {...},      // as below, member's over target's
 *            "traits": {...}}],         // every trait of the member, raw
 *          "member": {"target": ..., "type": ...},   // list: element
 *          "key": {...}, "value": {...},             // map: key, value
 *          "values": [{"name": "RED", "value": "red", // enum ("value" a
 *                       "documentation": "..."}],     // string) and intEnum
 *                                                     // ("value" a number)
 *          "constraints": {"length": {"min": 1, "max": 9},
 *                          "range": {"min": 0, "max": 10},
 *                          "pattern": "^[a-z]+$", "unique_items": true},
 *          "traits": {...}}}}           // every trait of the shape, raw
 *
 * @param service_id the service's absolute id ("ns#Service"); NULL picks
 *   the model's only service (SMITHYCURL_E_NOT_FOUND when it has several).
 * @param operation the operation's name or absolute id.
 * @param json receives the JSON (caller frees with smithycurl_free()).
 * @param len receives its length (may be NULL).
 * @return SMITHYCURL_OK, SMITHYCURL_E_NOT_FOUND (see
 *   smithycurl_model_errmsg(); it suggests close names),
 *   SMITHYCURL_E_INVALID_ARGUMENT, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread.
 */
smithycurl_code smithycurl_model_operation_json(smithycurl_model *model, const char *service_id,
                                                const char *operation, char **json, size_t *len);

/** smithycurl_model_operation_json() with flags: SMITHYCURL_DESCRIBE_*
 * or'ed, or 0 (the same JSON as smithycurl_model_operation_json()).
 * @return as smithycurl_model_operation_json(), and
 *   SMITHYCURL_E_INVALID_ARGUMENT for an unknown flag.
 * Thread-safety: any thread.
 */
smithycurl_code smithycurl_model_operation_json_v2(smithycurl_model *model, const char *service_id,
                                                   const char *operation, unsigned flags, char **json,
                                                   size_t *len);

/** The whole model (prelude excluded) as a Smithy JSON AST 2.0 document.
 * @param json caller frees with smithycurl_free(); @param len may be NULL.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT,
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_model_ast_json(smithycurl_model *model, char **json, size_t *len);

/** The model as a snapshot: a compact binary file (what `smithycurl compile`
 * writes) that smithycurl_loader_add_path() loads several times faster than
 * the model's files, without parsing or validating it again. Write the bytes
 * to a file as they are. A snapshot holds a format version and a checksum:
 * one of another version, damaged or truncated is a load error naming the
 * file, and a snapshot written by one version of the library may need
 * compiling again for another.
 * @param data receives the bytes (binary, not NUL-terminated); caller frees
 *   with smithycurl_free(). @param len receives their number (required).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT,
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_model_snapshot(smithycurl_model *model, char **data, size_t *len);

/** Copies the message of the last failure of a call made on this model
 * (model queries and smithycurl_client_new()); "" when none.
 * @param msg caller frees with smithycurl_free().
 * Thread-safety: any thread; with a shared model, the last failure may be
 * another thread's. */
smithycurl_code smithycurl_model_errmsg(smithycurl_model *model, char **msg);

/** Frees a model handle. Clients created from it stay valid.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: not while another thread uses this handle. */
smithycurl_code smithycurl_model_free(smithycurl_model *model);

/* ======================================================================
 * Client options
 * ====================================================================== */

/** Creates a set of client options, all at their defaults: total timeout
 * 60 s, connect timeout 10 s, standard retries (3 attempts, exponential
 * backoff with full jitter, Retry-After honoured, only idempotent or
 * unsent requests retried), constraint validation off (@required and
 * value types always checked), TLS verification on with the system CA
 * store, libcurl's proxy environment variables honoured, no credentials
 * (a service that signs with AWS SigV4 looks for them where the AWS SDKs
 * do: the AWS_* variables, the shared files' profile, container and
 * instance credentials; see smithycurl_options_set_profile).
 * smithycurl_client_new() copies the options: free or reuse them after.
 *
 * @param out receives the options; free with smithycurl_options_free().
 * Thread-safety: any thread; one thread at a time per options handle.
 */
smithycurl_code smithycurl_options_new(smithycurl_options **out);

/** Total time a call may take, retries included (0: the default 60 s).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (negative),
 *   SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_set_timeout_ms(smithycurl_options *options, long timeout_ms);

/** Time to set up a connection (0: the default 10 s). Same returns. */
smithycurl_code smithycurl_options_set_connect_timeout_ms(smithycurl_options *options, long timeout_ms);

/** Retries. enabled 0 sends each request once. enabled 1 retries
 * transient failures (throttling, 5xx, connection failures, timeouts of
 * idempotent operations) up to max_attempts sends in total (0 keeps the
 * default 3).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (max_attempts < 0 or
 *   > 100), SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_set_retries(smithycurl_options *options, int enabled, int max_attempts);

/** Adds a header to every request that does not set it itself (the
 * operation's bindings win). Both strings are copied. Repeat to add more.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (a NULL, an empty or
 *   invalid name, CR or LF in the value), SMITHYCURL_E_INVALID_UTF8,
 *   SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_add_header(smithycurl_options *options, const char *name, const char *value);

/** Replaces the User-Agent ("smithycurl/<version>" by default). Copied. */
smithycurl_code smithycurl_options_set_user_agent(smithycurl_options *options, const char *user_agent);

/** Credentials. Each is used when the operation's auth schemes (the @auth
 * trait, else the service's auth traits) include its scheme; strings are
 * copied; credentials never appear in traces or error messages.
 *   bearer:  smithy.api#httpBearerAuth ("Authorization: Bearer <token>")
 *   basic:   smithy.api#httpBasicAuth
 *   api key: smithy.api#httpApiKeyAuth (header or query, as the model says)
 *   aws:     aws.auth#sigv4; session_token may be NULL; region may be NULL
 *            to use AWS_REGION / AWS_DEFAULT_REGION.
 * One trailing newline ("\n" or "\r\n", as a token file read whole ends)
 * is removed from each string; any other control character is refused here,
 * with a message (smithycurl_options_errmsg) that names the credential and
 * never shows it (smithycurl_client_new refuses a basic auth user with a
 * colon).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (a required string
 *   NULL, a control character), SMITHYCURL_E_INVALID_UTF8,
 *   SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_set_bearer_token(smithycurl_options *options, const char *token);
smithycurl_code smithycurl_options_set_basic_auth(smithycurl_options *options, const char *user, const char *password);
smithycurl_code smithycurl_options_set_api_key(smithycurl_options *options, const char *key);
smithycurl_code smithycurl_options_set_aws_sigv4(smithycurl_options *options, const char *access_key_id,
                                                 const char *secret_access_key, const char *session_token,
                                                 const char *region);

/** Identity callbacks: credentials that change (temporary AWS credentials,
 * tokens from a vault or an OAuth flow), asked for when needed instead of
 * set once. Each replaces its fixed counterpart above
 * (smithycurl_options_set_aws_sigv4's keys, _set_bearer_token, _set_api_key)
 * and is used when the operation's auth schemes include its scheme.
 *
 * The callback fills *credentials (or *token), which the library allocates
 * and zeroes before each call (fields may be added at the end in later
 * versions: leave unknown ones alone), and returns 0; or writes a message
 * of at most error_size bytes, NUL included, to error and returns non-zero.
 * The strings it points to are copied as soon as it returns: they must
 * stay valid until then (static storage, memory of user_data, or memory
 * the callback frees on its next call); the library never frees them.
 * expiration is when the identity stops working, in seconds since the
 * epoch, 0 for never.
 *
 * What it gives is cached and refreshed before it expires, as the AWS SDKs
 * do: from 15 minutes before expiration a call starts a refresh in the
 * background and keeps the cached identity (a failed background refresh
 * keeps it too and is tried again later); from 10 minutes before, calls
 * wait for the refresh; an identity that lives less than that is refreshed
 * after half and three quarters of its life. An identity with no
 * expiration is asked for once.
 *
 * Threads: the callback runs on a library thread, never the thread of the
 * call that needed it, and one at a time per options handle: every client
 * made from these options shares one cache, so however many calls and
 * threads wait, one refresh runs. The same callback set on two options
 * handles may run on two threads at once. It may block (run a command,
 * call a service); calls wait for it until their own timeout or
 * cancellation, which does not stop it. user_data is passed as given and
 * never dereferenced. Once the options handle and every client made from
 * it are freed, the callback is not called again: the last of those frees
 * waits for a call of it under way to return, so user_data may be freed
 * after (a free made by the callback itself does not wait). fn NULL
 * removes the callback.
 *
 * Failures: a callback that returns non-zero, gives an empty access key id,
 * secret or token, a control character in one, or an expiration already
 * past, fails the call that needed it with SMITHYCURL_E_USAGE
 * (SMITHYCURL_KIND_USAGE; SMITHYCURL_E_TIMEOUT or _CANCELLED when the
 * call's deadline or cancellation ended the wait) before anything is sent;
 * the result's message names the callback and includes the callback's
 * message (so that message must not hold a secret), never the values.
 *
 *     static int creds(void *vault, smithycurl_aws_credentials *c, char *error, size_t error_size) {
 *         struct lease *l = vault_lease(vault);     // owned by the vault
 *         if (!l) { snprintf(error, error_size, "vault: %s", vault_error(vault)); return 1; }
 *         c->access_key_id = l->key_id; c->secret_access_key = l->secret;
 *         c->session_token = l->token; c->expiration = l->expires;
 *         return 0;
 *     }
 *     smithycurl_options_set_aws_credentials_fn(options, creds, vault);
 *
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE. */
typedef struct smithycurl_aws_credentials {
    const char *access_key_id;
    const char *secret_access_key;
    const char *session_token; /* NULL or "" for none */
    long long expiration;      /* seconds since the epoch; 0: never expires */
} smithycurl_aws_credentials;
typedef int (*smithycurl_aws_credentials_fn)(void *user_data, smithycurl_aws_credentials *credentials, char *error,
                                             size_t error_size);
smithycurl_code smithycurl_options_set_aws_credentials_fn(smithycurl_options *options, smithycurl_aws_credentials_fn fn,
                                                          void *user_data);

/** A bearer token (smithy.api#httpBearerAuth) or an API key
 * (smithy.api#httpApiKeyAuth) and its expiry, for smithycurl_token_fn. */
typedef struct smithycurl_token {
    const char *value;
    long long expiration; /* seconds since the epoch; 0: never expires */
} smithycurl_token;
typedef int (*smithycurl_token_fn)(void *user_data, smithycurl_token *token, char *error, size_t error_size);
/** The bearer token callback; as smithycurl_options_set_aws_credentials_fn. */
smithycurl_code smithycurl_options_set_token_fn(smithycurl_options *options, smithycurl_token_fn fn, void *user_data);
/** The API key callback; as smithycurl_options_set_aws_credentials_fn. */
smithycurl_code smithycurl_options_set_api_key_fn(smithycurl_options *options, smithycurl_token_fn fn, void *user_data);

/** The profile of the AWS shared config and credentials files (~/.aws/config,
 * ~/.aws/credentials, or AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE)
 * that a service signing with aws.auth#sigv4, or an AWS service, reads its
 * settings (region, endpoint URL, CA bundle, max attempts, FIPS,
 * dual-stack) and its credentials from, instead of AWS_PROFILE's or
 * "default". Options set explicitly win over the AWS_* environment
 * variables, and those over the profile's settings; for credentials, a
 * profile set here comes before AWS_ACCESS_KEY_ID and the other credential
 * variables, as in the AWS SDKs. NULL or "" unsets it. Copied. The
 * profile must exist: smithycurl_client_new fails with SMITHYCURL_E_USAGE
 * naming it and the files otherwise; it reads the files, which the client
 * does not read again.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (a control
 *   character), SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_profile(smithycurl_options *options, const char *profile);

/** When requests carry a checksum of their body (aws.protocols#httpChecksum,
 * as the AWS SDKs since 2025): "when_supported", a CRC32 (or the algorithm
 * the input chooses) whenever the operation supports one; "when_required",
 * only when the operation requires one or the input chooses an algorithm.
 * A checksum or Content-MD5 the input gives is sent as given. NULL or ""
 * leaves it to AWS_REQUEST_CHECKSUM_CALCULATION, the profile's
 * request_checksum_calculation, else "when_supported". Copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (another value),
 *   SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_request_checksum_calculation(smithycurl_options *options, const char *when);

/** When a response's checksum (x-amz-checksum-*) is checked against its body:
 * "when_supported", whenever the operation can ask for one (its validation
 * mode member is sent as ENABLED unless the input sets it);
 * "when_required", only when the input sets that member to ENABLED. A
 * mismatch fails the call with SMITHYCURL_E_DECODE (a streamed body's
 * once its last byte was written, before the call returns). NULL or ""
 * leaves it to AWS_RESPONSE_CHECKSUM_VALIDATION, the profile's
 * response_checksum_validation, else "when_supported". Copied.
 * @return as smithycurl_options_set_request_checksum_calculation.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_response_checksum_validation(smithycurl_options *options, const char *when);

/** The retry mode: "standard", or "adaptive", which adds the AWS SDKs'
 * client-side rate limiter (from the first throttling response, each
 * attempt waits for a token of a bucket whose rate falls to 0.7 times the
 * measured send rate on each throttle and grows back along a CUBIC curve;
 * one limiter per client, shared by its threads). NULL or "" leaves it to
 * AWS_RETRY_MODE, the profile's retry_mode, else "standard". Copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (another value),
 *   SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_retry_mode(smithycurl_options *options, const char *mode);

/** The smallest request body an operation's @requestCompression compresses,
 * 0 to 10485760 bytes; -1 leaves it to AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES,
 * the profile's request_min_compression_size_bytes, else 10240. A
 * streaming payload is never compressed.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (out of range, the
 *   message naming request_min_compression_size_bytes),
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_request_min_compression_size(smithycurl_options *options, long long min_bytes);

/** disable non-zero sends every body uncompressed, whatever
 * @requestCompression says; 0 leaves it to AWS_DISABLE_REQUEST_COMPRESSION,
 * the profile's disable_request_compression, else compressed from the
 * minimum size.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_disable_request_compression(smithycurl_options *options, int disable);

/** The application's id, at most 50 characters, appended to the
 * User-Agent of an AWS service's requests as app/ID (characters other than
 * letters, digits and !#$%&'*+-.^_`|~ sent as '-'). NULL or "" leaves it to
 * AWS_SDK_UA_APP_ID, the profile's sdk_ua_app_id. Copied; a longer id
 * makes smithycurl_client_new fail with SMITHYCURL_E_USAGE.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_UTF8,
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_app_id(smithycurl_options *options, const char *app_id);

/** For language bindings over this library: names the language in the
 * User-Agent of an AWS service's requests (lang/NAME#VERSION, the Go
 * runtime's version beside it). Without it: "c" and no version. version
 * may be NULL. Copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (name NULL or
 *   empty), SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_front_end(smithycurl_options *options, const char *name, const char *version);

/** Which operations of a service with aws.api#clientEndpointDiscovery
 * (Timestream, DynamoDB...) are sent to an endpoint its discovery operation
 * (DescribeEndpoints) returns, cached per access key id for the period it
 * gives and discovered again after InvalidEndpointException: "auto", those
 * that require it; "true", every one that supports it; "false", none (one
 * that requires it fails with SMITHYCURL_E_USAGE). NULL or "" leaves it to
 * AWS_ENABLE_ENDPOINT_DISCOVERY, the profile's endpoint_discovery_enabled,
 * else "auto". An endpoint given to smithycurl_client_new() turns
 * discovery off; one from the AWS settings does not (DescribeEndpoints
 * goes there). Copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (another value),
 *   SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_endpoint_discovery(smithycurl_options *options, const char *mode);

/** TLS. ca_file: a PEM bundle of trusted CAs (NULL: the system store).
 * cert_file and key_file: a client certificate and its key, PEM (NULL: none).
 * insecure non-zero turns off peer and host name verification: DANGEROUS,
 * for tests only. Strings are copied; files are read when the client
 * connects. */
smithycurl_code smithycurl_options_set_tls(smithycurl_options *options, const char *ca_file,
                                           const char *cert_file, const char *key_file, int insecure);

/** Sends requests through a proxy ("http://proxy:3128", "socks5h://...").
 * NULL or "" uses libcurl's environment variables (http_proxy, HTTPS_PROXY,
 * ALL_PROXY, NO_PROXY); "-" turns proxies off even when those are set.
 * Copied. */
smithycurl_code smithycurl_options_set_proxy(smithycurl_options *options, const char *proxy_url);

/** The AWS region (NULL or "": AWS_REGION, then AWS_DEFAULT_REGION). For a
 * service with endpoint rules (smithy.rules#endpointRuleSet, every AWS
 * model), a region lets smithycurl_client_new take a NULL endpoint: each
 * call's endpoint, signing name and signing region then come from the
 * rules. It is also the SigV4 signing region when neither the rules nor
 * smithycurl_options_set_aws_sigv4 give one. Copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (not a region name:
 *   letters, digits, hyphens and dots only), SMITHYCURL_E_INVALID_UTF8,
 *   SMITHYCURL_E_INVALID_HANDLE. Thread-safety: not with other uses of the
 *   same options handle. */
smithycurl_code smithycurl_options_set_region(smithycurl_options *options, const char *region);

/** Sets an endpoint rule-set parameter by name: a clientContextParams
 * parameter or any other ("UseFIPS" = "true", "UseDualStack" = "true",
 * "AccountIdEndpointMode" = "preferred", "ForcePathStyle" = "true"); "true"
 * and "false" stand for booleans. value NULL removes the setting. Both
 * copied. An unknown name or a value of the wrong type makes
 * smithycurl_client_new fail with SMITHYCURL_E_USAGE.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (name NULL or ""),
 *   SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_set_endpoint_param(smithycurl_options *options, const char *name, const char *value);

/** enabled 1 checks inputs against the model's constraint traits (@length,
 * @range, @pattern, enum and intEnum values, @uniqueItems) before sending:
 * a call that breaks one fails with SMITHYCURL_KIND_VALIDATION listing every
 * violation with its member path, and nothing is sent. Default off (0), as
 * the Smithy specification says for clients: the service has the last word.
 * @required members and the types of values (numbers in their type's range,
 * base64 blobs, timestamps in years 0001 to 9999) are always checked. */
smithycurl_code smithycurl_options_set_validation(smithycurl_options *options, int enabled);

/** enabled 0 ignores the endpoint trait's hostPrefix: neither the prefix nor
 * its @hostLabel members are looked at (the command line's
 * --no-host-prefix). Default on: the prefix joins the endpoint's host name
 * ("sync-" + "states.example.com") and the host that results must be a
 * valid host name, else the call fails with SMITHYCURL_KIND_USAGE. */
smithycurl_code smithycurl_options_set_host_prefix(smithycurl_options *options, int enabled);

/** Largest response body accepted (0: the default 64 MiB; -1: unlimited).
 * Larger responses fail with SMITHYCURL_KIND_TRANSPORT. */
smithycurl_code smithycurl_options_set_max_response_bytes(smithycurl_options *options, long long max_bytes);

/** Replaces the minDelay and maxDelay of every waiter smithycurl_wait()
 * runs on clients made with these options (0 keeps the waiter's own, from
 * the model or the defaults 2 s and 120 s). For tests, or callers that know
 * better than the model; delays that are not whole seconds are jittered in
 * milliseconds.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (negative, or both
 *   set and max_delay_ms < min_delay_ms), SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_waiter_delays(smithycurl_options *options, long long min_delay_ms,
                                                     long long max_delay_ms);

/** Limits of the engine that runs the client's asynchronous calls
 * (smithycurl_call_async(), smithycurl_call_queued()): at most
 * max_transfers requests on the wire at once (the others wait their turn,
 * first come first served, holding no connection, the wait counting
 * against the call's timeout; 0: the default, 100) and at most
 * max_host_connections connections to one host (0: the default, no bound
 * beyond max_transfers; HTTP/2 multiplexes streams on them). Synchronous
 * calls are not affected.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (negative),
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_async_limits(smithycurl_options *options, int max_transfers,
                                                    int max_host_connections);

/** A trace callback, called before each request is sent and after each
 * response (or failure), retries included.
 *
 * event_json is one JSON object, valid only during the callback (copy what
 * you keep); credentials are redacted:
 *
 *     {"phase": "request", "method": "POST", "url": "http://...",
 *      "headers": {"Content-Type": ["application/json"]}}
 *     {"phase": "response", "method": "POST", "url": "http://...",
 *      "status": 200, "headers": {...}, "took_us": 1234,
 *      "error": "..."}                        // "error" only on failure
 *
 * The callback runs on the thread that called smithycurl_call() (a
 * library thread for asynchronous calls); with a shared client it runs on
 * many threads at once. It must not free the
 * client it traces. user_data is passed as given and never dereferenced.
 * fn NULL removes the callback.
 */
typedef void (*smithycurl_trace_fn)(void *user_data, const char *event_json, size_t event_len);
smithycurl_code smithycurl_options_set_trace(smithycurl_options *options, smithycurl_trace_fn fn, void *user_data);

/** Adds span events to the trace callback (smithycurl_options_set_trace),
 * the spans Go's client.WithTracer gives: one per call, named
 * "Service.Operation", and one per attempt, "Attempt", inside it:
 *
 *     {"phase": "span_start", "span_id": 2, "parent_id": 1,
 *      "name": "Attempt", "attributes": {"smithy.attempt": 1}}
 *     {"phase": "span_end", "span_id": 2, "parent_id": 1, "name": "Attempt",
 *      "took_us": 812, "attributes": {"smithy.attempt": 1,
 *      "http.request.method": "POST", "url.full": "http://...",
 *      "http.response.status_code": 200, "aws.request_id": "..."},
 *      "error": "..."}                        // "error" only on failure
 *
 * A call's span has rpc.system ("aws-api" or "smithy"), rpc.service,
 * rpc.method, smithy.attempts and, as an attempt's, the last response's
 * status, aws.request_id and error.type. span_id counts from 1 per client;
 * parent_id 0 is none. on 0 turns them off (the default).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_set_trace_spans(smithycurl_options *options, int on);

/** Credentials of smithy.api#httpDigestAuth: libcurl answers the service's
 * digest challenge (a 401 with "WWW-Authenticate: Digest") with them,
 * re-sending the request. Copied and checked as the other credentials
 * (smithycurl_options_set_basic_auth); never in traces or messages.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (NULL, a control
 *   character), SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_options_set_digest_auth(smithycurl_options *options, const char *user, const char *password);

/* ---- Interceptors and custom auth schemes ------------------------------ */

/** The points of a call where interceptors run, in the order a call
 * reaches them (smithy-java's ClientInterceptor, smithy-python's
 * Interceptor). Those between SMITHYCURL_HOOK_READ_BEFORE_ATTEMPT and
 * SMITHYCURL_HOOK_READ_AFTER_ATTEMPT run once per attempt.
 * SMITHYCURL_HOOK_SIGN is a custom auth scheme's signer
 * (smithycurl_options_add_auth_scheme). */
typedef enum smithycurl_hook {
    SMITHYCURL_HOOK_READ_BEFORE_EXECUTION = 0,
    SMITHYCURL_HOOK_MODIFY_BEFORE_SERIALIZATION,  /* may set INPUT */
    SMITHYCURL_HOOK_READ_BEFORE_SERIALIZATION,
    SMITHYCURL_HOOK_READ_AFTER_SERIALIZATION,     /* the request is there */
    SMITHYCURL_HOOK_MODIFY_BEFORE_RETRY_LOOP,     /* may change the request */
    SMITHYCURL_HOOK_READ_BEFORE_ATTEMPT,
    SMITHYCURL_HOOK_MODIFY_BEFORE_SIGNING,        /* may change the request */
    SMITHYCURL_HOOK_READ_BEFORE_SIGNING,
    SMITHYCURL_HOOK_READ_AFTER_SIGNING,
    SMITHYCURL_HOOK_MODIFY_BEFORE_TRANSMIT,       /* may change the request */
    SMITHYCURL_HOOK_READ_BEFORE_TRANSMIT,
    SMITHYCURL_HOOK_READ_AFTER_TRANSMIT,          /* the response is there */
    SMITHYCURL_HOOK_MODIFY_BEFORE_DESERIALIZATION, /* may change the response */
    SMITHYCURL_HOOK_READ_BEFORE_DESERIALIZATION,
    SMITHYCURL_HOOK_READ_AFTER_DESERIALIZATION,   /* OUTPUT or ERROR */
    SMITHYCURL_HOOK_MODIFY_BEFORE_ATTEMPT_COMPLETION, /* may set OUTPUT or ERROR */
    SMITHYCURL_HOOK_READ_AFTER_ATTEMPT,
    SMITHYCURL_HOOK_MODIFY_BEFORE_COMPLETION,     /* may set OUTPUT or ERROR */
    SMITHYCURL_HOOK_READ_AFTER_EXECUTION,
    SMITHYCURL_HOOK_SIGN = 100
} smithycurl_hook;

/** What a hook or a signer sees of its call; valid only during the
 * callback it is given to. */
typedef struct smithycurl_hook_context smithycurl_hook_context;

/** A hook. Returns 0 to go on; non-zero fails the call with the message
 * set as SMITHYCURL_FIELD_ERROR during the callback (else "the callback
 * returned N"): SMITHYCURL_E_USAGE, and the call is not retried; the
 * completion hooks still run. */
typedef int (*smithycurl_hook_fn)(void *user_data, smithycurl_hook_context *ctx);

/** An interceptor: a hook per point, NULL where it has none. Start from
 * SMITHYCURL_INTERCEPTOR_INIT (size set, every hook NULL). */
typedef struct smithycurl_interceptor {
    /** sizeof(smithycurl_interceptor) as the caller was built. */
    size_t size;
    /** Passed to every hook as given, never dereferenced. */
    void *user_data;
    smithycurl_hook_fn read_before_execution;
    smithycurl_hook_fn modify_before_serialization;
    smithycurl_hook_fn read_before_serialization;
    smithycurl_hook_fn read_after_serialization;
    smithycurl_hook_fn modify_before_retry_loop;
    smithycurl_hook_fn read_before_attempt;
    smithycurl_hook_fn modify_before_signing;
    smithycurl_hook_fn read_before_signing;
    smithycurl_hook_fn read_after_signing;
    smithycurl_hook_fn modify_before_transmit;
    smithycurl_hook_fn read_before_transmit;
    smithycurl_hook_fn read_after_transmit;
    smithycurl_hook_fn modify_before_deserialization;
    smithycurl_hook_fn read_before_deserialization;
    smithycurl_hook_fn read_after_deserialization;
    smithycurl_hook_fn modify_before_attempt_completion;
    smithycurl_hook_fn read_after_attempt;
    smithycurl_hook_fn modify_before_completion;
    smithycurl_hook_fn read_after_execution;
} smithycurl_interceptor;
#define SMITHYCURL_INTERCEPTOR_INIT {sizeof(smithycurl_interceptor), NULL, NULL, NULL, NULL, NULL, NULL, NULL, \
    NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL}

/** Adds an interceptor to every call of the clients made with the
 * options, after those added before. The struct is copied.
 *
 * Threads: the hooks run on the thread that called smithycurl_call() (a
 * library thread for asynchronous calls); with a shared client on many
 * threads at once. A hook must not free the client it runs for; it may
 * make calls of other clients.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (NULL, a size this
 *   library does not know), SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_add_interceptor(smithycurl_options *options, const smithycurl_interceptor *interceptor);

/** A signer of a custom auth scheme: sets the headers (or the URL) the
 * scheme needs on the request (SMITHYCURL_FIELD_REQUEST_HEADER, ..._URL),
 * reading SMITHYCURL_FIELD_SIGNING_TIME, _SCHEME, _TRAIT. Called once per
 * attempt, after the MODIFY_BEFORE_SIGNING hooks, on the threads the
 * hooks run on. Returns as a hook does: non-zero fails the call
 * (SMITHYCURL_E_USAGE, nothing sent) with the message set as
 * SMITHYCURL_FIELD_ERROR, which must not hold a secret. */
typedef smithycurl_hook_fn smithycurl_sign_fn;

/** Registers fn for the auth scheme whose trait is scheme_id (a shape with
 * @authDefinition, e.g. "com.example#hmacAuth"), chosen by the model's
 * @auth order like the built-in schemes. scheme_id is copied.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (NULL, not a shape
 *   id), SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: one thread at a time per options handle. */
smithycurl_code smithycurl_options_add_auth_scheme(smithycurl_options *options, const char *scheme_id,
                                                   smithycurl_sign_fn fn, void *user_data);

/** What smithycurl_hook_get and smithycurl_hook_set reach. Numbers are
 * decimal text (STATUS, ATTEMPT), documents JSON (INPUT, OUTPUT, TRAIT). */
typedef enum smithycurl_hook_field {
    SMITHYCURL_FIELD_OPERATION = 1, /* the operation's name; get */
    SMITHYCURL_FIELD_ATTEMPT,       /* "1" for the first, "0" before the retry loop; get */
    SMITHYCURL_FIELD_INPUT,         /* the input document; set: MODIFY_BEFORE_SERIALIZATION */
    SMITHYCURL_FIELD_METHOD,        /* the request's; from READ_AFTER_SERIALIZATION */
    SMITHYCURL_FIELD_URL,           /* the request's URL (with any secret in it) */
    SMITHYCURL_FIELD_REQUEST_HEADER, /* name: the header; set NULL value: removes */
    SMITHYCURL_FIELD_REQUEST_BODY,  /* a body streamed from a callback: none */
    SMITHYCURL_FIELD_STATUS,        /* the response's; from READ_AFTER_TRANSMIT */
    SMITHYCURL_FIELD_RESPONSE_HEADER, /* name: the header */
    SMITHYCURL_FIELD_RESPONSE_BODY,
    SMITHYCURL_FIELD_OUTPUT,        /* set: the attempt or call succeeds with it */
    SMITHYCURL_FIELD_ERROR,         /* the failure's message; set: fails the hook's
                                       attempt or call with it (KIND usage) */
    SMITHYCURL_FIELD_SCHEME,        /* SIGN: the scheme's shape id */
    SMITHYCURL_FIELD_TRAIT,         /* SIGN: the trait's value on the service */
    SMITHYCURL_FIELD_SIGNING_TIME   /* SIGN: RFC 3339, UTC, e.g. "2026-12-02T05:00:00Z" */
} smithycurl_hook_field;

/** The hook ctx was given to (SMITHYCURL_HOOK_SIGN for a signer). */
smithycurl_hook smithycurl_hook_point(const smithycurl_hook_context *ctx);

/** Gets a field. *value (NUL-terminated) and *len (NULL when not wanted)
 * stay valid until the callback returns; *value is NULL for a header the
 * message does not have.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (ctx or value NULL,
 *   name NULL for a header, a field this hook does not have yet). */
smithycurl_code smithycurl_hook_get(smithycurl_hook_context *ctx, smithycurl_hook_field field, const char *name,
                                    const char **value, size_t *len);

/** Sets a field (copied; len bytes of value, or up to its NUL when len is
 * (size_t)-1). Modify hooks may set what they may change (see
 * smithycurl_hook), a signer the request; any hook ERROR.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (ctx NULL, a field
 *   this hook may not change, a header name or value that is not valid),
 *   SMITHYCURL_E_INVALID_UTF8. */
smithycurl_code smithycurl_hook_set(smithycurl_hook_context *ctx, smithycurl_hook_field field, const char *name,
                                    const char *value, size_t len);

/** Copies the message of the options handle's last failure; caller frees
 * with smithycurl_free(). */
smithycurl_code smithycurl_options_errmsg(smithycurl_options *options, char **msg);

/** Frees an options handle; clients made with it are unaffected. */
smithycurl_code smithycurl_options_free(smithycurl_options *options);

/* ======================================================================
 * Clients and calls
 * ====================================================================== */

/** Creates a client for one service of a model.
 *
 * @param model the model (the client keeps what it needs: the model handle
 *   may be freed after).
 * @param service_id the service's absolute id ("ns#Service"), or NULL for
 *   the model's only service.
 * @param endpoint "http(s)://host[:port][/path/prefix]"; copied. NULL (or "")
 *   when the service has endpoint rules and a region is set
 *   (smithycurl_options_set_region, AWS_REGION): the rules resolve each
 *   call's endpoint. An endpoint given to a service with rules goes through
 *   them as their SDK::Endpoint built-in, as the AWS SDKs do; a rule's
 *   error then fails the call with SMITHYCURL_E_USAGE and its message.
 * @param options NULL for the defaults; copied.
 * @param out receives the client; free with smithycurl_client_free().
 * @return SMITHYCURL_OK; SMITHYCURL_E_NOT_FOUND (no such service);
 *   SMITHYCURL_E_USAGE (bad endpoint, no endpoint and no rules or region,
 *   unsupported protocol, bad options);
 *   SMITHYCURL_E_TRANSPORT (libcurl could not be set up);
 *   SMITHYCURL_E_INVALID_ARGUMENT; SMITHYCURL_E_INVALID_HANDLE.
 *   The detail goes to smithycurl_model_errmsg(model).
 * Thread-safety: any thread.
 */
smithycurl_code smithycurl_client_new(smithycurl_model *model, const char *service_id, const char *endpoint,
                                      smithycurl_options *options, smithycurl_client **out);

/** Frees a client: closes its connections and cancels its calls in flight
 * (they fail with SMITHYCURL_E_CANCELLED). Results stay valid. Each
 * asynchronous call of the client still in flight completes exactly once
 * with SMITHYCURL_E_CANCELLED (its callback runs, or its queue gets its
 * entry), during or after this call: it does not wait for them, and may be
 * called from a completion callback.
 * Thread-safety: any thread, but no new call may start on the client. */
smithycurl_code smithycurl_client_free(smithycurl_client *client);

/** Creates a cancel token. Pass it to any number of calls; cancelling it
 * makes the calls in flight return SMITHYCURL_E_CANCELLED promptly, and
 * later calls with it fail at once. A token cannot be reset: make one per
 * call or per batch. Free with smithycurl_cancel_token_free().
 * Thread-safety: any thread. */
smithycurl_code smithycurl_cancel_token_new(smithycurl_cancel_token **out);

/** Cancels the token. Idempotent. Thread-safety: any thread, at any time
 * (not from a signal handler).
 *
 *     // thread A                           // thread B (e.g. on Ctrl-C)
 *     smithycurl_call(c, op, in, n, tok, &r);   smithycurl_cancel_token_cancel(tok);
 */
smithycurl_code smithycurl_cancel_token_cancel(smithycurl_cancel_token *token);

/** Frees the token. Calls using it must have returned; freeing it while
 * asynchronous calls use it cancels them.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_cancel_token_free(smithycurl_cancel_token *token);

/** Calls an operation.
 *
 * @param client the client; shared between threads freely.
 * @param operation the operation's name ("GetIp") or absolute id.
 * @param input the input JSON in the document form, input_len bytes (need
 *   not be NUL-terminated); read during the call only. NULL with length 0,
 *   or "{}", for no input.
 * @param cancel a cancel token, or NULL.
 * @param out receives the result whenever the call got as far as having
 *   something to say - success or failure, including every error kind;
 *   free it with smithycurl_result_free(). It is set to NULL only when the
 *   function returns SMITHYCURL_E_INVALID_HANDLE,
 *   SMITHYCURL_E_INVALID_ARGUMENT (out itself NULL, or input NULL with a
 *   non-zero length), SMITHYCURL_E_FORKED or SMITHYCURL_E_INTERNAL.
 * @return SMITHYCURL_OK: read smithycurl_result_output();
 *   a call failure: SMITHYCURL_E_USAGE, _VALIDATION, _SERVICE, _TRANSPORT,
 *   _TIMEOUT, _CANCELLED or _DECODE (the same as the result's kind), or a
 *   more specific usage failure: SMITHYCURL_E_NOT_FOUND (unknown
 *   operation), SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_JSON; read
 *   the smithycurl_result_error_* accessors.
 * Thread-safety: any thread, concurrently on one client.
 *
 *     smithycurl_result *r;
 *     int rc = smithycurl_call(c, "Anything", "{\"id\":1}", 8, NULL, &r);
 *     if (rc == SMITHYCURL_OK) { ... smithycurl_result_output(r, &p, &n); }
 *     else if (r) { ... smithycurl_result_error_message(r, &msg); }
 *     smithycurl_result_free(r);   // harmless on NULL
 */
smithycurl_code smithycurl_call(smithycurl_client *client, const char *operation, const char *input,
                                size_t input_len, smithycurl_cancel_token *cancel, smithycurl_result **out);

/** Runs a waiter: a smithy.waiters#waitable entry of one of the service's
 * operations ("TableExists"). It calls that operation with input until an
 * acceptor of the waiter reaches its success state, sleeping between
 * attempts as the Smithy specification says (exponential backoff with
 * jitter between the waiter's minDelay and maxDelay, see
 * smithycurl_options_set_waiter_delays(); never past max_wait_ms). The
 * calling thread blocks meanwhile; cancel stops it at any time.
 *
 * @param client the client; shared between threads freely.
 * @param waiter the waiter's name (case is ignored: names are unique
 *   regardless of case).
 * @param input the operation's input JSON in the document form, input_len
 *   bytes; read during the call only. NULL with length 0 for none.
 * @param max_wait_ms the longest the waiter may take, > 0 (the
 *   specification makes the caller choose).
 * @param cancel a cancel token, or NULL.
 * @param out receives the result, as for smithycurl_call(): on success its
 *   output is the output of the call that succeeded ("{}" when the success
 *   was an error, as for a "not exists" waiter); on failure its error_*
 *   accessors describe it. NULL only for SMITHYCURL_E_INVALID_HANDLE,
 *   SMITHYCURL_E_INVALID_ARGUMENT, SMITHYCURL_E_FORKED and
 *   SMITHYCURL_E_INTERNAL.
 * @return SMITHYCURL_OK;
 *   SMITHYCURL_E_WAITER_FAILURE: a failure acceptor matched; the message
 *   says which (and the acceptor's message); when it matched an error, the
 *   error's shape, code, members and status are the result's;
 *   SMITHYCURL_E_WAITER_TIMEOUT: still retrying when max_wait_ms ran out;
 *   SMITHYCURL_E_NOT_FOUND: no such waiter (the message lists the
 *   service's waiters); SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_JSON,
 *   SMITHYCURL_E_INVALID_ARGUMENT (waiter NULL, input NULL with a length,
 *   max_wait_ms <= 0; out set to NULL);
 *   any call failure (SMITHYCURL_E_SERVICE, _TRANSPORT, ...): an error no
 *   acceptor expected stops the waiter with that error;
 *   SMITHYCURL_E_CANCELLED when cancel was cancelled.
 *   smithycurl_result_attempts() of a waiter failure or timeout is the
 *   number of calls the waiter made.
 * Thread-safety: any thread, concurrently on one client.
 *
 *     smithycurl_result *r;
 *     int rc = smithycurl_wait(c, "TableExists", "{\"TableName\":\"t\"}", 17, 60000, NULL, &r);
 *     if (rc == SMITHYCURL_E_WAITER_TIMEOUT) { ... }
 *     smithycurl_result_free(r);
 */
smithycurl_code smithycurl_wait(smithycurl_client *client, const char *waiter, const char *input, size_t input_len,
                                long long max_wait_ms, smithycurl_cancel_token *cancel, smithycurl_result **out);

/** Presigns an operation: its request, signed with AWS SigV4 in the URL's
 * query string (X-Amz-Algorithm, X-Amz-Credential, X-Amz-Date,
 * X-Amz-Expires, X-Amz-SignedHeaders, X-Amz-Security-Token with a session
 * token, X-Amz-Signature), which anyone may send without credentials until
 * it expires, as the AWS SDKs' presigned URLs (botocore's
 * generate_presigned_url). Nothing is sent: the endpoint is resolved as
 * for a call (S3's virtual-host or path style); the credentials are the
 * client's, taken as a call takes them (a credentials callback may run).
 * S3's body is left out of the signature (UNSIGNED-PAYLOAD) for the
 * URL's sender to choose; an awsQuery/ec2Query form goes into the query;
 * any other request with a body cannot be presigned (SMITHYCURL_E_USAGE).
 *
 * @param client the client; shared between threads freely.
 * @param operation the operation's name ("GetObject") or absolute id.
 * @param input the input JSON in the document form, input_len bytes;
 *   read during the call only. NULL with length 0 for none.
 * @param expires_seconds how long the URL is valid: 1 to 604800 (7 days).
 * @param signing_time when the signature is made, in seconds since the
 *   Unix epoch (the URL is valid from then); 0 for now.
 * @param out receives the result, as for smithycurl_call(); on success
 *   its output (smithycurl_result_output()) is the JSON object
 *   {"url": "...", "method": "GET", "headers": {"Content-Type": "..."},
 *   "expires": "2024-01-02T04:04:05Z"}: the sender must use that method
 *   and send each header of "headers" (the signed ones besides Host) with
 *   its value; "expires" is in UTC. Free it with smithycurl_result_free().
 *   NULL only for SMITHYCURL_E_INVALID_HANDLE,
 *   SMITHYCURL_E_INVALID_ARGUMENT (operation or out NULL, input NULL with
 *   a length, signing_time < 0), SMITHYCURL_E_FORKED and
 *   SMITHYCURL_E_INTERNAL.
 * @return SMITHYCURL_OK; SMITHYCURL_E_USAGE (expires_seconds out of range,
 *   no SigV4 for the operation or no credentials, a body that cannot be
 *   presigned, an event stream); SMITHYCURL_E_NOT_FOUND (unknown
 *   operation), SMITHYCURL_E_INVALID_UTF8, SMITHYCURL_E_INVALID_JSON,
 *   SMITHYCURL_E_VALIDATION (an input the model refuses); the result's
 *   error_* accessors say why.
 * Thread-safety: any thread, concurrently on one client.
 *
 *     smithycurl_result *r;
 *     const char *in = "{\"Bucket\":\"my-bucket\",\"Key\":\"a.txt\"}";
 *     if (smithycurl_presign(c, "GetObject", in, strlen(in), 3600, 0, &r) == SMITHYCURL_OK) {
 *         smithycurl_result_output(r, &json, &len);   // {"url": ...}
 *     }
 *     smithycurl_result_free(r);
 */
smithycurl_code smithycurl_presign(smithycurl_client *client, const char *operation, const char *input,
                                   size_t input_len, long long expires_seconds, long long signing_time,
                                   smithycurl_result **out);

/* ======================================================================
 * Event streams
 *
 * An operation whose output is an event stream (a @streaming union, e.g.
 * Lambda's InvokeWithResponseStream) is called with
 * smithycurl_event_stream_open(), then read event by event with
 * smithycurl_event_stream_next() as the events arrive; the response body
 * is never held whole. smithycurl_call() refuses such operations.
 *
 *     smithycurl_result *r, *ev;
 *     smithycurl_event_stream *s;
 *     int rc = smithycurl_event_stream_open(c, "Tick", in, n, NULL, &r, &s);
 *     // r: the initial output (or the error); free it when read
 *     while (rc == SMITHYCURL_OK && (rc = smithycurl_event_stream_next(s, &ev)) == SMITHYCURL_OK) {
 *         smithycurl_result_output(ev, &json, &len);   // {"tick":{...}}
 *         smithycurl_result_free(ev);
 *     }
 *     // rc: SMITHYCURL_E_END (the stream ended), or the error ev holds
 *     smithycurl_result_free(ev);
 *     smithycurl_event_stream_free(s);   // harmless on NULL
 * ====================================================================== */

/** Calls an operation whose output is an event stream and waits for its
 * initial response (it comes with the first bytes of the stream, or the
 * end of the response). The call is not retried.
 *
 * @param client, operation, input, input_len, cancel as smithycurl_call();
 *   cancelling the token later ends the stream too (the next event fails
 *   with SMITHYCURL_E_CANCELLED).
 * @param out receives a result as smithycurl_call()'s: on success its
 *   output is the initial output (the output without its stream member);
 *   on failure the error (an error response of the service is
 *   SMITHYCURL_E_SERVICE here).
 * @param stream receives the stream on SMITHYCURL_OK, else NULL. Free it
 *   with smithycurl_event_stream_free().
 * @return as smithycurl_call(); SMITHYCURL_E_USAGE for an operation
 *   without an event stream in its output.
 * Thread-safety: any thread, concurrently on one client. */
smithycurl_code smithycurl_event_stream_open(smithycurl_client *client, const char *operation, const char *input,
                                             size_t input_len, smithycurl_cancel_token *cancel,
                                             smithycurl_result **out, smithycurl_event_stream **stream);

/** Waits for the next event of the stream.
 *
 * @param event receives a result: on SMITHYCURL_OK its output is the event
 *   in the document form of the stream's union ({"MemberName": {...}});
 *   on failure the error. NULL on SMITHYCURL_E_END. Free it with
 *   smithycurl_result_free().
 * @return SMITHYCURL_OK; SMITHYCURL_E_END when the stream ended cleanly;
 *   SMITHYCURL_E_SERVICE for a modeled exception event (the result's
 *   error shape names it) or an error message (its :error-code is the
 *   result's error code); SMITHYCURL_E_DECODE for a malformed or
 *   truncated message; SMITHYCURL_E_TRANSPORT, _TIMEOUT or _CANCELLED.
 *   After a failure the stream is over: later calls return
 *   SMITHYCURL_E_END. Events of types the model does not know are
 *   skipped.
 * Thread-safety: one thread at a time per stream (any thread). */
smithycurl_code smithycurl_event_stream_next(smithycurl_event_stream *stream, smithycurl_result **event);

/** Ends the transfer if events are left and frees the stream. Results
 * already returned stay valid.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE (NULL or freed).
 * Thread-safety: once, from any thread, when no thread reads it. */
smithycurl_code smithycurl_event_stream_free(smithycurl_event_stream *stream);

/** Reads the next bytes of a streamed request body.
 *
 * Writes at most cap bytes to buf and returns how many it wrote; 0 at the
 * end of the body; -1 on failure (the call then fails with
 * SMITHYCURL_E_TRANSPORT, "reading the request body: the read callback
 * failed"). buf is valid only during the callback. */
typedef long long (*smithycurl_read_fn)(void *user_data, char *buf, size_t cap);

/** Receives the next len bytes of a streamed response body, valid only
 * during the callback (copy what you keep). Returns 0 to go on, non-zero
 * to stop: the call then fails with SMITHYCURL_E_TRANSPORT ("writing the
 * response body: the write callback failed"). */
typedef int (*smithycurl_write_fn)(void *user_data, const char *data, size_t len);

/** Calls an operation whose input or output has a streaming blob payload
 * (a @streaming blob bound to @httpPayload, as S3 PutObject's and
 * GetObject's Body), with that body read from a callback and/or written to
 * one instead of as base64 in the input or output JSON, so that it is
 * never held in memory.
 *
 * @param read the request body's reader, or NULL for none (the body is
 *   then the payload member of the input JSON, if any). The input JSON
 *   must then leave the payload member out.
 * @param read_data passed to read as given, never dereferenced.
 * @param body_size the body's length in bytes (sent as Content-Length), or
 *   -1 when unknown (chunked transfer encoding, HTTP/1.1). Ignored without
 *   read. The read callback must deliver exactly body_size bytes.
 * @param write the response body's writer, or NULL for none (the body is
 *   then base64 in the output JSON, bounded by the max-response option).
 *   Only the body of a successful response goes to write, without the
 *   max-response limit; the output JSON then leaves the payload member
 *   out. Error responses are read and decoded as by smithycurl_call().
 * @param write_data passed to write as given, never dereferenced.
 * Other parameters, the result and the codes are those of
 * smithycurl_call(); a usage error (SMITHYCURL_E_USAGE) when read or write
 * is given to an operation without such a payload.
 *
 * Retries: a body read from a callback cannot be rewound, so once read
 * has been called the call is not retried (the error message says so);
 * nor once write has received a byte (write may then have received part
 * of a body that a later failure made incomplete). A request checksum the
 * input asks for (aws.protocols#httpChecksum, "ChecksumAlgorithm") goes in
 * an aws-chunked trailer, as the callback cannot be read twice, and so
 * does the default CRC32 over https (over http, such a body gets none; see
 * smithycurl_options_set_request_checksum_calculation); an operation that
 * requires Content-MD5 cannot be called with read. A response checksum
 * that does not match the body written fails the call with
 * SMITHYCURL_E_DECODE once the last byte was written.
 *
 * Thread-safety: as smithycurl_call(). read and write are called on the
 * calling thread only, during this call only, one at a time; neither may
 * call back into the same client's calls from inside the callback. The
 * callbacks block the call: a cancel token takes effect once the callback
 * in progress returns.
 *
 *     static long long from_file(void *f, char *buf, size_t cap) {
 *         size_t n = fread(buf, 1, cap, f);
 *         return n == 0 && ferror(f) ? -1 : (long long)n;
 *     }
 *     smithycurl_call_stream(c, "PutObject", in, n, from_file, f, size,
 *                            NULL, NULL, NULL, &r);
 */
smithycurl_code smithycurl_call_stream(smithycurl_client *client, const char *operation, const char *input,
                                       size_t input_len, smithycurl_read_fn read, void *read_data,
                                       long long body_size, smithycurl_write_fn write, void *write_data,
                                       smithycurl_cancel_token *cancel, smithycurl_result **out);

/** Puts a streamed request body back to where it was when the call
 * started (a file: seek to the offset it had then), so that it can be
 * sent again. Returns 0 on success, non-zero when it cannot. */
typedef int (*smithycurl_rewind_fn)(void *user_data);

/** smithycurl_call_stream() with a body that can be rewound: a call that
 * failed after read was called is retried as any other call (the retry
 * policy, the operation's idempotency), rewind being called before each
 * new send; when rewind fails the call fails with the error of the send
 * before ("not retried: rewinding the body reader: ..."); a call whose
 * read returned -1 is never sent again (rewind is not called). A request
 * checksum (aws.protocols#httpChecksum: the input's algorithm, or the
 * default CRC32 where the operation supports one) is computed by reading
 * the body through once and rewinding it, and goes in a header, not a trailer;
 * Content-MD5 works too. rewind receives read_data. With rewind NULL, this
 * is smithycurl_call_stream().
 *
 * Thread-safety: as smithycurl_call_stream(); rewind is called as read is. */
smithycurl_code smithycurl_call_stream_v2(smithycurl_client *client, const char *operation, const char *input,
                                          size_t input_len, smithycurl_read_fn read, smithycurl_rewind_fn rewind,
                                          void *read_data, long long body_size, smithycurl_write_fn write,
                                          void *write_data, smithycurl_cancel_token *cancel, smithycurl_result **out);

/* ======================================================================
 * S3 transfers
 *
 * An object uploaded to S3 or downloaded, from or into a file or a
 * callback, in parts sent in parallel (multipart upload above a threshold,
 * ranged GETs), as boto3's upload_file/upload_fileobj and aws-sdk-go-v2's
 * feature/s3/manager do: the Go package client/s3transfer, which the CLI's
 * `smithycurl s3 cp` runs too. Every part is an ordinary call of the
 * client (an S3 client: its signing, retries, endpoint rules and checksums
 * apply). A multipart upload that fails or is cancelled is aborted
 * (AbortMultipartUpload), so that no parts are left behind.
 *
 * Threads: a transfer's callbacks (progress, read, write) are called on
 * the thread that called the transfer, during the call only, one at a
 * time; the parts travel meanwhile on the library's threads. A callback
 * must not call the same client's transfers or calls. A transfer is
 * cancelled by its cancel token (from any thread) or by its progress
 * callback's return value; either way it returns SMITHYCURL_E_CANCELLED
 * once the parts in flight stopped and the upload was aborted.
 * ====================================================================== */

/** Reports a transfer's progress: done bytes of total (-1 when unknown:
 * an upload from a callback of unknown size), after each part or range.
 * Returns 0 to go on, non-zero to cancel the transfer; once the transfer
 * is cancelled (so, or by its token) it is not called again. */
typedef int (*smithycurl_progress_fn)(void *user_data, long long done, long long total);

/** How a transfer is cut, and its progress callback; NULL for the
 * defaults. Start from SMITHYCURL_TRANSFER_OPTIONS_INIT: size says which
 * fields the caller knows, so that fields added at the end later do not
 * break programs built before them (a size this library does not know is
 * SMITHYCURL_E_INVALID_ARGUMENT; a size that ends after concurrency, as
 * the first version's, leaves progress NULL). Read during the call only. */
typedef struct smithycurl_transfer_options {
    /** sizeof(smithycurl_transfer_options) as the caller was built. */
    size_t size;
    /** Bytes of each part (each ranged GET) but the last; 0 for 8 MiB.
     * S3 refuses parts under 5 MiB but the last. */
    long long part_size;
    /** An upload of fewer bytes is one PutObject; 0 for 8 MiB. Downloads
     * ignore it. */
    long long threshold;
    /** Parts in flight at once; 0 for 10. Memory held is about
     * concurrency x part_size. */
    int concurrency;
    /** Called after each part or range, or NULL; see the threads above. */
    smithycurl_progress_fn progress;
    /** Passed to progress as given, never dereferenced. */
    void *progress_data;
} smithycurl_transfer_options;
/** The defaults, with size set: smithycurl_transfer_options o =
 * SMITHYCURL_TRANSFER_OPTIONS_INIT; o.part_size = 16 << 20; */
#define SMITHYCURL_TRANSFER_OPTIONS_INIT {sizeof(smithycurl_transfer_options), 0, 0, 0, NULL, NULL}

/** Uploads the file at path to bucket/key: one PutObject under
 * opts->threshold bytes, else a multipart upload (CreateMultipartUpload,
 * UploadPart in parallel with a CRC32 per part, the parts read at their
 * offsets, CompleteMultipartUpload), aborted (AbortMultipartUpload) when a
 * part or the completion fails or the transfer is cancelled.
 *
 * @param client an S3 client; shared between threads freely.
 * @param bucket, key the object, UTF-8; path the local file. Read during
 *   the call only.
 * @param opts the part size, threshold, concurrency and progress; NULL for
 *   the defaults.
 * @param cancel a token that cancels the transfer, or NULL.
 * @param out receives the result; on success its output
 *   (smithycurl_result_output()) is the JSON object
 *   {"Size": 10485761, "ETag": "\"...-3\"", "UploadID": "...",
 *   "Parts": 3, "ChecksumCRC32": "...-3"} (UploadID "" and Parts 0 after
 *   one PutObject). Free it with smithycurl_result_free(). NULL only for
 *   SMITHYCURL_E_INVALID_HANDLE, SMITHYCURL_E_INVALID_ARGUMENT (bucket,
 *   key, path or out NULL, a negative option, an unknown opts->size),
 *   SMITHYCURL_E_FORKED and SMITHYCURL_E_INTERNAL.
 * @return SMITHYCURL_OK; SMITHYCURL_E_USAGE (a file that cannot be read,
 *   an empty bucket, key or path; the message names the file);
 *   SMITHYCURL_E_INVALID_UTF8; any call failure (SMITHYCURL_E_SERVICE,
 *   _TRANSPORT, ...) of the first part that failed, the message saying
 *   whether the upload was aborted; SMITHYCURL_E_CANCELLED (the token or
 *   the progress callback). The result's error_* accessors say why.
 * Thread-safety: any thread, concurrently on one client; the callbacks as
 *   the section says.
 *
 *     static int show(void *u, long long done, long long total) {
 *         fprintf(stderr, "%lld/%lld\n", done, total);
 *         return 0;
 *     }
 *     smithycurl_transfer_options o = SMITHYCURL_TRANSFER_OPTIONS_INIT;
 *     o.part_size = 16 << 20;
 *     o.progress = show;
 *     smithycurl_result *r;
 *     if (smithycurl_s3_upload_file(c, "my-bucket", "big.bin", "/tmp/big.bin", &o, NULL, &r) == SMITHYCURL_OK) {
 *         smithycurl_result_output(r, &json, &len);   // {"Size": ...}
 *     }
 *     smithycurl_result_free(r);
 */
smithycurl_code smithycurl_s3_upload_file(smithycurl_client *client, const char *bucket, const char *key,
                                          const char *path, const smithycurl_transfer_options *opts,
                                          smithycurl_cancel_token *cancel, smithycurl_result **out);

/** Downloads bucket/key into the file at path: a HeadObject, then ranged
 * GetObjects of opts->part_size bytes in parallel, written at their
 * offsets into a temporary file beside path, renamed to path once complete
 * (and checked against the object's full-object CRC32/CRC32C when S3 gave
 * one); removed on failure, so path never holds a partial object.
 *
 * Parameters as smithycurl_s3_upload_file() (opts->threshold unused).
 * On success the output is {"Size": 10485761, "ETag": "\"...\"",
 * "Checked": "CRC32"} ("Checked": the checksum verified, "" for none).
 * @return as smithycurl_s3_upload_file(); SMITHYCURL_E_USAGE also when the
 *   file cannot be created; SMITHYCURL_E_SERVICE (NoSuchKey, 404) for a
 *   missing object.
 * Thread-safety: any thread, concurrently on one client; the callbacks as
 *   the section says.
 */
smithycurl_code smithycurl_s3_download_file(smithycurl_client *client, const char *bucket, const char *key,
                                            const char *path, const smithycurl_transfer_options *opts,
                                            smithycurl_cancel_token *cancel, smithycurl_result **out);

/** Uploads to bucket/key what read delivers (a pipe, a socket, a
 * generator), read in order, one part at a time, while the parts before
 * it are sent: one PutObject when it ends before opts->threshold bytes,
 * else a multipart upload as smithycurl_s3_upload_file()'s. Memory held is
 * about (concurrency + 1) x part_size.
 *
 * @param read delivers the bytes (see smithycurl_read_fn) until it
 *   returns 0; -1 fails the transfer (SMITHYCURL_E_USAGE, "the read
 *   callback failed"; the upload aborted). Called on the calling thread.
 * @param read_data passed to read as given, never dereferenced.
 * @param size the bytes read will deliver, or -1 when unknown: with a
 *   size, progress gets it as its total and the part size grows so that
 *   the object fits in S3's 10,000 parts; without one an upload beyond
 *   10,000 parts fails (choose part_size).
 * Other parameters, the output and the codes as smithycurl_s3_upload_file().
 * Thread-safety: any thread, concurrently on one client; the callbacks as
 *   the section says.
 */
smithycurl_code smithycurl_s3_upload(smithycurl_client *client, const char *bucket, const char *key,
                                     smithycurl_read_fn read, void *read_data, long long size,
                                     const smithycurl_transfer_options *opts, smithycurl_cancel_token *cancel,
                                     smithycurl_result **out);

/** Downloads bucket/key to write, in order: ranged GetObjects in parallel
 * as smithycurl_s3_download_file()'s, each range held in memory until the
 * ranges before it were written (about concurrency x part_size bytes).
 *
 * @param write receives the object's bytes in order (see
 *   smithycurl_write_fn); non-zero stops the transfer
 *   (SMITHYCURL_E_USAGE, "the write callback failed"). Called on the
 *   calling thread. On a failure it may have received the object's first
 *   bytes (a checksum that does not match is found after the last).
 * @param write_data passed to write as given, never dereferenced.
 * Other parameters, the output and the codes as
 * smithycurl_s3_download_file().
 * Thread-safety: any thread, concurrently on one client; the callbacks as
 *   the section says.
 */
smithycurl_code smithycurl_s3_download(smithycurl_client *client, const char *bucket, const char *key,
                                       smithycurl_write_fn write, void *write_data,
                                       const smithycurl_transfer_options *opts, smithycurl_cancel_token *cancel,
                                       smithycurl_result **out);

/* ======================================================================
 * Paginators
 *
 * A paginator is a cursor over the pages of a @paginated operation: each
 * request carries the continuation token of the page before (the trait's
 * inputToken from its outputToken, which may be a path like
 * "Result.NextToken"). The pages end when the token is absent, null or
 * empty, or after max_items items.
 *
 *     smithycurl_paginator *pg;
 *     const char *json; size_t n; smithycurl_result *err;
 *     smithycurl_paginator_new(c, "ListTables", "{}", 2, 0, 10, 0, NULL, &pg);
 *     int rc;
 *     while ((rc = smithycurl_paginator_next(pg, &json, &n, &err)) == SMITHYCURL_OK) {
 *         ... one page's output, n bytes at json ...
 *     }
 *     if (rc != SMITHYCURL_E_END) { ... smithycurl_result_error_message(err, &msg); }
 *     smithycurl_result_free(err);   // NULL unless an error
 *     smithycurl_paginator_free(pg);
 * ====================================================================== */

typedef struct smithycurl_paginator smithycurl_paginator;

/** Flags of smithycurl_paginator_new(). */
enum {
    /** smithycurl_paginator_next() gives each item of the trait's items
     * member, one at a time, instead of each page: a list's items as they
     * are, a map's entries as one-member objects {"key": value}. */
    SMITHYCURL_PAGINATE_ITEMS = 1,
    /** When the service returns the token it was sent, end the pages after
     * that page, silently (a "tail" operation), instead of failing with
     * SMITHYCURL_E_DECODE. */
    SMITHYCURL_PAGINATE_STOP_ON_REPEATED_TOKEN = 2
};

/** Creates a paginator for operation with input. Nothing is sent before
 * the first smithycurl_paginator_next().
 *
 * @param client the client; it must outlive the paginator.
 * @param operation the operation's name or absolute id.
 * @param input the first request's input JSON (document form), input_len
 *   bytes; copied (the caller may free it when this returns). NULL with
 *   length 0 for none.
 * @param max_items stop after this many items in all (the page that
 *   reaches it is cut to what is left); 0 for no limit.
 * @param page_size set the trait's pageSize input member to this on every
 *   request (ignored when the operation has none); 0 to leave the input as
 *   it is.
 * @param flags SMITHYCURL_PAGINATE_* or'ed, or 0.
 * @param cancel a cancel token for every request of the paginator, or
 *   NULL; it must outlive the paginator.
 * @param out receives the paginator; free it with
 *   smithycurl_paginator_free().
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_HANDLE (client or cancel);
 *   SMITHYCURL_E_INVALID_ARGUMENT (operation or out NULL, input NULL with a
 *   non-zero length, a negative max_items or page_size, page_size over
 *   2^31-1, an unknown flag); SMITHYCURL_E_NOMEM. Every other problem (an
 *   unknown operation, one that is not @paginated, bad input) is what the
 *   first smithycurl_paginator_next() returns, with its result.
 * Thread-safety: any thread; paginators of one client may be used by
 *   different threads at the same time. */
smithycurl_code smithycurl_paginator_new(smithycurl_client *client, const char *operation, const char *input,
                                         size_t input_len, long long max_items, long long page_size,
                                         unsigned flags, smithycurl_cancel_token *cancel,
                                         smithycurl_paginator **out);

/** Sends the next request and gives its output (or, with
 * SMITHYCURL_PAGINATE_ITEMS, the next item, sending a request only when
 * the page's items are used up).
 *
 * @param json receives the page's output JSON (or the item's), NUL
 *   terminated; owned by the paginator: valid until the next
 *   smithycurl_paginator_next() or smithycurl_paginator_free() of this
 *   paginator, never freed by the caller. NULL unless SMITHYCURL_OK.
 * @param len receives the length of json (may be NULL).
 * @param error receives, when the return is a call failure, a result with
 *   the error (read it with the smithycurl_result_error_* accessors, free
 *   it with smithycurl_result_free()); NULL otherwise.
 * @return SMITHYCURL_OK: a page (or item) in json;
 *   SMITHYCURL_E_END: there are no more pages; not an error, and every
 *   later call returns it too;
 *   a call failure, as smithycurl_call() returns them (SMITHYCURL_E_USAGE
 *   when the operation is not @paginated, SMITHYCURL_E_NOT_FOUND,
 *   SMITHYCURL_E_INVALID_JSON, SMITHYCURL_E_SERVICE, ...; and
 *   SMITHYCURL_E_DECODE when the service sends back the token it was sent),
 *   with *error set: the pages end there (later calls return
 *   SMITHYCURL_E_END);
 *   SMITHYCURL_E_INVALID_HANDLE, SMITHYCURL_E_INVALID_ARGUMENT (json or
 *   error NULL), SMITHYCURL_E_NOMEM; SMITHYCURL_E_USAGE (no result) while
 *   a smithycurl_paginator_next_queued() of the paginator is pending.
 * Thread-safety: one thread at a time per paginator (calls from two
 *   threads are serialized, never crash, and each gets a page, but which
 *   one is unspecified). */
smithycurl_code smithycurl_paginator_next(smithycurl_paginator *paginator, const char **json, size_t *len,
                                          smithycurl_result **error);

/** Frees a paginator and the last page it gave. Results it gave stay
 * valid. A smithycurl_paginator_next_queued() of it still pending is
 * cancelled: it completes once on its queue, with SMITHYCURL_E_CANCELLED
 * (the library keeps what it needs until then).
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE (NULL or freed).
 * Thread-safety: once, from any thread, when no smithycurl_paginator_next()
 *   of it runs. */
smithycurl_code smithycurl_paginator_free(smithycurl_paginator *paginator);

/* ======================================================================
 * Asynchronous calls
 *
 * Many calls in flight without a thread per call: smithycurl_call_async()
 * starts a call and returns at once; its completion comes later, either to
 * a callback (on a library thread) or, with smithycurl_call_queued(), to a
 * completion queue whose file descriptor an event loop (poll, epoll,
 * libuv, asyncio) watches. The calls of a client share one libcurl multi
 * loop (connection reuse, HTTP/2 multiplexing), bounded by
 * smithycurl_options_set_async_limits().
 *
 *     smithycurl_queue *q; int fd;
 *     smithycurl_queue_new(&q);
 *     smithycurl_queue_fd(q, &fd);
 *     for (i = 0; i < n; i++)
 *         smithycurl_call_queued(c, "GetItem", in[i], len[i], NULL, q, &slot[i]);
 *     while (pending > 0) {
 *         struct pollfd p = {fd, POLLIN, 0};
 *         poll(&p, 1, -1);                       // or epoll, libuv, ...
 *         void *tag; smithycurl_code rc; smithycurl_result *r;
 *         while (smithycurl_queue_next(q, 0, &tag, &rc, &r) == SMITHYCURL_OK) {
 *             ... rc and r as smithycurl_call() would give them, for tag ...
 *             smithycurl_result_free(r);
 *             pending--;
 *         }
 *     }
 *     smithycurl_queue_free(q);
 *
 * Every call these functions accept (they return SMITHYCURL_OK) completes
 * exactly once: with its outcome, or with SMITHYCURL_E_CANCELLED when its
 * cancel token is cancelled or its client freed (see
 * smithycurl_client_free()). A call refused at once (another return)
 * never completes.
 *
 * After fork(): a forked child cannot start asynchronous calls or read a
 * queue (SMITHYCURL_E_FORKED, as every function); the calls it inherited
 * from its parent never complete in the child and their memory is not the
 * child's to free (exec() or _exit() it), and the child must not read
 * the queue's file descriptor (it is the parent's, and is closed on
 * exec()). The parent's calls are unaffected: they complete in the parent
 * as usual.
 * ====================================================================== */

/** The completion of an asynchronous call.
 *
 * Called exactly once per call smithycurl_call_async() accepted, on a
 * library thread (never the caller's thread inside smithycurl_call_async();
 * completions of different calls may run at the same time on different
 * threads, in any order).
 *
 * @param user_data as given to smithycurl_call_async(), never dereferenced.
 * @param code what smithycurl_call() would have returned for the call
 *   (SMITHYCURL_OK, a call failure, SMITHYCURL_E_NOT_FOUND,
 *   SMITHYCURL_E_INVALID_JSON, ...; SMITHYCURL_E_CANCELLED after a cancel
 *   or smithycurl_client_free()).
 * @param result the result, as smithycurl_call()'s out: read it with the
 *   smithycurl_result_* accessors. It belongs to the callback: free it
 *   with smithycurl_result_free(), at any time, on any thread (keeping it
 *   after the callback returns is fine). NULL only with SMITHYCURL_E_NOMEM
 *   (the result itself could not be allocated).
 *
 * Calling back into the library from the callback is allowed: any function
 * of this header, including starting new calls (smithycurl_call_async(),
 * smithycurl_call_queued(), even smithycurl_call() on the same client),
 * freeing the result, cancelling tokens, and freeing the client (the
 * client's other calls then complete with SMITHYCURL_E_CANCELLED, on other
 * threads). A callback that blocks (a synchronous call, a lock) holds its
 * thread meanwhile and delays no other completion; keep callbacks short
 * all the same. It must not longjmp out or throw (C++) through the
 * library.
 */
typedef void (*smithycurl_done_fn)(void *user_data, smithycurl_code code, smithycurl_result *result);

/** Starts a call and returns without waiting for it; done receives its
 * outcome later.
 *
 * @param client the client; shared between threads freely.
 * @param operation the operation's name or absolute id; copied.
 * @param input the input JSON in the document form, input_len bytes;
 *   copied before this function returns. NULL with length 0 for none.
 * @param cancel a cancel token, or NULL; it must not be freed before the
 *   call completes (freeing it cancels the call).
 * @param done the completion callback (see smithycurl_done_fn); required.
 * @param user_data passed to done as given.
 * @return SMITHYCURL_OK: the call is accepted and done will be called
 *   exactly once; SMITHYCURL_E_INVALID_HANDLE (client or cancel),
 *   SMITHYCURL_E_INVALID_ARGUMENT (operation or done NULL, input NULL with a
 *   non-zero length), SMITHYCURL_E_FORKED: refused, done is never called.
 *   Everything smithycurl_call() reports with a result (an unknown
 *   operation, bad JSON, a service error, ...) comes to done.
 * Thread-safety: any thread, concurrently on one client, and from
 *   completion callbacks.
 *
 *     static void got(void *ud, smithycurl_code rc, smithycurl_result *r) {
 *         const char *out; size_t n;
 *         if (rc == SMITHYCURL_OK && smithycurl_result_output(r, &out, &n) == SMITHYCURL_OK) { ... }
 *         smithycurl_result_free(r);
 *     }
 *     smithycurl_call_async(c, "GetIp", NULL, 0, NULL, got, ctx);
 */
smithycurl_code smithycurl_call_async(smithycurl_client *client, const char *operation, const char *input,
                                      size_t input_len, smithycurl_cancel_token *cancel, smithycurl_done_fn done,
                                      void *user_data);

/** Completes an asynchronous call that failed before it could start:
 * done(user_data, code, result) is called exactly once, on a library
 * thread, as for smithycurl_call_async(), with the result's code. What a
 * generated typed client's OP_async() does with an input its writer
 * refused (smithycurl_result_new_input_error()), so that the error and its
 * message reach the completion like the library's own input errors.
 *
 * @param client the client the call was for; shared between threads.
 * @param result an error result (code not SMITHYCURL_OK); on
 *   SMITHYCURL_OK it belongs to done, otherwise it stays the caller's.
 * @param done the completion callback (see smithycurl_done_fn); required.
 * @param user_data passed to done as given.
 * @return SMITHYCURL_OK: done will be called exactly once;
 *   SMITHYCURL_E_INVALID_HANDLE (client or result NULL or freed),
 *   SMITHYCURL_E_INVALID_ARGUMENT (done NULL, or a result whose code is
 *   SMITHYCURL_OK), SMITHYCURL_E_FORKED: done is never called.
 * Thread-safety: any thread, concurrently on one client, and from
 *   completion callbacks. */
smithycurl_code smithycurl_complete_async(smithycurl_client *client, smithycurl_result *result, smithycurl_done_fn done,
                                          void *user_data);

/** A completion queue: the pollable form of asynchronous calls, for event
 * loops. Any number of clients may complete calls on one queue. */
typedef struct smithycurl_queue smithycurl_queue;

/** Creates a completion queue; free it with smithycurl_queue_free().
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_ARGUMENT (out NULL);
 *   SMITHYCURL_E_NOMEM (no file descriptor could be made).
 * Thread-safety: any thread. */
smithycurl_code smithycurl_queue_new(smithycurl_queue **out);

/** The queue's file descriptor: readable (level-triggered: POLLIN, EPOLLIN
 * without EPOLLET) while at least one completion waits, until
 * smithycurl_queue_next() has taken the last one. Owned by the queue:
 * never read, write or close it; it is closed by smithycurl_queue_free()
 * (remove it from your epoll set or event loop first), and on exec().
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_ARGUMENT (fd NULL);
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_queue_fd(smithycurl_queue *queue, int *fd);

/** Starts a call as smithycurl_call_async() does, but its completion goes
 * to queue, with tag (passed as given, never dereferenced), to be taken
 * with smithycurl_queue_next().
 * @return as smithycurl_call_async(); SMITHYCURL_E_INVALID_HANDLE also for
 *   a NULL or freed queue.
 * Thread-safety: any thread, concurrently on one client and one queue. */
smithycurl_code smithycurl_call_queued(smithycurl_client *client, const char *operation, const char *input,
                                       size_t input_len, smithycurl_cancel_token *cancel, smithycurl_queue *queue,
                                       void *tag);

/** Starts the next step of a paginator without waiting: the request of
 * the next page (or, with SMITHYCURL_PAGINATE_ITEMS, takes the next item,
 * sending a request only when the page's items are used up), sent through
 * the client's engine like smithycurl_call_queued(). Its completion goes
 * to queue with tag, exactly once, as smithycurl_paginator_next() would
 * have returned:
 *   SMITHYCURL_OK with the page (or item) JSON as the result's output
 *   (smithycurl_result_output());
 *   SMITHYCURL_E_END with a NULL result: there are no more pages (every
 *   later next ends so too);
 *   a call failure with its result (the pages end there);
 *   SMITHYCURL_E_CANCELLED when the paginator's cancel token is
 *   cancelled, or the queue, the client or the paginator is freed, while
 *   it is pending.
 *
 * @param paginator the paginator (smithycurl_paginator_new()); one next at
 *   a time: it stays pending until its completion is on the queue.
 * @param queue the completion queue; its completions are taken with
 *   smithycurl_queue_next().
 * @param tag given back with the completion (any value, NULL included).
 * @return SMITHYCURL_OK: started, it will complete;
 *   SMITHYCURL_E_USAGE at once (nothing started) while a next of this
 *   paginator is pending;
 *   SMITHYCURL_E_INVALID_HANDLE (paginator or queue NULL or freed),
 *   SMITHYCURL_E_FORKED. Nothing is queued unless SMITHYCURL_OK.
 * Thread-safety: any thread; a smithycurl_paginator_next() of the same
 *   paginator meanwhile returns SMITHYCURL_E_USAGE.
 */
smithycurl_code smithycurl_paginator_next_queued(smithycurl_paginator *paginator, smithycurl_queue *queue, void *tag);

/** Takes the oldest completion of the queue, waiting for one up to
 * timeout_ms milliseconds (0: do not wait; -1 or any negative: no limit).
 *
 * @param tag receives the tag given to smithycurl_call_queued() (or to
 *   smithycurl_paginator_next_queued()).
 * @param code receives what smithycurl_call() would have returned for the
 *   call (see smithycurl_done_fn).
 * @param result receives the call's result, which the caller then owns
 *   (free it with smithycurl_result_free(), any time, any thread); NULL
 *   only with SMITHYCURL_E_NOMEM, and for SMITHYCURL_E_END of a
 *   smithycurl_paginator_next_queued() completion.
 * @return SMITHYCURL_OK with *tag, *code and *result set;
 *   SMITHYCURL_E_END when no completion arrived in time (*tag and *result
 *   NULL); SMITHYCURL_E_INVALID_ARGUMENT (a NULL pointer),
 *   SMITHYCURL_E_INVALID_HANDLE, SMITHYCURL_E_FORKED (*tag and *result
 *   NULL when the pointers are not).
 * Thread-safety: any thread, and several threads at once (each completion
 *   goes to one of them); waiting blocks the calling thread only, outside
 *   the library's runtime. Not while smithycurl_queue_free() of the queue
 *   runs.
 */
smithycurl_code smithycurl_queue_next(smithycurl_queue *queue, long timeout_ms, void **tag, smithycurl_code *code,
                                      smithycurl_result **result);

/** Frees a queue: the calls still in flight on it are cancelled, and their
 * results, with those of the completions not yet taken, are freed by the
 * library (their tags are never seen again); its file descriptor is
 * closed. Results already taken stay valid. Calls of the queue's clients
 * on other queues or callbacks are unaffected.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE (NULL or freed).
 * Thread-safety: once, from any thread, when no smithycurl_queue_next() of
 *   it runs (a completion callback may free a queue). */
smithycurl_code smithycurl_queue_free(smithycurl_queue *queue);

/* ======================================================================
 * Blob payloads as bytes
 *
 * An operation's blob payload (a blob bound to @httpPayload, @streaming or
 * not: S3 PutObject's and GetObject's Body, Lambda Invoke's Payload)
 * passed and received as a buffer beside the input and output JSON, never
 * as base64 text. The input's is the request body as it is, sent from the
 * caller's memory (never copied; sent again on a retry), signed and
 * checksummed as a body from the document is. The output's goes into
 * memory the result owns (or hands over): a @streaming one is written
 * there as it arrives (the one copy out of libcurl's buffer; not bounded
 * by the max-response option, and a call that received a byte of it is
 * not retried, as with smithycurl_call_stream()); another is copied there
 * once from the response (bounded, retried as any call). Other blob
 * members stay base64 in the document.
 * ====================================================================== */

/** A call's input payload. Start from SMITHYCURL_PAYLOAD_INIT: size says
 * which fields the caller knows, so that fields added at the end later do
 * not break programs built before them. */
typedef struct smithycurl_payload {
    /** sizeof(smithycurl_payload) of the caller's build; set by the INIT. */
    size_t size;
    /** The input payload's len bytes (len 0: an empty payload); NULL for
     * none given: the payload member of the input JSON, if any, is sent.
     * The input JSON must leave that member out when data is set (an
     * operation with no blob input payload is SMITHYCURL_E_USAGE). */
    const void *data;
    size_t len;
    /** 0, or SMITHYCURL_PAYLOAD_COPY. */
    unsigned flags;
} smithycurl_payload;

#define SMITHYCURL_PAYLOAD_INIT {sizeof(smithycurl_payload), NULL, 0, 0}

/** Asynchronous calls only: data is copied before the function returns.
 * Without it, data is read in place while the call runs and must stay
 * valid and unchanged until the call completes. */
#define SMITHYCURL_PAYLOAD_COPY 1u

/** Calls an operation as smithycurl_call(), with its blob payloads as
 * bytes: the input's from payload, the output's into the result
 * (smithycurl_result_payload(), smithycurl_result_take_payload()), left
 * out of the output JSON.
 *
 * @param payload the input payload, or NULL for none (the output's payload
 *   still comes as bytes). Read during the call only (flags are ignored).
 * Other parameters, the result and the codes are those of
 * smithycurl_call(); SMITHYCURL_E_INVALID_ARGUMENT (out set to NULL) when
 * payload's size or flags are not ones this library knows;
 * SMITHYCURL_E_USAGE when data is given to an operation without a blob
 * input payload, or with the member also in the input JSON.
 * Thread-safety: as smithycurl_call().
 *
 *     smithycurl_payload p = SMITHYCURL_PAYLOAD_INIT;
 *     p.data = buf; p.len = n;
 *     smithycurl_call_payload(c, "PutObject", in, in_len, &p, NULL, &r);
 *     smithycurl_result_free(r);
 *     smithycurl_call_payload(c, "GetObject", in, in_len, NULL, NULL, &r);
 *     smithycurl_result_payload(r, &data, &len);   // the object's bytes
 */
smithycurl_code smithycurl_call_payload(smithycurl_client *client, const char *operation, const char *input,
                                        size_t input_len, const smithycurl_payload *payload,
                                        smithycurl_cancel_token *cancel, smithycurl_result **out);

/** smithycurl_call_async() with the payloads of smithycurl_call_payload().
 * payload's data is read while the call runs (keep it until done is
 * called) unless its flags have SMITHYCURL_PAYLOAD_COPY; the payload
 * struct itself is read before this function returns. Returns as
 * smithycurl_call_async(); SMITHYCURL_E_INVALID_ARGUMENT also for a
 * payload size or flags this library does not know.
 * Thread-safety: as smithycurl_call_async(). */
smithycurl_code smithycurl_call_payload_async(smithycurl_client *client, const char *operation, const char *input,
                                              size_t input_len, const smithycurl_payload *payload,
                                              smithycurl_cancel_token *cancel, smithycurl_done_fn done,
                                              void *user_data);

/** smithycurl_call_queued() with the payloads of smithycurl_call_payload(),
 * payload as for smithycurl_call_payload_async() (keep its data until the
 * completion is taken from the queue, unless SMITHYCURL_PAYLOAD_COPY).
 * Thread-safety: as smithycurl_call_queued(). */
smithycurl_code smithycurl_call_payload_queued(smithycurl_client *client, const char *operation, const char *input,
                                               size_t input_len, const smithycurl_payload *payload,
                                               smithycurl_cancel_token *cancel, smithycurl_queue *queue, void *tag);

/** The output payload of a successful smithycurl_call_payload() (or its
 * _async, _queued forms), owned by the result: valid until
 * smithycurl_result_free(). data is NULL with len 0 when the operation's
 * output has no blob payload (or the call was not made with
 * these functions, or the payload was taken); an empty payload is a
 * non-NULL data with len 0.
 * @return SMITHYCURL_OK; SMITHYCURL_E_NO_OUTPUT (the call failed);
 *   SMITHYCURL_E_INVALID_ARGUMENT (data or len NULL);
 *   SMITHYCURL_E_INVALID_HANDLE.
 * Thread-safety: as the other accessors. */
smithycurl_code smithycurl_result_payload(smithycurl_result *result, const void **data, size_t *len);

/** Hands the output payload over to the caller, without copying it: as
 * smithycurl_result_payload(), but *data is the caller's to free with
 * smithycurl_free() (whatever the result's lifetime), and the result no
 * longer has it (a later smithycurl_result_payload() gives NULL).
 * Thread-safety: not while another thread reads the result's payload. */
smithycurl_code smithycurl_result_take_payload(smithycurl_result *result, void **data, size_t *len);

/* ======================================================================
 * Results
 *
 * Every string and buffer below is owned by the result: valid until
 * smithycurl_result_free(), never freed by the caller. Strings are
 * NUL-terminated ("" when absent, never NULL). Accessors may be called
 * from any thread while the result is not being freed.
 * ====================================================================== */

/** The code smithycurl_call() (or smithycurl_wait()) returned for this result. */
smithycurl_code smithycurl_result_code(smithycurl_result *result, smithycurl_code *code);

/** The output JSON of a successful call (an object, "{}" when the output
 * is empty).
 * @return SMITHYCURL_OK; SMITHYCURL_E_NO_OUTPUT when the call failed
 *   (json and len unchanged); SMITHYCURL_E_INVALID_ARGUMENT (json NULL;
 *   len may be NULL); SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_result_output(smithycurl_result *result, const char **json, size_t *len);

/** The error's kind; SMITHYCURL_KIND_NONE for a successful call. */
smithycurl_code smithycurl_result_error_kind(smithycurl_result *result, smithycurl_error_kind *kind);

/** The HTTP status of the error response (service and decode errors); 0
 * when no response was involved or the call succeeded. */
smithycurl_code smithycurl_result_http_status(smithycurl_result *result, int *status);

/** The id of the error shape the service error matched ("ns#NotFound");
 * "" for unmodeled errors, other kinds and success. */
smithycurl_code smithycurl_result_error_shape(smithycurl_result *result, const char **shape_id);

/** A message for humans: the service's message for service errors, else
 * the library's description (for validation: each violation with its
 * member path). "" on success. */
smithycurl_code smithycurl_result_error_message(smithycurl_result *result, const char **message);

/** The service error's members as a JSON object in the document form
 * (modeled errors), or the response body as received (unmodeled ones);
 * "" (len 0) for other kinds and success. */
smithycurl_code smithycurl_result_error_members(smithycurl_result *result, const char **json, size_t *len);

/** The error type the service named (e.g. "ThrottlingException"); "" when
 * none. */
smithycurl_code smithycurl_result_error_code(smithycurl_result *result, const char **code);

/** The request id the service returned with an error (x-amzn-requestid,
 * x-amz-request-id or x-request-id); "" when none. */
smithycurl_code smithycurl_result_request_id(smithycurl_result *result, const char **request_id);

/** How many times a failed call sent its request (retries included); 0
 * when nothing was sent or the call succeeded. */
smithycurl_code smithycurl_result_attempts(smithycurl_result *result, int *attempts);

/** Whether the server may have received the failed call's request, and
 * so may have acted on it: 1 when a response came back (service and
 * decode errors, waiters), and after a transport failure, timeout or
 * cancellation once the request began to be sent (the message then ends
 * with "(the request may have reached the server)"); 0 when the server
 * certainly did not see it (validation and usage errors, DNS, connect
 * and TLS failures, a call that ended before its request was sent) and
 * for a successful call. A failed call of an operation that is not
 * idempotent took effect only if this is 1; it is never re-sent then.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_ARGUMENT (reached NULL),
 *   SMITHYCURL_E_INVALID_HANDLE. */
smithycurl_code smithycurl_result_may_have_reached(smithycurl_result *result, int *reached);

/** Frees a result and every buffer it owns.
 * @return SMITHYCURL_OK, SMITHYCURL_E_INVALID_HANDLE (NULL or freed).
 * Thread-safety: once, from any thread, when no thread reads it. */
smithycurl_code smithycurl_result_free(smithycurl_result *result);

/** A result refusing an operation's input before anything was sent, as the
 * library's own input errors read: its code is code (an error code), its
 * kind SMITHYCURL_KIND_USAGE, its message "input for NAME: message" (NAME:
 * what follows the '#' of operation, a name or shape id). What a generated
 * typed client puts in *err when its writer fails
 * (smithycurl_json_writer_message()).
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_ARGUMENT (code
 *   SMITHYCURL_OK, a NULL argument); SMITHYCURL_E_NOMEM; SMITHYCURL_E_FORKED.
 *   *out is NULL unless SMITHYCURL_OK; free it with smithycurl_result_free().
 * Thread-safety: any thread. */
smithycurl_code smithycurl_result_new_input_error(smithycurl_code code, const char *operation, const char *message,
                                                  smithycurl_result **out);

/* ======================================================================
 * Stubs (tests of code that calls a client)
 *
 * A stubber answers a client's calls from a queue of outputs and modeled
 * errors instead of the service, as botocore's Stubber: each stub is
 * checked against the model when added (a member the shape lacks, a value
 * of the wrong type, a missing @required member: SMITHYCURL_E_USAGE, the
 * message naming the member path), then rendered as the service's
 * protocol sends it (restJson1, simpleRestJson, awsJson1_0/1_1, rpcv2Json,
 * rpcv2Cbor, restXml, awsQuery, ec2Query), so the client's own decoder reads it: a stubbed output reads
 * exactly as a real one. Calls take the stubs in order; a call to another
 * operation than the next stub's, with another input than it expects, or
 * with none left fails with SMITHYCURL_E_USAGE (the result's message says
 * why) and is reported by smithycurl_stubber_done(). A stubbed call is
 * encoded and checked as any call, never signed (no credentials needed),
 * sent nor retried. Event streams cannot be stubbed.
 *
 *     smithycurl_stubber *s;
 *     smithycurl_stubber_new(client, &s);
 *     smithycurl_stubber_add_response(s, "GetTodo", "{\"id\":\"1\",...}", "{\"id\":\"1\"}");
 *     smithycurl_stubber_activate(s);
 *     smithycurl_call(client, "GetTodo", "{\"id\":\"1\"}", 10, NULL, &r);   // the stub's output
 *     assert(smithycurl_stubber_done(s) == SMITHYCURL_OK);
 *     smithycurl_stubber_free(s);
 * ====================================================================== */

typedef struct smithycurl_stubber smithycurl_stubber;

/** Creates an empty stubber for the service of client, inactive.
 * @return SMITHYCURL_OK; SMITHYCURL_E_USAGE when the service has none
 *   of the protocols listed above;
 *   SMITHYCURL_E_INVALID_HANDLE; SMITHYCURL_E_INVALID_ARGUMENT (out NULL).
 * The stubber holds the client, which must outlive it. Free with
 * smithycurl_stubber_free().
 * Thread-safety: any thread. */
smithycurl_code smithycurl_stubber_new(smithycurl_client *client, smithycurl_stubber **out);

/** Makes the stubber answer its client's calls (activate) until
 * deactivated or freed; the client then calls its service again. A call
 * in flight keeps what it started with.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_stubber_activate(smithycurl_stubber *stubber);
smithycurl_code smithycurl_stubber_deactivate(smithycurl_stubber *stubber);

/** Queues output, the operation's output JSON in the document form (NULL
 * or "{}" for none), as the answer of the next call, which must be to
 * operation (its name or absolute id). expected_input, when not NULL,
 * makes that call fail unless its input has the same JSON values (object
 * keys in any order).
 * @return SMITHYCURL_OK; SMITHYCURL_E_USAGE (a value the model refuses,
 *   the detail in smithycurl_stubber_errmsg()); SMITHYCURL_E_NOT_FOUND (no
 *   such operation); SMITHYCURL_E_INVALID_UTF8; SMITHYCURL_E_INVALID_JSON;
 *   SMITHYCURL_E_INVALID_ARGUMENT (operation NULL);
 *   SMITHYCURL_E_INVALID_HANDLE. The strings are copied.
 * Thread-safety: any thread, concurrently with calls. */
smithycurl_code smithycurl_stubber_add_response(smithycurl_stubber *stubber, const char *operation, const char *output,
                                                const char *expected_input);

/** Queues the modeled error error_shape (its name or absolute id: one of
 * the operation's errors or the service's) with members (JSON in the
 * document form, NULL for none) as the answer of the next call, which must
 * be to operation; http_status replaces the error's status (0: its
 * @httpError, else 400 or 500). The call fails with SMITHYCURL_E_SERVICE
 * and the error's shape, members and status, as the service's would.
 * @return as smithycurl_stubber_add_response(); SMITHYCURL_E_USAGE too
 *   when error_shape is not an error of the operation (the message lists
 *   them) or http_status is not 0 nor 100..599.
 * Thread-safety: any thread, concurrently with calls. */
smithycurl_code smithycurl_stubber_add_error(smithycurl_stubber *stubber, const char *operation,
                                             const char *error_shape, const char *members, int http_status,
                                             const char *expected_input);

/** Sets *count to the number of stubs no call has taken yet.
 * Thread-safety: any thread. */
smithycurl_code smithycurl_stubber_pending(smithycurl_stubber *stubber, size_t *count);

/** Checks that every stub was taken and every call matched one.
 * @return SMITHYCURL_OK; SMITHYCURL_E_USAGE otherwise, the stubs left and
 *   the calls refused in smithycurl_stubber_errmsg().
 * Thread-safety: any thread. */
smithycurl_code smithycurl_stubber_done(smithycurl_stubber *stubber);

/** Copies the message of the stubber's last failure; caller frees with
 * smithycurl_free(). */
smithycurl_code smithycurl_stubber_errmsg(smithycurl_stubber *stubber, char **msg);

/** Deactivates and frees the stubber.
 * Thread-safety: any thread, once, when no other function uses it. */
smithycurl_code smithycurl_stubber_free(smithycurl_stubber *stubber);

/* ======================================================================
 * Mock servers
 *
 * A mock of a service from its model, in the service's protocol, on
 * 127.0.0.1 (a free port): what `smithycurl serve` runs, in the process,
 * for a test of code that calls the service (see the README's "Mock
 * server"). It routes each request to its operation, validates the input
 * against the model (a refused one gets the protocol's validation error)
 * and answers from the fixtures (per operation, the first entry whose
 * "match" the input meets: an output or a modeled error), else from the
 * operation's @examples, else with a random output valid by the model,
 * the same for the same request and seed. The requests are served on the
 * library's threads, so the program's own clients may call it from any
 * thread, the one that started it too.
 *
 *     smithycurl_mock *mock; const char *url;
 *     smithycurl_mock_start(model, NULL, NULL, &mock, &url);
 *     smithycurl_client_new(model, NULL, url, NULL, &client);
 *     ...
 *     smithycurl_mock_stop(mock);
 * ====================================================================== */

typedef struct smithycurl_mock smithycurl_mock;

/** What a mock answers with; NULL for the defaults. Start from
 * SMITHYCURL_MOCK_OPTIONS_INIT: size says which fields the caller knows,
 * so that fields added at the end later do not break programs built
 * before them (a size this library does not know is
 * SMITHYCURL_E_INVALID_ARGUMENT). Read during smithycurl_mock_start()
 * only. */
typedef struct smithycurl_mock_options {
    /** sizeof(smithycurl_mock_options) as the caller was built. */
    size_t size;
    /** Path of a fixtures file (JSON, the format in the README's "Mock
     * server"), or NULL. */
    const char *fixtures_file;
    /** The same as JSON text, or NULL; consulted after fixtures_file. */
    const char *fixtures_json;
    /** Seed of the random outputs. */
    long long seed;
    /** Largest request body in bytes (a larger one is answered 413); 0 for
     * 16 MiB. */
    long long max_body;
} smithycurl_mock_options;
/** The defaults, with size set: smithycurl_mock_options o =
 * SMITHYCURL_MOCK_OPTIONS_INIT; o.fixtures_file = "fixtures.json"; */
#define SMITHYCURL_MOCK_OPTIONS_INIT {sizeof(smithycurl_mock_options), NULL, NULL, 0, 0}

/** Starts a mock of service service_id of model (NULL: the model's only
 * service) listening on 127.0.0.1, port chosen by the system.
 *
 * @param model read during the call only: the mock keeps what it needs,
 *   so the model may be freed while the mock runs.
 * @param options the fixtures, seed and body bound; NULL for none and the
 *   defaults. Every fixture is checked against the model here.
 * @param out receives the mock; stop it with smithycurl_mock_stop(). NULL
 *   on failure.
 * @param url receives the mock's base URL, "http://127.0.0.1:PORT" (for
 *   smithycurl_client_new()), or NULL when not wanted. Owned by the mock:
 *   valid until smithycurl_mock_stop(); never free it.
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_HANDLE (model);
 *   SMITHYCURL_E_INVALID_ARGUMENT (out NULL, a negative max_body, an
 *   unknown options->size); SMITHYCURL_E_NOT_FOUND (no such service);
 *   SMITHYCURL_E_INVALID_UTF8; SMITHYCURL_E_INVALID_JSON (fixtures_json);
 *   SMITHYCURL_E_USAGE (a fixture the model refuses, an unreadable
 *   fixtures file, a protocol the mock does not serve);
 *   SMITHYCURL_E_TRANSPORT (no port to listen on). The detail, naming the
 *   file, operation, entry and member at fault, goes to
 *   smithycurl_model_errmsg(model).
 * Thread-safety: any thread; the model may be used by others meanwhile. */
smithycurl_code smithycurl_mock_start(smithycurl_model *model, const char *service_id,
                                      const smithycurl_mock_options *options, smithycurl_mock **out,
                                      const char **url);

/** Stops the mock: it stops listening, waits up to 5 s for the requests
 * it is answering, closes its connections and frees the mock and its URL.
 * @return SMITHYCURL_OK; SMITHYCURL_E_INVALID_HANDLE (NULL, or already
 *   stopped).
 * Thread-safety: any thread, once, when no other function uses it; not
 *   from a callback of a call to this mock. */
smithycurl_code smithycurl_mock_stop(smithycurl_mock *mock);

/* ======================================================================
 * Typed clients: the runtime of generated code
 *
 * `smithycurl gen c` writes NAME.h and NAME.c, a typed C client of one
 * service (structs, enums, unions, one function per operation). The code
 * it generates exchanges values with the library through the functions
 * below: a writer of the document-form JSON that smithycurl_call() takes,
 * and a pull reader of the output JSON a result holds. They are plain C:
 * they never enter the Go runtime, need no handle, work in a forked child,
 * and are safe on any thread as long as each writer and reader is used by
 * one thread at a time. Programs may use them directly too, e.g. to read
 * an output without a JSON library.
 *
 * Memory: strings, blobs and copies the reader returns are allocated with
 * malloc(); free them with free() (or smithycurl_free()). A function that
 * stores into a `char **` or a blob first frees what it held, so the
 * target must be NULL or a malloc'ed buffer.
 * ====================================================================== */


/** A blob: data NULL means absent (an empty blob read from JSON has a
 * non-NULL data and len 0). */
typedef struct smithycurl_blob {
    unsigned char *data;
    size_t len;
} smithycurl_blob;

/** An instant: seconds since 1970-01-01T00:00:00Z (negative before) and
 * nanoseconds, 0..999999999, added to them. */
typedef struct smithycurl_timestamp {
    long long seconds;
    int nanos;
} smithycurl_timestamp;

/** Writes one JSON value. Set up with smithycurl_json_writer_init(); the
 * text is at buf (NUL-terminated), len bytes, after the last call; release
 * it with smithycurl_json_writer_reset(). Errors are sticky: once a call
 * fails, the others do nothing, smithycurl_json_writer_status() says why
 * and smithycurl_json_writer_message() names the member path, the value and
 * what was expected (buf holds that message instead of the text). The
 * fields are read-only for callers; small values are written into
 * inline_buf without allocating. */
typedef struct smithycurl_json_writer {
    char *buf;
    size_t len;
    size_t cap;
    int status;     /* a smithycurl_code: SMITHYCURL_OK until a call fails */
    int need_comma; /* private */
    int depth;      /* private */
    char inline_buf[512];
} smithycurl_json_writer;

void smithycurl_json_writer_init(smithycurl_json_writer *w);
/** Frees the buffer and starts over (init again). NULL is ignored. */
void smithycurl_json_writer_reset(smithycurl_json_writer *w);
/** SMITHYCURL_OK; SMITHYCURL_E_NOMEM; SMITHYCURL_E_INVALID_ARGUMENT (a
 * NULL key, a blob with NULL data and a length, a timestamp outside years
 * 1..9999 or with nanos out of range, a number text that is not a JSON
 * number, an enum or intEnum value outside its C enum, nesting deeper than
 * 1000 - a cycle of pointers, smithycurl_json_writer_fail());
 * SMITHYCURL_E_INVALID_JSON (smithycurl_json_raw() of malformed text). */
int smithycurl_json_writer_status(const smithycurl_json_writer *w);
/** Why the writer failed: "member PATH: what" (PATH in the document form,
 * e.g. items[2].bigInt, read from the text written so far), e.g.
 * "member bigInt: \"12abc\" is not a decimal number ..."; "" while it has
 * not failed (and for NULL). Owned by w: valid until its next reset. */
const char *smithycurl_json_writer_message(const smithycurl_json_writer *w);
/** Fails the writer with code (SMITHYCURL_E_INVALID_ARGUMENT for
 * SMITHYCURL_OK) before the value that is about to be written, what saying
 * why ("union tag 9 is outside 0 to 6"); the message adds the member path.
 * Does nothing once the writer has failed. */
void smithycurl_json_writer_fail(smithycurl_json_writer *w, int code, const char *what);
void smithycurl_json_begin_object(smithycurl_json_writer *w);
void smithycurl_json_end_object(smithycurl_json_writer *w);
void smithycurl_json_begin_array(smithycurl_json_writer *w);
void smithycurl_json_end_array(smithycurl_json_writer *w);
/** An object key (escaped as needed); the value follows. */
void smithycurl_json_key(smithycurl_json_writer *w, const char *name);
/** A NUL-terminated UTF-8 string (NULL writes null). The bytes are copied
 * as they are: the library checks UTF-8 when it reads the input. */
void smithycurl_json_string(smithycurl_json_writer *w, const char *s);
void smithycurl_json_null(smithycurl_json_writer *w);
void smithycurl_json_bool(smithycurl_json_writer *w, int v);
void smithycurl_json_int(smithycurl_json_writer *w, long long v);
/** The shortest decimal that reads back as v; NaN and infinities as the
 * strings "NaN", "Infinity", "-Infinity". Independent of the locale. */
void smithycurl_json_double(smithycurl_json_writer *w, double v);
void smithycurl_json_float(smithycurl_json_writer *w, float v);
/** Base64 (standard alphabet, padded). */
void smithycurl_json_blob(smithycurl_json_writer *w, const smithycurl_blob *b);
/** An RFC 3339 UTC string with every nanosecond kept. */
void smithycurl_json_timestamp(smithycurl_json_writer *w, smithycurl_timestamp t);
/** A number given as its decimal text ("-12.5e3"), every digit kept: for
 * bigInteger and bigDecimal (NULL writes null). */
void smithycurl_json_number_text(smithycurl_json_writer *w, const char *s);
/** One JSON value given as text, e.g. a document (NULL writes null); it is
 * checked to be exactly one well-formed value. */
void smithycurl_json_raw(smithycurl_json_writer *w, const char *json);
/** An enum's value: values[value-1] when 1 <= value <= count, unknown when
 * value is 0 (NULL writes null); any other value fails the writer. */
void smithycurl_json_enum(smithycurl_json_writer *w, const char *const *values, int count, int value,
                          const char *unknown);
/** An intEnum's value: values[value-1] when 1 <= value <= count, unknown
 * when value is 0; any other value fails the writer. */
void smithycurl_json_int_enum(smithycurl_json_writer *w, const long long *values, int count, int value,
                              long long unknown);

/** The type of the next value (SMITHYCURL_JSON_NONE: end of input or an
 * error). */
typedef enum smithycurl_json_type {
    SMITHYCURL_JSON_NONE = 0,
    SMITHYCURL_JSON_NULL,
    SMITHYCURL_JSON_BOOL,
    SMITHYCURL_JSON_NUMBER,
    SMITHYCURL_JSON_STRING,
    SMITHYCURL_JSON_ARRAY,
    SMITHYCURL_JSON_OBJECT
} smithycurl_json_type;

/** Reads JSON text one value at a time, without copying it: the text must
 * outlive the reader (e.g. a result's output). Errors are sticky: once a
 * read fails, the others fail too. The fields are private. No cleanup is
 * needed.
 *
 *     smithycurl_json_reader r; const char *k; size_t n; int more;
 *     smithycurl_json_reader_init(&r, json, len);
 *     if (smithycurl_json_enter_object(&r) != SMITHYCURL_OK) ...;
 *     while ((more = smithycurl_json_next_key(&r, &k, &n)) == 1) {
 *         if (n == 2 && memcmp(k, "id", 2) == 0) rc = smithycurl_json_read_string(&r, &id);
 *         else rc = smithycurl_json_skip(&r);
 *     }                                   // more: 0 at '}', -1 malformed
 */
typedef struct smithycurl_json_reader {
    const char *p;
    const char *end;
    int status;
    int depth;
    int first;
} smithycurl_json_reader;

void smithycurl_json_reader_init(smithycurl_json_reader *r, const char *json, size_t len);
/** SMITHYCURL_OK when only white space is left; else SMITHYCURL_E_DECODE. */
int smithycurl_json_reader_end(smithycurl_json_reader *r);
smithycurl_json_type smithycurl_json_peek(smithycurl_json_reader *r);
/** 1 and consumes it when the next value is null; else 0. */
int smithycurl_json_read_null(smithycurl_json_reader *r);
/** Enters the object or array that comes next: SMITHYCURL_OK, or
 * SMITHYCURL_E_DECODE (something else, or nesting deeper than 1000). */
int smithycurl_json_enter_object(smithycurl_json_reader *r);
int smithycurl_json_enter_array(smithycurl_json_reader *r);
/** Moves to the next member of the object entered last: 1 with its key (a
 * pointer into the text, escapes not decoded, not NUL-terminated) - read or
 * skip its value next; 0 at the end of the object (consumed); -1 when the
 * text is malformed. */
int smithycurl_json_next_key(smithycurl_json_reader *r, const char **key, size_t *len);
/** As smithycurl_json_next_key(), the key decoded into a malloc'ed
 * NUL-terminated string (for map keys). */
int smithycurl_json_next_key_dup(smithycurl_json_reader *r, char **key);
/** Moves to the next item of the array entered last: 1 (read it next), 0
 * at the end (consumed), -1 when malformed. */
int smithycurl_json_next_item(smithycurl_json_reader *r);
/* The value readers return SMITHYCURL_OK, SMITHYCURL_E_DECODE (the next
 * value is not of that type or out of range) or SMITHYCURL_E_NOMEM, or
 * SMITHYCURL_E_INVALID_ARGUMENT for NULL pointers. */
int smithycurl_json_read_bool(smithycurl_json_reader *r, int *v);
/** An integer (no fraction, no exponent) in min..max. */
int smithycurl_json_read_int(smithycurl_json_reader *r, long long min, long long max, long long *v);
/** A number, or "NaN", "Infinity", "-Infinity". */
int smithycurl_json_read_double(smithycurl_json_reader *r, double *v);
/** A string, decoded and NUL-terminated, into *v (malloc'ed). */
int smithycurl_json_read_string(smithycurl_json_reader *r, char **v);
/** A string that is one of values[0..count): *value = its index + 1 and
 * *unknown = NULL; any other string: *value = 0 and *unknown = a copy. */
int smithycurl_json_read_enum(smithycurl_json_reader *r, const char *const *values, int count, int *value,
                              char **unknown);
/** An integer that is one of values[0..count): *value = its index + 1,
 * *unknown = 0; another 32-bit integer: *value = 0, *unknown = it. */
int smithycurl_json_read_int_enum(smithycurl_json_reader *r, const long long *values, int count, int *value,
                                  long long *unknown);
/** A base64 string (standard or URL alphabet, padding optional). */
int smithycurl_json_read_blob(smithycurl_json_reader *r, smithycurl_blob *v);
/** An RFC 3339 string (any offset) or epoch seconds (fraction kept to the
 * nanosecond). */
int smithycurl_json_read_timestamp(smithycurl_json_reader *r, smithycurl_timestamp *v);
/** A number (or a string holding one) as its decimal text, every digit. */
int smithycurl_json_read_number_text(smithycurl_json_reader *r, char **v);
/** The next value, whatever it is, as a copy of its JSON text. */
int smithycurl_json_read_raw(smithycurl_json_reader *r, char **v);
/** Skips the next value. */
int smithycurl_json_skip(smithycurl_json_reader *r);
/** Grows an array of elem_size-byte items: realloc to twice *cap (4 when 0),
 * the new items zeroed; returns the new pointer and updates *cap, or NULL
 * (out of memory; items still valid and unchanged). */
void *smithycurl_json_grow(void *items, size_t *cap, size_t elem_size);

#ifdef __cplusplus
}
#endif

#endif /* SMITHYCURL_H */
