package model

import (
	"slices"
	"strings"
)

// The IDL parser follows the structure of the reference loader closely so that
// it accepts the same texts and reports syntax errors at the same places with
// the same words. Parsing stops at the first syntax error.

// idlBailout is the panic value that unwinds the parser after a syntax error.
type idlBailout struct{}

type idlParser struct {
	lexer
	f         *draftFile
	v2        bool
	namespace string
	uses      map[string]ShapeID // imported shape name -> id
	inSuffix  string
	outSuffix string
	nesting   int

	// Allocation batches: traits are collected in scratch and copied once,
	// shapes and members are carved from slabs.
	scratch    []draftTrait
	shapeSlab  []draftShape
	memberSlab []draftMember
	// nodes is a stack of the array elements and object keys and values
	// being read; a finished array or object takes its part at exact size.
	nodes []Node
}

// popNodes removes the nodes pushed since from and returns them.
func (p *idlParser) popNodes(from int) []Node {
	l := make([]Node, len(p.nodes)-from)
	copy(l, p.nodes[from:])
	p.nodes = p.nodes[:from]
	return l
}

// addEntry pushes an object entry after checking that key is new.
func (p *idlParser) addEntry(from int, key string, keyLoc SourceLocation, value Node, dupMsg string) {
	for i := from; i < len(p.nodes); i += 2 {
		if p.nodes[i].s == key {
			p.failAt(keyLoc, "", dupMsg+"'"+key+"'")
		}
	}
	p.nodes = append(p.nodes, String(key), value)
}

func (p *idlParser) newShape(id ShapeID, typ ShapeType, loc SourceLocation) *draftShape {
	if len(p.shapeSlab) == 0 {
		p.shapeSlab = make([]draftShape, 16)
	}
	s := &p.shapeSlab[0]
	p.shapeSlab = p.shapeSlab[1:]
	s.id, s.typ, s.loc = id, typ, loc
	return s
}

func (p *idlParser) newMember(name string, loc SourceLocation) *draftMember {
	if len(p.memberSlab) == 0 {
		p.memberSlab = make([]draftMember, 64)
	}
	m := &p.memberSlab[0]
	p.memberSlab = p.memberSlab[1:]
	m.name, m.loc = name, loc
	return m
}

const (
	idlMaxNesting     = 64
	badDocCommentID   = "Model.BadDocumentationComment"
	badDocCommentText = "Found documentation comments ('///') attached to nothing. Documentation comments must " +
		"appear on their own lines, directly before shapes and members, and before any traits."
)

// parseIDL parses one Smithy IDL file into its draft form. Syntax errors and
// warnings are recorded as events of the returned file.
func parseIDL(path string, src []byte) *draftFile { return parseIDLText(path, string(src)) }

// parseIDLText is parseIDL over text the caller will not change, without a copy.
func parseIDLText(path string, src string) (f *draftFile) {
	f = &draftFile{path: path, version: "1.0"}
	p := &idlParser{f: f, inSuffix: "Input", outSuffix: "Output"}
	defer func() {
		if r := recover(); r != nil {
			if _, ok := r.(idlBailout); !ok {
				panic(r)
			}
		}
	}()
	p.init(src)
	p.parseFile()
	return f
}

func (p *idlParser) loc() SourceLocation {
	return SourceLocation{File: p.f.path, Line: p.tok.line, Column: p.tok.col}
}

// fail reports a syntax error at the current token and stops parsing.
func (p *idlParser) fail(shape ShapeID, msg string) {
	p.failAt(p.loc(), shape, sprintf("Syntax error at line %d, column %d: %s", p.tok.line, p.tok.col, msg))
}

// failAt reports an error with msg as is and stops parsing.
func (p *idlParser) failAt(loc SourceLocation, shape ShapeID, msg string) {
	p.f.events = append(p.f.events, Event{Severity: SeverityError, ID: "Model", Shape: shape, Loc: loc, Message: msg})
	panic(idlBailout{})
}

func (p *idlParser) found() string {
	return p.tok.kind.debug(p.lexeme())
}

func (p *idlParser) expect(k tokKind) {
	if p.tok.kind != k {
		p.failExpect(k)
	}
}

