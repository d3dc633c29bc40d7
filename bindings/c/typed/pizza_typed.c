/* alloy's PizzaAdminService (testing/servers/pizzaserver) through its generated
 * typed C client (smithycurl gen c --prefix pizza): every operation, unions,
 * enums, intEnums, maps of structures, documents, defaults, HTTP bindings
 * and each modeled error. Run by codegen/c's tests with
 * SMITHYCURL_PIZZA_URL and SMITHYCURL_PIZZA_MODEL (':'-separated paths). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "pizza.h"

/* A margherita or a salad as a menu item, on the stack; ingredients points
 * to caller storage: nothing here is freed. */
static void margherita(pizza_menu_item *item, pizza_food *food, pizza_pizza *p, pizza_ingredient_value *top) {
    pizza_menu_item_init(item);
    pizza_food_init(food);
    pizza_pizza_init(p);
    p->name = "margharita";
    p->base.value = PIZZA_PIZZA_BASE_TOMATO;
    top[0].value = PIZZA_INGREDIENT_MUSHROOM;
    top[0].unknown = NULL;
    top[1].value = PIZZA_INGREDIENT_TOMATO;
    top[1].unknown = NULL;
    p->toppings.items = top;
    p->toppings.count = 2;
    food->tag = PIZZA_FOOD_PIZZA;
    food->u.pizza = p;
    item->food = food;
    item->price = 9.0f;
}

static void test_menus(smithycurl_client *c) {
    pizza_add_menu_item_request add;
    pizza_menu_item item;
    pizza_food food, salad_food;
    pizza_pizza p;
    pizza_salad salad;
    pizza_ingredient_value top[2], greens[1];
    pizza_add_menu_item_result *added = NULL;
    pizza_get_menu_request get;
    pizza_get_menu_result *menu = NULL;
    pizza_price_error *pe = NULL;
    pizza_not_found_error *nf = NULL;
    pizza_fallback_error *fb = NULL;
    pizza_generic_server_error *gs = NULL;
    smithycurl_result *err = NULL;
    int status = 0, rc;
    size_t i, seen = 0;

    pizza_add_menu_item_request_init(&add);
    add.restaurant = "uncle:mikes";
    margherita(&item, &food, &p, top);
    add.menu_item = &item;
    rc = pizza_add_menu_item(c, &add, &added, &err);
    CHECK_RC(rc, SMITHYCURL_OK);
    if (rc) print_err(err);
    CHECK(added && streq(added->item_id, "1") && added->added.seconds > 1500000000); /* an epoch-seconds header */
    pizza_add_menu_item_result_free(added);
    added = NULL;

    pizza_salad_init(&salad);
    salad.name = "caesar";
    greens[0].value = PIZZA_INGREDIENT_SALAD; /* wire value "Salad" */
    greens[0].unknown = NULL;
    salad.ingredients.items = greens;
    salad.ingredients.count = 1;
    pizza_food_init(&salad_food);
    salad_food.tag = PIZZA_FOOD_SALAD;
    salad_food.u.salad = &salad;
    item.food = &salad_food;
    item.price = 7.5f;
    CHECK_RC(pizza_add_menu_item(c, &add, &added, NULL), SMITHYCURL_OK);
    pizza_add_menu_item_result_free(added);
    added = NULL;

    /* A map of structures holding unions, lists of enums and floats. */
    pizza_get_menu_request_init(&get);
    get.restaurant = "uncle:mikes";
    CHECK_RC(pizza_get_menu(c, &get, &menu, NULL), SMITHYCURL_OK);
    CHECK(menu && menu->menu.count == 2);
    for (i = 0; menu && i < menu->menu.count; i++) {
        const pizza_menu_item *it = &menu->menu.values[i];
        if (streq(menu->menu.keys[i], "1")) {
            seen++;
            CHECK(it->price == 9.0f && it->food && it->food->tag == PIZZA_FOOD_PIZZA);
            CHECK(it->food->u.pizza && streq(it->food->u.pizza->name, "margharita") &&
                  it->food->u.pizza->base.value == PIZZA_PIZZA_BASE_TOMATO &&
                  it->food->u.pizza->toppings.count == 2 &&
                  it->food->u.pizza->toppings.items[1].value == PIZZA_INGREDIENT_TOMATO);
        } else if (streq(menu->menu.keys[i], "2")) {
            seen++;
            CHECK(it->price == 7.5f && it->food && it->food->tag == PIZZA_FOOD_SALAD &&
                  it->food->u.salad->ingredients.items[0].value == PIZZA_INGREDIENT_SALAD);
        }
    }
    CHECK(seen == 2);
    pizza_get_menu_result_free(menu);
    menu = NULL;

    /* The modeled errors: operation errors and a service error. */
    item.food = &salad_food;
    item.price = 0;
    add.restaurant = "bobs";
    CHECK_RC(pizza_add_menu_item(c, &add, &added, &err), SMITHYCURL_E_SERVICE);
    CHECK(pizza_error_which(err) == PIZZA_ERROR_PRICE_ERROR);
    CHECK_RC(pizza_error_as_price_error(err, &pe), SMITHYCURL_OK);
    CHECK(pe && streq(pe->message, "Price must be greater than 0") && pe->code == 400); /* code: a header */
    smithycurl_result_http_status(err, &status);
    CHECK(status == 400);
    pizza_price_error_free(pe);
    smithycurl_result_free(err);

    get.restaurant = "nowhere";
    CHECK_RC(pizza_get_menu(c, &get, &menu, &err), SMITHYCURL_E_SERVICE);
    CHECK(menu == NULL && pizza_error_which(err) == PIZZA_ERROR_NOT_FOUND_ERROR);
    CHECK_RC(pizza_error_as_fallback_error(err, &fb), SMITHYCURL_E_NOT_FOUND);
    CHECK_RC(pizza_error_as_not_found_error(err, &nf), SMITHYCURL_OK);
    CHECK(nf && streq(nf->name, "nowhere"));
    pizza_not_found_error_free(nf);
    smithycurl_result_free(err);

    get.restaurant = "fallback";
    CHECK_RC(pizza_get_menu(c, &get, &menu, &err), SMITHYCURL_E_SERVICE);
    CHECK_RC(pizza_error_as_fallback_error(err, &fb), SMITHYCURL_OK);
    CHECK(fb && fb->error && fb->error[0]); /* a member named "error" */
    pizza_fallback_error_free(fb);
    smithycurl_result_free(err);

    margherita(&item, &food, &p, top);
    add.restaurant = "boom";
    CHECK_RC(pizza_add_menu_item(c, &add, &added, &err), SMITHYCURL_E_SERVICE);
    CHECK(pizza_error_which(err) == PIZZA_ERROR_GENERIC_SERVER_ERROR);
    CHECK_RC(pizza_error_as_generic_server_error(err, &gs), SMITHYCURL_OK);
    CHECK(gs && streq(gs->message, "the oven exploded"));
    pizza_generic_server_error_free(gs);
    smithycurl_result_free(err);

    /* A required member missing inside the union's structure: named, not sent. */
    p.name = NULL;
    add.restaurant = "bobs";
    CHECK_RC(pizza_add_menu_item(c, &add, &added, &err), SMITHYCURL_E_VALIDATION);
    if (err) {
        const char *msg = "";
        smithycurl_result_error_message(err, &msg);
        CHECK(strstr(msg, "name") != NULL);
        smithycurl_result_free(err);
    }
}

