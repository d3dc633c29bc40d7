package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"strings"

	"github.com/smithycurl/smithycurl/model"
)

// ErrRepeatedToken is what a paginator's error wraps (a KindDecode *Error)
// when the service answers a page with the continuation token it was sent:
// following it would loop forever. WithStopOnRepeatedToken turns it into a
// silent stop.
var ErrRepeatedToken = errors.New("the service returned the same continuation token twice in a row")

// PaginateOption changes one Paginate or PaginateItems.
type PaginateOption interface{ applyPaginate(*paginateOptions) }

type paginateOptionFunc func(*paginateOptions)

func (f paginateOptionFunc) applyPaginate(o *paginateOptions) { f(o) }

type paginateOptions struct {
	maxItems     int
	pageSize     int
	stopOnRepeat bool
	call         []CallOption
}

// WithMaxItems stops after n items in all (n > 0): the page that reaches n
// has its items list cut to what is left, and no further page is asked for.
// It needs the trait's items path (a usage error without one).
func WithMaxItems(n int) PaginateOption {
	return paginateOptionFunc(func(o *paginateOptions) { o.maxItems = n })
}

// WithPageSize sets the input's pageSize member (the trait's pageSize) on
// every request. It does nothing for an operation without one.
func WithPageSize(n int) PaginateOption {
	return paginateOptionFunc(func(o *paginateOptions) { o.pageSize = n })
}

// WithStopOnRepeatedToken ends the pages silently, after the page that
// carries it, when the service returns the token it was sent (a "tail"
// operation, as the Smithy specification allows), instead of the
// ErrRepeatedToken error.
func WithStopOnRepeatedToken() PaginateOption {
	return paginateOptionFunc(func(o *paginateOptions) { o.stopOnRepeat = true })
}

// WithPageCallOptions applies opts to each page's call (a per-page
// timeout, headers).
func WithPageCallOptions(opts ...CallOption) PaginateOption {
	return paginateOptionFunc(func(o *paginateOptions) { o.call = append(o.call, opts...) })
}

// Pager walks the pages of one paginated call, one Next at a time (the
// cursor behind Paginate, the C paginator and the Python one). It is not
// safe for concurrent use.
type Pager struct {
	c          *Client
	op         *model.Operation
	p          model.Pagination
	outToken   []string
	itemsPath  []string
	o          paginateOptions
	input      []byte    // the first request's input, without the token
	token      []byte    // the token to send next (nil: the one in input)
	sent       []byte    // the token the last request carried (compact JSON; nil: none)
	last       []byte    // the last page
	items      []element // its items, once read
	itemsRead  bool
	isMap      bool
	seen       int
	pages      int
	done       bool
	pendingErr error // returned by the Next after the page that caused it
}

// NewPager starts the pages of operation with input (JSON in the document
// form, nil for none). Nothing is sent before Next. A usage *Error when the
// operation is unknown or not @paginated, or the input is not an object.
func (c *Client) NewPager(operation string, input []byte, opts ...PaginateOption) (*Pager, error) {
	op, err := c.svc.Operation(operation)
	if err != nil {
		return nil, &Error{Kind: KindUsage, err: err}
	}
	p, ok, err := c.model.Pagination(c.svc, op)
	if err != nil {
		return nil, usageError(op.Shape.ID, "%v", err)
	}
	if !ok {
		return nil, usageError(op.Shape.ID, "operation %s is not paginated (it has no @paginated trait)", op.Name)
	}
	pg := &Pager{c: c, op: op, p: p, outToken: strings.Split(p.OutputToken, ".")}
	if p.Items != "" {
		pg.itemsPath = strings.Split(p.Items, ".")
	}
	for _, opt := range opts {
		if opt != nil {
			opt.applyPaginate(&pg.o)
		}
	}
	if pg.o.maxItems < 0 || pg.o.pageSize < 0 {
		return nil, usageError(op.Shape.ID, "max items and page size must not be negative")
	}
	if pg.o.maxItems > 0 && pg.itemsPath == nil {
		return nil, usageError(op.Shape.ID, "max items: @paginated of %s names no items member", op.Name)
	}
	if len(bytes.TrimSpace(input)) == 0 {
		input = []byte("{}")
	}
	start, end, found, err := locate(input, []string{p.InputToken})
	if err != nil {
		return nil, usageError(op.Shape.ID, "invalid input: %v", err)
	}
	if found && string(input[start:end]) != "null" {
		pg.sent = compact(input[start:end])
	}
	if pg.o.pageSize > 0 && p.PageSize != "" {
		if input, err = setMember(input, p.PageSize, strconv.AppendInt(nil, int64(pg.o.pageSize), 10)); err != nil {
			return nil, usageError(op.Shape.ID, "invalid input: %v", err)
		}
	}
	pg.input = input
	return pg, nil
}

// Pagination is the merged @paginated trait the pager follows.
func (pg *Pager) Pagination() model.Pagination { return pg.p }

// Next sends the next request and returns its output. (nil, nil) when there
// are no more pages. After an error (an *Error, as from Call) the pages end.
func (pg *Pager) Next(ctx context.Context) ([]byte, error) { return pg.NextWith(ctx) }

