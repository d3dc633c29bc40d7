$version: "2.0"

// The smithy.framework namespace: the validation error that Smithy server
// frameworks answer with, written for smithycurl.
namespace smithy.framework

/// The input of a call did not satisfy the model's constraints.
@error("client")
structure ValidationException {
    /// What was wrong, for people.
    @required
    message: String

    /// Each member that failed validation.
    fieldList: ValidationExceptionFieldList
}

/// One member that failed validation.
structure ValidationExceptionField {
    /// A JSON pointer to the member.
    @required
    path: String

    /// What was wrong with it.
    @required
    message: String
}

list ValidationExceptionFieldList {
    member: ValidationExceptionField
}
