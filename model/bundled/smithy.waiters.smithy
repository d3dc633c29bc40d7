$version: "2.0"

// Trait definitions of the smithy.waiters namespace, written for smithycurl
// from the Smithy specification's waiters page.
namespace smithy.waiters

/// Waiters of an operation: poll it until a state is reached, keyed by name.
@trait(selector: "operation :not(-[input, output]-> structure > member > union[trait|streaming])")
@length(min: 1)
map waitable {
    key: WaiterName
    value: Waiter
}

@pattern("^[A-Z]+[A-Za-z0-9]*$")
string WaiterName

/// One waiter.
@private
structure Waiter {
    documentation: String

    /// Matched in order after each attempt; the first match decides.
    @required
    acceptors: Acceptors

    /// Seconds to wait at least between attempts.
    minDelay: WaiterDelay = 2

    /// Seconds to wait at most between attempts.
    maxDelay: WaiterDelay = 120

    deprecated: Boolean

    tags: NonEmptyStringList
}

@range(min: 1)
integer WaiterDelay

@private
@length(min: 1)
list Acceptors {
    member: Acceptor
}

/// The state a waiter enters when its matcher matches.
@private
structure Acceptor {
    @required
    state: AcceptorState

    @required
    matcher: Matcher

    message: String
}

@private
enum AcceptorState {
    SUCCESS = "success"
    FAILURE = "failure"
    RETRY = "retry"
}

/// What an acceptor matches: output or input and output through a JMESPath
/// expression, an error, or success.
@private
union Matcher {
    output: PathMatcher
    inputOutput: PathMatcher
    errorType: String
    success: Boolean
}

@private
structure PathMatcher {
    /// A JMESPath expression.
    @required
    path: String

    /// The value compared with the expression's result.
    @required
    expected: String

    @required
    comparator: PathComparator
}

@private
enum PathComparator {
    STRING_EQUALS = "stringEquals"
    BOOLEAN_EQUALS = "booleanEquals"
    ALL_STRING_EQUALS = "allStringEquals"
    ANY_STRING_EQUALS = "anyStringEquals"
}

@private
list NonEmptyStringList {
    member: NonEmptyString
}

@private
@length(min: 1)
string NonEmptyString
