package model_test

import (
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

// TestTimestampValue: a timestamp the model writes (a @default) in each
// form the Smithy specification allows becomes the same instant: epoch
// seconds (fractions too), a date-time, and an http-date under
// @timestampFormat("http-date") (the generators once left that one at 1970
// or wrote code that could not run).
func TestTimestampValue(t *testing.T) {
	for _, tc := range []struct {
		n      model.Node
		format string
		want   time.Time
	}{
		{model.String("Thu, 23 May 2024 10:20:30 GMT"), "http-date", time.Date(2024, 5, 23, 10, 20, 30, 0, time.UTC)},
		{model.String("Thu, 23 May 2024 10:20:30 GMT"), "", time.Date(2024, 5, 23, 10, 20, 30, 0, time.UTC)},
		{model.String("2024-05-23T10:20:32.5Z"), "", time.Date(2024, 5, 23, 10, 20, 32, 500_000_000, time.UTC)},
		{model.String("2024-05-23T12:20:32+02:00"), "date-time", time.Date(2024, 5, 23, 10, 20, 32, 0, time.UTC)},
		{model.Number("1716459633"), "", time.Date(2024, 5, 23, 10, 20, 33, 0, time.UTC)},
		{model.Number("1716459634.25"), "epoch-seconds", time.Date(2024, 5, 23, 10, 20, 34, 250_000_000, time.UTC)},
		{model.Number("-1.5"), "", time.Date(1969, 12, 31, 23, 59, 58, 500_000_000, time.UTC)},
		{model.Number("1.7164596e9"), "", time.Date(2024, 5, 23, 10, 20, 0, 0, time.UTC)},
		{model.String("1716459633"), "epoch-seconds", time.Date(2024, 5, 23, 10, 20, 33, 0, time.UTC)},
	} {
		got, err := model.TimestampValue(tc.n, tc.format)
		if err != nil || !got.Equal(tc.want) || got.Location() != time.UTC {
			t.Errorf("TimestampValue(%s, %q) = %v, %v; want %v", tc.n.JSON(), tc.format, got, err, tc.want)
		}
	}
	for _, bad := range []model.Node{model.String("yesterday"), model.Bool(true), model.Number("1e30")} {
		if got, err := model.TimestampValue(bad, ""); err == nil {
			t.Errorf("TimestampValue(%s) = %v, want an error", bad.JSON(), got)
		}
	}
}
