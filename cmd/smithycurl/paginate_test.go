package main

import (
	"fmt"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/smithycurl/smithycurl/testing/servers/todoserver"
)

// TestCallPaginate pages through the Todos service's ListTodos from the
// command line.
func TestCallPaginate(t *testing.T) {
	bin := smithycurl(t)
	srv := httptest.NewServer(todoserver.New().Handler())
	defer srv.Close()
	base := []string{"call", "--model", filepath.Join("..", "..", "examples", "todo"), "--endpoint", srv.URL}
	run := func(args ...string) (string, string, int) {
		return runCmd(t, bin, append(append([]string{}, base...), args...)...)
	}
	for i := range 5 {
		if _, errOut, code := run("CreateTodo", "--input", fmt.Sprintf(`{"title": "t%d"}`, i)); code != 0 {
			t.Fatalf("CreateTodo: exit %d: %s", code, errOut)
		}
	}
	lines := func(out string) []string { return strings.Split(strings.TrimSuffix(out, "\n"), "\n") }

	// One compact document per page.
	out, errOut, code := run("ListTodos", "--paginate", "--input", `{"limit": 2}`)
	pages := lines(out)
	if code != 0 || len(pages) != 3 || !strings.HasPrefix(pages[0], `{"items":[{`) || !strings.Contains(pages[0], `"nextToken":"2"`) ||
		strings.Contains(pages[2], "nextToken") {
		t.Errorf("--paginate: exit %d\n%s\n%s", code, out, errOut)
	}
	// One item per line; --page-size sets the limit member.
	out, errOut, code = run("ListTodos", "--paginate=items", "--page-size", "2")
	items := lines(out)
	if code != 0 || len(items) != 5 || !strings.Contains(items[0], `"title":"t0"`) || !strings.Contains(items[4], `"title":"t4"`) {
		t.Errorf("--paginate=items: exit %d\n%s\n%s", code, out, errOut)
	}
	// --max-items across pages: the second page is cut to one item.
	out, _, code = run("ListTodos", "--paginate=items", "--page-size", "2", "--max-items", "3")
	if items := lines(out); code != 0 || len(items) != 3 || !strings.Contains(items[2], `"title":"t2"`) {
		t.Errorf("--max-items 3 items: exit %d\n%s", code, out)
	}
	out, _, code = run("ListTodos", "--paginate", "--page-size", "2", "--max-items", "3")
	if pages := lines(out); code != 0 || len(pages) != 2 || strings.Count(pages[1], `"title"`) != 1 {
		t.Errorf("--max-items 3 pages: exit %d\n%s", code, out)
	}
	// Usage errors: an operation that is not paginated, a bad mode,
	// --max-items alone.
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"GetTodo", "--paginate", "--input", `{"id": "x"}`}, "operation GetTodo is not paginated"},
		{[]string{"ListTodos", "--paginate=lines"}, "--paginate=items"},
		{[]string{"ListTodos", "--max-items", "3"}, "go with --paginate"},
		{[]string{"ListTodos", "--paginate", "--max-items", "-1"}, "must not be negative"},
	} {
		if _, errOut, code := run(tc.args...); code != 2 || !strings.Contains(errOut, tc.want) {
			t.Errorf("%v: exit %d: %s, want %q", tc.args, code, errOut, tc.want)
		}
	}
}
