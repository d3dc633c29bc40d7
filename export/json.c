// The JSON runtime of generated C clients (smithycurl gen c): a writer of
// the document form and a pull reader of the library's output, declared in
// include/smithycurl.h ("Typed clients"). Pure C: nothing here enters the Go
// runtime, allocates from Go, or touches global state, so every function
// works on any thread and in a forked child.

#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "scj.h"
#include "smithycurl.h"

// Deeper nesting than this fails (a cycle of pointers in an input, or a
// hostile document), instead of overflowing the stack of the recursive
// generated code.
#define SCJ_MAX_DEPTH 1000

// ======================================================================
// Writer
// ======================================================================

void smithycurl_json_writer_init(smithycurl_json_writer *w) {
    if (!w) return;
    memset(w, 0, sizeof *w);
    w->buf = w->inline_buf;
    w->cap = sizeof w->inline_buf;
}

void smithycurl_json_writer_reset(smithycurl_json_writer *w) {
    if (!w) return;
    if (w->buf && w->buf != w->inline_buf) free(w->buf);
    smithycurl_json_writer_init(w);
}

int smithycurl_json_writer_status(const smithycurl_json_writer *w) {
    if (!w) return SMITHYCURL_E_INVALID_ARGUMENT;
    return w->status;
}

// w_fail fails w: what names the problem, the message adds the member path
// (export/json_fail.c).
static void w_fail(smithycurl_json_writer *w, int code, const char *what) { scj_fail(w, code, what); }

// The library reads the input in place, and Go's string hashing and byte
// search read whole 16-byte blocks that may pass the end of the text: the
// buffer always has this many initialized bytes after it (the inline buffer
// is zeroed by init, grown parts here), so those reads stay inside the block.
#define SCJ_SLACK 32

// w_reserve makes room for n more bytes and the NUL, plus the slack.
static int w_reserve(smithycurl_json_writer *w, size_t n) {
    if (w->status) return 0;
    if (w->len + n + 1 + SCJ_SLACK <= w->cap) return 1;
    size_t cap = w->cap ? w->cap : 256;
    while (cap < w->len + n + 1 + SCJ_SLACK) {
        if (cap > SIZE_MAX / 2) {
            w_fail(w, SMITHYCURL_E_NOMEM, NULL);
            return 0;
        }
        cap *= 2;
    }
    char *p;
    if (w->buf == w->inline_buf) {
        p = malloc(cap);
        if (p) memcpy(p, w->buf, w->len);
    } else {
        p = realloc(w->buf, cap);
    }
    if (!p) {
        w_fail(w, SMITHYCURL_E_NOMEM, NULL);
        return 0;
    }
    memset(p + w->len, 0, cap - w->len);
    w->buf = p;
    w->cap = cap;
    return 1;
}

static void w_put(smithycurl_json_writer *w, const char *s, size_t n) {
    if (!w_reserve(w, n)) return;
    memcpy(w->buf + w->len, s, n);
    w->len += n;
    w->buf[w->len] = 0;
}

static void w_byte(smithycurl_json_writer *w, char c) {
    if (!w_reserve(w, 1)) return;
    w->buf[w->len++] = c;
    w->buf[w->len] = 0;
}

// w_value starts a value: the comma between items of an array.
static int w_value(smithycurl_json_writer *w) {
    if (!w || w->status) return 0;
    if (w->need_comma) w_byte(w, ',');
    w->need_comma = 1;
    return w->status == SMITHYCURL_OK;
}

static void w_open(smithycurl_json_writer *w, char c) {
    if (!w || w->status) return;
    if (w->depth + 1 > SCJ_MAX_DEPTH) {
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, "nested deeper than 1000 levels (a cycle of pointers?)");
        return;
    }
    if (!w_value(w)) return;
    w->depth++;
    w_byte(w, c);
    w->need_comma = 0;
}

static void w_close(smithycurl_json_writer *w, char c) {
    if (!w || w->status) return;
    w->depth--;
    w_byte(w, c);
    w->need_comma = 1;
}

void smithycurl_json_begin_object(smithycurl_json_writer *w) { w_open(w, '{'); }
void smithycurl_json_end_object(smithycurl_json_writer *w) { w_close(w, '}'); }
void smithycurl_json_begin_array(smithycurl_json_writer *w) { w_open(w, '['); }
void smithycurl_json_end_array(smithycurl_json_writer *w) { w_close(w, ']'); }

