package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/blobserver"
)

// runRSS runs the command and returns its stdout and peak resident set
// (ru_maxrss) in bytes; the test fails unless it exits 0.
func runRSS(t *testing.T, bin string, args ...string) (string, int64) {
	t.Helper()
	var o, e bytes.Buffer
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = &o, &e
	if err := cmd.Run(); err != nil {
		t.Fatalf("%v: %v\n%s", args, err, e.String())
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		t.Fatal("no rusage")
	}
	return o.String(), ru.Maxrss << 10 // KiB on Linux
}

// writePattern writes n bytes of the blob service's pattern to path.
func writePattern(t *testing.T, path string, n int64) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := bufio.NewWriterSize(f, 1<<20)
	piece := blobserver.Pattern(0, blobserver.Period*1024)
	for left := n; left > 0; left -= int64(len(piece)) {
		w.Write(piece[:min(left, int64(len(piece)))])
	}
	if err := w.Flush(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// call --body-in FILE and --body-out FILE stream 128 MiB each way with the
// command's peak RSS a few MiB above that of a 1 MiB transfer (holding a
// body would add 128 MiB).
func TestCallBodyFilesMemoryBounded(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(blobserver.New().Handler())
	defer srv.Close()
	dir := t.TempDir()
	model := filepath.Join(dir, "blobs.smithy")
	if err := os.WriteFile(model, []byte(blobserver.Model), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"call", "--model", model, "--endpoint", srv.URL, "--timeout", "120s"}
	const small, big = 1 << 20, 128 << 20
	peaks := map[string]int64{}
	for _, size := range []int64{small, big} {
		in := filepath.Join(dir, fmt.Sprintf("in-%d", size))
		writePattern(t, in, size)
		out, rss := runRSS(t, bin, append(base, "PutBlob", "--input", `{"key":"cli"}`, "--body-in", in)...)
		var got struct {
			Size   int64 `json:"size"`
			Intact bool  `json:"intact"`
		}
		if err := json.Unmarshal([]byte(out), &got); err != nil || got.Size != size || !got.Intact {
			t.Fatalf("PutBlob of %d bytes: %s (%v)", size, out, err)
		}
		peaks["up "+strconv.FormatInt(size, 10)] = rss
		os.Remove(in)

		dst := filepath.Join(dir, "out")
		out, rss = runRSS(t, bin, append(base, "GetBlob", "--input", fmt.Sprintf(`{"size":%d}`, size), "--body-out", dst)...)
		b, err := os.ReadFile(dst) // the test, not the command, reads it whole
		if err != nil || int64(len(b)) != size || !bytes.Equal(b[size-1000:], blobserver.Pattern(size-1000, 1000)) {
			t.Fatalf("GetBlob of %d bytes: %d bytes written (%v); output %s", size, len(b), err, out)
		}
		peaks["down "+strconv.FormatInt(size, 10)] = rss
		os.Remove(dst)
	}
	const bound = 24 << 20
	for _, dir := range []string{"up", "down"} {
		s, b := peaks[dir+" "+strconv.Itoa(small)], peaks[dir+" "+strconv.Itoa(big)]
		t.Logf("%s: peak RSS %.1f MiB for 1 MiB, %.1f MiB for 128 MiB", dir, float64(s)/(1<<20), float64(b)/(1<<20))
		if b-s > bound {
			t.Errorf("%s: 128 MiB took %d bytes more RSS than 1 MiB (bound %d)", dir, b-s, bound)
		}
	}
}
