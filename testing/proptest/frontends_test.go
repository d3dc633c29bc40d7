package proptest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/testing/shareddata"
	"github.com/smithycurl/smithycurl/wire"
)

// frontCase is one call made through every front end.
type frontCase struct {
	tg   target
	resp *wire.Response
	out  map[string]any
	in   []byte
	err  *model.Shape // the modeled error the response carries, if any
}

// TestFrontEnds is the differential test of the front ends: the same
// response, rendered from a random output and replayed by a server on
// 127.0.0.1, gives the same output through the CLI, the C API
// (libsmithycurl.so) and the Python package, and that output is the one
// rendered. A modest number of cases: each front end is a process.
func TestFrontEnds(t *testing.T) {
	propertyTests(t)
	root, _ := filepath.Abs(filepath.Join("..", ".."))
	lib := filepath.Join(root, "build", "libsmithycurl.so")
	cli := filepath.Join(root, "build", "smithycurl")
	for _, f := range []string{lib, cli} {
		if _, err := os.Stat(f); err != nil {
			t.Skipf("%s not built (make lib build)", f)
		}
	}
	dir := shareddata.Path(t)
	// Cases: operations of the protocol test models and of two AWS models,
	// one per protocol and service, without host prefixes (the loopback
	// endpoint has no name to prefix).
	var cases []frontCase
	perService := map[string]int{}
	for _, tg := range targets(t) {
		key := tg.model + " " + string(tg.svc.Shape.ID)
		if perService[key] >= 2 || tg.op.Shape.HasTrait(model.TraitEndpoint) || hasStreaming(tg) {
			continue
		}
		if !strings.HasPrefix(tg.model, "conformance") && !strings.Contains(tg.model, "dynamodb") && !strings.Contains(tg.model, "lambda") {
			continue
		}
		g := newGen(tg, caseSeed(*seedFlag, tg, "frontends", 0))
		in := Encode(g.Input(tg.op))
		out := g.Output(tg.op)
		resp, err := tg.p.RenderResponse(tg.m, tg.op, out)
		if err != nil {
			t.Fatal(err)
		}
		perService[key]++
		cases = append(cases, frontCase{tg, resp, out, in, nil})
		if len(tg.op.Errors) > 0 {
			e := tg.op.Errors[g.R.Intn(len(tg.op.Errors))]
			members := g.Error(e)
			resp, err := tg.p.RenderError(tg.m, tg.op, e, members)
			if err != nil {
				t.Fatal(err)
			}
			cases = append(cases, frontCase{tg, resp, members, in, e})
		}
		if len(cases) >= 24 {
			break
		}
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seg := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/"), "/", 2)[0]
		i, err := strconv.Atoi(strings.TrimPrefix(seg, "case"))
		if err != nil || i < 0 || i >= len(cases) {
			http.Error(w, "no such case", 404)
			return
		}
		resp := cases[i].resp
		for k, vs := range resp.Header {
			w.Header()[k] = vs
		}
		w.WriteHeader(resp.Status)
		w.Write(resp.Body)
	}))
	defer srv.Close()

	type pyCase struct {
		Model    string `json:"model"`
		Service  string `json:"service"`
		Endpoint string `json:"endpoint"`
		Op       string `json:"op"`
		Input    string `json:"input"`
	}
	var py []pyCase
	modelPath := func(tg target) string {
		if tg.model == "conformance" {
			return filepath.Join(dir, "conformance")
		}
		return filepath.Join(dir, tg.model)
	}
	for i, c := range cases {
		py = append(py, pyCase{modelPath(c.tg), string(c.tg.svc.Shape.ID), fmt.Sprintf("%s/case%d", srv.URL, i), c.tg.op.Name, string(c.in)})
	}
	tmp := t.TempDir()
	casesFile := filepath.Join(tmp, "cases.json")
	b, _ := json.Marshal(py)
	os.WriteFile(casesFile, b, 0o644)

	cmd := exec.Command("/usr/bin/python3", "-B", "testdata/frontends.py", casesFile)
	cmd.Env = append(os.Environ(), "SMITHYCURL_LIBRARY="+lib, "PYTHONPATH="+filepath.Join(root, "bindings", "python"))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	pyOut, err := cmd.Output()
	if err != nil {
		t.Fatalf("frontends.py: %v\n%s", err, stderr.String())
	}
	rows := map[int]map[string]map[string]any{}
	for _, line := range strings.Split(strings.TrimSpace(string(pyOut)), "\n") {
		var row struct {
			Case  int
			C, Py map[string]any
		}
		if err := json.Unmarshal([]byte(line), &row); err != nil {
			t.Fatalf("frontends.py line %q: %v", line, err)
		}
		rows[row.Case] = map[string]map[string]any{"C API": row.C, "Python": row.Py}
	}

	passed := 0
	for i, c := range cases {
		tg := c.tg
		outs := map[string]string{}
		inFile := filepath.Join(tmp, fmt.Sprintf("in%d.json", i))
		os.WriteFile(inFile, c.in, 0o644)
		res := exec.Command(cli, "call", "--model", modelPath(tg), "--service", string(tg.svc.Shape.ID),
			"--endpoint", py[i].Endpoint, "--retries", "0", "--no-host-prefix", tg.op.Name, "--input", "@"+inFile)
		res.Env = append(os.Environ(), "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=secret", "AWS_REGION=us-east-1")
		var cliErr bytes.Buffer
		res.Stderr = &cliErr
		o, err := res.Output()
		if c.err != nil {
			checkFrontEndErrors(t, c, o, err, rows[i])
			continue
		}
		if err != nil {
			t.Errorf("%s: CLI: %v: %s %s", tg, err, o, cliErr.String())
			continue
		}
		outs["CLI"] = string(o)
		for name, r := range rows[i] {
			s, ok := r["output"].(string)
			if !ok {
				t.Errorf("%s: %s: %v", tg, name, r)
				continue
			}
			outs[name] = s
		}
		want := Clone(c.out).(map[string]any)
		for _, mem := range tg.op.Output.Members {
			if tg.p.Locate(mem, true) == LocStatus && want[mem.Name()] == nil {
				want[mem.Name()] = jsonNumber(c.resp.Status)
			}
		}
		ok := true
		for name, s := range outs {
			// Compared with the decoded output of the codec itself
			// (TestResponseRoundTrip checks that one against the
			// rendered output).
			if err := compareOutput(tg, tg.op.Output, c.out, []byte(s), c.resp); err != nil {
				ok = false
				t.Errorf("%s: %s output differs: %v", tg, name, err)
			}
		}
		if ok && len(outs) == 3 {
			passed++
		}
	}
	t.Logf("%d cases (%d outputs, the rest modeled errors), each through the CLI, the C API and the Python package: %d outputs the same", len(cases), countOutputs(cases), passed)
}

