package main

import (
	"fmt"
	"go/format"
	"os"
	"path/filepath"
	"strings"

	"github.com/smithycurl/smithycurl/internal/contract"
)

// A file is a file rendered from the table: whole (region == "") or one
// marked region of a file that is otherwise written by hand.
type file struct {
	path   string // relative to the repository root
	region string // the region's name between its markers, or ""
	text   string
}

// files returns every file and region rendered from the table.
func files() []file {
	return []file{
		{path: "include/smithycurl.h", region: "version", text: headerVersion()},
		{path: "include/smithycurl.h", region: "codes", text: headerCodes()},
		{path: "export/contract.c", text: cTables()},
		{path: "export/contract.go", text: gofmt(goExport())},
		{path: "export/scx.h", region: "options", text: scxOptions()},
		{path: "client/kind.go", text: gofmt(goClient())},
		{path: "bindings/python/smithycurl/_contract.py", text: python() + pythonOptions()},
		{path: "README.md", region: "options", text: readmeOptions()},
	}
}

// gofmt formats Go source rendered here (a bug in the renderer panics:
// only tests and make contract run it).
func gofmt(src string) string {
	b, err := format.Source([]byte(src))
	if err != nil {
		panic(fmt.Sprintf("contract: rendered Go does not parse: %v", err))
	}
	return string(b)
}

// markers returns the lines that open and close a region of the file at
// path: C comments, or HTML comments in Markdown.
func markers(path, region string) (begin, end string) {
	start, stop := "/* ", " */"
	if strings.HasSuffix(path, ".md") {
		start, stop = "<!-- ", " -->"
	}
	return start + "contract:" + region + " - generated from internal/contract by `make contract`; do not edit" + stop + "\n",
		start + "end contract:" + region + stop + "\n"
}

// splice replaces the region of text (markers kept) with f's text.
func splice(text string, f file) (string, error) {
	b, e := markers(f.path, f.region)
	i := strings.Index(text, b)
	j := strings.Index(text, e)
	if i < 0 || j < i {
		return "", fmt.Errorf("%s: no region %q (a line %q, then %q)", f.path, f.region, strings.TrimSpace(b), strings.TrimSpace(e))
	}
	return text[:i] + b + f.text + text[j:], nil
}

const generated = "generated from internal/contract by `make contract`; do not edit."

func headerVersion() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#define SMITHYCURL_VERSION \"%s\"\n", contract.VersionString())
	fmt.Fprintf(&b, "#define SMITHYCURL_VERSION_MAJOR %d\n", contract.Version[0])
	fmt.Fprintf(&b, "#define SMITHYCURL_VERSION_MINOR %d\n", contract.Version[1])
	fmt.Fprintf(&b, "#define SMITHYCURL_VERSION_PATCH %d\n", contract.Version[2])
	fmt.Fprintf(&b, "#define SMITHYCURL_VERSION_NUMBER 0x%06x\n", contract.VersionNumber())
	return b.String()
}

func headerCodes() string {
	var b strings.Builder
	b.WriteString("/** What a function did. Stable numbers: codes are only ever added. */\ntypedef enum smithycurl_code {\n")
	for i, c := range contract.Codes {
		cDoc(&b, c.Doc)
		fmt.Fprintf(&b, "    SMITHYCURL_%s = %d%s\n", cCodeName(c.Name), c.Value, comma(i, len(contract.Codes)))
	}
	b.WriteString("} smithycurl_code;\n\n")
	b.WriteString("/** Why a call failed: a small closed set, the same as the Go client's and\n * the Python package's error kinds. */\ntypedef enum smithycurl_error_kind {\n")
	for i, k := range contract.Kinds {
		cDoc(&b, k.Doc)
		fmt.Fprintf(&b, "    SMITHYCURL_KIND_%s = %d%s\n", k.Name, k.Value, comma(i, len(contract.Kinds)))
	}
	b.WriteString("} smithycurl_error_kind;\n")
	return b.String()
}

func cTables() string {
	var b strings.Builder
	b.WriteString("// smithycurl_strerror and smithycurl_error_kind_name: pure C, usable in a\n// forked child. " + generated + "\n\n")
	b.WriteString("#include \"smithycurl.h\"\n\n")
	b.WriteString("const char *smithycurl_strerror(smithycurl_code code) {\n    switch (code) {\n")
	for _, c := range contract.Codes {
		fmt.Fprintf(&b, "    case SMITHYCURL_%s: return %q;\n", cCodeName(c.Name), c.Text)
	}
	b.WriteString("    }\n    return \"unknown code\";\n}\n\n")
	b.WriteString("const char *smithycurl_error_kind_name(smithycurl_error_kind kind) {\n    switch (kind) {\n")
	for _, k := range contract.Kinds {
		fmt.Fprintf(&b, "    case SMITHYCURL_KIND_%s: return %q;\n", k.Name, k.Text)
	}
	b.WriteString("    }\n    return \"unknown\";\n}\n")
	return b.String()
}

func goExport() string {
	var b strings.Builder
	b.WriteString("// Code " + generated + "\n\npackage main\n\n")
	b.WriteString("import \"github.com/smithycurl/smithycurl/client\"\n\n")
	b.WriteString("// Return codes of include/smithycurl.h (smithycurl_code).\nconst (\n")
	for _, c := range contract.Codes {
		fmt.Fprintf(&b, "\tcode%s = %d\n", camel(c.Name), c.Value)
	}
	b.WriteString(")\n\n")
	b.WriteString("// codeOfKind is the code a call failing with kind k returns.\nfunc codeOfKind(k client.Kind) int {\n\tswitch k {\n")
	for _, k := range contract.Kinds[1:] {
		fmt.Fprintf(&b, "\tcase client.Kind%s:\n\t\treturn code%s\n", camel(k.Name), camel(k.Code))
	}
	b.WriteString("\t}\n\treturn codeInternal\n}\n")
	return b.String()
}

