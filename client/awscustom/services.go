package awscustom

import (
	"crypto/md5"
	"encoding/base64"
	"fmt"
	"hash/crc32"
	"net/url"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/wire"
)

// dynamoDBCRC32 checks a response against its X-Amz-Crc32 header (the
// CRC-32 of the body as sent). The request asks for an uncompressed
// response, as the SDKs do, unless the caller asked otherwise (a body
// libcurl decompressed is not checked: the CRC is of the compressed
// bytes). A mismatch may be sent again for the operations that only read
// (the model marks none of them @readonly), as botocore retries it.
func dynamoDBCRC32(_ *model.Model, _ *model.Service, op *model.Operation) Hooks {
	reads := strings.HasPrefix(op.Name, "Describe") || strings.HasPrefix(op.Name, "List") ||
		strings.HasPrefix(op.Name, "Get") || strings.HasPrefix(op.Name, "BatchGet") ||
		op.Name == "Query" || op.Name == "Scan" || op.Name == "TransactGetItems"
	identity := func(r *Request) error {
		if r.Header.Get("Accept-Encoding") == "" {
			r.Header.Set("Accept-Encoding", "identity")
		}
		return nil
	}
	return Hooks{request: []func(*Request) error{identity}, response: []func(*wire.Response) error{func(resp *wire.Response) error {
		v := resp.Header.Get("X-Amz-Crc32")
		if v == "" || resp.Streamed {
			return nil
		}
		if ce := resp.Header.Get("Content-Encoding"); ce != "" && !strings.EqualFold(ce, "identity") {
			return nil
		}
		want, err := strconv.ParseUint(v, 10, 32)
		if err != nil {
			return &CorruptError{Err: fmt.Errorf("x-amz-crc32 %q is not a CRC-32", v)}
		}
		if got := crc32.ChecksumIEEE(resp.Body); got != uint32(want) {
			return &CorruptError{Err: fmt.Errorf("the response does not match its checksum: x-amz-crc32 is %d, the body's CRC-32 is %d", want, got), Resend: reads}
		}
		return nil
	}}}
}

// s3SSECustomerKey completes a customer-provided encryption key (SSE-C)
// given without its MD5: a key that is not already the base64 of 32 bytes
// is base64-encoded, and its MD5 is sent beside it (both for the object
// and for a copy's source).
func s3SSECustomerKey(_ *model.Model, _ *model.Service, op *model.Operation) Hooks {
	var h Hooks
	for _, prefix := range []string{"SSECustomer", "CopySourceSSECustomer"} {
		keyName, md5Name := prefix+"Key", prefix+"KeyMD5"
		_, hasKey := op.Input.Member(keyName)
		_, hasMD5 := op.Input.Member(md5Name)
		if !hasKey || !hasMD5 {
			continue
		}
		h.input = append(h.input, func(in []byte) ([]byte, error) {
			o, ok := parseObject(in)
			if !ok || o.has(md5Name) {
				return in, nil
			}
			key, ok := o.str(keyName)
			if !ok {
				return in, nil
			}
			raw, err := base64.StdEncoding.DecodeString(key)
			if err != nil || len(raw) != 32 {
				raw = []byte(key)
				o.setStr(keyName, base64.StdEncoding.EncodeToString(raw))
			}
			sum := md5.Sum(raw)
			o.setStr(md5Name, base64.StdEncoding.EncodeToString(sum[:]))
			return o.bytes(), nil
		})
	}
	return h
}

// machineLearningPredict sends Predict to the input's PredictEndpoint, the
// model's real-time endpoint, instead of the service's.
func machineLearningPredict(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{request: []func(*Request) error{func(r *Request) error {
		o, _ := parseObject(r.Input)
		ep, ok := o.str("PredictEndpoint")
		if !ok {
			return nil // required: the codec has refused it
		}
		u, err := url.Parse(ep)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil {
			return fmt.Errorf("PredictEndpoint %q is not an http:// or https:// URL", ep)
		}
		_, rest, _ := strings.Cut(r.URL, "://")
		path := ""
		if i := strings.IndexByte(rest, '/'); i >= 0 {
			path = rest[i:]
		}
		r.URL = u.Scheme + "://" + u.Host + path
		return nil
	}}}
}

// cloudSearchDomainPost sends Search as a POST whose body is the query (a
// form), as botocore does: a long query does not fit in a URL.
func cloudSearchDomainPost(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{request: []func(*Request) error{func(r *Request) error {
		base, query, ok := strings.Cut(r.URL, "?")
		if r.Method != "GET" || !ok {
			return nil
		}
		r.Method, r.URL, r.Body = "POST", base, []byte(query)
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		r.Header.Set("Content-Length", strconv.Itoa(len(query)))
		return nil
	}}}
}

// s3BucketLocation leaves out an empty LocationConstraint: S3 answers
// <LocationConstraint/> for us-east-1, which is no value of the enum
// (botocore gives None).
func s3BucketLocation(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{output: []func(in, out []byte) ([]byte, error){func(_, out []byte) ([]byte, error) {
		o, ok := parseObject(out)
		if v, isStr := o.str("LocationConstraint"); !ok || !isStr || v != "" {
			return out, nil
		}
		o.remove("LocationConstraint")
		return o.bytes(), nil
	}}}
}

// unsigned sends an operation without auth: STS's AssumeRoleWithSAML and
// AssumeRoleWithWebIdentity, which are how a caller without credentials
// gets some (newer models say @auth([])).
func unsigned(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{unsigned: true}
}