func (p *idlParser) failExpect(kinds ...tokKind) {
	if p.tok.kind == tError {
		p.fail("", p.tok.str)
	}
	if len(kinds) == 1 {
		p.fail("", "Expected "+kinds[0].debug(tokExamples[kinds[0]])+" but found "+p.found())
	}
	var b strings.Builder
	b.WriteString("Expected one of ")
	for i, k := range kinds {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(k.debug(tokExamples[k]))
	}
	b.WriteString("; but found ")
	b.WriteString(p.found())
	p.fail("", b.String())
}

func (p *idlParser) expectOneOf(kinds ...tokKind) tokKind {
	if !slices.Contains(kinds, p.tok.kind) {
		p.failExpect(kinds...)
	}
	return p.tok.kind
}

func (p *idlParser) isLexeme(s string) bool { return p.lexeme() == s }

func (p *idlParser) skipSpaces() {
	for p.tok.kind == tSpace {
		p.next()
	}
}

func (p *idlParser) skipWs() {
	for p.tok.kind.isWS() {
		p.next()
	}
}

func (p *idlParser) skipWsAndDocs() {
	for p.tok.kind.isWS() || p.tok.kind == tDocComment {
		p.next()
	}
}

func (p *idlParser) expectSpaces() {
	p.expect(tSpace)
	p.skipSpaces()
}

func (p *idlParser) expectWhitespace() {
	if !p.tok.kind.isWS() {
		p.fail("", "Expected one or more whitespace characters, but found "+p.found())
	}
	p.skipWsAndDocs()
}

// expectBr expects a line break (a comment ends with one) or the end of the file.
func (p *idlParser) expectBr() {
	p.skipSpaces()
	p.clearDocsForBr()
	switch p.tok.kind {
	case tNewline, tComment, tDocComment:
		p.next()
		p.skipWs()
	case tEOF:
	default:
		p.fail("", "Expected a line break, but found "+p.found())
	}
}

// clearDocsForBr warns about documentation comments that attach to nothing.
func (p *idlParser) clearDocsForBr() {
	if docs, ok := p.takeDocs(); ok {
		p.warnBadDocs(p.loc(), docs)
	}
}

func (p *idlParser) warnBadDocs(loc SourceLocation, docs string) {
	p.f.warnf(loc, "", badDocCommentID, "%s The invalid comments were: %s", badDocCommentText, docs)
}

func (p *idlParser) nest() {
	p.nesting++
	if p.nesting > idlMaxNesting {
		p.fail("", sprintf("Parser exceeded maximum allowed depth of %d", idlMaxNesting))
	}
}

func (p *idlParser) parseFile() {
	p.skipWsAndDocs()
	p.parseControlSection()
	p.skipWsAndDocs()
	for p.isLexeme("metadata") && p.tok.kind == tIdent {
		p.parseMetadata()
	}
	if p.isLexeme("namespace") && p.tok.kind == tIdent {
		p.parseShapeSection()
	} else if p.tok.kind != tEOF {
		p.fail("", "Expected a namespace definition but found "+p.found())
	}
}

func (p *idlParser) parseControlSection() {
	var defined []string
	for p.tok.kind == tDollar {
		p.next()
		p.expectOneOf(tIdent, tString)
		key := p.stringOrIdent()
		p.next()
		p.skipSpaces()
		p.expect(tColon)
		p.next()
		p.skipSpaces()
		if slices.Contains(defined, key) {
			p.fail("", "Duplicate control statement `"+key+"`")
		}
		defined = append(defined, key)
		loc := p.loc()
		value := p.parseNode()
		switch key {
		case "version":
			if value.Kind() != StringNode {
				p.failAt(loc, "", "The $version control statement must have a string value, but found "+value.JSON())
			}
			switch value.Str() {
			case "1", "1.0":
				p.f.version, p.v2 = "1.0", false
			case "2", "2.0":
				p.f.version, p.v2 = "2.0", true
			default:
				p.fail("", "Unsupported Smithy version number: "+value.Str())
			}
		case "operationInputSuffix", "operationOutputSuffix":
			if value.Kind() != StringNode {
				p.failAt(loc, "", sprintf("Expected a string value for `%s`, but found %s", key, value.Kind()))
			}
			if key == "operationInputSuffix" {
				p.inSuffix = value.Str()
			} else {
				p.outSuffix = value.Str()
			}
		default:
			p.f.warnf(loc, "", "Model", "Unknown control statement `%s` with value `%s", key, value.JSON())
		}
		p.expectBr()
	}
}

