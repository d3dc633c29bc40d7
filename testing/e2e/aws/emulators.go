// Package awse2e runs smithycurl end to end against AWS emulators from npm:
// dynalite (DynamoDB, awsJson1_0), kinesalite (Kinesis, awsJson1_1),
// fauxqs (SQS in awsJson1_0, SNS in awsQuery, S3) and s3rver (S3, restXml).
//
// The emulators come from $SMITHYCURL_DYNALITE_URL,
// $SMITHYCURL_KINESALITE_URL, $SMITHYCURL_FAUXQS_URL and
// $SMITHYCURL_S3RVER_URL when set (scripts/emulators.sh start prints them); otherwise Start installs them into the npm cache with
// scripts/emulators.sh install and runs them itself on free ports of
// 127.0.0.1 until Stop (or until the test process exits). Tests skip when
// the emulators cannot be started, except in CI (CI set), where they fail.
package awse2e

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// Credentials are the fake key pair and region the tests sign with; the
// emulators accept any signature.
var Credentials = client.AWSCredentials{
	AccessKeyID:     "AKIDEXAMPLE",
	SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY",
	Region:          "us-east-1",
}

// Emulators are the base URLs of the running emulators.
type Emulators struct {
	DynamoDB string // dynalite
	Kinesis  string // kinesalite
	Fauxqs   string // fauxqs: SQS, SNS, S3
	S3rver   string // s3rver: S3
}

var (
	once     sync.Once
	running  Emulators
	procs    []*proc
	startErr error
)

type proc struct {
	cmd   *exec.Cmd
	stdin io.WriteCloser
}

// Start returns the emulators, starting them on first use. It skips tb when
// they cannot be started, or fails it in CI.
func Start(tb testing.TB) Emulators {
	tb.Helper()
	once.Do(func() { running, startErr = start() })
	if startErr != nil {
		if os.Getenv("CI") != "" {
			tb.Fatalf("AWS emulators are required in CI: %v", startErr)
		}
		tb.Skipf("AWS emulators not available: %v", startErr)
	}
	return running
}

// Stop ends the emulators Start started (call it from TestMain).
func Stop() {
	for _, p := range procs {
		p.stdin.Close()
		done := make(chan struct{})
		go func() { p.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(3 * time.Second):
			p.cmd.Process.Kill()
			<-done
		}
	}
	procs = nil
}

func start() (Emulators, error) {
	e := Emulators{DynamoDB: os.Getenv("SMITHYCURL_DYNALITE_URL"), Kinesis: os.Getenv("SMITHYCURL_KINESALITE_URL"),
		Fauxqs: os.Getenv("SMITHYCURL_FAUXQS_URL"), S3rver: os.Getenv("SMITHYCURL_S3RVER_URL")}
	if e.DynamoDB != "" && e.Kinesis != "" && e.Fauxqs != "" && e.S3rver != "" {
		return e, nil
	}
	root, err := shareddata.Root()
	if err != nil {
		return e, err
	}
	if _, err := exec.LookPath("node"); err != nil {
		return e, fmt.Errorf("node is not installed")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, filepath.Join(root, "scripts", "emulators.sh"), "install").Output()
	if err != nil {
		msg := ""
		if ee, ok := err.(*exec.ExitError); ok {
			msg = strings.TrimSpace(string(ee.Stderr))
		}
		return e, fmt.Errorf("scripts/emulators.sh install: %v %s", err, msg)
	}
	modules := strings.TrimSpace(string(out))
	run := func(name string) (string, error) {
		cmd := exec.Command("node", filepath.Join(root, "scripts", "emulator.js"), modules, name, "0", "--stdin")
		cmd.Stderr = os.Stderr
		stdin, err := cmd.StdinPipe()
		if err != nil {
			return "", err
		}
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			return "", err
		}
		if err := cmd.Start(); err != nil {
			return "", err
		}
		procs = append(procs, &proc{cmd: cmd, stdin: stdin})
		port := make(chan string, 1)
		go func() {
			line, _ := bufio.NewReader(stdout).ReadString('\n')
			port <- strings.TrimSpace(line)
			io.Copy(io.Discard, stdout)
		}()
		select {
		case p := <-port:
			if p == "" {
				return "", fmt.Errorf("%s exited before listening", name)
			}
			return "http://127.0.0.1:" + p, nil
		case <-time.After(20 * time.Second):
			return "", fmt.Errorf("%s did not start within 20 s", name)
		}
	}
	for _, em := range []struct {
		url  *string
		name string
	}{{&e.DynamoDB, "dynalite"}, {&e.Kinesis, "kinesalite"}, {&e.Fauxqs, "fauxqs"}, {&e.S3rver, "s3rver"}} {
		if *em.url == "" {
			if *em.url, err = run(em.name); err != nil {
				Stop()
				return e, err
			}
		}
	}
	return e, nil
}
