package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"

	describepkg "github.com/smithycurl/smithycurl/describe"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
)

// parseOperation parses the flags of a command about one operation and
// finds it in the model; extra registers the command's own flags.
func parseOperation(ctx context.Context, name string, args []string, stderr io.Writer, extra func(*flag.FlagSet)) (*model.Model, *model.Service, *model.Operation, bool) {
	fs := newFlags(name, name+" --model PATH... [--service ID] OPERATION", stderr)
	var mf modelFlags
	mf.register(fs)
	if extra != nil {
		extra(fs)
	}
	pos, err := parseInterspersed(fs, args)
	if err != nil {
		return nil, nil, nil, false
	}
	return mf.operation(ctx, pos, stderr)
}

func describe(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var asJSON bool
	m, svc, op, ok := parseOperation(ctx, "describe", args, stderr, func(fs *flag.FlagSet) {
		fs.BoolVar(&asJSON, "json", false, "print the operation and every shape it uses as JSON (the schema of the C API's smithycurl_model_operation_json)")
	})
	if !ok {
		return exitUsage
	}
	if asJSON {
		writeJSON(stdout, describepkg.Operation(m, svc, op))
		return 0
	}
	d := describer{m: m, w: stdout}
	fmt.Fprintf(stdout, "%s  %s\n", op.Shape.ID, protocol.Route(svc, op))
	if doc := firstDocLine(op.Shape.Traits); doc != "" {
		fmt.Fprintf(stdout, "  %s\n", doc)
	}
	for _, io := range []*model.Shape{op.Input, op.Output} {
		for _, mem := range io.Members {
			switch kind := describepkg.Streaming(m, mem); {
			case kind == "events" && io == op.Output:
				fmt.Fprintf(stdout, "  event stream (%s): call prints the initial output, then one JSON line per event\n", mem.Name())
			case kind == "events":
				fmt.Fprintf(stdout, "  input event stream (%s): sent from Go only (client.CallDuplex); the CLI, C and Python cannot send events yet\n", mem.Name())
			case kind != "" && io == op.Input:
				fmt.Fprintf(stdout, "  streaming blob (%s): call sends it from --body-in FILE (or base64 in the input), never held whole\n", mem.Name())
			case kind != "":
				fmt.Fprintf(stdout, "  streaming blob (%s): call writes it to --body-out FILE (or base64 in the output)\n", mem.Name())
			}
		}
	}
	fmt.Fprintf(stdout, "\ninput %s\n", op.Input.ID)
	d.members(op.Input, "  ", map[model.ShapeID]bool{})
	fmt.Fprintf(stdout, "\noutput %s\n", op.Output.ID)
	d.members(op.Output, "  ", map[model.ShapeID]bool{})
	if len(op.Errors) > 0 {
		fmt.Fprintln(stdout, "\nerrors")
		for _, e := range op.Errors {
			status := ""
			if v, ok := e.Trait(model.TraitHTTPError); ok {
				status = " HTTP " + v.Literal()
			}
			fmt.Fprintf(stdout, "  %s%s  %s\n", e.ID, status, firstDocLine(e.Traits))
		}
	}
	return 0
}

// streamingNote names a kind of describe.Streaming.
func streamingNote(kind string) string {
	if kind == "events" {
		return "event stream"
	}
	return "streaming blob"
}

// operation loads the model and finds the one operation named in pos.
func (mf *modelFlags) operation(ctx context.Context, pos []string, stderr io.Writer) (*model.Model, *model.Service, *model.Operation, bool) {
	if len(pos) != 1 {
		fmt.Fprintln(stderr, "smithycurl: give exactly one OPERATION (see 'smithycurl ops')")
		return nil, nil, nil, false
	}
	m, svc, ok := mf.load(ctx, stderr)
	if !ok {
		return nil, nil, nil, false
	}
	op, err := svc.Operation(pos[0])
	if err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return nil, nil, nil, false
	}
	return m, svc, op, true
}

type describer struct {
	m *model.Model
	w io.Writer
}

