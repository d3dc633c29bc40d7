package protocol

import (
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// XML binding traits (smithy.api#xmlName, xmlFlattened, xmlAttribute,
// xmlNamespace) and aws.protocols#ec2QueryName, compiled once per shape and
// member for the XML and query protocols.

// xmlNS is an xmlNamespace trait: the namespace URI and its optional prefix.
type xmlNS struct {
	uri, prefix string
}

// xmlShape holds the XML traits of a shape.
type xmlShape struct {
	name string // @xmlName of the shape ("" when absent)
	ns   *xmlNS
	// byName finds structure and union members by their XML element (or
	// attribute) name.
	byName map[string]*memberCodec
}

// xmlMember holds the XML and query traits of a member.
type xmlMember struct {
	name      string // @xmlName, else the member name
	renamed   bool   // @xmlName is set
	flattened bool
	attribute bool
	ns        *xmlNS
	ec2Name   string // the ec2Query key (ec2QueryName rules)
}

func nsOf(t model.Traits) *xmlNS {
	v, ok := t.Get(model.TraitXMLNamespace)
	if !ok {
		return nil
	}
	return &xmlNS{uri: strField(v, "uri"), prefix: strField(v, "prefix")}
}

func xmlShapeTraits(s *model.Shape) xmlShape {
	var x xmlShape
	if v, ok := s.Trait(model.TraitXMLName); ok {
		x.name = v.Str()
	}
	x.ns = nsOf(s.Traits)
	return x
}

func xmlMemberTraits(mem *model.Member) xmlMember {
	x := xmlMember{name: mem.Name()}
	if v, ok := mem.Traits.Get(model.TraitXMLName); ok {
		x.name, x.renamed = v.Str(), true
	}
	x.flattened = mem.Traits.Has(model.TraitXMLFlattened)
	x.attribute = mem.Traits.Has(model.TraitXMLAttribute)
	x.ns = nsOf(mem.Traits)
	// ec2Query: ec2QueryName, else xmlName with its first letter upper
	// case, else the member name with its first letter upper case.
	x.ec2Name = upperFirst(x.name)
	if v, ok := mem.Traits.Get(tEC2QueryName); ok {
		x.ec2Name = v.Str()
	}
	return x
}

func upperFirst(s string) string {
	if s == "" || s[0] < 'a' || s[0] > 'z' {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// addXMLMember indexes a structure or union member by its XML name.
func (sc *shapeCodec) addXMLMember(mc *memberCodec) {
	if sc.xml.byName == nil {
		sc.xml.byName = map[string]*memberCodec{}
	}
	sc.xml.byName[mc.xml.name] = mc
}
