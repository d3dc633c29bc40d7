package main

import (
	"fmt"
	"strings"

	"github.com/smithycurl/smithycurl/internal/contract"
)

// setterPrefixes begin every C setter; what follows names its SCX_OPT_*.
var setterPrefixes = []string{"smithycurl_options_set_", "smithycurl_options_add_"}

// scxName is the SCX_OPT_* name of a C setter: SCX_OPT_TIMEOUT_MS for
// smithycurl_options_set_timeout_ms.
func scxName(setter string) string {
	for _, p := range setterPrefixes {
		if s, ok := strings.CutPrefix(setter, p); ok {
			return "SCX_OPT_" + strings.ToUpper(s)
		}
	}
	panic("contract: C setter " + setter + " is not smithycurl_options_set_* or _add_*")
}

// scxSetters are the C setters that export's switch dispatches on, once
// each, in table order (callbacks have their own scx_ function).
func scxSetters() []string {
	var out []string
	seen := map[string]bool{}
	for _, o := range contract.ClientOptions {
		if o.C == "" || o.Type == contract.Callback || seen[o.C] {
			continue
		}
		seen[o.C] = true
		out = append(out, o.C)
	}
	return out
}

func scxOptions() string {
	var b strings.Builder
	b.WriteString("// What scx_options_set_int and scx_options_set_str set: one number per C\n// setter (smithycurl_options_set_NAME or _add_NAME is SCX_OPT_NAME).\nenum {\n")
	for i, s := range scxSetters() {
		if i == 0 {
			fmt.Fprintf(&b, "    %s = 1,\n", scxName(s))
		} else {
			fmt.Fprintf(&b, "    %s,\n", scxName(s))
		}
	}
	b.WriteString("};\n")
	return b.String()
}

func pythonOptions() string {
	var b strings.Builder
	b.WriteString("\n#: Model.client's options: keyword -> (its C setter, named as _lib declares\n")
	b.WriteString("#: it, without smithycurl_; the keyword's default). The keywords of one\n")
	b.WriteString("#: setter go to one call, in this order.\n")
	b.WriteString("CLIENT_OPTIONS: dict[str, tuple[str, object]] = {\n")
	for _, o := range contract.ClientOptions {
		if o.Python == "" {
			continue
		}
		fmt.Fprintf(&b, "    %q: (%q, %s),\n", o.Python, strings.TrimPrefix(o.C, "smithycurl_"), o.PyValue)
	}
	b.WriteString("}\n")
	return b.String()
}

func readmeOptions() string {
	var b strings.Builder
	b.WriteString("\n| Go (`client.`) | C (`smithycurl_options_`) | Python (`Model.client`) | CLI (`call`, `wait`) | default | what it does |\n")
	b.WriteString("| --- | --- | --- | --- | --- | --- |\n")
	// code is names in code spans, "—" for none.
	code := func(names ...string) string {
		var out []string
		for _, n := range names {
			if n != "" {
				out = append(out, "`"+n+"`")
			}
		}
		if len(out) == 0 {
			return "—"
		}
		return strings.Join(out, ", ")
	}
	text := func(s string) string { return strings.NewReplacer("*", `\*`, "|", `\|`).Replace(s) }
	for _, o := range contract.ClientOptions {
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s |\n", code(o.Go), code(strings.TrimPrefix(o.C, "smithycurl_options_")),
			code(o.Python), code(strings.Fields(o.CLI)...), text(o.Default), text(o.Doc))
	}
	b.WriteString("\n")
	return b.String()
}
