// Command startupbench is the Go front end of bench/startup.py: in a fresh
// process it loads MODEL and creates a client of SERVICE (the first
// client), then does the same NEXT more times (the next clients, which the
// model cache serves), and prints the milliseconds of each as
//
//	first=F next=N     (N: the median of the next ones)
//
//	startupbench MODEL SERVICE NEXT
package main

import (
	"context"
	"fmt"
	"os"
	"slices"
	"strconv"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/model"
)

func create(path, service string) error {
	m, err := model.LoadPaths(context.Background(), path)
	if err != nil {
		return err
	}
	c, err := client.New(m, model.ShapeID(service), "", client.WithRegion("us-east-1"))
	if err != nil {
		return err
	}
	return c.Close()
}

func main() {
	if len(os.Args) != 4 {
		fmt.Fprintln(os.Stderr, "usage: startupbench MODEL SERVICE NEXT")
		os.Exit(2)
	}
	next, err := strconv.Atoi(os.Args[3])
	if err != nil || next < 1 {
		fmt.Fprintln(os.Stderr, "startupbench: NEXT is a positive number")
		os.Exit(2)
	}
	times := make([]float64, next+1)
	for i := range times {
		t0 := time.Now()
		if err := create(os.Args[1], os.Args[2]); err != nil {
			fmt.Fprintln(os.Stderr, "startupbench:", err)
			os.Exit(1)
		}
		times[i] = float64(time.Since(t0).Microseconds()) / 1e3
	}
	rest := times[1:]
	slices.Sort(rest)
	fmt.Printf("first=%.2f next=%.2f\n", times[0], rest[len(rest)/2])
}