static void w_quoted(smithycurl_json_writer *w, const char *s, size_t n) {
    static const char hex[] = "0123456789abcdef";
    size_t start = 0;
    w_byte(w, '"');
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)s[i];
        if (c >= 0x20 && c != '"' && c != '\\') continue;
        w_put(w, s + start, i - start);
        start = i + 1;
        switch (c) {
        case '"': w_put(w, "\\\"", 2); break;
        case '\\': w_put(w, "\\\\", 2); break;
        case '\n': w_put(w, "\\n", 2); break;
        case '\r': w_put(w, "\\r", 2); break;
        case '\t': w_put(w, "\\t", 2); break;
        default: {
            char u[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 15]};
            w_put(w, u, 6);
        }
        }
    }
    w_put(w, s + start, n - start);
    w_byte(w, '"');
}

void smithycurl_json_key(smithycurl_json_writer *w, const char *name) {
    if (!w || w->status) return;
    if (!name) {
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, "a map key is NULL");
        return;
    }
    if (w->need_comma) w_byte(w, ',');
    w_quoted(w, name, strlen(name));
    w_byte(w, ':');
    w->need_comma = 0;
}

void smithycurl_json_string(smithycurl_json_writer *w, const char *s) {
    if (!s) {
        smithycurl_json_null(w);
        return;
    }
    if (!w_value(w)) return;
    w_quoted(w, s, strlen(s));
}

void smithycurl_json_null(smithycurl_json_writer *w) {
    if (w_value(w)) w_put(w, "null", 4);
}

void smithycurl_json_bool(smithycurl_json_writer *w, int v) {
    if (w_value(w)) w_put(w, v ? "true" : "false", v ? 4 : 5);
}

void smithycurl_json_int(smithycurl_json_writer *w, long long v) {
    char tmp[24];
    char *p = tmp + sizeof tmp;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    if (!w_value(w)) return;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0) *--p = '-';
    w_put(w, p, (size_t)(tmp + sizeof tmp - p));
}

// c_locale_number rewrites the locale's decimal point in a printf'ed or
// to-be-strtod'ed number: JSON always uses '.'.
static void fix_decimal_point(char *s, int to_json) {
    const char *dp = localeconv()->decimal_point;
    if (!dp || (dp[0] == '.' && dp[1] == 0) || dp[1] != 0) return;
    for (; *s; s++) {
        if (to_json && *s == dp[0]) *s = '.';
        else if (!to_json && *s == '.') *s = dp[0];
    }
}

static void w_float(smithycurl_json_writer *w, double v, int single) {
    char tmp[40];
    if (!w_value(w)) return;
    if (isnan(v)) {
        w_put(w, "\"NaN\"", 5);
        return;
    }
    if (isinf(v)) {
        if (v > 0) w_put(w, "\"Infinity\"", 10);
        else w_put(w, "\"-Infinity\"", 11);
        return;
    }
    // The shortest of 6..17 (9 for floats) significant digits that reads
    // back as the same value.
    int max = single ? 9 : 17;
    for (int prec = single ? 6 : 15; prec <= max; prec++) {
        snprintf(tmp, sizeof tmp, "%.*g", prec, v);
        if (prec == max) break;
        if (single ? (float)strtod(tmp, NULL) == (float)v : strtod(tmp, NULL) == v) break;
    }
    fix_decimal_point(tmp, 1);
    w_put(w, tmp, strlen(tmp));
}

void smithycurl_json_double(smithycurl_json_writer *w, double v) { w_float(w, v, 0); }
void smithycurl_json_float(smithycurl_json_writer *w, float v) { w_float(w, v, 1); }

void smithycurl_json_blob(smithycurl_json_writer *w, const smithycurl_blob *b) {
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    if (!b || (!b->data && b->len)) {
        char what[96];
        snprintf(what, sizeof what, "a blob with data NULL and len %zu", b ? b->len : (size_t)0);
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, b ? what : "a NULL blob");
        return;
    }
    if (!w_value(w)) return;
    size_t n = b->len, out = (n + 2) / 3 * 4;
    if (!w_reserve(w, out + 2)) return;
    char *p = w->buf + w->len;
    const unsigned char *s = b->data;
    *p++ = '"';
    size_t i = 0;
    for (; i + 2 < n; i += 3) {
        unsigned v = (unsigned)s[i] << 16 | (unsigned)s[i + 1] << 8 | s[i + 2];
        *p++ = b64[v >> 18];
        *p++ = b64[v >> 12 & 63];
        *p++ = b64[v >> 6 & 63];
        *p++ = b64[v & 63];
    }
    if (i < n) {
        unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0);
        *p++ = b64[v >> 18];
        *p++ = b64[v >> 12 & 63];
        *p++ = i + 1 < n ? b64[v >> 6 & 63] : '=';
        *p++ = '=';
    }
    *p++ = '"';
    w->len = (size_t)(p - w->buf);
    w->buf[w->len] = 0;
}

