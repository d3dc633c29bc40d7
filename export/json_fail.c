// How the JSON writer of generated C clients fails: the message naming the
// member path, read back from the text written so far, that a typed call
// hands to its caller (smithycurl_json_writer_message(),
// smithycurl_result_new_input_error()). Pure C, allocates nothing.

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scj.h"

// The innermost path components kept; a deeper path starts with "...".
#define SCJ_PATH_COMPONENTS 32

typedef struct {
    size_t off, len; // a key: its escaped text in the buffer
    size_t index;    // an item of a list
    int is_key;
} scj_component;

// string_start is the offset of the opening quote of the string whose
// closing quote is at q.
static size_t string_start(const char *s, size_t q) {
    size_t j = q;
    while (j > 0) {
        j--;
        if (s[j] != '"') continue;
        size_t k = j, slashes = 0;
        while (k > 0 && s[k - 1] == '\\') {
            k--;
            slashes++;
        }
        if (slashes % 2 == 0) return j;
    }
    return 0;
}

static int is_identifier(const char *s, size_t n) {
    if (n == 0 || (s[0] >= '0' && s[0] <= '9')) return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return 0;
    }
    return 1;
}

// append appends to out (cap bytes, at *n) what fits.
static void append(char *out, size_t cap, size_t *n, const char *s, size_t len) {
    if (*n + 1 >= cap) return;
    if (len > cap - 1 - *n) len = cap - 1 - *n;
    memcpy(out + *n, s, len);
    *n += len;
    out[*n] = 0;
}

// member_path writes into out the path of the value w is about to write:
// "a.b[2][\"k x\"]" (document-form names), "" at the top level. Each level
// is found by walking back over the text: the key just before a ':' that
// precedes where the level's value starts, the items before it of a list.
static void member_path(const smithycurl_json_writer *w, char *out, size_t cap) {
    scj_component comps[SCJ_PATH_COMPONENTS];
    size_t ncomps = 0, levels = 0, p = w->len, n = 0;
    const char *s = w->buf;
    int innermost = 1;
    out[0] = 0;
    while (p > 0) {
        scj_component c = {0, 0, 0, 0};
        if (s[p - 1] == ':' && p >= 2 && s[p - 2] == '"') {
            size_t q = string_start(s, p - 2);
            c.is_key = 1;
            c.off = q + 1;
            c.len = p - 2 - (q + 1);
        }
        // Back to the bracket that opens this level, counting its items.
        size_t i = p, commas = 0;
        int depth = 0, opened = 0;
        char open = 0;
        while (i > 0 && !opened) {
            char ch = s[--i];
            switch (ch) {
            case '"': i = string_start(s, i); break;
            case '}':
            case ']': depth++; break;
            case '{':
            case '[':
                if (depth == 0) {
                    opened = 1;
                    open = ch;
                } else {
                    depth--;
                }
                break;
            case ',':
                if (depth == 0) commas++;
                break;
            default: break;
            }
        }
        if (!opened) break;
        if (open == '[') {
            c.is_key = 0;
            c.index = commas + (innermost && w->need_comma ? 1 : 0);
        }
        if (open == '[' || c.is_key) {
            if (ncomps < SCJ_PATH_COMPONENTS) comps[ncomps++] = c;
            levels++;
        }
        innermost = 0;
        p = i;
    }
    int first = 1;
    if (levels > ncomps) append(out, cap, &n, "...", 3);
    for (size_t k = ncomps; k > 0; k--, first = 0) {
        const scj_component *c = &comps[k - 1];
        char idx[32];
        if (!c->is_key) {
            int m = snprintf(idx, sizeof idx, "[%zu]", c->index);
            append(out, cap, &n, idx, (size_t)m);
        } else if (is_identifier(s + c->off, c->len)) {
            if (!first) append(out, cap, &n, ".", 1);
            append(out, cap, &n, s + c->off, c->len);
        } else {
            append(out, cap, &n, "[\"", 2);
            append(out, cap, &n, s + c->off, c->len);
            append(out, cap, &n, "\"]", 2);
        }
    }
}

void scj_fail(smithycurl_json_writer *w, int code, const char *what) {
    char msg[sizeof w->inline_buf], path[256];
    if (!w || w->status != SMITHYCURL_OK) return;
    w->status = code;
    if (!what) what = code == SMITHYCURL_E_NOMEM ? "out of memory" : "invalid value";
    path[0] = 0;
    if (code != SMITHYCURL_E_NOMEM) member_path(w, path, sizeof path);
    if (path[0]) snprintf(msg, sizeof msg, "member %s: %s", path, what);
    else snprintf(msg, sizeof msg, "%s", what);
    // The text is of no use once the writer failed: it becomes the message.
    if (w->buf && w->buf != w->inline_buf) free(w->buf);
    w->buf = w->inline_buf;
    w->cap = sizeof w->inline_buf;
    w->len = strlen(msg);
    memcpy(w->inline_buf, msg, w->len + 1);
}

void scj_quote(char *out, size_t cap, const char *s, size_t max) {
    static const char hex[] = "0123456789abcdef";
    size_t n = 0, len = strlen(s);
    append(out, cap, &n, "\"", 1);
    for (size_t i = 0; i < len && i < max; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\') {
            append(out, cap, &n, (const char *)&c, 1);
        } else if (c == '"' || c == '\\') {
            char e[2] = {'\\', (char)c};
            append(out, cap, &n, e, 2);
        } else {
            char e[4] = {'\\', 'x', hex[c >> 4], hex[c & 15]};
            append(out, cap, &n, e, 4);
        }
    }
    append(out, cap, &n, "\"", 1);
    if (len > max) append(out, cap, &n, "...", 3);
}

void smithycurl_json_writer_fail(smithycurl_json_writer *w, int code, const char *what) {
    if (!w) return;
    scj_fail(w, code == SMITHYCURL_OK ? SMITHYCURL_E_INVALID_ARGUMENT : code, what);
}

const char *smithycurl_json_writer_message(const smithycurl_json_writer *w) {
    if (!w || w->status == SMITHYCURL_OK) return "";
    return w->buf;
}
