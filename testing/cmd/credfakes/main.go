// Command credfakes runs the fake AWS credential endpoints on 127.0.0.1
// for tests in any language: STS, SSO and SSO-OIDC (testing/credchain/fakeaws,
// one URL for the three) and IMDSv2 and a container endpoint
// (testing/servers/credserver), all handing out credentials that live
// -ttl. It prints one line per fake, "<name> <URL>" (sts, imds, container:
// the full URI to put in AWS_CONTAINER_CREDENTIALS_FULL_URI), then serves
// until stdin (a pipe) reaches EOF or it gets SIGINT or SIGTERM.
//
//	credfakes -config fakes.json   # fakeaws.Config as JSON: Keys, WebTokens, SSOTokens, RefreshTokens...
//
// Point a client at them with AWS_ENDPOINT_URL_STS, _SSO and _SSO_OIDC
// set to the sts URL, AWS_EC2_METADATA_SERVICE_ENDPOINT and
// AWS_CONTAINER_CREDENTIALS_FULL_URI (with AWS_CONTAINER_AUTHORIZATION_TOKEN
// set to -container-token).
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/smithycurl/smithycurl/testing/credchain/fakeaws"
	"github.com/smithycurl/smithycurl/testing/servers/credserver"
)

func main() {
	config := flag.String("config", "", "a JSON file of fakeaws.Config (keys, tokens the fakes accept)")
	ttl := flag.Duration("ttl", time.Hour, "how long issued credentials live")
	path := flag.String("container-path", "/v2/credentials/task", "the container endpoint's path")
	token := flag.String("container-token", "", "the Authorization value the container endpoint requires (none: \"\")")
	flag.Parse()
	var cfg fakeaws.Config
	if *config != "" {
		b, err := os.ReadFile(*config)
		if err == nil {
			err = json.Unmarshal(b, &cfg)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "credfakes:", err)
			os.Exit(2)
		}
	}
	cfg.TTL = *ttl
	imds := credserver.StartIMDS()
	defer imds.Close()
	imds.SetLifetime(*ttl)
	ctr := credserver.StartContainer(*path, *token)
	defer ctr.Close()
	ctr.SetLifetime(*ttl)
	// The container's and IMDS's credentials may sign STS calls
	// (credential_source EcsContainer, Ec2InstanceMetadata).
	cfg.Lookup = fakeaws.IssuedBy(imds, ctr)
	sts := fakeaws.Start(cfg)
	defer sts.Close()
	fmt.Printf("sts %s\nimds %s\ncontainer %s%s\n", sts.URL, imds.URL, ctr.URL, *path)

	done := make(chan struct{}, 2)
	go func() { io.Copy(io.Discard, os.Stdin); done <- struct{}{} }()
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, syscall.SIGINT, syscall.SIGTERM)
	go func() { <-sig; done <- struct{}{} }()
	<-done
}