// civil_from_days turns days since 1970-01-01 into a proleptic Gregorian date
// (H. Hinnant's algorithm).
static void civil_from_days(long long z, long long *y, int *m, int *d) {
    z += 719468;
    long long era = (z >= 0 ? z : z - 146096) / 146097;
    long long doe = z - era * 146097;
    long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    long long mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static long long days_from_civil(long long y, int m, int d) {
    y -= m <= 2;
    long long era = (y >= 0 ? y : y - 399) / 400;
    long long yoe = y - era * 400;
    long long doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    long long doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

// Timestamps are written as RFC 3339 UTC strings with every nanosecond:
// epoch seconds as a JSON number would lose digits in a double.
void smithycurl_json_timestamp(smithycurl_json_writer *w, smithycurl_timestamp t) {
    char tmp[64];
    if (t.nanos < 0 || t.nanos > 999999999) {
        char what[128];
        snprintf(what, sizeof what, "timestamp nanos %d is outside 0 to 999999999", t.nanos);
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, what);
        return;
    }
    if (t.seconds < -62135596800LL || t.seconds > 253402300799LL) { // years 0001..9999
        char what[160];
        snprintf(what, sizeof what,
                 "timestamp seconds %lld is out of range: years 0001 to 9999 (-62135596800 to 253402300799)",
                 t.seconds);
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, what);
        return;
    }
    if (!w_value(w)) return;
    long long days = t.seconds >= 0 ? t.seconds / 86400 : -((-t.seconds + 86399) / 86400);
    long long rem = t.seconds - days * 86400, y;
    int m, d;
    civil_from_days(days, &y, &m, &d);
    int n = snprintf(tmp, sizeof tmp, "\"%04lld-%02d-%02dT%02d:%02d:%02d", y, m, d, (int)(rem / 3600),
                     (int)(rem / 60 % 60), (int)(rem % 60));
    if (t.nanos) {
        int ns = t.nanos, digits = 9;
        while (ns % 10 == 0) {
            ns /= 10;
            digits--;
        }
        n += snprintf(tmp + n, sizeof tmp - (size_t)n, ".%0*d", digits, ns);
    }
    tmp[n++] = 'Z';
    tmp[n++] = '"';
    w_put(w, tmp, (size_t)n);
}

// number_len returns the length of the JSON number at s[0..n), 0 when there
// is none.
static size_t number_len(const char *s, size_t n) {
    size_t i = 0;
    if (i < n && s[i] == '-') i++;
    if (i < n && s[i] == '0') i++;
    else if (i < n && s[i] >= '1' && s[i] <= '9')
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
    else return 0;
    if (i < n && s[i] == '.') {
        size_t j = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == j) return 0;
    }
    if (i < n && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        if (i < n && (s[i] == '+' || s[i] == '-')) i++;
        size_t j = i;
        while (i < n && s[i] >= '0' && s[i] <= '9') i++;
        if (i == j) return 0;
    }
    return i;
}

void smithycurl_json_number_text(smithycurl_json_writer *w, const char *s) {
    if (!s) {
        smithycurl_json_null(w);
        return;
    }
    size_t n = strlen(s);
    if (n == 0 || number_len(s, n) != n) {
        char q[96], what[192];
        scj_quote(q, sizeof q, s, 64);
        snprintf(what, sizeof what, "%s is not a decimal number (bigInteger and bigDecimal are JSON number text, e.g. \"-12.5e3\")", q);
        w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, what);
        return;
    }
    if (w_value(w)) w_put(w, s, n);
}

static int r_skip_value(smithycurl_json_reader *r);

void smithycurl_json_raw(smithycurl_json_writer *w, const char *json) {
    if (!json) {
        smithycurl_json_null(w);
        return;
    }
    smithycurl_json_reader r;
    size_t n = strlen(json);
    smithycurl_json_reader_init(&r, json, n);
    if (r_skip_value(&r) != SMITHYCURL_OK || smithycurl_json_reader_end(&r) != SMITHYCURL_OK) {
        char q[96], what[160];
        scj_quote(q, sizeof q, json, 48);
        snprintf(what, sizeof what, "document %s is not one well-formed JSON value", q);
        w_fail(w, SMITHYCURL_E_INVALID_JSON, what);
        return;
    }
    if (w_value(w)) w_put(w, json, n);
}

