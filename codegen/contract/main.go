// Command contract renders the files and header regions that come from the
// table in internal/contract (make contract).
package main

import (
	"fmt"
	"os"
)

func main() {
	root := "."
	if len(os.Args) > 1 {
		root = os.Args[1]
	}
	written, err := syncFiles(root, true)
	for _, p := range written {
		fmt.Println("wrote", p)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
