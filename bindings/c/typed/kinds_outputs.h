/* An output value its type cannot hold, through the generated typed C
 * client of kinds_typed.c: the call fails with SMITHYCURL_E_DECODE and *err
 * holds a message naming the member path, the value and the type's range.
 * Before, out-of-range values reached the typed decoders, which returned a
 * bare SMITHYCURL_E_DECODE with no message (or read 1e39 into a float as
 * inf). The test server (codegen/c, outOfTypeBody) answers Echo with the
 * canned body the input's name selects. */
#ifndef KINDS_OUTPUTS_H
#define KINDS_OUTPUTS_H

#include <stdio.h>

#include "check.h"
#include "kinds.h"

static const struct {
    const char *name; /* selects the server's canned body */
    const char *want;
} out_of_type_cases[] = {
    {"out-of-type tiny", "response of Echo (HTTP 200): member Everything.tiny: 128 is out of range (byte: -128 to 127)"},
    {"out-of-type int", "response of Echo (HTTP 200): member Everything.int: 1.5 is not a whole number (integer: -2147483648 to 2147483647)"},
    {"out-of-type long", "response of Echo (HTTP 200): member Everything.long: 9223372036854775808 is out of range (long: -9223372036854775808 to 9223372036854775807)"},
    {"out-of-type size", "response of Echo (HTTP 200): member Everything.size: 2147483648 is out of range (intEnum: -2147483648 to 2147483647)"},
    {"out-of-type float", "response of Echo (HTTP 200): member Everything.float: 1e39 is out of range (float: \xc2\xb1" "3.4028234663852886e38)"},
    {"out-of-type values", "response of Echo (HTTP 200): member Everything.nested.values[1]: 2.5 is not a whole number (integer: -2147483648 to 2147483647)"},
    {"out-of-type data", "response of Echo (HTTP 200): member Everything.data: invalid base64: illegal character ' ' at offset 3 (standard base64 with padding)"},
};

static void test_out_of_type(smithycurl_client *c) {
    size_t i;
    for (i = 0; i < sizeof out_of_type_cases / sizeof *out_of_type_cases; i++) {
        kinds_everything in, *out = NULL;
        smithycurl_result *err = NULL;
        const char *msg = NULL;
        smithycurl_error_kind kind = SMITHYCURL_KIND_NONE;
        kinds_everything_init(&in);
        in.name = (char *)out_of_type_cases[i].name;
        CHECK_RC(kinds_echo(c, &in, &out, &err), SMITHYCURL_E_DECODE);
        CHECK(out == NULL && err != NULL);
        if (out) {
            fprintf(stderr, "     %s: decoded\n", out_of_type_cases[i].name);
            kinds_everything_free(out);
        }
        if (!err) continue;
        CHECK_RC(smithycurl_result_error_kind(err, &kind), SMITHYCURL_OK);
        CHECK(kind == SMITHYCURL_KIND_DECODE);
        CHECK_RC(smithycurl_result_error_message(err, &msg), SMITHYCURL_OK);
        if (!streq(msg, out_of_type_cases[i].want)) {
            CHECK(!"the message names the member, the value and the range");
            fprintf(stderr, "     %s: want \"%s\"\n", out_of_type_cases[i].name, out_of_type_cases[i].want);
            print_err(err);
        }
        smithycurl_result_free(err);
    }
}

#endif
