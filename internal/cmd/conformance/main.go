// Command conformance runs the project's conformance suites and prints one
// line per suite: "<suite>: N passed, N failed, N skipped", after every
// failing case with its difference. It exits 1 when any case failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/smithycurl/smithycurl/internal/conformance"
)

func main() {
	only := flag.String("suite", "", "run only the suites with these comma-separated names")
	flag.Parse()
	shared, err := conformance.SharedDir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	var results []conformance.Result
	failed := false
	for _, s := range conformance.Suites {
		if *only != "" && !strings.Contains(","+*only+",", ","+s.Name+",") {
			continue
		}
		r := s.Run(shared)
		results = append(results, r)
		failed = failed || r.Failed > 0
		for _, f := range r.Failures {
			fmt.Println("FAIL", f)
		}
		for _, n := range r.Notes {
			fmt.Println(n)
		}
	}
	for _, r := range results {
		fmt.Println(r.Summary())
	}
	if failed {
		os.Exit(1)
	}
}
