$version: "2"

// A small shop served by the mock server's tests in several protocols: the
// same operations under awsJson1_0, awsJson1_1, restJson1, restXml,
// awsQuery, ec2Query and rpcv2Cbor (the query protocols have no event
// streams; rpcv2Json and simpleRestJson are tested on the kv and Todo
// models).
namespace smithycurl.serve.shop

use aws.protocols#awsJson1_0
use aws.protocols#awsJson1_1
use aws.protocols#awsQuery
use aws.protocols#ec2Query
use aws.protocols#restJson1
use aws.protocols#restXml
use smithy.framework#ValidationException
use smithy.protocols#rpcv2Cbor

@awsJson1_0
service ShopJson {
    version: "2026-12-01"
    operations: [GetItem, PutItem, Watch]
    errors: [ValidationException]
}

@awsJson1_1
service ShopJson11 {
    version: "2026-12-01"
    operations: [GetItem, PutItem, Watch]
}

@restJson1
service ShopRest {
    version: "2026-12-01"
    operations: [GetItem, PutItem, Watch, Download]
    errors: [ValidationException]
}

@restXml
service ShopXml {
    version: "2026-12-01"
    operations: [GetItem, PutItem, Watch, Download]
    errors: [ValidationException]
}

@awsQuery
@xmlNamespace(uri: "https://example.com/shop/")
service ShopQuery {
    version: "2026-12-01"
    operations: [GetItem, PutItem]
    errors: [ValidationException]
}

@ec2Query
@xmlNamespace(uri: "https://example.com/shop/")
service ShopEc2 {
    version: "2026-12-01"
    operations: [GetItem, PutItem]
}

@rpcv2Cbor
service ShopCbor {
    version: "2026-12-01"
    operations: [GetItem, PutItem, Watch]
}

@readonly
@http(method: "GET", uri: "/items/{id}")
@examples([
    {
        title: "An item of the examples"
        input: { id: "ex1" }
        output: { id: "ex1", name: "Example item", price: 9.5 }
    }
    {
        title: "No such item"
        input: { id: "gone" }
        error: { shapeId: NotFound, content: { message: "gone for good" } }
    }
])
operation GetItem {
    input := {
        @required
        @httpLabel
        id: ItemId
    }
    output: Item
    errors: [NotFound]
}

@http(method: "POST", uri: "/items")
operation PutItem {
    input := {
        @required
        @length(min: 1, max: 20)
        name: String

        @range(min: 0, max: 100)
        count: Integer

        tags: Tags

        @sensitive
        @length(max: 5)
        @pattern("^[a-z]+$")
        secret: String
    }
    output := {
        @required
        id: ItemId

        @required
        created: Timestamp
    }
}

@readonly
@http(method: "GET", uri: "/watch")
operation Watch {
    input := {
        @httpQuery("topic")
        topic: String
    }
    output := {
        @httpHeader("X-Topic")
        topic: String

        @httpPayload
        changes: Changes
    }
}

@readonly
@http(method: "GET", uri: "/download/{id}")
operation Download {
    input := {
        @required
        @httpLabel
        id: ItemId
    }
    output := {
        @httpHeader("Content-Type")
        contentType: String

        @httpPayload
        data: Data
    }
}

@streaming
blob Data

@streaming
union Changes {
    change: Change
    fault: Fault
}

structure Change {
    @required
    id: ItemId

    count: Integer
}

@error("server")
structure Fault {
    message: String
}

@length(min: 1, max: 10)
@pattern("^[a-z0-9]+$")
string ItemId

list Tags {
    member: Tag
}

@length(min: 1, max: 8)
string Tag

structure Item {
    @required
    id: ItemId

    @required
    name: String

    @range(min: 0, max: 1000)
    price: Float

    tags: Tags

    created: Timestamp
}

@error("client")
@httpError(404)
structure NotFound {
    message: String
}
