// The echo workload the C benchmarks send (testing/servers/benchserver: Request,
// Response; model client/testdata/bench.smithy, operation CreateOrder): the
// ~210-byte request document and the ~100-byte answer, as sent on the wire.
#ifndef SMITHYCURL_BENCH_ECHO_H
#define SMITHYCURL_BENCH_ECHO_H

static const char echo_request[] =
    "{\"name\":\"margherita\",\"size\":12,\"crust\":\"thin\",\"toppings\":[\"basil\",\"mozzarella\",\"tomato\"],"
    "\"notes\":\"extra basil please, and cut in eight slices\",\"customer\":{\"id\":\"c-0042\",\"tier\":\"gold\"},"
    "\"requestId\":\"7f9c2ba4e88f827d\"}";
static const char echo_response[] =
    "{\"id\":\"a1b2c3d4\",\"name\":\"margherita\",\"size\":12,\"toppings\":[\"basil\",\"mozzarella\",\"tomato\"],"
    "\"price\":9.5}";

#endif
