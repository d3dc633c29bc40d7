$version: "2.0"

// Trait definitions and shapes of the alloy namespace (smithy4s' protocol and
// helper traits), written for smithycurl from the alloy documentation.
namespace alloy

/// alloy's simple REST JSON protocol: HTTP bindings with JSON bodies.
@protocolDefinition(
    traits: [
        smithy.api#default, smithy.api#error, smithy.api#http, smithy.api#httpError
        smithy.api#httpHeader, smithy.api#httpLabel, smithy.api#httpPayload
        smithy.api#httpPrefixHeaders, smithy.api#httpQuery, smithy.api#httpQueryParams
        smithy.api#httpResponseCode, smithy.api#jsonName, smithy.api#length
        smithy.api#pattern, smithy.api#range, smithy.api#required, smithy.api#timestampFormat
        alloy#uuidFormat, alloy#discriminated, alloy#nullable, alloy#untagged
        alloy#jsonUnknown, alloy#openEnum, alloy#durationSecondsFormat, alloy#dateFormat
        alloy#localTimeFormat, alloy#offsetDateTimeFormat, alloy#preserveKeyOrder
    ]
)
@trait(selector: "service")
structure simpleRestJson {}

// --- Unions ---------------------------------------------------------------

/// A union encoded as an object with a discriminator member of this name.
@trait(selector: "union", conflicts: [untagged])
string discriminated

/// A union encoded as its member's value alone.
@trait(selector: "union", conflicts: [discriminated])
structure untagged {}

// --- Values ---------------------------------------------------------------

/// A member whose default value is this document.
@trait(selector: "structure > member :test(> :is(simpleType, list, map))", conflicts: [required])
document defaultValue

/// A member that may be explicitly null.
@trait(selector: ":not([trait|trait])")
structure nullable {}

/// An enumeration that accepts values it does not list.
@trait(selector: ":test(enum, intEnum, [trait|enum])")
structure openEnum {}

/// A map or document whose keys keep their order.
@trait(selector: ":test(map, member > map, document, member > document)")
structure preserveKeyOrder {}

/// A member collecting the JSON members of its structure that are not modeled.
@trait(
    selector: ":is(structure > member :test(> map > member[id|member=value] > document), union:not([trait|alloy#untagged]) > member :test(> document))"
    structurallyExclusive: "member"
    conflicts: [jsonName]
)
structure jsonUnknown {}

/// A string read as a structure by a pattern with {member} placeholders.
@trait(selector: "string")
structure structurePattern {
    @required
    pattern: String

    @required
    @idRef(selector: "structure")
    target: String
}

/// A string holding a UUID.
@trait(selector: "string")
structure uuidFormat {}

@uuidFormat
string UUID

// --- Dates and times ------------------------------------------------------

/// An ISO 8601 date: 2024-01-31.
@trait(selector: ":test(string, member > string)")
structure dateFormat {}

@dateFormat
string LocalDate

/// An ISO 8601 local time: 10:15:30.
@trait(selector: ":test(string, member > string)")
structure localTimeFormat {}

@localTimeFormat
string LocalTime

/// An ISO 8601 local date and time.
@trait(selector: ":test(string, member > string)")
structure localDateTimeFormat {}

@localDateTimeFormat
string LocalDateTime

/// A date-time timestamp that keeps its UTC offset.
@trait(selector: ":test(timestamp, member > timestamp) [trait|timestampFormat = 'date-time']")
structure offsetDateTimeFormat {}

@offsetDateTimeFormat
@timestampFormat("date-time")
timestamp OffsetDateTime

/// An ISO 8601 time with a UTC offset: 10:15:30+01:00.
@trait(selector: ":test(string, member > string)")
structure offsetTimeFormat {}

@offsetTimeFormat
string OffsetTime

/// A time zone id such as Europe/Paris.
@trait(selector: ":test(string, member > string)")
structure zoneIdFormat {}

@zoneIdFormat
string ZoneId

/// A UTC offset such as +01:00.
@trait(selector: ":test(string, member > string)")
structure zoneOffsetFormat {}

@zoneOffsetFormat
string ZoneOffset

/// A date and time with a time zone id.
@trait(selector: ":test(string, member > string)")
structure zonedDateTimeFormat {}

@zonedDateTimeFormat
string ZonedDateTime

/// A year.
@trait(selector: ":test(integer, member > integer)")
structure yearFormat {}

@yearFormat
integer Year

/// A year and month: 2024-01.
@trait(selector: ":test(string, member > string)")
structure yearMonthFormat {}

@yearMonthFormat
string YearMonth

/// A month and day: --01-31.
@trait(selector: ":test(string, member > string)")
structure monthDayFormat {}

@monthDayFormat
string MonthDay

/// A duration written as a number of seconds.
@trait(selector: ":test(bigDecimal, member > bigDecimal)")
structure durationSecondsFormat {}

@durationSecondsFormat
bigDecimal Duration

enum DayOfWeek {
    MONDAY
    TUESDAY
    WEDNESDAY
    THURSDAY
    FRIDAY
    SATURDAY
    SUNDAY
}

enum Month {
    JANUARY
    FEBRUARY
    MARCH
    APRIL
    MAY
    JUNE
    JULY
    AUGUST
    SEPTEMBER
    OCTOBER
    NOVEMBER
    DECEMBER
}

// --- Documentation --------------------------------------------------------

/// Examples of an operation that are not checked against its shapes.
@trait(selector: "operation")
list uncheckedExamples {
    member: UncheckedExample
}

@private
structure UncheckedExample {
    @required
    title: String

    documentation: String

    input: Document

    output: Document
}

/// Example values of a shape.
@trait(selector: ":not(:test(service, operation, resource))")
list dataExamples {
    member: DataExample
}

/// An example value: a Smithy node, raw JSON, or a string.
union DataExample {
    smithy: Document
    json: Document
    string: String
}

// --- URL form encoding ----------------------------------------------------

/// A list or map member written without a wrapping element in URL forms.
@trait(selector: ":is(structure, union) > :test(member > :test(list, map))")
structure urlFormFlattened {}

/// The name of a member in URL forms.
@trait(selector: ":is(structure, union, member)")
@pattern("^[a-zA-Z_][a-zA-Z_0-9-]*$")
string urlFormName