// stringOrIdent returns the value of a STRING token or the text of an IDENTIFIER.
func (p *idlParser) stringOrIdent() string {
	if p.tok.kind == tIdent {
		return p.lexeme()
	}
	return p.tok.str
}

func (p *idlParser) parseMetadata() {
	p.next()
	p.expectSpaces()
	p.expectOneOf(tIdent, tString)
	key := p.stringOrIdent()
	p.next()
	p.skipSpaces()
	p.expect(tEqual)
	p.next()
	p.skipSpaces()
	loc := p.loc()
	value := p.parseNode()
	p.f.metadata = append(p.f.metadata, draftMetadata{key: key, value: value, loc: loc})
	p.expectBr()
	p.skipWsAndDocs()
}

func (p *idlParser) parseShapeSection() {
	p.next()
	p.expectSpaces()
	start := p.tok.start
	p.skipNamespace()
	p.namespace = p.src[start:p.tok.start]
	p.f.namespace = p.namespace
	p.expectBr()
	// Doc comments after the namespace belong to the first shape when no use
	// statement follows; remember where they start.
	docLoc := p.loc()
	p.skipWsAndDocs()
	for p.tok.kind == tIdent && p.isLexeme("use") {
		p.parseUse()
	}
	if p.tok.kind != tEOF {
		p.skipWsAndDocs()
		docs, hasDocs := p.takeDocs()
		traits, _ := p.parseDocsAndTraits(false)
		if hasDocs {
			traits = append(traits, p.docTrait(docs, docLoc))
		}
		if p.shapeFollows(traits, hasDocs) {
			p.parseShapeOrApply(traits, hasDocs)
		}
	}
	for p.tok.kind != tEOF {
		traits, hasDocs := p.parseDocsAndTraits(false)
		if p.shapeFollows(traits, hasDocs) {
			p.parseShapeOrApply(traits, hasDocs)
		}
	}
}

// shapeFollows reports whether a shape or apply statement must be parsed after
// traits; documentation comments alone at the end of the file only warn.
func (p *idlParser) shapeFollows(traits []draftTrait, hasDocs bool) bool {
	if p.tok.kind != tEOF {
		return true
	}
	if hasDocs && len(traits) == 1 {
		p.warnBadDocs(p.loc(), traits[0].value.Str())
		return false
	}
	return len(traits) > 0
}

func (p *idlParser) parseUse() {
	p.next()
	p.expectSpaces()
	loc := p.loc()
	start := p.tok.start
	p.skipNamespace()
	p.expect(tPound)
	p.next()
	end := p.skipRelativeRoot()
	id := ShapeID(p.src[start:end])
	if id.Member() != "" {
		p.failAt(loc, "", "Use statements cannot use members")
	}
	if p.uses == nil {
		p.uses = map[string]ShapeID{}
	}
	if prev, ok := p.uses[id.Name()]; ok {
		p.failAt(loc, "", sprintf("Cannot use name `%s` because it conflicts with `%s`", id, prev))
	}
	p.uses[id.Name()] = id
	p.f.uses = append(p.f.uses, draftUse{id: id, loc: loc})
	p.expectBr()
	p.skipWsAndDocs()
}

// skipNamespace reads IDENTIFIER *(DOT IDENTIFIER).
func (p *idlParser) skipNamespace() {
	p.expect(tIdent)
	p.next()
	for p.tok.kind == tDot {
		p.next()
		p.expect(tIdent)
		p.next()
	}
}

// skipRelativeRoot reads IDENTIFIER [DOLLAR IDENTIFIER] and returns where it ends.
func (p *idlParser) skipRelativeRoot() int {
	p.expect(tIdent)
	end := p.tok.end
	p.next()
	if p.tok.kind == tDollar {
		p.next()
		p.expect(tIdent)
		end = p.tok.end
		p.next()
	}
	return end
}