func goClient() string {
	var b strings.Builder
	b.WriteString("// Code " + generated + "\n\npackage client\n\n")
	b.WriteString("// Kind classifies an error of Call. The set is closed and stable: the C API\n// (smithycurl_error_kind) and the Python package expose the same kinds.\ntype Kind int\n\n")
	b.WriteString("// The kinds of error; an error of Call has one of them.\nconst (\n")
	for _, k := range contract.Kinds[1:] {
		fmt.Fprintf(&b, "\t// %s\n", wrap("Kind"+camel(k.Name)+": "+lowerFirst(k.Doc), "\t// ", 72))
		fmt.Fprintf(&b, "\tKind%s Kind = %d\n", camel(k.Name), k.Value)
	}
	b.WriteString(")\n\n// String is the kind's name, as smithycurl_error_kind_name gives it.\nfunc (k Kind) String() string {\n\tswitch k {\n")
	for _, k := range contract.Kinds[1:] {
		fmt.Fprintf(&b, "\tcase Kind%s:\n\t\treturn %q\n", camel(k.Name), k.Text)
	}
	b.WriteString("\t}\n\treturn \"unknown\"\n}\n")
	return b.String()
}

func python() string {
	var b strings.Builder
	b.WriteString("\"\"\"The library's version, return codes, error kinds and client options: " + generated + "\"\"\"\n\n")
	fmt.Fprintf(&b, "VERSION = %q\n#: 0xXXYYZZ, as smithycurl_version_number() gives it.\nVERSION_NUMBER = 0x%06x\n\n", contract.VersionString(), contract.VersionNumber())
	b.WriteString("# smithycurl_code values.\n")
	for _, c := range contract.Codes {
		fmt.Fprintf(&b, "%s = %d\n", pyCodeName(c.Name), c.Value)
	}
	b.WriteString("\n# smithycurl_error_kind values.\n")
	for _, k := range contract.Kinds {
		fmt.Fprintf(&b, "KIND_%s = %d\n", k.Name, k.Value)
	}
	b.WriteString("\n#: The code a call failing with each kind returns.\nCODE_OF_KIND = {\n")
	for _, k := range contract.Kinds {
		fmt.Fprintf(&b, "    KIND_%s: %s,\n", k.Name, pyCodeName(k.Code))
	}
	b.WriteString("}\n")
	return b.String()
}

func cCodeName(n string) string {
	if n == "OK" {
		return n
	}
	return "E_" + n
}

func pyCodeName(n string) string { return cCodeName(n) }

// camel turns NOT_FOUND into NotFound, INVALID_UTF8 into InvalidUTF8.
func camel(n string) string {
	initialisms := map[string]string{"OK": "OK", "UTF8": "UTF8", "JSON": "JSON", "NOMEM": "NoMem"}
	var b strings.Builder
	for _, w := range strings.Split(n, "_") {
		if s, ok := initialisms[w]; ok {
			b.WriteString(s)
			continue
		}
		b.WriteString(w[:1] + strings.ToLower(w[1:]))
	}
	return b.String()
}

func comma(i, n int) string {
	if i == n-1 {
		return ""
	}
	return ","
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// cDoc writes doc as an indented /** */ comment wrapped at 80 columns.
func cDoc(b *strings.Builder, doc string) {
	if doc == "" {
		return
	}
	lines := wrapLines(doc, 72)
	for i, l := range lines {
		switch {
		case i == 0 && len(lines) == 1:
			fmt.Fprintf(b, "    /** %s */\n", l)
		case i == 0:
			fmt.Fprintf(b, "    /** %s\n", l)
		case i == len(lines)-1:
			fmt.Fprintf(b, "     * %s */\n", l)
		default:
			fmt.Fprintf(b, "     * %s\n", l)
		}
	}
}

// wrap joins the lines of s wrapped at width with prefix before each line
// after the first.
func wrap(s, prefix string, width int) string {
	return strings.Join(wrapLines(s, width), "\n"+prefix)
}

func wrapLines(s string, width int) []string {
	var lines []string
	line := ""
	for _, w := range strings.Fields(s) {
		if line != "" && len(line)+1+len(w) > width {
			lines = append(lines, line)
			line = w
			continue
		}
		if line != "" {
			line += " "
		}
		line += w
	}
	return append(lines, line)
}

// syncFiles renders every file of the table under root. With write false it
// only compares; either way it returns the paths whose text differs from
// the table's (before writing them).
func syncFiles(root string, write bool) ([]string, error) {
	var stale []string
	texts := map[string]string{}
	var order []string
	for _, f := range files() {
		path := filepath.Join(root, f.path)
		old, ok := texts[path]
		if !ok {
			b, err := os.ReadFile(path)
			if err != nil && !(os.IsNotExist(err) && f.region == "") {
				return nil, fmt.Errorf("contract: %w", err)
			}
			old = string(b)
			order = append(order, path)
			texts[path+"\x00orig"] = old
		}
		next := f.text
		if f.region != "" {
			var err error
			if next, err = splice(old, f); err != nil {
				return nil, fmt.Errorf("contract: %w", err)
			}
		}
		texts[path] = next
	}
	for _, path := range order {
		if texts[path] == texts[path+"\x00orig"] {
			continue
		}
		stale = append(stale, path)
		if write {
			if err := os.WriteFile(path, []byte(texts[path]), 0o644); err != nil {
				return stale, fmt.Errorf("contract: %w", err)
			}
		}
	}
	return stale, nil
}