// enum_range fails w for an enum value outside 0..count: the values are
// listed (as far as they fit).
static void enum_range(smithycurl_json_writer *w, const char *kind, int value, int count,
                       const char *const *names, const long long *numbers) {
    char what[400];
    int n = snprintf(what, sizeof what, "%s value %d is outside 0 to %d (the values:", kind, value, count);
    for (int i = 0; i < count && n > 0 && (size_t)n < sizeof what - 40; i++) {
        char q[64];
        if (names) scj_quote(q, sizeof q, names[i], 40);
        else snprintf(q, sizeof q, "%lld", numbers[i]);
        n += snprintf(what + n, sizeof what - (size_t)n, "%s %d: %s", i ? "," : "", i + 1, q);
    }
    if (n > 0 && (size_t)n < sizeof what - 1) snprintf(what + n, sizeof what - (size_t)n, ")");
    w_fail(w, SMITHYCURL_E_INVALID_ARGUMENT, what);
}

void smithycurl_json_enum(smithycurl_json_writer *w, const char *const *values, int count, int value,
                          const char *unknown) {
    if (value < 0 || value > count) enum_range(w, "enum", value, count, values, NULL);
    else if (value > 0) smithycurl_json_string(w, values[value - 1]);
    else smithycurl_json_string(w, unknown);
}

void smithycurl_json_int_enum(smithycurl_json_writer *w, const long long *values, int count, int value,
                              long long unknown) {
    if (value < 0 || value > count) enum_range(w, "intEnum", value, count, NULL, values);
    else smithycurl_json_int(w, value > 0 ? values[value - 1] : unknown);
}

// ======================================================================
// Reader
// ======================================================================

void smithycurl_json_reader_init(smithycurl_json_reader *r, const char *json, size_t len) {
    if (!r) return;
    memset(r, 0, sizeof *r);
    r->p = json ? json : "";
    r->end = r->p + (json ? len : 0);
}

static int r_fail(smithycurl_json_reader *r) {
    if (r->status == SMITHYCURL_OK) r->status = SMITHYCURL_E_DECODE;
    return r->status;
}

static void r_ws(smithycurl_json_reader *r) {
    while (r->p < r->end && (*r->p == ' ' || *r->p == '\n' || *r->p == '\r' || *r->p == '\t')) r->p++;
}

int smithycurl_json_reader_end(smithycurl_json_reader *r) {
    if (!r) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    r_ws(r);
    return r->p == r->end ? SMITHYCURL_OK : r_fail(r);
}

smithycurl_json_type smithycurl_json_peek(smithycurl_json_reader *r) {
    if (!r || r->status) return SMITHYCURL_JSON_NONE;
    r_ws(r);
    if (r->p >= r->end) return SMITHYCURL_JSON_NONE;
    switch (*r->p) {
    case 'n': return SMITHYCURL_JSON_NULL;
    case 't':
    case 'f': return SMITHYCURL_JSON_BOOL;
    case '"': return SMITHYCURL_JSON_STRING;
    case '[': return SMITHYCURL_JSON_ARRAY;
    case '{': return SMITHYCURL_JSON_OBJECT;
    }
    return (*r->p == '-' || (*r->p >= '0' && *r->p <= '9')) ? SMITHYCURL_JSON_NUMBER : SMITHYCURL_JSON_NONE;
}

static int r_lit(smithycurl_json_reader *r, const char *lit, size_t n) {
    if ((size_t)(r->end - r->p) < n || memcmp(r->p, lit, n) != 0) return 0;
    r->p += n;
    return 1;
}

int smithycurl_json_read_null(smithycurl_json_reader *r) {
    if (smithycurl_json_peek(r) != SMITHYCURL_JSON_NULL) return 0;
    if (!r_lit(r, "null", 4)) {
        r_fail(r);
        return 0;
    }
    return 1;
}

static int r_open(smithycurl_json_reader *r, char c) {
    if (!r) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    r_ws(r);
    if (r->p >= r->end || *r->p != c || r->depth >= SCJ_MAX_DEPTH) return r_fail(r);
    r->p++;
    r->depth++;
    r->first = 1;
    return SMITHYCURL_OK;
}

int smithycurl_json_enter_object(smithycurl_json_reader *r) { return r_open(r, '{'); }
int smithycurl_json_enter_array(smithycurl_json_reader *r) { return r_open(r, '['); }