// parseShapeID reads a shape id as written (relative or absolute, member allowed).
func (p *idlParser) parseShapeID() draftRef {
	loc := p.loc()
	start := p.tok.start
	p.expect(tIdent)
	end := p.tok.end
	p.next()
	for p.tok.kind == tDot {
		p.next()
		p.expect(tIdent)
		end = p.tok.end
		p.next()
	}
	if p.tok.kind == tDollar || p.tok.kind == tPound {
		p.next()
		end = p.skipRelativeRoot()
	}
	return draftRef{name: p.src[start:end], loc: loc}
}

func (p *idlParser) docTrait(docs string, loc SourceLocation) draftTrait {
	return draftTrait{name: draftRef{name: string(TraitDocumentation), loc: loc}, value: String(docs), loc: loc}
}

// parseDocsAndTraits reads the documentation comments and traits before a
// shape or member. The documentation trait, when any, comes last and hasDoc is set.
func (p *idlParser) parseDocsAndTraits(member bool) (traits []draftTrait, hasDoc bool) {
	p.skipWs()
	var docs string
	var docLoc SourceLocation
	if p.tok.kind == tDocComment {
		docLoc = p.loc()
		p.skipWsAndDocs()
		docs, hasDoc = p.takeDocs()
	} else {
		p.skipWsAndDocs()
	}
	p.scratch = p.scratch[:0]
	p.readTraits()
	if hasDoc {
		p.scratch = append(p.scratch, p.docTrait(docs, docLoc))
	}
	traits = p.takeTraits(1)
	p.skipWsAndDocs()
	if member {
		// Doc comments between traits and a member attach to nothing.
		p.clearDocsForBr()
	}
	return traits, hasDoc
}

// readTraits reads trait applications onto p.scratch.
func (p *idlParser) readTraits() {
	for p.tok.kind == tAt {
		p.scratch = append(p.scratch, p.parseTrait())
		p.skipWsAndDocs()
	}
}

// takeTraits returns the traits of p.scratch in a new slice with room for extra more.
func (p *idlParser) takeTraits(extra int) []draftTrait {
	if len(p.scratch) == 0 {
		return nil
	}
	traits := make([]draftTrait, len(p.scratch), len(p.scratch)+extra)
	copy(traits, p.scratch)
	p.scratch = p.scratch[:0]
	return traits
}

var traitValueStart = []tokKind{tLBrace, tLBracket, tTextBlock, tString, tNumber, tIdent}

func (p *idlParser) parseTrait() draftTrait {
	loc := p.loc()
	p.expect(tAt)
	p.next()
	t := draftTrait{name: p.parseShapeID(), loc: loc, annotation: true}
	if p.tok.kind != tLParen {
		return t
	}
	p.next()
	p.skipWsAndDocs()
	if p.tok.kind == tRParen {
		p.next()
		return t
	}
	t.annotation = false
	switch p.expectOneOf(traitValueStart...) {
	case tLBrace, tLBracket, tTextBlock, tNumber:
		t.value = p.parseNode()
	case tString:
		key := p.tok.str
		p.next()
		p.skipWsAndDocs()
		if p.tok.kind == tColon {
			p.next()
			p.skipWsAndDocs()
			t.value = p.parseStructuredTrait(key)
		} else {
			t.value = String(key)
		}
	default:
		id := p.parseShapeID().name
		p.skipWsAndDocs()
		if p.tok.kind == tRParen || strings.ContainsAny(id, ".$#") {
			t.value = identNode(id)
		} else {
			p.expect(tColon)
			p.next()
			p.skipWsAndDocs()
			t.value = p.parseStructuredTrait(id)
		}
	}
	p.skipWsAndDocs()
	p.expect(tRParen)
	p.next()
	return t
}

