package main

import (
	"regexp"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/internal/contract"
)

// TestOptionFlags: every flag internal/contract's ClientOptions names is
// one that call or wait defines (their -h lists them).
func TestOptionFlags(t *testing.T) {
	bin := smithycurl(t)
	defined := map[string]bool{}
	for _, cmd := range []string{"call", "wait"} {
		_, help, _ := runCmd(t, bin, cmd, "-h")
		for _, m := range regexp.MustCompile(`(?m)^  -(\S+)`).FindAllStringSubmatch(help, -1) {
			defined[m[1]] = true
		}
	}
	if !defined["timeout"] {
		t.Fatalf("call -h lists no --timeout: the help format changed?\n%v", defined)
	}
	for _, o := range contract.ClientOptions {
		for _, f := range strings.Fields(o.CLI) {
			if !defined[strings.TrimLeft(f, "-")] {
				t.Errorf("option %s: neither call nor wait defines %s", o.Name, f)
			}
		}
	}
}