// r_next moves to the next item of the array or object just entered: 1 when
// there is one, 0 at its end (consumed), -1 on malformed input.
static int r_next(smithycurl_json_reader *r, char close) {
    if (!r || r->status) return -1;
    r_ws(r);
    if (r->p >= r->end) return r_fail(r), -1;
    if (*r->p == close) {
        r->p++;
        r->depth--;
        r->first = 0;
        return 0;
    }
    if (!r->first) {
        if (*r->p != ',') return r_fail(r), -1;
        r->p++;
        r_ws(r);
    }
    r->first = 0;
    return 1;
}

int smithycurl_json_next_item(smithycurl_json_reader *r) { return r_next(r, ']'); }

// r_string_span finds the string at r->p: its contents [s, s+n), whether it
// has escapes, and moves past it. One pass: strings are mostly short.
static int r_string_span(smithycurl_json_reader *r, const char **s, size_t *n, int *escaped) {
    r_ws(r);
    if (r->p >= r->end || *r->p != '"') return r_fail(r);
    const char *p = r->p + 1, *end = r->end;
    *escaped = 0;
    while (p < end) {
        char c = *p;
        if (c == '"') {
            *s = r->p + 1;
            *n = (size_t)(p - r->p - 1);
            r->p = p + 1;
            return SMITHYCURL_OK;
        }
        if (c == '\\') {
            *escaped = 1;
            p += 2;
            continue;
        }
        p++;
    }
    return r_fail(r);
}

static int hexval(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

static int read_hex4(const char *s, const char *end, unsigned *v) {
    if (end - s < 4) return 0;
    *v = 0;
    for (int i = 0; i < 4; i++) {
        int h = hexval(s[i]);
        if (h < 0) return 0;
        *v = *v << 4 | (unsigned)h;
    }
    return 1;
}

// unescape copies the string contents s[0..n) into a new NUL-terminated buffer.
static int unescape(smithycurl_json_reader *r, const char *s, size_t n, int escaped, char **out, size_t *out_len) {
    char *d = malloc(n + 1);
    if (!d) return r->status = SMITHYCURL_E_NOMEM;
    if (!escaped) {
        memcpy(d, s, n);
        d[n] = 0;
        *out = d;
        if (out_len) *out_len = n;
        return SMITHYCURL_OK;
    }
    size_t j = 0;
    const char *end = s + n;
    while (s < end) {
        char c = *s++;
        if (c != '\\') {
            d[j++] = c;
            continue;
        }
        if (s >= end) goto bad;
        c = *s++;
        switch (c) {
        case '"': d[j++] = '"'; break;
        case '\\': d[j++] = '\\'; break;
        case '/': d[j++] = '/'; break;
        case 'b': d[j++] = '\b'; break;
        case 'f': d[j++] = '\f'; break;
        case 'n': d[j++] = '\n'; break;
        case 'r': d[j++] = '\r'; break;
        case 't': d[j++] = '\t'; break;
        case 'u': {
            unsigned cp;
            if (!read_hex4(s, end, &cp)) goto bad;
            s += 4;
            if (cp >= 0xD800 && cp <= 0xDBFF) {
                unsigned lo;
                if (end - s >= 6 && s[0] == '\\' && s[1] == 'u' && read_hex4(s + 2, end, &lo) && lo >= 0xDC00 &&
                    lo <= 0xDFFF) {
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                    s += 6;
                } else cp = 0xFFFD;
            } else if (cp >= 0xDC00 && cp <= 0xDFFF) cp = 0xFFFD;
            // \uXXXX is at most 6 bytes of input for at most 4 of UTF-8.
            if (cp < 0x80) d[j++] = (char)cp;
            else if (cp < 0x800) {
                d[j++] = (char)(0xC0 | cp >> 6);
                d[j++] = (char)(0x80 | (cp & 63));
            } else if (cp < 0x10000) {
                d[j++] = (char)(0xE0 | cp >> 12);
                d[j++] = (char)(0x80 | (cp >> 6 & 63));
                d[j++] = (char)(0x80 | (cp & 63));
            } else {
                d[j++] = (char)(0xF0 | cp >> 18);
                d[j++] = (char)(0x80 | (cp >> 12 & 63));
                d[j++] = (char)(0x80 | (cp >> 6 & 63));
                d[j++] = (char)(0x80 | (cp & 63));
            }
            break;
        }
        default: goto bad;
        }
    }
    d[j] = 0;
    *out = d;
    if (out_len) *out_len = j;
    return SMITHYCURL_OK;
bad:
    free(d);
    return r_fail(r);
}

int smithycurl_json_next_key(smithycurl_json_reader *r, const char **key, size_t *len) {
    int more = r_next(r, '}');
    if (more != 1) return more;
    int escaped;
    if (r_string_span(r, key, len, &escaped)) return -1;
    r_ws(r);
    if (r->p >= r->end || *r->p != ':') return r_fail(r), -1;
    r->p++;
    return 1;
}

int smithycurl_json_next_key_dup(smithycurl_json_reader *r, char **key) {
    int more = r_next(r, '}');
    if (more != 1) return more;
    const char *s;
    size_t n;
    int escaped;
    if (r_string_span(r, &s, &n, &escaped)) return -1;
    r_ws(r);
    if (r->p >= r->end || *r->p != ':') return r_fail(r), -1;
    r->p++;
    char *k;
    if (unescape(r, s, n, escaped, &k, NULL)) return -1;
    *key = k;
    return 1;
}

int smithycurl_json_read_bool(smithycurl_json_reader *r, int *v) {
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    r_ws(r);
    if (r_lit(r, "true", 4)) *v = 1;
    else if (r_lit(r, "false", 5)) *v = 0;
    else return r_fail(r);
    return SMITHYCURL_OK;
}

// r_number finds the number token at r->p and moves past it.
static int r_number(smithycurl_json_reader *r, const char **s, size_t *n) {
    r_ws(r);
    size_t k = number_len(r->p, (size_t)(r->end - r->p));
    if (k == 0) return r_fail(r);
    *s = r->p;
    *n = k;
    r->p += k;
    return SMITHYCURL_OK;
}

int smithycurl_json_read_int(smithycurl_json_reader *r, long long min, long long max, long long *v) {
    const char *s;
    size_t n;
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status || r_number(r, &s, &n)) return r_fail(r);
    size_t i = 0;
    int neg = s[0] == '-';
    if (neg) i++;
    unsigned long long u = 0, lim = neg ? 0ULL - (unsigned long long)LLONG_MIN : (unsigned long long)LLONG_MAX;
    for (; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return r_fail(r); // a fraction or an exponent
        unsigned d = (unsigned)(s[i] - '0');
        if (u > (lim - d) / 10) return r_fail(r);
        u = u * 10 + d;
    }
    long long x = neg ? (u == lim ? LLONG_MIN : -(long long)u) : (long long)u;
    if (x < min || x > max) return r_fail(r);
    *v = x;
    return SMITHYCURL_OK;
}

