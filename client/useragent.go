package client

import (
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"sync"

	"github.com/smithycurl/smithycurl/internal/uuid"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/transport"
	"github.com/smithycurl/smithycurl/wire"
)

// WithAppID names the application in the User-Agent of an AWS service's
// requests (app/ID), as the AWS SDKs' application id (default:
// AWS_SDK_UA_APP_ID, the profile's sdk_ua_app_id). At most 50
// characters (New fails otherwise); characters other than letters,
// digits and !#$%&'*+-.^_`|~ are sent as '-'.
func WithAppID(id string) Option {
	return optionFunc(func(o *options) { o.appID, o.appIDFrom = id, "WithAppID" })
}

// WithFrontEnd names the language front end in the User-Agent of an AWS
// service's requests (lang/NAME#VERSION; default: go and the Go
// version): for language bindings over libsmithycurl (the C API says
// c, the Python package python and its version).
func WithFrontEnd(name, version string) Option {
	return optionFunc(func(o *options) { o.frontEnd = [2]string{name, version} })
}

// maxAppID is the longest application id, as the AWS SDKs bound it.
const maxAppID = 50

// The headers of the AWS SDKs' invocations.
const (
	invocationIDHeader = "Amz-Sdk-Invocation-Id"
	sdkRequestHeader   = "Amz-Sdk-Request"
	amzUserAgentHeader = "X-Amz-User-Agent"
)

// setSDKUserAgent makes the User-Agent (unless WithUserAgent gave one) and
// X-Amz-User-Agent of an AWS service's requests the AWS SDKs' kind (their
// user agent format 2.1, as botocore's useragent.py and aws-sdk-go-v2's
// middleware write it):
//
//	smithycurl/1.2.0 ua/2.1 os/linux#6.1.0 lang/python#3.12.1 md/go#1.26.0 md/arch#amd64 api/dynamodb#2012-08-10 cfg/retry-mode#adaptive app/myapp
func (o *options) setSDKUserAgent(svc *model.Service) error {
	if len(o.appID) > maxAppID {
		return fmt.Errorf("%s: the application id must be at most %d characters (it has %d)", o.appIDFrom, maxAppID, len(o.appID))
	}
	goVersion := strings.TrimPrefix(runtime.Version(), "go")
	b := []string{"smithycurl/" + uaToken(transport.Version), "ua/2.1", "os/" + osMetadata()}
	if fe := o.frontEnd; fe[0] != "" && fe[0] != "go" {
		b = append(b, "lang/"+uaToken(fe[0])+versionSuffix(fe[1]), "md/go#"+uaToken(goVersion))
	} else {
		b = append(b, "lang/go#"+uaToken(goVersion))
	}
	b = append(b, "md/arch#"+uaToken(runtime.GOARCH))
	if t, ok := svc.Shape.Trait(traitAWSService); ok {
		if id, _ := t.Get("sdkId"); id.Str() != "" {
			b = append(b, "api/"+uaToken(strings.ReplaceAll(strings.ToLower(id.Str()), " ", "-"))+versionSuffix(svc.Shape.Version))
		}
	}
	mode := o.retryMode
	if mode == "" {
		mode = RetryStandard
	}
	b = append(b, "cfg/retry-mode#"+uaToken(string(mode)))
	if o.appID != "" {
		b = append(b, "app/"+uaToken(o.appID))
	}
	ua := strings.Join(b, " ")
	if o.transport.UserAgent == "" {
		o.transport.UserAgent = ua
	}
	if o.transport.DefaultHeader == nil {
		o.transport.DefaultHeader = wire.Header{}
	}
	if o.transport.DefaultHeader.Get(amzUserAgentHeader) == "" {
		o.transport.DefaultHeader.Set(amzUserAgentHeader, ua)
	}
	return nil
}

// versionSuffix is "#version", or "" for no version.
func versionSuffix(v string) string {
	if v == "" {
		return ""
	}
	return "#" + uaToken(v)
}

// uaToken is s with every character a user agent value may not hold
// (outside letters, digits and !#$%&'*+-.^_`|~) made '-'.
func uaToken(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("!#$%&'*+-.^_`|~", r)) {
			return r
		}
		return '-'
	}, s)
}

// osMetadata is the user agent's os/ value: the family as the SDKs name
// it, and the kernel's release where it is known.
var osMetadata = sync.OnceValue(func() string {
	family := "other"
	switch runtime.GOOS {
	case "linux":
		family = "linux"
	case "darwin":
		family = "macos"
	case "windows":
		family = "windows"
	}
	if b, err := os.ReadFile("/proc/sys/kernel/osrelease"); err == nil && family == "linux" {
		return family + versionSuffix(strings.TrimSpace(string(b)))
	}
	return family
})

// sdkHeaders sets the invocation headers of an AWS service's attempt:
// amz-sdk-invocation-id, the same on every attempt of a call,
// amz-sdk-request: attempt=N; max=M, and in a Lambda function
// X-Amzn-Trace-Id (tracehdr.go).
func (c *Client) sdkHeaders(h wire.Header, invocation string, attempt int) {
	h.Set(invocationIDHeader, invocation)
	c.setTraceID(h)
	h.Set(sdkRequestHeader, "attempt="+strconv.Itoa(attempt)+"; max="+strconv.Itoa(c.opts.retry.MaxAttempts))
}

// newInvocationID is a call's amz-sdk-invocation-id ("" for a service
// that is not AWS's: no invocation headers).
func (c *Client) newInvocationID() string {
	if !c.awsHeaders {
		return ""
	}
	return uuid.V4()
}
