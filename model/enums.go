package model

// EnumValue is one value of an enum or intEnum shape, or one definition of
// an IDL 1.0 string with @enum.
type EnumValue struct {
	Name   string // the member's name, or the definition's ("" when it has none)
	Value  Node   // a string; a number for intEnum
	Traits Traits // documentation and deprecated, as traits
}

// IsEnum reports whether s is an enum: an enum or intEnum shape, or an
// IDL 1.0 string with @enum (which the generators make enums too).
func (s *Shape) IsEnum() bool {
	return s.Type == EnumType || s.Type == IntEnumType || (s.Type == StringType && s.HasTrait(TraitEnum))
}

// EnumValues lists the values of an enum (IsEnum) in model order; nil for
// other shapes.
func (s *Shape) EnumValues() []EnumValue {
	if def, ok := s.Trait(TraitEnum); ok && s.Type == StringType {
		var out []EnumValue
		for _, d := range def.Items() {
			v, _ := d.Get("value")
			n, _ := d.Get("name")
			var ts Traits
			if doc, ok := d.Get("documentation"); ok {
				ts = append(ts, Trait{ID: TraitDocumentation, Value: doc})
			}
			if dep, ok := d.Get("deprecated"); ok && dep.AsBool() {
				ts = append(ts, Trait{ID: TraitDeprecated, Value: Object()})
			}
			out = append(out, EnumValue{Name: n.Str(), Value: v, Traits: ts})
		}
		return out
	}
	if s.Type != EnumType && s.Type != IntEnumType {
		return nil
	}
	out := make([]EnumValue, 0, len(s.Members))
	for _, mem := range s.Members {
		v, ok := mem.Traits.Get(TraitEnumValue)
		if !ok {
			v = String(mem.Name())
		}
		out = append(out, EnumValue{Name: mem.Name(), Value: v, Traits: mem.Traits})
	}
	return out
}