func hasStreaming(tg target) bool {
	v := view{tg.m}
	for _, s := range []*model.Shape{tg.op.Input, tg.op.Output} {
		for _, mem := range s.Members {
			if _, ok := v.trait(mem, model.TraitStreaming); ok {
				return true
			}
		}
	}
	return false
}

func countOutputs(cases []frontCase) int {
	n := 0
	for _, c := range cases {
		if c.err == nil {
			n++
		}
	}
	return n
}

// checkFrontEndErrors checks that a modeled error response gives the same
// error through every front end: the CLI (exit 1, {"error", "status",
// "data"}), the C API (shape, status, members) and the Python package (the
// error class's shape_id and status); members are compared with the
// rendered ones.
func checkFrontEndErrors(t *testing.T, c frontCase, cliOut []byte, cliErr error, row map[string]map[string]any) {
	t.Helper()
	var ee *exec.ExitError
	if !errors.As(cliErr, &ee) || ee.ExitCode() != 1 {
		t.Errorf("%s: CLI on error %s: %v, want exit status 1: %s", c.tg, c.err.ID, cliErr, cliOut)
		return
	}
	var cli struct {
		Error  string          `json:"error"`
		Status int             `json:"status"`
		Data   json.RawMessage `json:"data"`
	}
	if err := json.Unmarshal(cliOut, &cli); err != nil {
		t.Errorf("%s: CLI error output %q: %v", c.tg, cliOut, err)
		return
	}
	capi, py := row["C API"], row["Python"]
	cStatus, _ := capi["status"].(float64)
	pyStatus, _ := py["status"].(float64)
	for name, got := range map[string][2]any{
		"CLI":    {cli.Error, cli.Status},
		"C API":  {capi["error"], int(cStatus)},
		"Python": {py["error"], int(pyStatus)},
	} {
		if got[0] != string(c.err.ID) || got[1] != c.resp.Status {
			t.Errorf("%s: %s gives error %v (HTTP %v), want %s (HTTP %d)", c.tg, name, got[0], got[1], c.err.ID, c.resp.Status)
		}
	}
	members, _ := capi["members"].(string)
	for name, doc := range map[string][]byte{"CLI": cli.Data, "C API": []byte(members)} {
		if err := compareOutput(c.tg, c.err, c.out, doc, c.resp); err != nil {
			t.Errorf("%s: %s members of %s differ: %v", c.tg, name, c.err.ID, err)
		}
	}
}
