package conformance

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"net/url"
	"reflect"
	"sort"
	"strings"

	"github.com/smithycurl/smithycurl/protocol"
)

// AWSQuery runs the aws.protocols#awsQuery client cases.
func AWSQuery(shared string) Result {
	return runRPC(shared, "awsQuery", protocol.AWSQuery, protocol.NewAWSQuery)
}

// EC2Query runs the aws.protocols#ec2Query client cases.
func EC2Query(shared string) Result {
	return runRPC(shared, "ec2Query", protocol.EC2Query, protocol.NewEC2Query)
}

// RestXML runs the aws.protocols#restXml client cases (restXml,
// restXmlWithNamespace and the S3 customizations).
func RestXML(shared string) Result {
	return runRPC(shared, "restXml", protocol.RestXML, protocol.NewRestXML)
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

// xmlCanon writes an XML document in a canonical form: namespaces
// resolved, attributes sorted, text trimmed, whitespace-only text between
// elements dropped, and sibling elements ordered by name (elements of the
// same name keep their order: they are list items), since a structure's
// members may come in any order.
func xmlCanon(doc []byte) (string, error) {
	d := xml.NewDecoder(bytes.NewReader(doc))
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		if se, ok := tok.(xml.StartElement); ok {
			return canonElement(d, se, 0)
		}
	}
}

func canonElement(d *xml.Decoder, se xml.StartElement, depth int) (string, error) {
	if depth > 100 {
		return "", fmt.Errorf("XML nested too deep")
	}
	var b strings.Builder
	fmt.Fprintf(&b, "<{%s}%s", se.Name.Space, se.Name.Local)
	var attrs []string
	for _, a := range se.Attr {
		if a.Name.Space == "xmlns" || (a.Name.Space == "" && a.Name.Local == "xmlns") {
			continue
		}
		attrs = append(attrs, fmt.Sprintf(" {%s}%s=%q", a.Name.Space, a.Name.Local, a.Value))
	}
	sort.Strings(attrs)
	b.WriteString(strings.Join(attrs, ""))
	b.WriteString(">")
	type child struct{ name, text string }
	var kids []child
	var text strings.Builder
	for {
		tok, err := d.Token()
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			c, err := canonElement(d, t, depth+1)
			if err != nil {
				return "", err
			}
			kids = append(kids, child{"{" + t.Name.Space + "}" + t.Name.Local, c})
		case xml.CharData:
			text.Write(t)
		case xml.EndElement:
			sort.SliceStable(kids, func(i, j int) bool { return kids[i].name < kids[j].name })
			if len(kids) == 0 {
				b.WriteString(strings.TrimSpace(text.String()))
			}
			for _, k := range kids {
				b.WriteString(k.text)
			}
			b.WriteString("</" + se.Name.Local + ">")
			return b.String(), nil
		}
	}
}
