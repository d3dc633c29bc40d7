$version: "2"

// A small JSON operation for the client benchmarks (client/bench_test.go):
// a ~210-byte request and a ~100-byte response.
namespace smithycurl.test.bench

@alloy#simpleRestJson
service Bench {
    version: "2024-01-01"
    operations: [CreateOrder]
}

@http(method: "POST", uri: "/orders")
operation CreateOrder {
    input := {
        @required
        name: String
        size: Integer
        crust: String
        toppings: Toppings
        notes: String
        customer: Customer
        requestId: String
    }
    output := {
        @required
        id: String
        name: String
        size: Integer
        toppings: Toppings
        price: Float
    }
}

list Toppings {
    member: String
}

structure Customer {
    id: String
    tier: String
}
