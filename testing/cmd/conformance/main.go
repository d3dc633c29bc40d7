// Command conformance runs the project's conformance suites and prints one
// line per suite: "<suite>: N passed, N failed, N skipped", after every
// failing case with its difference, then the same for the protocol suites
// run through generated Go clients (suite typed-go). It exits 1 when any
// case failed.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/smithycurl/smithycurl/testing/conformance"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

func main() {
	only := flag.String("suite", "", "run only the suites with these comma-separated names")
	flag.Parse()
	shared, err := shareddata.Dir()
	if err != nil {
		fmt.Fprintln(os.Stderr, "conformance:", err)
		os.Exit(2)
	}
	var results []conformance.Result
	for _, s := range conformance.Suites {
		if *only != "" && !strings.Contains(","+*only+",", ","+s.Name+",") {
			continue
		}
		results = append(results, s.Run(shared))
	}
	failed := conformance.Print(os.Stdout, results)
	if *only == "" || strings.Contains(","+*only+",", ",typed-go,") {
		failed = typedGo(shared) || failed
	}
	if failed {
		os.Exit(1)
	}
}

// typedGo runs the protocol cases through generated Go clients: it writes
// them to build/_conformance-go (inside the module, so that they can import
// it; "_" keeps it out of ./... patterns) and runs them there with go run.
func typedGo(shared string) bool {
	root, err := shareddata.Root()
	if err != nil {
		fmt.Println("FAIL typed-go:", err)
		return true
	}
	dir := filepath.Join(root, "build", "_conformance-go")
	if err := conformance.GenerateTypedGo(shared, dir, shareddata.Module+"/build/_conformance-go"); err != nil {
		fmt.Println("FAIL typed-go: generate:", err)
		return true
	}
	goCmd := os.Getenv("GO")
	if goCmd == "" {
		goCmd = "go"
	}
	cmd := exec.Command(goCmd, "run", "./build/_conformance-go", shared)
	cmd.Dir, cmd.Stdout, cmd.Stderr = root, os.Stdout, os.Stderr
	if err := cmd.Run(); err != nil {
		fmt.Println("FAIL typed-go:", err)
		return true
	}
	return false
}
