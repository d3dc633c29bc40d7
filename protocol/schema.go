package protocol

import (
	"math/big"
	"regexp"

	"github.com/smithycurl/smithycurl/model"
)

// alloy traits the JSON codecs read.
const (
	// TraitDiscriminated tags a union with a property of its member's object.
	TraitDiscriminated model.ShapeID = "alloy#discriminated"
	// TraitUntagged writes a union as its member's value alone.
	TraitUntagged model.ShapeID = "alloy#untagged"
	// TraitJSONUnknown marks the map member that keeps unknown fields.
	TraitJSONUnknown model.ShapeID = "alloy#jsonUnknown"
	// TraitNullable makes null a value of a member.
	TraitNullable model.ShapeID = "alloy#nullable"
	// TraitOpenEnum lets an enum take unknown values.
	TraitOpenEnum model.ShapeID = "alloy#openEnum"
)

// tEC2QueryName is a member's ec2Query key.
const tEC2QueryName model.ShapeID = "aws.protocols#ec2QueryName"

// kind is how a shape is read and written.
type kind uint8

const (
	kString kind = iota
	kEnum
	kBlob
	kBool
	kInt // byte, short, integer, long
	kBigInt
	kFloat // float, double
	kBigDec
	kTimestamp
	kDocument
	kIntEnum
	kList
	kMap
	kStruct
	kUnion
	kUnit
)

// shapeCodec is the compiled form of one shape. It is built once per codec
// and read without locks afterwards.
type shapeCodec struct {
	shape *model.Shape
	kind  kind
	bits  int // width of kInt (8 to 64) and kFloat (32 or 64)

	members []*memberCodec          // structure and union members, in order
	names   []string                // their names (wire.Members of an input)
	byName  map[string]*memberCodec // by member name (document form)
	byWire  map[string]*memberCodec // by JSON name on the wire

	elem, key *memberCodec // list member; map key and value
	sparse    bool

	enumValues map[string]bool // enum values
	// enumInternal are the enum values marked @internal (an @enum
	// entry tagged internal): a Smithy server's messages leave them out.
	enumInternal map[string]bool
	intValues    map[string]bool // intEnum values (literals)

	// check is set when the shape or anything it contains has a constraint
	// the validator enforces; values of other shapes are not walked.
	// checkRequired is the same for @required members alone (the check
	// that is always on).
	check, checkRequired bool

	discriminator string       // alloy#discriminated property
	untagged      bool         // alloy#untagged
	unknown       *memberCodec // alloy#jsonUnknown member

	xml xmlShape // XML binding traits of the shape (xml.go)
}

// internalValue marks enum value v @internal.
func (sc *shapeCodec) internalValue(v string) {
	if sc.enumInternal == nil {
		sc.enumInternal = map[string]bool{}
	}
	sc.enumInternal[v] = true
}

// memberCodec is one member of a structure, union, list or map with its
// effective traits (member, then target).
type memberCodec struct {
	name     string
	wireName string
	docKey   []byte // "name": as JSON
	wireKey  []byte // "wireName": as JSON
	target   *shapeCodec
	member   *model.Member
	index    int // position among the structure's or union's members

	tsFormat  string // timestampFormat trait, "" when absent
	mediaType string
	required  bool
	nullable  bool // alloy#nullable: null is a value
	clientOpt bool

	hasDefault  bool   // a non-null default
	defaultDoc  []byte // the default in the document form
	defaultNode model.Node

	// constraints
	minLen, maxLen *int64
	minVal, maxVal *big.Float
	minLit, maxLit string
	pattern        *regexp.Regexp
	patternText    string
	unique         bool

	// HTTP bindings (structures bound to a message)
	loc        location
	locName    string // header, query or label name; prefix for prefix headers
	idemToken  bool
	hostLabel  bool
	streaming  bool
	respStatus bool

	xml xmlMember // XML and query binding traits of the member (xml.go)
}

// location is where a top-level member travels in an HTTP message.
type location uint8

const (
	inBody location = iota
	inLabel
	inQuery
	inQueryParams
	inHeader
	inPrefixHeaders
	inPayload
	inStatus
)

// compiler builds shape codecs for one model. It is used under the owning
// codec's lock; the codecs it returns are immutable once published.
type compiler struct {
	m      *model.Model
	shapes map[model.ShapeID]*shapeCodec
	fresh  []*shapeCodec
	// noJSONName keys members by their member names on the wire, ignoring
	// jsonName (the awsJson protocols).
	noJSONName bool
	// noTimestampFormat ignores timestampFormat: the rpcv2 protocols always
	// send epoch seconds.
	noTimestampFormat bool
	// bucketInEndpoint drops a leading {Bucket} label from REST paths
	// (WithBucketInEndpoint).
	bucketInEndpoint bool
}

