package conformance

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"net/url"
	"reflect"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/protocol"
)

// AWSQuery runs the aws.protocols#awsQuery client cases.
func AWSQuery(shared string) Result {
	return runAWSJSON(shared, "awsQuery", protocol.AWSQuery, protocol.NewAWSQuery)
}

// EC2Query runs the aws.protocols#ec2Query client cases.
func EC2Query(shared string) Result {
	return runAWSJSON(shared, "ec2Query", protocol.EC2Query, protocol.NewEC2Query)
}

// compareOtherBody compares form-encoded bodies as sets of decoded
// parameters (order-insensitive) and XML bodies as XML documents (element
// order kept, whitespace between elements and attribute order ignored); ok
// is false for other media types.
func compareOtherBody(got []byte, want, mediaType string) (diff string, ok bool) {
	switch {
	case strings.Contains(mediaType, "x-www-form-urlencoded"):
		g, err1 := url.ParseQuery(string(got))
		w, err2 := url.ParseQuery(want)
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("body %q, want %q (%v, %v)", got, want, err1, err2), true
		}
		if !reflect.DeepEqual(g, w) {
			return fmt.Sprintf("form body %q, want %q", got, want), true
		}
		return "", true
	case strings.Contains(mediaType, "xml") && strings.TrimSpace(want) != "":
		g, err1 := xmlCanon(got)
		w, err2 := xmlCanon([]byte(want))
		if err1 != nil || err2 != nil {
			return fmt.Sprintf("body %q, want %q (%v, %v)", got, want, err1, err2), true
		}
		if g != w {
			return fmt.Sprintf("XML body %s, want %s", g, w), true
		}
		return "", true
	}
	return "", false
}

// xmlCanon writes an XML document in a canonical form: namespaces resolved,
// attributes sorted, text trimmed, whitespace-only text between elements
// dropped.
func xmlCanon(doc []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	var b strings.Builder
	for {
		tok, err := d.Token()
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			fmt.Fprintf(&b, "<{%s}%s", t.Name.Space, t.Name.Local)
			var attrs []string
			for _, a := range t.Attr {
				if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
					continue
				}
				attrs = append(attrs, fmt.Sprintf(" {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value))
			}
			sort.Strings(attrs)
			b.WriteString(strings.Join(attrs, ""))
			b.WriteString(">")
		case xml.EndElement:
			fmt.Fprintf(&b, "</%s>", t.Name.Local)
		case xml.CharData:
			if s := strings.TrimSpace(string(t)); s != "" {
				b.WriteString(s)
			}
		}
	}
}
