package client

import (
	"testing"
	"time"
)

// TestParseHTTPTime: the three date forms of RFC 9110 (what net/http's
// ParseTime accepts), for Retry-After.
func TestParseHTTPTime(t *testing.T) {
	want := time.Date(1994, 11, 6, 8, 49, 37, 0, time.UTC)
	for _, v := range []string{"Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"} {
		got, err := parseHTTPTime(v)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v, %v", v, got, err)
		}
	}
	if _, err := parseHTTPTime("soon"); err == nil {
		t.Errorf("no error for a bad date")
	}
	if d := retryAfter(map[string][]string{"Retry-After": {time.Now().Add(time.Hour).UTC().Format("Mon, 02 Jan 2006 15:04:05 GMT")}}); d < 59*time.Minute || d > time.Hour {
		t.Errorf("retryAfter of a date an hour away = %v", d)
	}
}
