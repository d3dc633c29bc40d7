/* IDL 1.0 @enum strings through a generated typed C client (smithycurl gen c
 * --prefix enums1, model codegen/testdata/gen/enums1.smithy): C enums as
 * IDL 2.0 enums get, values the model does not list kept in .unknown both
 * ways. The server (codegen/c's TestTypedCEnums1) answers Paint with the
 * body it was sent, "purple" for color. Run with SMITHYCURL_ENUMS1_URL and
 * SMITHYCURL_ENUMS1_MODEL set. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "enums1.h"

int main(void) {
    const char *url = getenv("SMITHYCURL_ENUMS1_URL"), *path = getenv("SMITHYCURL_ENUMS1_MODEL");
    smithycurl_model *m;
    smithycurl_client *c = NULL;
    smithycurl_result *err = NULL;
    enums1_paint_input in;
    enums1_paint_output *out = NULL;
    enums1_color_value colors[3];
    if (!url || !path) {
        fprintf(stderr, "set SMITHYCURL_ENUMS1_URL and SMITHYCURL_ENUMS1_MODEL\n");
        return 2;
    }
    if (!(m = load_model(path))) return 2;
    CHECK_RC(smithycurl_client_new(m, NULL, url, NULL, &c), SMITHYCURL_OK);
    smithycurl_model_free(m);

    enums1_paint_input_init(&in);
    in.color.value = ENUMS1_COLOR_DARK_GREEN;
    memset(colors, 0, sizeof colors);
    colors[0].value = ENUMS1_COLOR_RED;
    colors[1].value = ENUMS1_COLOR_UNKNOWN;
    colors[1].unknown = "ultraviolet"; /* a value the model does not list, sent as is */
    colors[2].value = ENUMS1_COLOR_BLUE;
    in.colors.items = colors;
    in.colors.count = 3;
    in.has_unnamed = 1;
    in.unnamed.value = ENUMS1_UNNAMED_T2_MICRO;
    CHECK_RC(enums1_paint(c, &in, &out, &err), SMITHYCURL_OK);
    if (err) print_err(err);
    smithycurl_result_free(err);
    if (out) {
        CHECK(out->has_color && out->color.value == ENUMS1_COLOR_UNKNOWN && streq(out->color.unknown, "purple"));
        CHECK(out->colors.count == 3);
        if (out->colors.count == 3) {
            CHECK(out->colors.items[0].value == ENUMS1_COLOR_RED && !out->colors.items[0].unknown);
            CHECK(out->colors.items[1].value == ENUMS1_COLOR_UNKNOWN && streq(out->colors.items[1].unknown, "ultraviolet"));
            CHECK(out->colors.items[2].value == ENUMS1_COLOR_BLUE);
        }
        CHECK(out->has_unnamed && out->unnamed.value == ENUMS1_UNNAMED_T2_MICRO);
        enums1_paint_output_free(out);
    }
    smithycurl_client_free(c);
    return check_done();
}
