package proptest

import "time"

func timeText(sec int64, ms int) string {
	return time.Unix(sec, int64(ms)*1e6).UTC().Format("2006-01-02T15:04:05.000Z07:00")
}