// parseStructuredTrait reads `key: value, ...` trait bodies after the first key and colon.
func (p *idlParser) parseStructuredTrait(firstKey string) Node {
	p.nest()
	from := len(p.nodes)
	p.addEntry(from, firstKey, SourceLocation{}, p.parseNode(), "")
	p.skipWsAndDocs()
	for p.tok.kind != tRParen {
		p.expectOneOf(tIdent, tString)
		key, loc := p.stringOrIdent(), p.loc()
		p.next()
		p.skipWsAndDocs()
		p.expect(tColon)
		p.next()
		p.skipWsAndDocs()
		p.addEntry(from, key, loc, p.parseNode(), "Duplicate member of trait: ")
		p.skipWsAndDocs()
	}
	p.nesting--
	return Node{kind: ObjectNode, list: p.popNodes(from)}
}

// identNode is the node of an unquoted identifier or shape id in a node value.
func identNode(id string) Node {
	switch id {
	case "true":
		return Bool(true)
	case "false":
		return Bool(false)
	case "null":
		return Null()
	}
	return Node{kind: StringNode, s: id, syntactic: true}
}

var nodeStart = []tokKind{tString, tTextBlock, tNumber, tIdent, tLBrace, tLBracket}

// parseNode reads a node value.
func (p *idlParser) parseNode() Node {
	switch p.tok.kind {
	case tString, tTextBlock:
		n := String(p.tok.str)
		p.next()
		return n
	case tNumber:
		n := Number(numberLiteral(p.lexeme()))
		p.next()
		return n
	case tIdent:
		return identNode(p.parseShapeID().name)
	case tLBrace:
		from := len(p.nodes)
		p.parseObject(func(key string, keyLoc SourceLocation) {
			p.addEntry(from, key, keyLoc, p.parseNode(), "Duplicate member: ")
		})
		return Node{kind: ObjectNode, list: p.popNodes(from)}
	case tLBracket:
		from := len(p.nodes)
		p.parseArray(func() {
			n := p.parseNode()
			p.nodes = append(p.nodes, n)
		})
		return Node{kind: ArrayNode, list: p.popNodes(from)}
	}
	p.failExpect(nodeStart...)
	return Node{}
}

// parseArray reads an array node, calling item to read each element.
func (p *idlParser) parseArray(item func()) {
	p.nest()
	p.expect(tLBracket)
	p.next()
	p.skipWsAndDocs()
	for p.tok.kind != tRBracket {
		item()
		p.skipWsAndDocs()
	}
	p.next()
	p.nesting--
}

// parseObject reads an object node, calling entry with each key to read its value.
func (p *idlParser) parseObject(entry func(key string, keyLoc SourceLocation)) {
	p.expect(tLBrace)
	p.next()
	p.skipWsAndDocs()
	p.nest()
	for p.tok.kind != tEOF {
		if p.expectOneOf(tRBrace, tString, tIdent) == tRBrace {
			break
		}
		key, loc := p.stringOrIdent(), p.loc()
		p.next()
		p.skipWsAndDocs()
		p.expect(tColon)
		p.next()
		p.skipWsAndDocs()
		entry(key, loc)
		p.skipWsAndDocs()
	}
	p.expect(tRBrace)
	p.next()
	p.nesting--
}

func (p *idlParser) parseShapeOrApply(traits []draftTrait, hasDoc bool) {
	loc := p.loc()
	p.expect(tIdent)
	typeName := p.lexeme()
	if typeName == "apply" {
		// Doc comments before apply are dropped; traits are an error.
		if hasDoc && len(traits) > 1 || !hasDoc && len(traits) > 0 {
			p.fail("", "Traits applied to apply statement")
		}
		p.parseApply()
		return
	}
	typ, ok := shapeTypes[typeName]
	if !ok {
		p.fail("", "Unknown shape type: "+typeName)
	}
	p.next()
	p.expectSpaces()
	s := p.newShape(p.parseShapeName(), typ, loc)
	switch typ {
	case ListType, SetType, MapType, StructureType, UnionType:
		p.parseAggregate(s)
	case EnumType, IntEnumType:
		p.parseEnum(s)
	case ServiceType, ResourceType:
		p.parseEntity(s)
	case OperationType:
		p.parseOperation(s)
	default:
		p.parseMixins(s)
	}
	s.traits = traits
	p.f.shapes = append(p.f.shapes, s)
	p.expectBr()
}

