package credentials

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/identity"
)

// Bounds of a credential_process run (botocore has none; the Go SDK's
// timeout is 1 minute too).
const (
	ProcessTimeout   = time.Minute
	ProcessMaxOutput = 1 << 20 // bytes of stdout
)

// Process returns the provider of a credential_process command: split as
// botocore splits it (POSIX shlex, no shell; the Go SDK runs "sh -c"), run
// with the process's environment and stdin, killed after ProcessTimeout
// (or the ctx deadline), its stdout at most ProcessMaxOutput bytes of
// version 1 JSON. where says where the command is set ("profile dev
// (/home/u/.aws/config:3)"), for Source and messages.
func Process(command, where string, opts Options) identity.Provider[identity.AWS] {
	return &processProvider{command: command, where: where, timeout: ProcessTimeout, max: ProcessMaxOutput}
}

type processProvider struct {
	command, where string
	timeout        time.Duration
	max            int
}

func (p *processProvider) name() string {
	if p.where == "" {
		return "credential_process"
	}
	return "credential_process: " + p.where
}

func (p *processProvider) Retrieve(ctx context.Context) (identity.AWS, error) {
	c, err := p.run(ctx)
	if err != nil {
		return identity.AWS{}, fmt.Errorf("%s: %w", p.name(), err)
	}
	c.Source = p.name()
	return c, nil
}

func (p *processProvider) run(ctx context.Context) (identity.AWS, error) {
	args, err := shellSplit(p.command)
	if err != nil {
		return identity.AWS{}, err
	}
	if len(args) == 0 {
		return identity.AWS{}, errors.New("the command is empty")
	}
	prog := filepath.Base(args[0])
	ctx, cancel := context.WithTimeout(ctx, p.timeout)
	defer cancel()
	out := &cappedBuffer{max: p.max, overflow: cancel}
	stderr := &cappedBuffer{max: 4096}
	cmd := exec.CommandContext(ctx, args[0], args[1:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, out, stderr
	// A child left holding the pipes after a kill does not hold Wait.
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	switch {
	case out.over:
		return identity.AWS{}, fmt.Errorf("%s: more than %d bytes of output", prog, p.max)
	case ctx.Err() != nil && (err != nil || cmd.ProcessState == nil || !cmd.ProcessState.Success()):
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return identity.AWS{}, fmt.Errorf("%s: killed: no answer in time (at most %s): %w", prog, p.timeout, ctx.Err())
		}
		return identity.AWS{}, fmt.Errorf("%s: %w", prog, ctx.Err())
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			msg := fmt.Sprintf("%s: %s", prog, ee.ProcessState)
			if line := firstLine(stderr.b.Bytes()); line != "" {
				msg += ": " + line
			}
			return identity.AWS{}, errors.New(msg)
		}
		var pe *os.PathError
		if errors.As(err, &pe) {
			return identity.AWS{}, fmt.Errorf("%s: %v", prog, pe.Err)
		}
		if errors.Is(err, exec.ErrNotFound) {
			return identity.AWS{}, fmt.Errorf("%s: %w", prog, exec.ErrNotFound)
		}
		return identity.AWS{}, fmt.Errorf("%s: %w", prog, err)
	}
	return parseProcessOutput(out.b.Bytes())
}

// parseProcessOutput reads version 1 of the credential_process JSON.
func parseProcessOutput(b []byte) (identity.AWS, error) {
	var v struct {
		Version                                   any
		AccessKeyID                               *string `json:"AccessKeyId"`
		SecretAccessKey, SessionToken, Expiration *string
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return identity.AWS{}, errors.New("the output is not the JSON of credential_process")
	}
	// botocore compares with 1, so 1.0 passes too.
	if f, ok := v.Version.(float64); !ok || f != 1 {
		return identity.AWS{}, errors.New("unsupported Version (supported: 1)")
	}
	if v.AccessKeyID == nil || *v.AccessKeyID == "" {
		return identity.AWS{}, errors.New("AccessKeyId missing from the output")
	}
	if v.SecretAccessKey == nil || *v.SecretAccessKey == "" {
		return identity.AWS{}, errors.New("SecretAccessKey missing from the output")
	}
	c := identity.AWS{AccessKeyID: *v.AccessKeyID, SecretAccessKey: *v.SecretAccessKey}
	if v.SessionToken != nil {
		c.SessionToken = *v.SessionToken
	}
	if err := checkCreds(c); err != nil {
		return identity.AWS{}, err
	}
	if v.Expiration != nil && *v.Expiration != "" {
		t, err := parseExpiry("Expiration", *v.Expiration)
		if err != nil {
			return identity.AWS{}, err
		}
		c.Expires = t
	}
	return c, nil
}

// cappedBuffer keeps the first max bytes; past them it notes the overflow,
// calls overflow (which kills the process) or, without one, drops the rest.
type cappedBuffer struct {
	b        bytes.Buffer
	max      int
	over     bool
	overflow func()
}

func (w *cappedBuffer) Write(p []byte) (int, error) {
	if room := w.max - w.b.Len(); len(p) > room {
		w.b.Write(p[:max(room, 0)])
		if w.overflow != nil {
			w.over = true
			w.overflow()
			return 0, errors.New("output too large")
		}
		return len(p), nil
	}
	return w.b.Write(p)
}

// firstLine is the first line of a command's stderr, short and printable.
func firstLine(b []byte) string {
	s, _, _ := strings.Cut(string(b), "\n")
	s = strings.TrimSpace(s)
	if len(s) > 200 {
		s = s[:200] + "..."
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '\uFFFD' {
			return '?'
		}
		return r
	}, s)
}

// shellSplit splits a command line as Python's shlex.split (POSIX mode):
// whitespace separates words; '...' is literal; in "..." a backslash
// escapes only " and \; elsewhere it escapes any character.
func shellSplit(s string) ([]string, error) {
	var words []string
	var w strings.Builder
	inWord := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			if inWord {
				words = append(words, w.String())
				w.Reset()
				inWord = false
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New("the command ends with an escape character")
			}
			i++
			w.WriteByte(s[i])
			inWord = true
		case c == '\'':
			j := strings.IndexByte(s[i+1:], '\'')
			if j < 0 {
				return nil, errors.New("the command has no closing quotation")
			}
			w.WriteString(s[i+1 : i+1+j])
			i += j + 1
			inWord = true
		case c == '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && (s[i+1] == '"' || s[i+1] == '\\') {
					i++
				}
				w.WriteByte(s[i])
			}
			if i == len(s) {
				return nil, errors.New("the command has no closing quotation")
			}
			inWord = true
		default:
			w.WriteByte(c)
			inWord = true
		}
	}
	if inWord {
		words = append(words, w.String())
	}
	return words, nil
}
