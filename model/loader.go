package model

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unsafe"
)

// Loader collects model files (IDL and JSON AST) and assembles them into a
// Model. A Loader may be loaded, given more files, and loaded again.
type Loader struct {
	files []*draftFile
}

// NewLoader returns an empty loader.
func NewLoader() *Loader { return &Loader{} }

// AddPath adds a model file, or every .smithy and .json file under a directory.
func (l *Loader) AddPath(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("model path: %w", err)
	}
	if !info.IsDir() {
		return l.addFile(path)
	}
	var files []string
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() && (strings.HasSuffix(p, ".smithy") || strings.HasSuffix(p, ".json")) {
			files = append(files, p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("model directory %s: %w", path, err)
	}
	sort.Strings(files)
	for _, f := range files {
		if err := l.addFile(f); err != nil {
			return err
		}
	}
	return nil
}

func (l *Loader) addFile(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("model file: %w", err)
	}
	// The buffer is ours alone and never written again: the model's strings
	// may point into it instead of into a copy.
	l.add(path, unsafe.String(unsafe.SliceData(src), len(src)))
	return nil
}

// AddSource adds model text under a name used in error locations. The text is
// read as a JSON AST when name ends in .json or the text starts with '{',
// else as Smithy IDL. src is copied: the caller may reuse it.
func (l *Loader) AddSource(name string, src []byte) { l.add(name, string(src)) }

// add reads one source, whose text nobody changes afterwards.
func (l *Loader) add(name string, text string) {
	if strings.HasSuffix(name, ".json") || strings.HasPrefix(strings.TrimLeft(text, " \t\r\n"), "{") {
		l.files = append(l.files, parseAST(name, text))
		return
	}
	l.files = append(l.files, parseIDLText(name, text))
}

// Load assembles and validates the files added so far. It returns the model
// and every event found; err is a *LoadError when any event is an ERROR or
// DANGER, and then the model must not be used.
func (l *Loader) Load(ctx context.Context) (*Model, []Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	m, events := assemble(l.files)
	var bad []Event
	for _, e := range events {
		if e.Severity >= SeverityDanger {
			bad = append(bad, e)
		}
	}
	if len(bad) > 0 {
		return nil, events, &LoadError{Events: bad}
	}
	return m, events, nil
}

// LoadPaths loads the model files and directories at paths.
func LoadPaths(ctx context.Context, paths ...string) (*Model, error) {
	l := NewLoader()
	for _, p := range paths {
		if err := l.AddPath(p); err != nil {
			return nil, err
		}
	}
	m, _, err := l.Load(ctx)
	return m, err
}
