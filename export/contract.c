// smithycurl_strerror and smithycurl_error_kind_name: pure C, usable in a
// forked child. generated from internal/contract by `make contract`; do not edit.

#include "smithycurl.h"

const char *smithycurl_strerror(smithycurl_code code) {
    switch (code) {
    case SMITHYCURL_OK: return "ok";
    case SMITHYCURL_E_INVALID_ARGUMENT: return "invalid argument";
    case SMITHYCURL_E_INVALID_HANDLE: return "invalid handle (NULL, freed, or of another type)";
    case SMITHYCURL_E_INVALID_UTF8: return "invalid UTF-8";
    case SMITHYCURL_E_INVALID_JSON: return "invalid JSON";
    case SMITHYCURL_E_NOT_FOUND: return "not found";
    case SMITHYCURL_E_LOAD: return "the model has errors";
    case SMITHYCURL_E_NO_OUTPUT: return "the result holds an error, not an output";
    case SMITHYCURL_E_USAGE: return "usage error";
    case SMITHYCURL_E_VALIDATION: return "a required member is missing, or the input breaks the model's constraints";
    case SMITHYCURL_E_SERVICE: return "the service returned an error";
    case SMITHYCURL_E_TRANSPORT: return "transport error (no complete response)";
    case SMITHYCURL_E_TIMEOUT: return "timeout";
    case SMITHYCURL_E_CANCELLED: return "cancelled";
    case SMITHYCURL_E_DECODE: return "the response could not be decoded";
    case SMITHYCURL_E_FORKED: return "smithycurl cannot be used in a child process after fork()";
    case SMITHYCURL_E_NOMEM: return "out of memory";
    case SMITHYCURL_E_INTERNAL: return "internal error (a bug in smithycurl)";
    case SMITHYCURL_E_WAITER_FAILURE: return "the waiter reached its failure state";
    case SMITHYCURL_E_WAITER_TIMEOUT: return "the waiter did not succeed within the time allowed";
    case SMITHYCURL_E_END: return "no more events or pages";
    }
    return "unknown code";
}

const char *smithycurl_error_kind_name(smithycurl_error_kind kind) {
    switch (kind) {
    case SMITHYCURL_KIND_NONE: return "none";
    case SMITHYCURL_KIND_USAGE: return "usage";
    case SMITHYCURL_KIND_VALIDATION: return "validation";
    case SMITHYCURL_KIND_SERVICE: return "service";
    case SMITHYCURL_KIND_TRANSPORT: return "transport";
    case SMITHYCURL_KIND_TIMEOUT: return "timeout";
    case SMITHYCURL_KIND_CANCELLED: return "cancelled";
    case SMITHYCURL_KIND_DECODE: return "decode";
    case SMITHYCURL_KIND_WAITER_FAILURE: return "waiter_failure";
    case SMITHYCURL_KIND_WAITER_TIMEOUT: return "waiter_timeout";
    }
    return "unknown";
}
