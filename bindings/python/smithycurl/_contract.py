"""The library's version, return codes, error kinds and client options: generated from internal/contract by `make contract`; do not edit."""

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
E_WAITER_FAILURE = 18
E_WAITER_TIMEOUT = 19
E_END = 20

# smithycurl_error_kind values.
KIND_NONE = 0
KIND_USAGE = 1
KIND_VALIDATION = 2
KIND_SERVICE = 3
KIND_TRANSPORT = 4
KIND_TIMEOUT = 5
KIND_CANCELLED = 6
KIND_DECODE = 7
KIND_WAITER_FAILURE = 8
KIND_WAITER_TIMEOUT = 9

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
    KIND_WAITER_FAILURE: E_WAITER_FAILURE,
    KIND_WAITER_TIMEOUT: E_WAITER_TIMEOUT,
}

#: Model.client's options: keyword -> (its C setter, named as _lib declares
#: it, without smithycurl_; the keyword's default). The keywords of one
#: setter go to one call, in this order.
CLIENT_OPTIONS: dict[str, tuple[str, object]] = {
    "timeout": ("options_set_timeout_ms", None),
    "connect_timeout": ("options_set_connect_timeout_ms", None),
    "retries": ("options_set_retries", True),
    "retry_mode": ("options_set_retry_mode", None),
    "validate": ("options_set_validation", False),
    "max_response_bytes": ("options_set_max_response_bytes", None),
    "headers": ("options_add_header", None),
    "user_agent": ("options_set_user_agent", None),
    "bearer_token": ("options_set_bearer_token", None),
    "basic_auth": ("options_set_basic_auth", None),
    "api_key": ("options_set_api_key", None),
    "aws_credentials": ("options_set_aws_sigv4", None),
    "credentials": ("options_set_aws_credentials_fn", None),
    "token": ("options_set_token_fn", None),
    "request_min_compression_size_bytes": ("options_set_request_min_compression_size", None),
    "disable_request_compression": ("options_set_disable_request_compression", None),
    "app_id": ("options_set_app_id", None),
    "ca_file": ("options_set_tls", None),
    "cert_file": ("options_set_tls", None),
    "key_file": ("options_set_tls", None),
    "insecure": ("options_set_tls", False),
    "proxy": ("options_set_proxy", None),
    "host_prefix": ("options_set_host_prefix", True),
    "region": ("options_set_region", None),
    "profile": ("options_set_profile", None),
    "request_checksum_calculation": ("options_set_request_checksum_calculation", None),
    "response_checksum_validation": ("options_set_response_checksum_validation", None),
    "endpoint_discovery": ("options_set_endpoint_discovery", None),
    "endpoint_params": ("options_set_endpoint_param", None),
    "waiter_delays": ("options_set_waiter_delays", None),
    "max_transfers": ("options_set_async_limits", None),
    "max_host_connections": ("options_set_async_limits", None),
    "trace": ("options_set_trace", None),
    "interceptors": ("options_add_interceptor", None),
    "auth_schemes": ("options_add_auth_scheme", None),
    "trace_spans": ("options_set_trace_spans", False),
    "digest_auth": ("options_set_digest_auth", None),
}
