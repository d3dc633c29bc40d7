package transport

import (
	"time"

	"github.com/smithycurl/smithycurl/internal/contract"
	"github.com/smithycurl/smithycurl/wire"
)

// Version is the smithycurl version (internal/contract's table), named in
// the default User-Agent and printed by the command line.
var Version = contract.VersionString()

// DefaultUserAgent is sent when Config.UserAgent is empty.
var DefaultUserAgent = "smithycurl/" + Version

// Defaults applied by New to zero Config fields.
const (
	DefaultConnectTimeout   = 10 * time.Second
	DefaultTimeout          = 60 * time.Second
	DefaultMaxResponseBytes = 64 << 20
)

// HTTPVersion selects the HTTP protocol version.
type HTTPVersion int

const (
	// HTTPVersionAuto negotiates HTTP/2 by ALPN over TLS and uses HTTP/1.1
	// over cleartext.
	HTTPVersionAuto HTTPVersion = iota
	// HTTPVersion1 uses HTTP/1.1 only.
	HTTPVersion1
	// HTTPVersion2PriorKnowledge speaks HTTP/2 directly over cleartext (h2c
	// without upgrade); over TLS it behaves like HTTPVersionAuto.
	HTTPVersion2PriorKnowledge
)

// Config configures a Curl transport. The zero value is usable.
type Config struct {
	ConnectTimeout   time.Duration // 0: DefaultConnectTimeout
	Timeout          time.Duration // whole call; 0: DefaultTimeout
	MaxResponseBytes int64         // decoded body limit; 0: DefaultMaxResponseBytes; < 0: unlimited

	HTTPVersion HTTPVersion

	// CAFile is a PEM bundle of trusted CAs; empty uses the system store.
	CAFile string
	// ClientCertFile and ClientKeyFile (PEM) enable client certificates.
	ClientCertFile, ClientKeyFile string
	// InsecureSkipVerify disables TLS peer and host name verification.
	// DANGEROUS: anyone on the path can read and change the traffic. Tests only.
	InsecureSkipVerify bool

	// Proxy is a proxy URL ("http://proxy:3128", "socks5h://…"). Empty uses
	// libcurl's environment variables (http_proxy, HTTPS_PROXY, ALL_PROXY,
	// NO_PROXY); "-" disables proxies even if those are set.
	Proxy   string
	NoProxy string // comma-separated hosts that bypass the proxy

	// DefaultHeader is added to every request that does not set the same
	// header itself.
	DefaultHeader wire.Header
	UserAgent     string // empty: DefaultUserAgent

	// MaxIdleHandles bounds the pool of idle easy handles (each keeps its
	// connection alive); 0: 4 × GOMAXPROCS, at least 8.
	MaxIdleHandles int

	// Trace, when set, is called before each request and after its outcome.
	Trace func(TraceEvent)

	// Verbose turns on libcurl's own trace to stderr (CURLOPT_VERBOSE),
	// for debugging only: it prints headers unredacted.
	Verbose bool
}
