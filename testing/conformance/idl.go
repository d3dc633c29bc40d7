package conformance

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/smithycurl/smithycurl/model"
)

const caseTimeout = 20 * time.Second

// load assembles files in order with a fresh loader.
func load(files ...string) (*model.Model, []model.Event, error) {
	l := model.NewLoader()
	for _, f := range files {
		if err := l.AddPath(f); err != nil {
			return nil, nil, err
		}
	}
	return l.Load(context.Background())
}

func findFiles(dir string, suffixes ...string) []string {
	var out []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			for _, s := range suffixes {
				if strings.HasSuffix(p, s) {
					out = append(out, p)
				}
			}
		}
		return nil
	})
	sort.Strings(out)
	return out
}

func rel(base, p string) string {
	if r, err := filepath.Rel(base, p); err == nil {
		return r
	}
	return p
}

// IDLValid loads each valid IDL case and its JSON AST, each with
// __shared.json, and compares the models; then it writes the IDL model as a
// JSON AST, reads that back and compares again.
func IDLValid(shared string) Result {
	r := Result{Suite: "idl-valid"}
	base := filepath.Join(shared, "idl-conformance")
	valid := filepath.Join(base, "valid")
	sharedJSON := filepath.Join(valid, "__shared.json")
	excluded := readExclusions("idl-valid.tsv")
	type pair struct {
		id     string
		idl    [][]string // each entry: files loaded in one loader step
		expect []string
	}
	var cases []pair
	for _, j := range findFiles(valid, ".json") {
		if j == sharedJSON {
			continue
		}
		s := strings.TrimSuffix(j, ".json") + ".smithy"
		cases = append(cases, pair{id: rel(base, s), idl: [][]string{{s, sharedJSON}}, expect: []string{j, sharedJSON}})
	}
	fw := filepath.Join(base, "forwardrefs")
	for _, name := range []string{"use.smithy", "no-use.smithy"} {
		cases = append(cases, pair{id: "forwardrefs/use/" + name,
			idl: [][]string{{filepath.Join(fw, "use", name), sharedJSON}}, expect: []string{filepath.Join(fw, "use", "result.json"), sharedJSON}})
	}
	cases = append(cases, pair{id: "forwardrefs/resource",
		idl:    [][]string{{filepath.Join(fw, "resource", "operation.smithy")}, {filepath.Join(fw, "resource", "resource.smithy")}},
		expect: []string{filepath.Join(fw, "resource", "result.json")}})

	for _, c := range cases {
		reason, skip := excluded[c.id]
		if skip {
			r.Notes = append(r.Notes, "skipped "+c.id+": "+reason)
		}
		err := guard(caseTimeout, func() error {
			got, err := loadSteps(c.idl)
			if err != nil {
				return fmt.Errorf("IDL: %w", err)
			}
			want, _, err := load(c.expect...)
			if err != nil {
				return fmt.Errorf("JSON AST: %w", err)
			}
			if d := model.Diff(got, want); len(d) > 0 {
				return fmt.Errorf("IDL and JSON AST models differ:\n  %s", strings.Join(d, "\n  "))
			}
			l := model.NewLoader()
			l.AddSource("written.json", got.MarshalAST())
			back, _, err := l.Load(context.Background())
			if err != nil {
				return fmt.Errorf("reading our JSON AST back: %w", err)
			}
			if d := model.Diff(got, back); len(d) > 0 {
				return fmt.Errorf("our JSON AST does not round-trip:\n  %s", strings.Join(d, "\n  "))
			}
			return nil
		})
		r.record(c.id, skip, err)
	}
	return r
}

// loadSteps loads files step by step with one loader: each step adds its
// files and assembles, as when a model is built up from an earlier one.
func loadSteps(steps [][]string) (*model.Model, error) {
	l := model.NewLoader()
	var m *model.Model
	for _, step := range steps {
		for _, f := range step {
			if err := l.AddPath(f); err != nil {
				return nil, err
			}
		}
		var err error
		if m, _, err = l.Load(context.Background()); err != nil {
			return nil, err
		}
	}
	return m, nil
}

var lineColumn = regexp.MustCompile(`line (\d+), column (\d+)`)

// IDLInvalid checks that each invalid model is rejected. A second figure counts
// the rejections whose error carries the expected problem: the expected text,
// or an error at the expected line and column.
func IDLInvalid(shared string) Result {
	r := Result{Suite: "idl-invalid"}
	base := filepath.Join(shared, "idl-conformance")
	matched := 0
	files := findFiles(filepath.Join(base, "invalid"), ".smithy")
	for _, f := range files {
		id := rel(base, f)
		src, err := os.ReadFile(f)
		if err != nil {
			r.fail(id, "%v", err)
			continue
		}
		first, _, _ := strings.Cut(string(src), "\n")
		expect := normalize(strings.TrimSpace(first[min(3, len(first)):]))
		var events []model.Event
		err = guard(caseTimeout, func() error {
			_, ev, err := load(f)
			events = ev
			if err == nil {
				return errors.New("loaded without error; expected: " + expect)
			}
			return nil
		})
		if err != nil {
			r.fail(id, "%v", err)
			continue
		}
		r.Passed++
		if carriesExpected(events, expect) {
			matched++
		}
	}
	r.Notes = append(r.Notes, fmt.Sprintf("idl-invalid: %d of %d errors carry the expected problem (text, or kind and location)", matched, len(files)))
	return r
}