static double parse_double(const char *s, size_t n, int *ok) {
    char tmp[64], *buf = tmp, *end;
    if (n >= sizeof tmp) {
        buf = malloc(n + 1);
        if (!buf) {
            *ok = 0;
            return 0;
        }
    }
    memcpy(buf, s, n);
    buf[n] = 0;
    fix_decimal_point(buf, 0);
    errno = 0;
    double d = strtod(buf, &end);
    *ok = end == buf + n;
    if (buf != tmp) free(buf);
    return d;
}

int smithycurl_json_read_double(smithycurl_json_reader *r, double *v) {
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    if (smithycurl_json_peek(r) == SMITHYCURL_JSON_STRING) {
        const char *s;
        size_t n;
        int escaped;
        if (r_string_span(r, &s, &n, &escaped)) return r->status;
        if (n == 3 && memcmp(s, "NaN", 3) == 0) *v = NAN;
        else if (n == 8 && memcmp(s, "Infinity", 8) == 0) *v = INFINITY;
        else if (n == 9 && memcmp(s, "-Infinity", 9) == 0) *v = -INFINITY;
        else return r_fail(r);
        return SMITHYCURL_OK;
    }
    const char *s;
    size_t n;
    int ok;
    if (r_number(r, &s, &n)) return r->status;
    double d = parse_double(s, n, &ok);
    if (!ok) return r_fail(r);
    *v = d;
    return SMITHYCURL_OK;
}

int smithycurl_json_read_string(smithycurl_json_reader *r, char **v) {
    const char *s;
    size_t n;
    int escaped;
    char *d;
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status || r_string_span(r, &s, &n, &escaped)) return r_fail(r);
    if (unescape(r, s, n, escaped, &d, NULL)) return r->status;
    free(*v);
    *v = d;
    return SMITHYCURL_OK;
}