// NextWith is Next with opts added, for this page only, after the
// WithPageCallOptions of the pager (client.ViaEngine for the C
// paginator's queued next).
func (pg *Pager) NextWith(ctx context.Context, opts ...CallOption) ([]byte, error) {
	pg.last, pg.items, pg.itemsRead = nil, nil, false
	if pg.pendingErr != nil {
		err := pg.pendingErr
		pg.pendingErr, pg.done = nil, true
		return nil, err
	}
	if pg.done {
		return nil, nil
	}
	in := pg.input
	if pg.token != nil {
		var err error
		if in, err = setMember(in, pg.p.InputToken, pg.token); err != nil {
			pg.done = true
			return nil, usageError(pg.op.Shape.ID, "invalid input: %v", err)
		}
		pg.sent = compact(pg.token)
	}
	out, err := pg.c.Call(ctx, string(pg.op.Shape.ID), in, slices.Concat(pg.o.call, opts)...)
	if err != nil {
		pg.done = true
		return nil, err
	}
	pg.pages++
	if pg.o.maxItems > 0 {
		if out, err = pg.readItems(out); err != nil {
			pg.done = true
			return nil, err
		}
	}
	pg.last = out
	tok, err := lookup(out, pg.outToken)
	if err != nil {
		pg.done = true
		return nil, pg.decodeError("output token %s: %v", pg.p.OutputToken, err)
	}
	switch {
	case pg.done: // max items reached
	case emptyToken(tok):
		pg.done = true
	case pg.sent != nil && bytes.Equal(compact(tok), pg.sent):
		if pg.o.stopOnRepeat {
			pg.done = true
		} else {
			pg.pendingErr = &Error{Kind: KindDecode, Operation: pg.op.Shape.ID,
				err: fmt.Errorf("%w (%s %s, page %d)", ErrRepeatedToken, pg.p.OutputToken, tok, pg.pages)}
		}
	default:
		pg.token = tok
	}
	return out, nil
}

// readItems reads the items of page out and cuts them to what max items
// leaves.
func (pg *Pager) readItems(out []byte) ([]byte, error) {
	pg.itemsRead = true
	if pg.itemsPath == nil {
		return out, nil
	}
	start, end, found, err := locate(out, pg.itemsPath)
	if err != nil {
		return nil, pg.decodeError("items %s: %v", pg.p.Items, err)
	}
	if !found || string(out[start:end]) == "null" {
		return out, nil
	}
	v := out[start:end]
	elems, err := elements(v)
	if err != nil {
		return nil, pg.decodeError("items %s: %v", pg.p.Items, err)
	}
	pg.isMap = bytes.HasPrefix(v, []byte("{"))
	if pg.o.maxItems > 0 && pg.seen+len(elems) >= pg.o.maxItems {
		pg.done = true
		if cut := pg.o.maxItems - pg.seen; cut < len(elems) {
			elems = elems[:cut]
			out = replaceAt(out, start, end, joinElements(elems, pg.isMap))
		}
	}
	pg.seen += len(elems)
	pg.items = elems
	return out, nil
}

// Items returns the items of the page the last Next returned (after max
// items), each as JSON: a list's items as they are, a map's entries as
// one-member objects {"key": value}. Nil when the trait names no items. A
// KindDecode *Error when the items member is not a list or map.
func (pg *Pager) Items() ([][]byte, error) {
	if !pg.itemsRead && pg.last != nil {
		if _, err := pg.readItems(pg.last); err != nil {
			return nil, err
		}
	}
	out := make([][]byte, len(pg.items))
	for i, e := range pg.items {
		out[i] = e.JSON()
	}
	return out, nil
}

func (pg *Pager) decodeError(format string, args ...any) *Error {
	return &Error{Kind: KindDecode, Operation: pg.op.Shape.ID, err: fmt.Errorf(format, args...)}
}

// emptyToken reports whether a continuation token means "no more pages":
// absent, null, "" or an empty map.
func emptyToken(tok []byte) bool {
	t := string(bytes.TrimSpace(tok))
	if t == "" || t == "null" || t == `""` {
		return true
	}
	if t[0] == '{' {
		return strings.TrimSpace(t[1:len(t)-1]) == ""
	}
	return false
}

func compact(v []byte) []byte {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		return append([]byte(nil), v...)
	}
	return b.Bytes()
}

// Paginate calls a @paginated operation page after page, each with the
// continuation token of the page before, and yields each page's output
// (JSON in the document form, as Call returns it). The pages end when the
// output token is absent, null or empty, after max items, or at the first
// error, which is yielded (an *Error): a usage error when the operation is
// not paginated, errors of Call, and ErrRepeatedToken (KindDecode) when the
// service sends back the token it was sent.
func (c *Client) Paginate(ctx context.Context, operation string, input []byte, opts ...PaginateOption) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		pg, err := c.NewPager(operation, input, opts...)
		if err != nil {
			yield(nil, err)
			return
		}
		for {
			page, err := pg.Next(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			if page == nil || !yield(page, nil) {
				return
			}
		}
	}
}

// PaginateItems is Paginate yielding the items of each page (the trait's
// items member), one by one: a list's items as JSON, a map's entries as
// one-member objects {"key": value}. An operation whose trait names no
// items is a usage error.
func (c *Client) PaginateItems(ctx context.Context, operation string, input []byte, opts ...PaginateOption) iter.Seq2[[]byte, error] {
	return func(yield func([]byte, error) bool) {
		pg, err := c.NewPager(operation, input, opts...)
		if err == nil && pg.itemsPath == nil {
			err = usageError(pg.op.Shape.ID, "@paginated of %s names no items member", pg.op.Name)
		}
		if err != nil {
			yield(nil, err)
			return
		}
		for {
			page, err := pg.Next(ctx)
			if err != nil {
				yield(nil, err)
				return
			}
			if page == nil {
				return
			}
			items, err := pg.Items()
			if err != nil {
				yield(nil, err)
				return
			}
			for _, item := range items {
				if !yield(item, nil) {
					return
				}
			}
		}
	}
}
