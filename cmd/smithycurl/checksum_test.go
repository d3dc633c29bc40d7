package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/blobserver"
)

// TestCallChecksumFlags: --request-checksum-calculation and
// --response-checksum-validation against the blob service's checksum
// operations (issue 26, item 5).
func TestCallChecksumFlags(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(blobserver.New().Handler())
	defer srv.Close()
	model := filepath.Join(t.TempDir(), "blobs.smithy")
	if err := os.WriteFile(model, []byte(blobserver.Model), 0o644); err != nil {
		t.Fatal(err)
	}
	base := []string{"call", "--model", model, "--endpoint", srv.URL, "--retries", "0"}
	put := []string{"PutChecked", "--input", `{"key": "k", "body": "aGVsbG8="}`}
	for _, tc := range []struct {
		flags []string
		want  string
	}{
		{nil, `"algorithm":"CRC32","crc32":"NhCmhg=="`},
		{[]string{"--request-checksum-calculation", "when_required"}, `"algorithm":"","crc32":""`},
	} {
		out, errOut, code := runCmd(t, bin, append(append(append([]string{}, base...), tc.flags...), put...)...)
		if code != 0 || !strings.Contains(out, tc.want) {
			t.Errorf("%v: exit %d, %s %s, want %s", tc.flags, code, out, errOut, tc.want)
		}
	}
	get := []string{"GetChecked", "--input", `{"key": "bad"}`}
	if _, errOut, code := runCmd(t, bin, append(append([]string{}, base...), get...)...); code == 0 || !strings.Contains(errOut, "response checksum mismatch") {
		t.Errorf("GetChecked of a bad checksum: exit %d, %s", code, errOut)
	}
	if out, errOut, code := runCmd(t, bin, append(append(append([]string{}, base...), "--response-checksum-validation", "when_required"), get...)...); code != 0 || !strings.Contains(out, "checked body") && !strings.Contains(out, "Y2hlY2tlZCBib2R5") {
		t.Errorf("GetChecked unchecked: exit %d, %s %s", code, out, errOut)
	}
	if _, errOut, code := runCmd(t, bin, append(append(append([]string{}, base...), "--request-checksum-calculation", "always"), put...)...); code == 0 || !strings.Contains(errOut, `--request-checksum-calculation "always": want when_supported or when_required`) {
		t.Errorf("a bad value: exit %d, %s", code, errOut)
	}
}