func (p *idlParser) parseShapeName() ShapeID {
	p.expect(tIdent)
	name := p.lexeme()
	if prev, ok := p.uses[name]; ok {
		p.failAt(p.loc(), "", sprintf("Shape name `%s` conflicts with imported shape `%s`", name, prev))
	}
	p.next()
	return ShapeID(p.namespace + "#" + name)
}

func (p *idlParser) parseApply() {
	p.next()
	p.expectWhitespace()
	a := draftApply{target: p.parseShapeID()}
	p.expectWhitespace()
	if p.expectOneOf(tAt, tLBrace) == tAt {
		a.traits = []draftTrait{p.parseTrait()}
	} else {
		p.next()
		p.skipWsAndDocs()
		p.readTraits()
		a.traits = p.takeTraits(0)
		p.skipWsAndDocs()
		p.expect(tRBrace)
		p.next()
	}
	p.f.applies = append(p.f.applies, a)
	p.expectBr()
}

func (p *idlParser) parseMixins(s *draftShape) {
	p.skipSpaces()
	if !p.isLexeme("with") {
		return
	}
	if !p.v2 {
		p.fail(s.id, "Mixins can only be used with Smithy version 2 or later. Attempted to use mixins with version `1.0`.")
	}
	p.next()
	p.skipWsAndDocs()
	p.expect(tLBracket)
	p.next()
	p.skipWsAndDocs()
	for {
		s.mixins = append(s.mixins, p.parseShapeID())
		p.skipWsAndDocs()
		if p.tok.kind == tRBracket {
			break
		}
	}
	p.next()
}

func (p *idlParser) parseForResource(s *draftShape) {
	p.skipSpaces()
	if !p.isLexeme("for") {
		return
	}
	if !p.v2 {
		p.fail(s.id, "Structures can only be bound to resources with Smithy version 2 or later. "+
			"Attempted to bind a structure to a resource with version `1.0`.")
	}
	p.next()
	p.expectSpaces()
	s.forResource = p.parseShapeID()
}

func (p *idlParser) parseAggregate(s *draftShape) {
	p.parseForResource(s)
	p.parseMixins(s)
	p.skipWsAndDocs()
	// Doc comments between the shape name and its body attach to nothing.
	p.clearDocsForBr()
	p.expect(tLBrace)
	p.next()
	p.skipWs()
	for p.tok.kind != tEOF && p.tok.kind != tRBrace {
		p.parseMember(s)
		p.skipWs()
	}
	p.expect(tRBrace)
	p.next()
}

func hasMember(s *draftShape, name string) bool {
	for _, m := range s.members {
		if m.name == name {
			return true
		}
	}
	return false
}

func (p *idlParser) parseMember(s *draftShape) {
	traits, hasDoc := p.parseDocsAndTraits(true)
	loc := p.loc()
	if p.tok.kind == tRBrace && hasDoc && len(traits) == 1 {
		p.warnBadDocs(traits[0].loc, traits[0].value.Str())
		return
	}
	elided := p.tok.kind == tDollar
	if elided {
		p.next()
	}
	p.expect(tIdent)
	name := p.lexeme()
	if hasMember(s, name) {
		p.fail(s.id, sprintf("Duplicate member of `%s`: '%s'", s.id, name))
	}
	if elided && !p.v2 {
		p.fail(s.id.WithMember(name), "Members can only elide targets in IDL version 2 or later")
	}
	m := p.newMember(name, loc)
	m.elided, m.traits = elided, traits
	p.next()
	if !elided {
		p.skipSpaces()
		p.expect(tColon)
		p.next()
		p.skipSpaces()
		m.target = p.parseShapeID()
	}
	p.skipSpaces()
	if p.tok.kind == tEqual {
		if !p.v2 {
			p.fail("", "@default assignment is only supported in IDL version 2 or later")
		}
		m.traits = append(m.traits, p.parseAssignment(TraitDefault))
	}
	s.members = append(s.members, m)
}

