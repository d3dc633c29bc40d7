package model

import (
	"fmt"
	"strings"
)

// Severity of a validation event, as in the Smithy reference tools.
type Severity uint8

const (
	SeveritySuppressed Severity = iota
	SeverityNote
	SeverityWarning
	SeverityDanger
	SeverityError
)

func (s Severity) String() string {
	return [...]string{"SUPPRESSED", "NOTE", "WARNING", "DANGER", "ERROR"}[s]
}

// Event is one problem found while loading or validating a model.
type Event struct {
	Severity Severity
	ID       string  // event id, e.g. "Model", "Target", "SyntacticShapeIdTarget"
	Shape    ShapeID // "" when the event is not about one shape
	Loc      SourceLocation
	Message  string
}

func (e Event) String() string {
	var b strings.Builder
	b.WriteString(e.Loc.String())
	b.WriteString(": ")
	b.WriteString(strings.ToLower(e.Severity.String()))
	b.WriteString(": ")
	if e.Shape != "" {
		fmt.Fprintf(&b, "%s: ", e.Shape)
	}
	b.WriteString(e.Message)
	fmt.Fprintf(&b, " [%s]", e.ID)
	return b.String()
}

// LoadError is returned when a model has ERROR or DANGER events. It lists every one.
type LoadError struct {
	Events []Event // the ERROR and DANGER events, in source order
}

func (e *LoadError) Error() string {
	lines := make([]string, len(e.Events))
	for i, ev := range e.Events {
		lines[i] = ev.String()
	}
	if len(lines) == 1 {
		return "invalid model: " + lines[0]
	}
	return fmt.Sprintf("invalid model: %d errors:\n%s", len(lines), strings.Join(lines, "\n"))
}