int smithycurl_json_read_enum(smithycurl_json_reader *r, const char *const *values, int count, int *value,
                              char **unknown) {
    const char *s;
    size_t n;
    int escaped;
    if (!r || !value || !unknown || (count && !values)) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status || r_string_span(r, &s, &n, &escaped)) return r_fail(r);
    free(*unknown);
    *unknown = NULL;
    if (!escaped) {
        for (int i = 0; i < count; i++) {
            if (strlen(values[i]) == n && memcmp(values[i], s, n) == 0) {
                *value = i + 1;
                return SMITHYCURL_OK;
            }
        }
    }
    char *d;
    if (unescape(r, s, n, escaped, &d, NULL)) return r->status;
    for (int i = 0; escaped && i < count; i++) {
        if (strcmp(values[i], d) == 0) {
            free(d);
            *value = i + 1;
            return SMITHYCURL_OK;
        }
    }
    *value = 0;
    *unknown = d;
    return SMITHYCURL_OK;
}

int smithycurl_json_read_int_enum(smithycurl_json_reader *r, const long long *values, int count, int *value,
                                  long long *unknown) {
    long long x;
    int rc;
    if (!value || !unknown || (count && !values)) return SMITHYCURL_E_INVALID_ARGUMENT;
    if ((rc = smithycurl_json_read_int(r, INT32_MIN, INT32_MAX, &x))) return rc;
    *unknown = 0;
    for (int i = 0; i < count; i++) {
        if (values[i] == x) {
            *value = i + 1;
            return SMITHYCURL_OK;
        }
    }
    *value = 0;
    *unknown = x;
    return SMITHYCURL_OK;
}

static int b64val(unsigned char c) {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+' || c == '-') return 62;
    if (c == '/' || c == '_') return 63;
    return -1;
}

int smithycurl_json_read_blob(smithycurl_json_reader *r, smithycurl_blob *v) {
    const char *s;
    size_t n;
    int escaped;
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status || r_string_span(r, &s, &n, &escaped)) return r_fail(r);
    if (escaped) return r_fail(r);
    while (n > 0 && s[n - 1] == '=') n--;
    if (n % 4 == 1) return r_fail(r);
    unsigned char *d = malloc(n / 4 * 3 + 3); // never 0 bytes: an empty blob is not NULL
    if (!d) return r->status = SMITHYCURL_E_NOMEM;
    size_t j = 0;
    unsigned acc = 0;
    int bits = 0;
    for (size_t i = 0; i < n; i++) {
        int x = b64val((unsigned char)s[i]);
        if (x < 0) {
            free(d);
            return r_fail(r);
        }
        acc = acc << 6 | (unsigned)x;
        bits += 6;
        if (bits >= 8) {
            bits -= 8;
            d[j++] = (unsigned char)(acc >> bits);
            acc &= (1u << bits) - 1;
        }
    }
    free(v->data);
    v->data = d;
    v->len = j;
    return SMITHYCURL_OK;
}

static int digits(const char *s, int n, int *v) {
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9') return 0;
        *v = *v * 10 + (s[i] - '0');
    }
    return 1;
}

// parse_rfc3339 reads "YYYY-MM-DDTHH:MM:SS[.frac](Z|+HH:MM|-HH:MM)".
static int parse_rfc3339(const char *s, size_t n, smithycurl_timestamp *t) {
    int y, mo, d, h, mi, sec, ns = 0;
    if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') || !digits(s + 11, 2, &h) ||
        s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' || !digits(s + 17, 2, &sec))
        return 0;
    if (mo < 1 || mo > 12 || d < 1 || d > 31 || h > 23 || mi > 59 || sec > 60) return 0;
    size_t i = 19;
    if (i < n && s[i] == '.') {
        int k = 0;
        i++;
        while (i < n && s[i] >= '0' && s[i] <= '9') {
            if (k < 9) {
                ns = ns * 10 + (s[i] - '0');
                k++;
            }
            i++;
        }
        if (k == 0) return 0;
        while (k++ < 9) ns *= 10;
    }
    long long off = 0;
    if (i < n && (s[i] == 'Z' || s[i] == 'z')) i++;
    else if (i + 6 == n && (s[i] == '+' || s[i] == '-') && s[i + 3] == ':') {
        int oh, om;
        if (!digits(s + i + 1, 2, &oh) || !digits(s + i + 4, 2, &om)) return 0;
        off = (oh * 60 + om) * 60;
        if (s[i] == '-') off = -off;
        i += 6;
    } else return 0;
    if (i != n) return 0;
    t->seconds = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + (sec == 60 ? 59 : sec) - off;
    t->nanos = ns;
    return 1;
}

