package client

import (
	"fmt"

	"github.com/smithycurl/smithycurl/awsconfig"
	"github.com/smithycurl/smithycurl/protocol"
)

// compressionOptions are WithoutRequestCompression and
// WithRequestMinCompressionSize; nil where the caller gave none (then the
// AWS settings', else the defaults).
type compressionOptions struct {
	off      *bool
	minBytes *int
	minFrom  string // where minBytes comes from, for its error
}

// WithRequestMinCompressionSize sets the smallest request body that an
// operation's @requestCompression compresses: 0 to 10,485,760 bytes
// (New fails otherwise); default 10,240, as the AWS SDKs (AWS services:
// AWS_REQUEST_MIN_COMPRESSION_SIZE_BYTES, the profile's
// request_min_compression_size_bytes). A streaming payload is never
// compressed.
func WithRequestMinCompressionSize(bytes int) Option {
	return optionFunc(func(o *options) {
		o.compression.minBytes = &bytes
		o.compression.minFrom = fmt.Sprintf("WithRequestMinCompressionSize(%d)", bytes)
	})
}

// WithoutRequestCompression sends every body uncompressed, whatever the
// operation's @requestCompression (default: compressed from the minimum
// size; AWS services: AWS_DISABLE_REQUEST_COMPRESSION, the profile's
// disable_request_compression).
func WithoutRequestCompression() Option {
	return optionFunc(func(o *options) { off := true; o.compression.off = &off })
}

// fromSettings fills what the caller did not give from the AWS settings
// (checked there).
func (c *compressionOptions) fromSettings(s awsconfig.Settings) {
	if c.off == nil && s.DisableRequestCompression.IsSet() {
		c.off = &s.DisableRequestCompression.V
	}
	if c.minBytes == nil && s.RequestMinCompressionSize.IsSet() {
		c.minBytes = &s.RequestMinCompressionSize.V
	}
}

// codecOption is the codec's option for c (nil for the defaults), or an
// error naming the option out of range.
func (c compressionOptions) codecOption() (protocol.Option, error) {
	if c.off == nil && c.minBytes == nil {
		return nil, nil
	}
	minBytes := protocol.DefaultMinCompressionBytes
	if c.minBytes != nil {
		minBytes = *c.minBytes
		if minBytes < 0 || minBytes > awsconfig.MaxMinCompressionSize {
			return nil, fmt.Errorf("%s: request_min_compression_size_bytes must be from 0 to %d", c.minFrom, awsconfig.MaxMinCompressionSize)
		}
	}
	return protocol.WithRequestCompression(c.off == nil || !*c.off, minBytes), nil
}