func normalize(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "[EOF]", ""), "\r\n", "\\n")
}

func carriesExpected(events []model.Event, expect string) bool {
	want := lineColumn.FindStringSubmatch(expect)
	for _, e := range events {
		if e.Severity < model.SeverityDanger {
			continue
		}
		msg := normalize(strings.ReplaceAll(e.Message, "\n", "\\n"))
		text, _, _ := strings.Cut(expect, " | ")
		if strings.Contains(msg, text) || strings.Contains(expect, msg) {
			return true
		}
		if want != nil && fmt.Sprint(e.Loc.Line) == want[1] && fmt.Sprint(e.Loc.Column) == want[2] {
			return true
		}
	}
	return false
}

type expectedEvent struct {
	severity, shape, message, id string
}

var eventLine = regexp.MustCompile(`^\[(SUPPRESSED|NOTE|WARNING|DANGER|ERROR)\] (\S+): (.*) \| (\S+)$`)

// IDLErrorFiles loads each errorfiles case with the prelude only and checks
// its validation events against the case's .errors file.
func IDLErrorFiles(shared string) Result {
	r := Result{Suite: "idl-errorfiles"}
	base := filepath.Join(shared, "idl-conformance", "errorfiles")
	excluded := readExclusions("idl-errorfiles.tsv")
	for _, f := range findFiles(filepath.Join(base, "loader"), ".smithy", ".json") {
		id := rel(base, f)
		reason, skip := excluded[id]
		if skip {
			r.Notes = append(r.Notes, "skipped "+id+": "+reason)
		}
		data, err := os.ReadFile(strings.TrimSuffix(strings.TrimSuffix(f, ".json"), ".smithy") + ".errors")
		if err != nil {
			continue
		}
		var expected []expectedEvent
		for _, line := range strings.Split(string(data), "\n") {
			if m := eventLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
				expected = append(expected, expectedEvent{m[1], m[2], m[3], m[4]})
			}
		}
		r.record(id, skip, guard(caseTimeout, func() error {
			_, events, _ := load(f)
			return compareEvents(expected, events)
		}))
	}
	return r
}

func compareEvents(expected []expectedEvent, events []model.Event) error {
	used := make([]bool, len(events))
	var problems []string
	for _, x := range expected {
		found := false
		for i, e := range events {
			shape := string(e.Shape)
			if shape == "" {
				shape = "-"
			}
			msg := strings.ReplaceAll(e.Message, "\n", "\\n")
			if !used[i] && e.Severity.String() == x.severity && shape == x.shape &&
				(e.ID == x.id || strings.HasPrefix(e.ID, x.id+".")) && strings.HasPrefix(msg, x.message) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			problems = append(problems, fmt.Sprintf("missing [%s] %s: %s | %s", x.severity, x.shape, x.message, x.id))
		}
	}
	for i, e := range events {
		if used[i] || e.Severity == model.SeveritySuppressed || strings.HasPrefix(e.ID, "ModelDeprecation") ||
			strings.HasPrefix(e.ID, "DeprecatedTrait") || strings.HasPrefix(e.ID, "DeprecatedShape") {
			continue
		}
		problems = append(problems, "unexpected "+e.String())
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "\n  "))
	}
	return nil
}

// ModelsLoad loads the protocol test models (all together, with their trait
// definitions) and each real AWS service model. Every file of the protocol
// tests is one case; it fails when an error is reported in it.
func ModelsLoad(shared string) Result {
	r := Result{Suite: "models-load"}
	conf := filepath.Join(shared, "conformance")
	files := findFiles(conf, ".smithy", ".json")
	var events []model.Event
	err := guard(2*caseTimeout, func() error {
		var err error
		_, events, err = load(conf)
		return err
	})
	bad := map[string][]string{}
	var unplaced []string
	for _, e := range events {
		if e.Severity >= model.SeverityDanger {
			if e.Loc.File != "" {
				bad[e.Loc.File] = append(bad[e.Loc.File], e.String())
			} else {
				unplaced = append(unplaced, e.String())
			}
		}
	}
	if err != nil && len(bad) == 0 {
		unplaced = append(unplaced, err.Error())
	}
	for _, f := range files {
		if msgs := bad[f]; len(msgs) > 0 {
			r.fail(rel(shared, f), "%s", strings.Join(msgs, "\n  "))
		} else if len(unplaced) > 0 {
			r.fail(rel(shared, f), "the protocol test models failed to load: %s", strings.Join(unplaced, "\n  "))
		} else {
			r.Passed++
		}
	}
	for _, dir := range []string{"aws", "aws-large"} {
		for _, f := range findFiles(filepath.Join(shared, "models", dir), ".json") {
			err := guard(caseTimeout, func() error {
				_, _, err := load(f)
				return err
			})
			if err != nil {
				r.fail(rel(shared, f), "%v", err)
			} else {
				r.Passed++
			}
		}
	}
	return r
}