func (c *compiler) shape(id model.ShapeID) *shapeCodec {
	if sc, ok := c.shapes[id]; ok {
		return sc
	}
	s, ok := c.m.Shape(id)
	if !ok {
		sc := &shapeCodec{kind: kDocument}
		c.shapes[id] = sc
		return sc
	}
	sc := &shapeCodec{shape: s}
	sc.xml = xmlShapeTraits(s)
	c.shapes[id] = sc
	c.fresh = append(c.fresh, sc)
	switch s.Type {
	case model.StringType:
		sc.kind = kString
		if v, ok := s.Trait(model.TraitEnum); ok {
			sc.kind = kEnum
			sc.enumValues = map[string]bool{}
			for _, e := range v.Items() {
				if x, ok := e.Get("value"); ok {
					sc.enumValues[x.Str()] = true
					tags, _ := e.Get("tags")
					for _, t := range tags.Items() {
						if t.Str() == "internal" {
							sc.internalValue(x.Str())
						}
					}
				}
			}
		}
	case model.EnumType:
		sc.kind = kEnum
		sc.enumValues = map[string]bool{}
		for _, mem := range s.Members {
			v := mem.Name()
			if ev, ok := mem.Traits.Get(model.TraitEnumValue); ok {
				v = ev.Str()
			}
			sc.enumValues[v] = true
			if mem.Traits.Has(model.TraitInternal) {
				sc.internalValue(v)
			}
		}
	case model.IntEnumType:
		sc.kind = kIntEnum
		sc.intValues = map[string]bool{}
		for _, mem := range s.Members {
			if ev, ok := mem.Traits.Get(model.TraitEnumValue); ok {
				if n, ok := ev.Int64(); ok {
					sc.intValues[big.NewInt(n).String()] = true
				}
			}
		}
	case model.BlobType:
		sc.kind = kBlob
	case model.BooleanType:
		sc.kind = kBool
	case model.ByteType:
		sc.kind, sc.bits = kInt, 8
	case model.ShortType:
		sc.kind, sc.bits = kInt, 16
	case model.IntegerType:
		sc.kind, sc.bits = kInt, 32
	case model.LongType:
		sc.kind, sc.bits = kInt, 64
	case model.BigIntegerType:
		sc.kind = kBigInt
	case model.FloatType:
		sc.kind, sc.bits = kFloat, 32
	case model.DoubleType:
		sc.kind, sc.bits = kFloat, 64
	case model.BigDecimalType:
		sc.kind = kBigDec
	case model.TimestampType:
		sc.kind = kTimestamp
	case model.DocumentType:
		sc.kind = kDocument
	case model.ListType, model.SetType:
		sc.kind = kList
		sc.sparse = s.HasTrait(model.TraitSparse)
		if mem, ok := s.Member("member"); ok {
			sc.elem = c.member(mem)
		}
		if s.Type == model.SetType {
			sc.elem.unique = true
		}
	case model.MapType:
		sc.kind = kMap
		sc.sparse = s.HasTrait(model.TraitSparse)
		if mem, ok := s.Member("key"); ok {
			sc.key = c.member(mem)
		}
		if mem, ok := s.Member("value"); ok {
			sc.elem = c.member(mem)
		}
	case model.StructureType, model.UnionType:
		sc.kind = kStruct
		if s.ID == model.UnitID {
			sc.kind = kUnit
		}
		if s.Type == model.UnionType {
			sc.kind = kUnion
			if d, ok := s.Trait(TraitDiscriminated); ok {
				sc.discriminator = d.Str()
			}
			sc.untagged = s.HasTrait(TraitUntagged)
		}
		sc.byName = make(map[string]*memberCodec, len(s.Members))
		sc.byWire = make(map[string]*memberCodec, len(s.Members))
		for _, mem := range s.Members {
			mc := c.member(mem)
			mc.index = len(sc.members)
			sc.members = append(sc.members, mc)
			sc.names = append(sc.names, mc.name)
			sc.byName[mc.name] = mc
			sc.addXMLMember(mc)
			if mem.Traits.Has(TraitJSONUnknown) {
				sc.unknown = mc
				continue
			}
			sc.byWire[mc.wireName] = mc
		}
	default:
		sc.kind = kDocument
	}
	if s.HasTrait(TraitOpenEnum) {
		// alloy#openEnum: unknown values are valid.
		sc.enumValues, sc.intValues = nil, nil
	}
	return sc
}

