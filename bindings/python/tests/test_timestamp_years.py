"""format_timestamp writes four-digit years (found by testing/proptest's
front-end differential test: year 446 came out as "446-07-24T...")."""
import datetime

from smithycurl.types import format_timestamp


def test_years_before_1000_are_zero_padded() -> None:
    utc = datetime.timezone.utc
    assert format_timestamp(datetime.datetime(446, 7, 24, 9, 7, 15, 722000, tzinfo=utc)) == "0446-07-24T09:07:15.722Z"
    assert format_timestamp(datetime.datetime(1, 1, 1, tzinfo=utc)) == "0001-01-01T00:00:00Z"
    assert format_timestamp(datetime.datetime(9999, 12, 31, 23, 59, 59, tzinfo=utc)) == "9999-12-31T23:59:59Z"