static void test_simple_operations(smithycurl_client *c) {
    pizza_version_output *v = NULL;
    pizza_health_request hr;
    pizza_health_response *h = NULL;
    pizza_unknown_server_error *use = NULL;
    pizza_header_endpoint_data hd, *ho = NULL;
    pizza_round_trip_data rt, *rto = NULL;
    pizza_get_enum_input ge;
    pizza_get_enum_output *geo = NULL;
    pizza_get_int_enum_input gi;
    pizza_get_int_enum_output *gio = NULL;
    pizza_custom_code_input cc;
    pizza_custom_code_output *cco = NULL;
    smithycurl_result *err = NULL;

    CHECK_RC(pizza_version(c, &v, NULL), SMITHYCURL_OK);
    CHECK(v && streq(v->version, "1.0.0"));
    pizza_version_output_free(v);
    CHECK_RC(pizza_version(c, NULL, NULL), SMITHYCURL_E_INVALID_ARGUMENT);

    pizza_health_request_init(&hr);
    CHECK_RC(pizza_health(c, &hr, &h, NULL), SMITHYCURL_OK);
    CHECK(h && streq(h->status, "ok"));
    pizza_health_response_free(h);
    h = NULL;
    hr.query = "fail";
    CHECK_RC(pizza_health(c, &hr, &h, &err), SMITHYCURL_E_SERVICE);
    CHECK_RC(pizza_error_as_unknown_server_error(err, &use), SMITHYCURL_OK);
    CHECK(use && use->error_code.value == PIZZA_UNKNOWN_SERVER_ERROR_CODE_ERROR_CODE &&
          streq(use->description, "health check failed"));
    pizza_unknown_server_error_free(use);
    smithycurl_result_free(err);

    pizza_header_endpoint_data_init(&hd);
    hd.uppercase_header = "UPPERCASE_VALUE";
    hd.mixed_header = "aLLMiXedUP";
    CHECK_RC(pizza_header_endpoint(c, &hd, &ho, NULL), SMITHYCURL_OK);
    CHECK(ho && streq(ho->uppercase_header, "UPPERCASE_VALUE") && streq(ho->mixed_header, "aLLMiXedUP") &&
          ho->lowercase_header == NULL);
    pizza_header_endpoint_data_free(ho);

    pizza_round_trip_data_init(&rt);
    rt.label = "the label/\xc3\xbc";
    rt.header = "the header";
    rt.query = "the query&x=1";
    rt.body = "the body";
    CHECK_RC(pizza_round_trip(c, &rt, &rto, NULL), SMITHYCURL_OK);
    CHECK(rto && streq(rto->label, rt.label) && streq(rto->header, rt.header) && streq(rto->query, rt.query) &&
          streq(rto->body, rt.body));
    pizza_round_trip_data_free(rto);

    pizza_get_enum_input_init(&ge);
    ge.aa.value = PIZZA_THE_ENUM_V2;
    CHECK_RC(pizza_get_enum(c, &ge, &geo, NULL), SMITHYCURL_OK);
    CHECK(geo && streq(geo->result, "v2"));
    pizza_get_enum_output_free(geo);
    ge.aa.value = PIZZA_THE_ENUM_UNKNOWN;
    ge.aa.unknown = "v3";
    geo = NULL;
    /* An enum value the model does not list is sent (constraint checks are
     * off by default, as the Smithy spec says for clients); the server
     * refuses it. */
    CHECK_RC(pizza_get_enum(c, &ge, &geo, NULL), SMITHYCURL_E_SERVICE);

    pizza_get_int_enum_input_init(&gi);
    gi.aa.value = PIZZA_ENUM_RESULT_FIRST;
    CHECK_RC(pizza_get_int_enum(c, &gi, &gio, NULL), SMITHYCURL_OK);
    CHECK(gio && gio->result.value == PIZZA_ENUM_RESULT_FIRST);
    pizza_get_int_enum_output_free(gio);

    pizza_custom_code_input_init(&cc);
    cc.code = 201;
    CHECK_RC(pizza_custom_code(c, &cc, &cco, NULL), SMITHYCURL_OK);
    CHECK(cco && cco->has_code && cco->code == 201); /* @httpResponseCode */
    pizza_custom_code_output_free(cco);
}

