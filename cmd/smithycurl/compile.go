package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/smithycurl/smithycurl/model"
)

// compile loads and checks a model, as validate does, and writes it as a
// snapshot (model.MarshalSnapshot) that every --model, the C loader and
// Python's load_model read back without parsing or validating it again.
func compile(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := newFlags("compile", "compile [-v] -o FILE PATH...", stderr)
	var verbose bool
	verboseFlag(fs, &verbose)
	out := fs.String("o", "", "the snapshot file to write (required)")
	if fs.Parse(args) != nil {
		return exitUsage
	}
	if *out == "" {
		fmt.Fprintln(stderr, "smithycurl: compile needs -o FILE")
		return exitUsage
	}
	m, ok := loadModel(ctx, fs.Args(), verbose, stderr)
	if !ok || !validEndpointRules(m, stderr) {
		return exitUsage
	}
	if err := writeFileAtomic(*out, m.MarshalSnapshot()); err != nil {
		fmt.Fprintf(stderr, "smithycurl: %v\n", err)
		return exitUsage
	}
	fmt.Fprintf(stdout, "ok: %s: %d shapes, %d services (snapshot format %d)\n", *out, m.NumShapes(), len(m.Services()), model.SnapshotVersion)
	return 0
}

// writeFileAtomic writes data to a new file beside path and renames it over
// path, so that a reader never sees a half-written snapshot.
func writeFileAtomic(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return fmt.Errorf("compile: %w", err)
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("compile: writing %s: %w", path, err)
	}
	return nil
}
