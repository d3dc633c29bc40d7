$version: "2"

// A small to-do list service: the example service that `make demo` runs on
// loopback and calls from the shell, C, Python and Go.
namespace smithycurl.examples.todo

/// Keeps a to-do list.
@alloy#simpleRestJson
service Todos {
    version: "2024-01-01"
    resources: [Todo]
}

resource Todo {
    identifiers: { id: TodoId }
    create: CreateTodo
    read: GetTodo
    update: UpdateTodo
    delete: DeleteTodo
    list: ListTodos
}

/// Adds an item. Retrying with the same clientToken adds it once.
@idempotent
@http(method: "POST", uri: "/todos", code: 201)
operation CreateTodo {
    input := {
        @required
        title: Title

        priority: Priority = "NORMAL"

        due: Timestamp

        tags: Tags

        @idempotencyToken
        clientToken: String
    }
    output: TodoItem
    errors: [TooManyTodos]
}

/// Returns one item.
@readonly
@http(method: "GET", uri: "/todos/{id}")
operation GetTodo {
    input := for Todo {
        @required
        @httpLabel
        $id
    }
    output: TodoItem
    errors: [TodoNotFound]
}

/// Lists the items, oldest first.
@readonly
@paginated(inputToken: "nextToken", outputToken: "nextToken", pageSize: "limit", items: "items")
@http(method: "GET", uri: "/todos")
operation ListTodos {
    input := {
        /// Only items that are (or are not) done.
        @httpQuery("done")
        done: Boolean

        @httpQuery("limit")
        @range(min: 1, max: 100)
        limit: Integer

        @httpQuery("nextToken")
        nextToken: String
    }
    output := {
        @required
        items: TodoList

        nextToken: String
    }
}

/// Changes an item's title, priority or state.
@idempotent
@http(method: "PATCH", uri: "/todos/{id}")
operation UpdateTodo {
    input := for Todo {
        @required
        @httpLabel
        $id

        title: Title

        priority: Priority

        done: Boolean
    }
    output: TodoItem
    errors: [TodoNotFound]
}

/// Removes an item.
@idempotent
@http(method: "DELETE", uri: "/todos/{id}", code: 204)
operation DeleteTodo {
    input := for Todo {
        @required
        @httpLabel
        $id
    }
    errors: [TodoNotFound]
}

@pattern("^[0-9a-f-]{36}$")
string TodoId

@length(min: 1, max: 100)
string Title

enum Priority {
    LOW
    NORMAL
    HIGH
}

@length(max: 10)
@uniqueItems
list Tags {
    member: Tag
}

@length(min: 1, max: 20)
string Tag

list TodoList {
    member: TodoItem
}

structure TodoItem {
    @required
    id: TodoId

    @required
    title: Title

    @required
    priority: Priority

    @required
    done: Boolean = false

    @timestampFormat("date-time")
    due: Timestamp

    tags: Tags

    @required
    @timestampFormat("date-time")
    created: Timestamp
}

/// No item has that id.
@error("client")
@httpError(404)
structure TodoNotFound {
    @required
    message: String

    id: String
}

/// The list is full.
@error("client")
@httpError(409)
structure TooManyTodos {
    @required
    message: String

    limit: Integer
}