int smithycurl_json_read_timestamp(smithycurl_json_reader *r, smithycurl_timestamp *v) {
    const char *s;
    size_t n;
    int escaped;
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    if (smithycurl_json_peek(r) == SMITHYCURL_JSON_STRING) {
        if (r_string_span(r, &s, &n, &escaped) || escaped || !parse_rfc3339(s, n, v)) return r_fail(r);
        return SMITHYCURL_OK;
    }
    // Epoch seconds: an integer part and up to 9 fraction digits, exactly.
    if (r_number(r, &s, &n)) return r->status;
    smithycurl_timestamp t = {0, 0};
    size_t i = 0;
    int neg = s[0] == '-';
    if (neg) i++;
    for (; i < n && s[i] >= '0' && s[i] <= '9'; i++) {
        if (t.seconds > (LLONG_MAX - 9) / 10) return r_fail(r);
        t.seconds = t.seconds * 10 + (s[i] - '0');
    }
    if (i < n && s[i] == '.') {
        int k = 0;
        for (i++; i < n && s[i] >= '0' && s[i] <= '9'; i++)
            if (k < 9) {
                t.nanos = t.nanos * 10 + (s[i] - '0');
                k++;
            }
        while (k++ < 9) t.nanos *= 10;
    }
    if (i != n) { // an exponent: through a double
        int ok;
        double d = parse_double(s, n, &ok);
        if (!ok || !(d > -9.2e18 && d < 9.2e18)) return r_fail(r);
        double f = floor(d);
        v->seconds = (long long)f;
        v->nanos = (int)((d - f) * 1e9);
        return SMITHYCURL_OK;
    }
    if (neg) {
        t.seconds = -t.seconds;
        if (t.nanos) {
            t.seconds--;
            t.nanos = 1000000000 - t.nanos;
        }
    }
    *v = t;
    return SMITHYCURL_OK;
}

int smithycurl_json_read_number_text(smithycurl_json_reader *r, char **v) {
    const char *s;
    size_t n;
    int escaped;
    char *d;
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    if (smithycurl_json_peek(r) == SMITHYCURL_JSON_STRING) {
        if (r_string_span(r, &s, &n, &escaped) || escaped || n == 0 || number_len(s, n) != n) return r_fail(r);
    } else if (r_number(r, &s, &n))
        return r->status;
    if (unescape(r, s, n, 0, &d, NULL)) return r->status;
    free(*v);
    *v = d;
    return SMITHYCURL_OK;
}

static int r_skip_value(smithycurl_json_reader *r) {
    const char *s;
    size_t n;
    int escaped, more;
    switch (smithycurl_json_peek(r)) {
    case SMITHYCURL_JSON_NULL: return r_lit(r, "null", 4) ? SMITHYCURL_OK : r_fail(r);
    case SMITHYCURL_JSON_BOOL: return r_lit(r, "true", 4) || r_lit(r, "false", 5) ? SMITHYCURL_OK : r_fail(r);
    case SMITHYCURL_JSON_NUMBER: return r_number(r, &s, &n);
    case SMITHYCURL_JSON_STRING: return r_string_span(r, &s, &n, &escaped);
    case SMITHYCURL_JSON_ARRAY:
        if (r_open(r, '[')) return r->status;
        while ((more = r_next(r, ']')) == 1)
            if (r_skip_value(r)) return r->status;
        return more < 0 ? r_fail(r) : SMITHYCURL_OK;
    case SMITHYCURL_JSON_OBJECT:
        if (r_open(r, '{')) return r->status;
        while ((more = smithycurl_json_next_key(r, &s, &n)) == 1)
            if (r_skip_value(r)) return r->status;
        return more < 0 ? r_fail(r) : SMITHYCURL_OK;
    default: return r_fail(r);
    }
}

int smithycurl_json_skip(smithycurl_json_reader *r) {
    if (!r) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    return r_skip_value(r);
}

int smithycurl_json_read_raw(smithycurl_json_reader *r, char **v) {
    if (!r || !v) return SMITHYCURL_E_INVALID_ARGUMENT;
    if (r->status) return r->status;
    r_ws(r);
    const char *start = r->p;
    int saved_first = r->first;
    if (r_skip_value(r)) return r->status;
    r->first = saved_first;
    char *d;
    if (unescape(r, start, (size_t)(r->p - start), 0, &d, NULL)) return r->status;
    free(*v);
    *v = d;
    return SMITHYCURL_OK;
}

void *smithycurl_json_grow(void *items, size_t *cap, size_t elem_size) {
    if (!cap || elem_size == 0) return NULL;
    size_t old = *cap, n = old ? old * 2 : 4;
    if (n > SIZE_MAX / elem_size) return NULL;
    unsigned char *p = realloc(items, n * elem_size);
    if (!p) return NULL;
    memset(p + old * elem_size, 0, (n - old) * elem_size);
    *cap = n;
    return p;
}