// parseAssignment reads `= value` after a member as the trait named id.
func (p *idlParser) parseAssignment(id ShapeID) draftTrait {
	p.next()
	p.skipSpaces()
	loc := p.loc()
	value := p.parseNode()
	p.skipSpaces()
	if p.tok.kind == tComma {
		p.next()
	}
	p.expectBr()
	return draftTrait{name: draftRef{name: string(id), loc: loc}, value: value, loc: loc}
}

func (p *idlParser) parseEnum(s *draftShape) {
	p.parseMixins(s)
	p.skipWsAndDocs()
	p.expect(tLBrace)
	p.next()
	p.skipWs()
	for p.tok.kind != tEOF && p.tok.kind != tRBrace {
		traits, _ := p.parseDocsAndTraits(true)
		loc := p.loc()
		p.expect(tIdent)
		name := p.lexeme()
		if hasMember(s, name) {
			p.fail(s.id, "Found conflicting member name, `"+name+"`")
		}
		m := p.newMember(name, loc)
		m.target, m.traits = draftRef{name: string(UnitID), loc: loc}, traits
		s.members = append(s.members, m)
		p.next()
		p.skipSpaces()
		if p.tok.kind == tEqual {
			m.traits = append(m.traits, p.parseAssignment(TraitEnumValue))
		} else {
			p.skipWs()
		}
	}
	p.expect(tRBrace)
	p.next()
}

var (
	serviceProperties  = []string{"type", "version", "operations", "resources", "rename", "errors"}
	resourceProperties = []string{"type", "create", "read", "update", "delete", "list", "identifiers",
		"resources", "operations", "put", "properties", "collectionOperations"}
)

// parseEntity reads the body of a service or resource, a node object whose
// values are shape ids (as unquoted or quoted strings).
func (p *idlParser) parseEntity(s *draftShape) {
	p.parseMixins(s)
	p.skipWsAndDocs()
	allowed := serviceProperties
	if s.typ == ResourceType {
		allowed = resourceProperties
	}
	bodyLoc := p.loc()
	var unknown []string
	var seen []string
	p.parseObject(func(key string, keyLoc SourceLocation) {
		if slices.Contains(seen, key) {
			p.failAt(keyLoc, "", "Duplicate member: '"+key+"'")
		}
		seen = append(seen, key)
		if !slices.Contains(allowed, key) {
			unknown = append(unknown, key)
			p.parseNode()
			return
		}
		switch key {
		case "type":
			p.parseNode()
		case "version":
			s.version = p.entityString(s, key).name
		case "operations":
			s.operations = p.entityRefs(s, key)
		case "resources":
			s.resources = p.entityRefs(s, key)
		case "errors":
			s.errors = p.entityRefs(s, key)
		case "collectionOperations":
			s.collectionOps = p.entityRefs(s, key)
		case "create":
			s.create = p.entityString(s, key)
		case "put":
			s.put = p.entityString(s, key)
		case "read":
			s.read = p.entityString(s, key)
		case "update":
			s.update = p.entityString(s, key)
		case "delete":
			s.del = p.entityString(s, key)
		case "list":
			s.list = p.entityString(s, key)
		case "identifiers":
			s.identifiers = p.entityNamedRefs(s, key)
		case "properties":
			if !p.v2 {
				p.fail(s.id, "Resource properties can only be used with Smithy version 2 or later. "+
					"Attempted to use resource properties with version `1.0`.")
			}
			s.properties = p.entityNamedRefs(s, key)
		case "rename":
			s.rename = p.entityNamedRefs(s, key)
		}
	})
	if len(unknown) > 0 {
		p.f.warnf(bodyLoc, s.id, "Model", "Expected an object with possible properties of %s, but found additional properties: %s",
			tickedList(allowed), tickedList(unknown))
	}
}

func tickedList(values []string) string {
	sorted := slices.Sorted(slices.Values(values))
	return "`" + strings.Join(sorted, "`, `") + "`"
}

// entityString reads a value that must be a string and returns it with its location.
func (p *idlParser) entityString(s *draftShape, key string) draftRef {
	loc := p.loc()
	v := p.parseNode()
	if v.Kind() != StringNode {
		p.failAt(loc, s.id, sprintf("Expected `%s` to be a string; found %s", key, v.Kind()))
	}
	return draftRef{name: v.Str(), loc: loc}
}

