$version: "2"

// Operations that stream events in their input, which the mock server
// refuses at once (TestInputEventStreamRefused).
namespace smithycurl.serve.chat

use aws.protocols#awsJson1_0
use aws.protocols#restJson1

@restJson1
service ChatRest {
    operations: [Chat]
}

@awsJson1_0
service ChatJson {
    operations: [Chat]
}

@http(method: "POST", uri: "/chat")
operation Chat {
    input := {
        @httpPayload
        messages: Messages
    }
    output := {}
}

@streaming
union Messages {
    text: Text
}

structure Text {
    body: String
}