static void test_payloads(smithycurl_client *c) {
    pizza_http_payload_with_default_input_output d, *dout = NULL;
    pizza_open_unions_input ou;
    pizza_open_unions_output *ouo = NULL;
    pizza_open_unions_payload payload;
    pizza_open_tagged_union tagged;
    pizza_preserve_order_struct po, *poo = NULL;
    const char *keys[3] = {"z", "a", "m"};
    int32_t values[3] = {1, 2, 3};

    /* A string default: absent in, the model's default out. */
    pizza_http_payload_with_default_input_output_init(&d);
    CHECK_RC(pizza_http_payload_with_default(c, &d, &dout, NULL), SMITHYCURL_OK);
    CHECK(dout && streq(dout->body, "default value"));
    pizza_http_payload_with_default_input_output_free(dout);
    d.body = "custom value";
    CHECK_RC(pizza_http_payload_with_default(c, &d, &dout, NULL), SMITHYCURL_OK);
    CHECK(dout && streq(dout->body, "custom value"));
    pizza_http_payload_with_default_input_output_free(dout);

    /* Nested unions, one member a document. */
    pizza_open_unions_input_init(&ou);
    pizza_open_unions_payload_init(&payload);
    pizza_open_tagged_union_init(&tagged);
    tagged.tag = PIZZA_OPEN_TAGGED_UNION_OTHER;
    tagged.u.other = "{\"whatisthis\": {\"nested\": \"something different\"}}";
    payload.tag = PIZZA_OPEN_UNIONS_PAYLOAD_TAGGED;
    payload.u.tagged = &tagged;
    ou.data = &payload;
    CHECK_RC(pizza_open_unions(c, &ou, &ouo, NULL), SMITHYCURL_OK);
    CHECK(ouo && ouo->data && ouo->data->tag == PIZZA_OPEN_UNIONS_PAYLOAD_TAGGED &&
          ouo->data->u.tagged->tag == PIZZA_OPEN_TAGGED_UNION_OTHER &&
          strstr(ouo->data->u.tagged->u.other, "something different"));
    pizza_open_unions_output_free(ouo);

    /* A map and a document, keys in order. */
    pizza_preserve_order_struct_init(&po);
    po.map.keys = keys;
    po.map.values = values;
    po.map.count = 3;
    po.document = "{\"zz\": [1, 2], \"aa\": null}";
    CHECK_RC(pizza_preserve_order(c, &po, &poo, NULL), SMITHYCURL_OK);
    CHECK(poo && poo->map.count == 3 && streq(poo->map.keys[0], "z") && poo->map.values[2] == 3);
    CHECK(poo && poo->document && strstr(poo->document, "\"zz\""));
    pizza_preserve_order_struct_free(poo);
}

int main(void) {
    const char *url = getenv("SMITHYCURL_PIZZA_URL"), *dir = getenv("SMITHYCURL_PIZZA_MODEL");
    smithycurl_model *m;
    smithycurl_options *o;
    smithycurl_client *c = NULL;
    if (!url || !dir) {
        fprintf(stderr, "set SMITHYCURL_PIZZA_URL and SMITHYCURL_PIZZA_MODEL\n");
        return 2;
    }
    if (!(m = load_model(dir))) return 2;
    smithycurl_options_new(&o);
    smithycurl_options_set_retries(o, 1, 2);
    CHECK_RC(smithycurl_client_new(m, "alloy.test#PizzaAdminService", url, o, &c), SMITHYCURL_OK);
    smithycurl_options_free(o);
    smithycurl_model_free(m);
    test_menus(c);
    test_simple_operations(c);
    test_payloads(c);
    smithycurl_client_free(c);
    return check_done();
}