func (c *compiler) member(mem *model.Member) *memberCodec {
	mc := &memberCodec{name: mem.Name(), wireName: mem.Name(), member: mem}
	mc.target = c.shape(mem.Target)
	if !c.noJSONName {
		mc.wireName = mem.JSONName()
	}
	mc.docKey = append(appendString(nil, mc.name), ':')
	mc.wireKey = append(appendString(nil, mc.wireName), ':')
	get := func(id model.ShapeID) (model.Node, bool) { return c.m.MemberTrait(mem, id) }
	if v, ok := get(model.TraitTimestampFormat); ok && !c.noTimestampFormat {
		mc.tsFormat = v.Str()
	}
	if v, ok := get(model.TraitMediaType); ok {
		mc.mediaType = v.Str()
	}
	mc.required = mem.Traits.Has(model.TraitRequired)
	mc.clientOpt = mem.Traits.Has(model.TraitClientOptional)
	mc.nullable = mem.Traits.Has(TraitNullable)
	if v, ok := mem.Traits.Get(model.TraitDefault); ok && !v.IsNull() {
		mc.hasDefault = true
		mc.defaultNode = v
	}
	if v, ok := get(model.TraitLength); ok {
		mc.minLen, mc.maxLen = intBound(v, "min"), intBound(v, "max")
	}
	if v, ok := get(model.TraitRange); ok {
		if n, ok := v.Get("min"); ok {
			mc.minVal, mc.minLit = bigOf(n.Literal()), n.Literal()
		}
		if n, ok := v.Get("max"); ok {
			mc.maxVal, mc.maxLit = bigOf(n.Literal()), n.Literal()
		}
	}
	if v, ok := get(model.TraitPattern); ok {
		mc.patternText = v.Str()
		mc.pattern, _ = regexp.Compile(v.Str())
	}
	if _, ok := get(model.TraitUniqueItems); ok {
		mc.unique = true
	}
	mc.xml = xmlMemberTraits(mem)
	mc.idemToken = mem.Traits.Has(model.TraitIdempotencyToken)
	mc.hostLabel = mem.Traits.Has(model.TraitHostLabel)
	if _, ok := get(model.TraitStreaming); ok {
		mc.streaming = true
	}
	switch {
	case mem.Traits.Has(model.TraitHTTPLabel):
		mc.loc, mc.locName = inLabel, mc.name
	case mem.Traits.Has(model.TraitHTTPQuery):
		v, _ := mem.Traits.Get(model.TraitHTTPQuery)
		mc.loc, mc.locName = inQuery, v.Str()
	case mem.Traits.Has(model.TraitHTTPQueryParams):
		mc.loc = inQueryParams
	case mem.Traits.Has(model.TraitHTTPHeader):
		v, _ := mem.Traits.Get(model.TraitHTTPHeader)
		mc.loc, mc.locName = inHeader, v.Str()
	case mem.Traits.Has(model.TraitHTTPPrefixHeaders):
		v, _ := mem.Traits.Get(model.TraitHTTPPrefixHeaders)
		mc.loc, mc.locName = inPrefixHeaders, v.Str()
	case mem.Traits.Has(model.TraitHTTPPayload):
		mc.loc = inPayload
	case mem.Traits.Has(model.TraitHTTPResponseCode):
		mc.loc = inStatus
	}
	return mc
}

func intBound(n model.Node, key string) *int64 {
	v, ok := n.Get(key)
	if !ok {
		return nil
	}
	i, ok := v.Int64()
	if !ok {
		return nil
	}
	return &i
}

func bigOf(lit string) *big.Float {
	f, _, err := big.ParseFloat(lit, 10, 256, big.ToNearestEven)
	if err != nil {
		return nil
	}
	return f
}

// finish computes what needs the whole closure compiled: default values in
// the document form.
func (c *compiler) finish() {
	for _, sc := range c.fresh {
		for _, mc := range sc.members {
			if mc.hasDefault {
				mc.defaultDoc = defaultDoc(mc)
			}
		}
		sc.check = sc.enumValues != nil || sc.intValues != nil
		for _, mc := range sc.allMembers() {
			if mc.required || mc.constrained() {
				sc.check = true
			}
			if mc.required {
				sc.checkRequired = true
			}
		}
	}
	// Propagate through containment until nothing changes (shapes may be
	// recursive).
	for changed := true; changed; {
		changed = false
		for _, sc := range c.fresh {
			for _, mc := range sc.allMembers() {
				if mc.target.check && !sc.check {
					sc.check, changed = true, true
				}
				if mc.target.checkRequired && !sc.checkRequired {
					sc.checkRequired, changed = true, true
				}
			}
		}
	}
	c.fresh = c.fresh[:0]
}

func (sc *shapeCodec) allMembers() []*memberCodec {
	if sc.kind == kList {
		return []*memberCodec{sc.elem}
	}
	if sc.kind == kMap {
		return []*memberCodec{sc.key, sc.elem}
	}
	return sc.members
}

func (mc *memberCodec) constrained() bool {
	return mc.minLen != nil || mc.maxLen != nil || mc.minVal != nil || mc.maxVal != nil || mc.pattern != nil || mc.unique
}

// defaultDoc writes a default value in the document form (a timestamp's
// as an RFC 3339 string, whatever form the model wrote it in).
func defaultDoc(mc *memberCodec) []byte {
	n := mc.defaultNode
	if mc.target.kind == kTimestamp {
		if tt, err := model.TimestampValue(n, mc.tsFormat); err == nil {
			if t, err := checkRange(fromTime(tt), n.JSON()); err == nil {
				out := append([]byte{'"'}, appendDateTime(nil, t)...)
				return append(out, '"')
			}
		}
	}
	return []byte(n.JSON())
}
