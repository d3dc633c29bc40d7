"""The library's version, return codes and error kinds: generated from internal/contract by `make contract`; do not edit."""

VERSION = "0.1.0"
#: 0xXXYYZZ, as smithycurl_version_number() gives it.
VERSION_NUMBER = 0x000100

# smithycurl_code values.
OK = 0
E_INVALID_ARGUMENT = 1
E_INVALID_HANDLE = 2
E_INVALID_UTF8 = 3
E_INVALID_JSON = 4
E_NOT_FOUND = 5
E_LOAD = 6
E_NO_OUTPUT = 7
E_USAGE = 8
E_VALIDATION = 9
E_SERVICE = 10
E_TRANSPORT = 11
E_TIMEOUT = 12
E_CANCELLED = 13
E_DECODE = 14
E_FORKED = 15
E_NOMEM = 16
E_INTERNAL = 17
E_DONE = 18

# smithycurl_error_kind values.
KIND_NONE = 0
KIND_USAGE = 1
KIND_VALIDATION = 2
KIND_SERVICE = 3
KIND_TRANSPORT = 4
KIND_TIMEOUT = 5
KIND_CANCELLED = 6
KIND_DECODE = 7

#: The code a call failing with each kind returns.
CODE_OF_KIND = {
    KIND_NONE: OK,
    KIND_USAGE: E_USAGE,
    KIND_VALIDATION: E_VALIDATION,
    KIND_SERVICE: E_SERVICE,
    KIND_TRANSPORT: E_TRANSPORT,
    KIND_TIMEOUT: E_TIMEOUT,
    KIND_CANCELLED: E_CANCELLED,
    KIND_DECODE: E_DECODE,
}
