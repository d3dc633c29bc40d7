// Command credchain runs the credential-chain differential against
// botocore (package credchain) and prints each failing case with both
// sides' results, the excluded cases with their reasons (a case excluded
// as a difference on purpose fails when the difference is gone), then
// "credential-chain vs botocore: N passed, N failed". With -side it is
// smithycurl's side of one case: the chain and settings of its
// environment, as JSON.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/smithycurl/smithycurl/testing/credchain"
)

func main() {
	side := flag.Bool("side", false, "print smithycurl's result for this process's environment")
	profile := flag.String("profile", "", "with -side: the profile given explicitly")
	service := flag.String("service", "DynamoDB", "with -side: the sdkId whose settings are read")
	python := flag.String("python", "/usr/bin/python3", "a Python with botocore")
	oracle := flag.String("oracle", "testing/credchain/oracle.py", "botocore's side")
	run := flag.String("run", "", "only the cases whose group/name contains this")
	verbose := flag.Bool("v", false, "print every case")
	flag.Parse()
	if *side {
		json.NewEncoder(os.Stdout).Encode(credchain.Side(*profile, *service))
		return
	}
	self, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "credchain:", err)
		os.Exit(2)
	}
	orc, _ := filepath.Abs(*oracle)
	r := &credchain.Runner{Self: self, Python: *python, Oracle: orc}
	var cases []credchain.Case
	for _, c := range credchain.Cases() {
		if strings.Contains(c.Group+"/"+c.Name, *run) {
			cases = append(cases, c)
		}
	}
	passed, failed, excluded := 0, 0, 0
	version := ""
	outcomes, err := r.Run(cases, 4*runtime.NumCPU())
	if err != nil {
		fmt.Fprintln(os.Stderr, "credchain:", err)
		os.Exit(2)
	}
	for _, o := range outcomes {
		name := o.Case.Group + "/" + o.Case.Name
		if o.Boto.Botocore != "" {
			version = o.Boto.Botocore
		}
		switch {
		case o.Case.Exclude != "" && len(o.Problems) == 0:
			// A difference on purpose that is gone: the exclusion is stale.
			// (A case botocore is too old for compares less: not this.)
			failed++
			fmt.Printf("FAIL %s: excluded (%s), but both sides agree: remove the exclusion\n", name, o.Excluded)
			show(o)
		case o.Excluded != "":
			excluded++
			fmt.Printf("excluded %s: %s\n", name, o.Excluded)
			if *verbose {
				show(o)
			}
		case len(o.Problems) > 0:
			failed++
			fmt.Printf("FAIL %s: %s\n", name, strings.Join(o.Problems, "; "))
			show(o)
		default:
			passed++
			if *verbose {
				fmt.Printf("ok %s\n", name)
				show(o)
			}
		}
	}
	fmt.Printf("botocore %s; %d cases excluded\n", version, excluded)
	fmt.Printf("credential-chain vs botocore: %d passed, %d failed\n", passed, failed)
	if failed > 0 {
		os.Exit(1)
	}
}

func show(o credchain.Outcome) {
	g, _ := json.Marshal(o.Go)
	b, _ := json.Marshal(o.Boto)
	fmt.Printf("    smithycurl (%.1f s): %s\n    botocore (%.1f s):   %s\n", o.GoTime.Seconds(), g, o.BotoTime.Seconds(), b)
}
