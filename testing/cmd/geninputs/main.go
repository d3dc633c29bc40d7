// Command geninputs prints random valid inputs of the operations of the AWS
// models under $SMITHYCURL_SHARED, one JSON line per case, from the
// property-test generator (testing/proptest): the input of the
// differential test against botocore (testing/botocore/diff_botocore.py, make
// diff-botocore).
//
// With -responses, each line is a response case instead (responses.go,
// testing/botocore/diff_botocore_responses.py, make diff-botocore-responses).
//
// Each line: {"model": "aws/sqs.json", "service": "<shape id>", "protocol":
// "<trait id>", "operation": "<name>", "seed": <case seed>, "input":
// <document form>}. The same flags give the same lines.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/smithycurl/smithycurl/internal/respond"
	"github.com/smithycurl/smithycurl/model"
	"github.com/smithycurl/smithycurl/protocol"
	"github.com/smithycurl/smithycurl/testing/proptest"
	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// protocols are the protocol traits of the AWS models, in the order
// protocol.New looks for them.
var protocols = []model.ShapeID{protocol.RestJSON1, protocol.AWSJSON1_0, protocol.AWSJSON1_1,
	protocol.RestXML, protocol.AWSQuery, protocol.EC2Query}

func main() {
	seed := flag.Int64("seed", 1, "seed of the cases")
	n := flag.Int("n", 2, "cases per operation")
	models := flag.String("models", "aws/*.json,aws-large/s3.json", "model files under $SMITHYCURL_SHARED/models, comma-separated globs")
	only := flag.String("op", "", "only the operations whose name contains this")
	responses := flag.Bool("responses", false, "print response cases (rendered outputs and modeled errors) instead of inputs")
	flag.Parse()
	if err := run(*seed, *n, *models, *only, *responses); err != nil {
		fmt.Fprintln(os.Stderr, "geninputs:", err)
		os.Exit(1)
	}
}

func run(seed int64, n int, globs, only string, responses bool) error {
	dir, err := shareddata.Dir()
	if err != nil {
		return err
	}
	var files []string
	for _, g := range strings.Split(globs, ",") {
		matches, err := filepath.Glob(filepath.Join(dir, "models", strings.TrimSpace(g)))
		if err != nil {
			return fmt.Errorf("models %q: %w", g, err)
		}
		files = append(files, matches...)
	}
	if len(files) == 0 {
		return fmt.Errorf("no model matches %q under %s", globs, filepath.Join(dir, "models"))
	}
	out := bufio.NewWriter(os.Stdout)
	defer out.Flush()
	for _, f := range files {
		name, _ := filepath.Rel(filepath.Join(dir, "models"), f)
		emitf := emit
		if responses {
			emitf = emitResponses
		}
		if err := emitf(out, f, name, seed, n, only); err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
	}
	return out.Flush()
}

// line is one case.
type line struct {
	Model     string          `json:"model"`
	Service   model.ShapeID   `json:"service"`
	Protocol  model.ShapeID   `json:"protocol"`
	Operation string          `json:"operation"`
	Seed      int64           `json:"seed"`
	Input     json.RawMessage `json:"input"`
}

// load loads the model file at path.
func load(path string) (*model.Model, error) {
	l := model.NewLoader()
	if err := l.AddPath(path); err != nil {
		return nil, err
	}
	m, _, err := l.Load(context.Background())
	return m, err
}

func emit(out *bufio.Writer, path, name string, seed int64, n int, only string) error {
	m, err := load(path)
	if err != nil {
		return err
	}
	for _, sid := range m.Services() {
		svc, err := m.Service(sid)
		if err != nil {
			return err
		}
		var proto model.ShapeID
		for _, p := range protocols {
			if svc.Shape.HasTrait(p) {
				proto = p
				break
			}
		}
		if proto == "" {
			continue
		}
		for _, op := range svc.Operations {
			if only != "" && !strings.Contains(op.Name, only) {
				continue
			}
			for i := 0; i < n; i++ {
				cs := caseSeed(seed, name, op.Name, i)
				g := proptest.NewGen(m, cs)
				if proto == protocol.RestJSON1 || proto == protocol.RestXML {
					g.Locate = respond.LocateHTTP
				}
				b, err := json.Marshal(line{name, sid, proto, op.Name, cs, proptest.Encode(g.Input(op))})
				if err != nil {
					return fmt.Errorf("%s: %w", op.Name, err)
				}
				out.Write(b)
				out.WriteByte('\n')
			}
		}
	}
	return nil
}

// caseSeed derives the seed of case i of an operation (FNV-1a of its
// model and name, mixed with the run's seed).
func caseSeed(seed int64, model, op string, i int) int64 {
	h := int64(1469598103934665603)
	for _, c := range model + "/" + op {
		h = (h ^ int64(c)) * 1099511628211
	}
	return seed ^ h ^ int64(i)*7919
}
