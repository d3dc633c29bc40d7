package main

/*
#include "scx.h"
*/
import "C"

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
	"unsafe"

	"github.com/smithycurl/smithycurl/client"
	"github.com/smithycurl/smithycurl/identity"
)

// errCap is the size of the error buffer a callback writes to.
const errCap = 1024

// cCallback is a C identity callback and its user data.
type cCallback struct {
	fn, user uintptr
	setter   string // the C function that set it, for messages
	life     *lifetime
}

// lifetime keeps a callback callable while its options handle or a client
// made from them lives: the last release waits for a call under way, so
// that user_data (a Python callable) may go once the frees return.
type lifetime struct {
	mu   sync.RWMutex // read-held during a call of the callback
	refs atomic.Int64
	done bool
}

func newLifetime() *lifetime {
	l := &lifetime{}
	l.refs.Store(1) // the options handle's
	return l
}

func (l *lifetime) acquire() { l.refs.Add(1) }

func (l *lifetime) release() {
	if l.refs.Add(-1) != 0 {
		return
	}
	end := func() {
		l.mu.Lock()
		l.done = true
		l.mu.Unlock()
	}
	if C.scx_in_identity_callback() != 0 {
		go end() // freed from inside a callback: waiting would wait for itself
		return
	}
	end()
}

// enter starts a call of the callback; false once released for good.
func (l *lifetime) enter() bool {
	l.mu.RLock()
	if l.done {
		l.mu.RUnlock()
		return false
	}
	return true
}

func (l *lifetime) exit() { l.mu.RUnlock() }

var errCallbackFreed = errors.New("the options and clients it was set on are freed")

func (c cCallback) String() string { return "the callback of " + c.setter }

// callbackError is a callback's failure: its message, else its code.
func (c cCallback) callbackError(rc C.int, buf []byte) error {
	msg := C.GoString((*C.char)(unsafe.Pointer(&buf[0])))
	if msg == "" {
		return fmt.Errorf("the callback failed (returned %d, no message)", int(rc))
	}
	return errors.New(msg)
}

func expiry(sec C.longlong) (time.Time, error) {
	switch {
	case sec == 0:
		return time.Time{}, nil
	case sec < 0:
		return time.Time{}, fmt.Errorf("the expiration %d is before 1970", int64(sec))
	}
	return time.Unix(int64(sec), 0), nil
}

// goStr copies a string a callback gave ("" for NULL).
func goStr(p *C.char) string {
	if p == nil {
		return ""
	}
	return C.GoString(p)
}

// call runs the callback (invoke, given the error buffer) and, when it
// succeeds, read, which copies what it gave while user_data is still there.
func (c cCallback) call(invoke func(err *C.char) C.int, read func()) error {
	if !c.life.enter() {
		return errCallbackFreed
	}
	buf := make([]byte, errCap)
	rc := invoke((*C.char)(unsafe.Pointer(&buf[0])))
	if rc == 0 {
		read()
	}
	c.life.exit()
	if rc != 0 {
		return c.callbackError(rc, buf)
	}
	return nil
}

type cAWSProvider struct{ cCallback }

func (p *cAWSProvider) Retrieve(context.Context) (identity.AWS, error) {
	var strs [3]*C.char
	var exp C.longlong
	var a identity.AWS
	err := p.call(func(buf *C.char) C.int {
		return C.scx_aws_invoke(C.uintptr_t(p.fn), C.uintptr_t(p.user), &strs[0], &exp, buf, errCap)
	}, func() {
		a = identity.AWS{AccessKeyID: goStr(strs[0]), SecretAccessKey: goStr(strs[1]), SessionToken: goStr(strs[2]), Source: p.String()}
	})
	if err == nil {
		a.Expires, err = expiry(exp)
	}
	return a, err
}

type cTokenProvider struct{ cCallback }

func (p *cTokenProvider) Retrieve(context.Context) (identity.Token, error) {
	var value *C.char
	var exp C.longlong
	var t identity.Token
	err := p.call(func(buf *C.char) C.int {
		return C.scx_token_invoke(C.uintptr_t(p.fn), C.uintptr_t(p.user), &value, &exp, buf, errCap)
	}, func() {
		t = identity.Token{Value: goStr(value), Source: p.String()}
	})
	if err == nil {
		t.Expires, err = expiry(exp)
	}
	return t, err
}

// identities are an options handle's callbacks, each behind the one cache
// every client made from the options shares.
type identities struct {
	aws            *identity.Cache[identity.AWS]
	bearer, apiKey *identity.Cache[identity.Token]
	lives          [3]*lifetime // of aws, bearer, apiKey
}

//export scx_options_set_identity
func scx_options_set_identity(h C.uintptr_t, which C.int, fn, user C.uintptr_t) (rc C.int) {
	defer guard(&rc)
	o, ok := lookup[*optionsH](h, C.SCX_OPTIONS)
	if !ok {
		return codeInvalidHandle
	}
	i := int(which) - C.SCX_ID_AWS
	if i < 0 || i >= len(o.ids.lives) {
		return codeInvalidArgument
	}
	if l := o.ids.lives[i]; l != nil {
		l.release()
		o.ids.lives[i] = nil
	}
	cb := cCallback{fn: uintptr(fn), user: uintptr(user)}
	if fn != 0 {
		cb.life = newLifetime()
		o.ids.lives[i] = cb.life
	}
	switch which {
	case C.SCX_ID_AWS:
		o.ids.aws = nil
		if fn != 0 {
			cb.setter = "smithycurl_options_set_aws_credentials_fn"
			o.ids.aws = identity.NewCache[identity.AWS](&cAWSProvider{cb}, "the AWS credentials from "+cb.String())
		}
	case C.SCX_ID_TOKEN:
		o.ids.bearer = nil
		if fn != 0 {
			cb.setter = "smithycurl_options_set_token_fn"
			o.ids.bearer = identity.NewCache[identity.Token](&cTokenProvider{cb}, "the bearer token from "+cb.String())
		}
	case C.SCX_ID_API_KEY:
		o.ids.apiKey = nil
		if fn != 0 {
			cb.setter = "smithycurl_options_set_api_key_fn"
			o.ids.apiKey = identity.NewCache[identity.Token](&cTokenProvider{cb}, "the API key from "+cb.String())
		}
	}
	o.set("")
	return codeOK
}

// options are the client options of the callbacks, after the fixed
// credentials they replace.
func (ids *identities) options() []client.Option {
	var opts []client.Option
	if ids.aws != nil {
		opts = append(opts, client.WithAWSCredentialsProvider(ids.aws))
	}
	if ids.bearer != nil {
		opts = append(opts, client.WithBearerTokenProvider(ids.bearer))
	}
	if ids.apiKey != nil {
		opts = append(opts, client.WithAPIKeyProvider(ids.apiKey))
	}
	return opts
}

// acquire takes a reference to each callback for a new client; the func
// releases them.
func (ids *identities) acquire() func() {
	var held []*lifetime
	for _, l := range ids.lives {
		if l != nil {
			l.acquire()
			held = append(held, l)
		}
	}
	return func() {
		for _, l := range held {
			l.release()
		}
	}
}

// release drops the options handle's references.
func (ids *identities) release() {
	for i, l := range ids.lives {
		if l != nil {
			l.release()
			ids.lives[i] = nil
		}
	}
}
