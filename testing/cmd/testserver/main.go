// Command testserver runs the project's local test services on 127.0.0.1
// for the demo and for the C and Python tests: go-httpbin, the example
// Todos service, the key-value store of testing/servers/kvserver in rpcv2Cbor and
// rpcv2Json (line "kv <URL>": services smithycurl.kv#KVCbor and KVJson, model
// testing/servers/kvserver/kv.smithy), the event-stream Ticker service of
// testing/servers/eventserver (line "events <URL>", model
// testing/servers/eventserver/ticker.smithy), the benchmarks' echo service of
// testing/servers/benchserver (line "bench <URL>", model
// client/testdata/bench.smithy), the Extras service of
// testing/servers/extraserver (line "extras <URL>": paginated, waitable and
// streamed operations, model testing/servers/extraserver/extras.smithy), and with -pizza alloy's PizzaAdminService (model in the
// shared conformance folder, namespace alloy.test; see testing/servers/pizzaserver
// for the inputs that produce its errors), and last the streaming blob
// service of testing/servers/blobserver (line "blobs <URL>", model
// testing/servers/blobserver/blobs.smithy), then the fake SigV4a endpoint of
// testing/servers/sigv4aserver (line "sigv4a <URL>"), the fake S3 Express
// endpoint of testing/servers/s3expressserver (line "s3express <URL>"), the
// fake S3 of transfers of testing/servers/s3partserver (line "s3part <URL>",
// failures named in the key), the fake Timestream endpoint discovery of
// testing/servers/timestreamserver (line "timestream <URL>": its regional
// endpoint), and the fault-injecting
// proxy of testing/servers/onceserver in front of its counter (line "once
// <URL>", model testing/servers/onceserver/once.smithy: 40% of the requests
// get a fault, delays are 700 ms). It prints one line per service,
// "<name> <base URL>", then serves until stdin (a pipe) reaches EOF or it gets SIGINT
// or SIGTERM.
package main

import (
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mccutchen/go-httpbin/v2/httpbin"

	"github.com/smithycurl/smithycurl/testing/servers/benchserver"
	"github.com/smithycurl/smithycurl/testing/servers/blobserver"
	"github.com/smithycurl/smithycurl/testing/servers/eventserver"
	"github.com/smithycurl/smithycurl/testing/servers/extraserver"
	"github.com/smithycurl/smithycurl/testing/servers/kvserver"
	"github.com/smithycurl/smithycurl/testing/servers/onceserver"
	"github.com/smithycurl/smithycurl/testing/servers/pizzaserver"
	"github.com/smithycurl/smithycurl/testing/servers/s3expressserver"
	"github.com/smithycurl/smithycurl/testing/servers/s3partserver"
	"github.com/smithycurl/smithycurl/testing/servers/signedserver"
	"github.com/smithycurl/smithycurl/testing/servers/sigv4aserver"
	"github.com/smithycurl/smithycurl/testing/servers/timestreamserver"
	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address of each service (port 0: any free port)")
	watchStdin := flag.Bool("stdin", true, "stop when stdin, if it is a pipe, is closed")
	pizza := flag.Bool("pizza", false, "also serve alloy's PizzaAdminService (line \"pizza <URL>\")")
	flag.Parse()

	services := []struct {
		name    string
		handler http.Handler
	}{
		{"httpbin", httpbin.New().Handler()},
		{"todo", todoserver.New().Handler()},
		{"events", eventserver.Service{}.Handler()},
		{"kv", kvserver.New().Handler()},
		{"extras", extraserver.New().Handler()},
	}
	if *pizza {
		services = append(services, struct {
			name    string
			handler http.Handler
		}{"pizza", pizzaserver.New().Handler()})
	}
	// Last: readers that take a fixed number of lines (the Python tests'
	// conftest) get the services above first.
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"bench", benchserver.Handler()})
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"blobs", blobserver.New().Handler()})
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"sigv4a", sigv4aserver.Handler()})
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"s3express", s3expressserver.New(5 * time.Minute).Handler()})
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"signed", (&signedserver.Server{}).Handler()})
	services = append(services, struct {
		name    string
		handler http.Handler
	}{"s3part", s3partserver.New()})
	for _, s := range services {
		ln, err := net.Listen("tcp", *addr)
		if err != nil {
			fmt.Fprintf(os.Stderr, "testserver: %s: %v\n", s.name, err)
			os.Exit(1)
		}
		go http.Serve(ln, s.handler)
		fmt.Printf("%s http://%s\n", s.name, ln.Addr())
	}
	ts, err := timestreamserver.Start()
	if err != nil {
		fmt.Fprintf(os.Stderr, "testserver: %v\n", err)
		os.Exit(1)
	}
	defer ts.Close()
	fmt.Printf("timestream %s\n", ts.URL)
	once, err := onceserver.Start(0.4, 700*time.Millisecond, 31)
	if err != nil {
		fmt.Fprintf(os.Stderr, "testserver: %v\n", err)
		os.Exit(1)
	}
	defer once.Close()
	fmt.Printf("once %s\n", once.URL)

	done := make(chan struct{}, 1)
	// Only a pipe is watched: its writer closing it is the stop signal.
	// A terminal or a device such as /dev/zero or /dev/null is not one.
	if info, err := os.Stdin.Stat(); *watchStdin && err == nil && info.Mode()&os.ModeNamedPipe != 0 {
		go func() {
			io.Copy(io.Discard, os.Stdin)
			done <- struct{}{}
		}()
	}
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	select {
	case <-done:
	case <-sig:
	}
}
