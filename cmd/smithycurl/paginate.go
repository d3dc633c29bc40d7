package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"

	"github.com/smithycurl/smithycurl/client"
)

// paginateFlags are call's --paginate[=items] and --max-items.
type paginateFlags struct {
	mode     string // "", "pages" or "items"
	maxItems int
	pageSize int
}

func (p *paginateFlags) register(fs *flag.FlagSet) {
	fs.Var((*paginateMode)(&p.mode), "paginate", "follow a @paginated operation's pages: one JSON document per page and line; --paginate=items: one item per line")
	fs.IntVar(&p.maxItems, "max-items", 0, "with --paginate: stop after this many items in all (the last page is cut)")
	fs.IntVar(&p.pageSize, "page-size", 0, "with --paginate: set the operation's page size member on each request")
}

// paginateMode is --paginate: a boolean flag that also takes "items".
type paginateMode string

func (m *paginateMode) String() string   { return string(*m) }
func (m *paginateMode) IsBoolFlag() bool { return true }
func (m *paginateMode) Set(v string) error {
	switch v {
	case "true", "pages":
		*m = "pages"
	case "items":
		*m = "items"
	case "false":
		*m = ""
	default:
		return fmt.Errorf("want --paginate, --paginate=pages or --paginate=items, not %q", v)
	}
	return nil
}

// run prints the pages (or items) of operation as JSON lines, flushing
// each line as it comes.
func (p *paginateFlags) run(ctx context.Context, c *client.Client, operation string, input []byte, raw bool, stdout, stderr io.Writer) int {
	if p.mode == "" || raw {
		fmt.Fprintln(stderr, "smithycurl: --max-items and --page-size go with --paginate, which does not go with --raw")
		return exitUsage
	}
	if p.maxItems < 0 || p.pageSize < 0 {
		fmt.Fprintln(stderr, "smithycurl: --max-items and --page-size must not be negative")
		return exitUsage
	}
	opts := []client.PaginateOption{client.WithMaxItems(p.maxItems), client.WithPageSize(p.pageSize)}
	seq := c.Paginate(ctx, operation, input, opts...)
	if p.mode == "items" {
		seq = c.PaginateItems(ctx, operation, input, opts...)
	}
	w := bufio.NewWriter(stdout)
	var line bytes.Buffer
	for v, err := range seq {
		if err != nil {
			w.Flush()
			return callFailed(err, false, stdout, stderr)
		}
		line.Reset()
		if json.Compact(&line, v) != nil {
			line.Write(v)
		}
		line.WriteByte('\n')
		w.Write(line.Bytes())
		w.Flush()
	}
	return 0
}