func (p *idlParser) entityRefs(s *draftShape, key string) []draftRef {
	if p.tok.kind != tLBracket {
		loc := p.loc()
		v := p.parseNode()
		p.failAt(loc, s.id, sprintf("Expected `%s` to be an array; found %s", key, v.Kind()))
	}
	refs := []draftRef{}
	p.parseArray(func() { refs = append(refs, p.entityString(s, key)) })
	return refs
}

// entityNamedRefs reads an object of names to strings (identifiers, properties, rename).
func (p *idlParser) entityNamedRefs(s *draftShape, key string) []draftNamedRef {
	if p.tok.kind != tLBrace {
		loc := p.loc()
		v := p.parseNode()
		p.failAt(loc, s.id, sprintf("Expected `%s` to be an object; found %s", key, v.Kind()))
	}
	refs := []draftNamedRef{}
	p.parseObject(func(name string, nameLoc SourceLocation) {
		for _, r := range refs {
			if r.name == name {
				p.failAt(nameLoc, "", "Duplicate member: '"+name+"'")
			}
		}
		refs = append(refs, draftNamedRef{name: name, target: p.entityString(s, key)})
	})
	return refs
}

func (p *idlParser) parseOperation(s *draftShape) {
	p.parseMixins(s)
	p.skipWsAndDocs()
	p.expect(tLBrace)
	p.next()
	p.skipWsAndDocs()
	var seen []string
	for p.tok.kind != tEOF && p.tok.kind != tRBrace {
		p.expect(tIdent)
		key := p.lexeme()
		if slices.Contains(seen, key) {
			p.fail(s.id, sprintf("Duplicate operation %s property for `%s`", key, s.id))
		}
		seen = append(seen, key)
		p.next()
		p.skipWsAndDocs()
		switch key {
		case "input":
			s.input = p.parseOperationIO(s, p.inSuffix, TraitInput)
		case "output":
			s.output = p.parseOperationIO(s, p.outSuffix, TraitOutput)
		case "errors":
			p.expect(tColon)
			p.next()
			p.nest()
			p.skipWsAndDocs()
			p.expect(tLBracket)
			p.next()
			p.skipWsAndDocs()
			s.errors = []draftRef{}
			for p.tok.kind != tEOF && p.tok.kind != tRBracket {
				p.expect(tIdent)
				s.errors = append(s.errors, p.parseShapeID())
				p.skipWsAndDocs()
			}
			p.expect(tRBracket)
			p.next()
			p.nesting--
		default:
			p.fail(s.id, sprintf("Unknown property %s for %s", key, s.id))
		}
		p.expectWhitespace()
		p.skipWsAndDocs()
	}
	p.expect(tRBrace)
	p.next()
}

// parseOperationIO reads `: ShapeId` or an inline structure `:= ...` for the
// input or output of operation s; the inline structure gets trait ioTrait.
func (p *idlParser) parseOperationIO(s *draftShape, suffix string, ioTrait ShapeID) draftRef {
	if p.expectOneOf(tColon, tWalrus) == tColon {
		p.next()
		p.skipWsAndDocs()
		return p.parseShapeID()
	}
	if !p.v2 {
		p.fail(s.id, "Inlined operation inputs and outputs can only be used with Smithy version 2 or later. "+
			"Attempted to use inlined IO with version `1.0`.")
	}
	p.next()
	// Doc comments before ":=" attach to nothing; those after it document the structure.
	p.takeDocs()
	p.skipWs()
	traits, _ := p.parseDocsAndTraits(true)
	io := p.newShape(ShapeID(p.namespace+"#"+s.id.Name()+suffix), StructureType, p.loc())
	p.parseAggregate(io)
	io.traits = append(traits, draftTrait{name: draftRef{name: string(ioTrait), loc: io.loc}, value: Object(), annotation: true, loc: io.loc})
	p.f.shapes = append(p.f.shapes, io)
	return draftRef{name: string(io.id), loc: io.loc}
}
