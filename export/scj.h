// Private to export/json.c and export/json_fail.c: how the JSON writer of
// generated C clients fails.
#ifndef SCJ_H
#define SCJ_H

#include "smithycurl.h"

// scj_fail fails w with code (when it has not failed yet) and replaces its
// text with the message "member PATH: what", PATH read from the text
// written so far (what alone at the top level); what may be NULL for
// SMITHYCURL_E_NOMEM. Allocates nothing.
void scj_fail(smithycurl_json_writer *w, int code, const char *what);

// scj_quote writes s (at most max bytes of it, "..." after a cut) into out
// (cap bytes, NUL-terminated) between double quotes (\" and \\ escaped, bytes
// outside printable ASCII as \xNN): a caller's value in a message.
void scj_quote(char *out, size_t cap, const char *s, size_t max);

#endif