// members prints the members of s as a tree; seen stops recursive shapes.
func (d describer) members(s *model.Shape, indent string, seen map[model.ShapeID]bool) {
	if seen[s.ID] {
		fmt.Fprintf(d.w, "%s(recursive: %s)\n", indent, s.ID.Name())
		return
	}
	seen[s.ID] = true
	defer delete(seen, s.ID)
	for _, mem := range s.Members {
		t, _ := d.m.Target(mem)
		var notes []string
		if mem.Traits.Has(model.TraitRequired) {
			notes = append(notes, "required")
		}
		if v, ok := mem.Traits.Get(model.TraitDefault); ok {
			notes = append(notes, "default "+describepkg.DefaultJSON(d.m, mem, v))
		}
		for _, c := range []model.ShapeID{model.TraitLength, model.TraitRange, model.TraitPattern} {
			if v, ok := d.m.MemberTrait(mem, c); ok {
				notes = append(notes, c.Name()+" "+v.JSON())
			}
		}
		if _, ok := d.m.MemberTrait(mem, model.TraitSensitive); ok {
			notes = append(notes, "sensitive")
		}
		if kind := describepkg.Streaming(d.m, mem); kind != "" {
			notes = append(notes, streamingNote(kind))
		}
		for _, b := range []model.ShapeID{model.TraitHTTPLabel, model.TraitHTTPQuery, model.TraitHTTPHeader,
			model.TraitHTTPPayload, model.TraitHTTPPrefixHeaders, model.TraitHTTPQueryParams} {
			if v, ok := mem.Traits.Get(b); ok {
				notes = append(notes, strings.TrimSpace(b.Name()+" "+v.Str()))
			}
		}
		line := fmt.Sprintf("%s%s: %s", indent, mem.Name(), typeName(t))
		if len(notes) > 0 {
			line += "  [" + strings.Join(notes, ", ") + "]"
		}
		if doc := firstDocLine(mem.Traits); doc != "" {
			line += "  // " + doc
		}
		fmt.Fprintln(d.w, line)
		if t == nil {
			continue
		}
		switch t.Type {
		case model.StructureType, model.UnionType:
			d.members(t, indent+"    ", seen)
		case model.ListType, model.SetType, model.MapType:
			if elem := elementShape(d.m, t); elem != nil && (elem.Type == model.StructureType || elem.Type == model.UnionType) {
				d.members(elem, indent+"    ", seen)
			}
		case model.EnumType, model.IntEnumType:
			fmt.Fprintf(d.w, "%s    one of: %s\n", indent, strings.Join(enumValues(t), ", "))
		}
	}
}

func elementShape(m *model.Model, s *model.Shape) *model.Shape {
	name := "member"
	if s.Type == model.MapType {
		name = "value"
	}
	mem, ok := s.Member(name)
	if !ok {
		return nil
	}
	t, _ := m.Target(mem)
	return t
}

// typeName is how a shape reads in a tree: "string", "list<Item>", "Item (structure)".
func typeName(t *model.Shape) string {
	if t == nil {
		return "?"
	}
	switch t.Type {
	case model.ListType, model.SetType, model.MapType:
		return string(t.Type) + " " + t.ID.Name()
	case model.StructureType, model.UnionType, model.EnumType, model.IntEnumType:
		return t.ID.Name() + " (" + string(t.Type) + ")"
	}
	if t.ID.Namespace() == model.PreludeNamespace {
		return string(t.Type)
	}
	return t.ID.Name() + " (" + string(t.Type) + ")"
}

func enumValues(t *model.Shape) []string {
	var out []string
	for _, mem := range t.Members {
		v, _ := mem.Traits.Get(model.TraitEnumValue)
		out = append(out, v.JSON())
	}
	return out
}

func firstDocLine(ts model.Traits) string {
	line, _, _ := strings.Cut(strings.TrimSpace(ts.Documentation()), "\n")
	return line
}

func example(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	m, _, op, ok := parseOperation(ctx, "example", args, stderr, nil)
	if !ok {
		return exitUsage
	}
	writeJSON(stdout, []byte(describepkg.Example(m, op).JSON()))
	return 0
}
