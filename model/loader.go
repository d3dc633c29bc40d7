package model

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"unsafe"
)

// MaxFileBytes is the largest model file or source the loader reads: 256 MiB,
// far above the largest real models (the AWS S3 and SageMaker JSON ASTs are
// 2 to 4 MB). A larger file, or an endless one such as /dev/zero, is an
// error naming it (errors.Is(err, ErrTooLarge)).
const MaxFileBytes = 256 << 20

// ErrTooLarge is wrapped by the errors of files over MaxFileBytes.
var ErrTooLarge = errors.New("over the size limit of a model file")

// Loader collects model files (IDL and JSON AST) and assembles them into a
// Model. A Loader may be loaded, given more files, and loaded again.
type Loader struct {
	// sources are the inputs in the order added, parsed at the next Load
	// that does not find the model in the cache (cache.go).
	sources []*source
	// snapshots are the compiled models added (snapshot.go): a snapshot is
	// a whole model, loaded alone.
	snapshots []namedSource
	// maxBytes is MaxFileBytes unless a test sets it lower.
	maxBytes int64
	// cache and cacheDir are set by SetCache and SetCacheDir.
	cache    CacheMode
	cacheDir string
}

// sourceKind says how a source is parsed.
type sourceKind uint8

const (
	sourceModel    sourceKind = iota // a file or source named to the loader: IDL or JSON AST
	sourceDirJSON                    // a .json file found in a directory: skipped unless a JSON AST
	sourceSnapshot                   // a compiled model (also in snapshots)
	sourceNote                       // an event of the loader itself; draft is set from the start
)

// source is one input of a Loader.
type source struct {
	name, text string
	kind       sourceKind
	// stamp identifies the file the text was read from (zero for AddSource),
	// so that the cache can skip hashing a file it has hashed before.
	stamp fileStamp
	// lazy: the file's text is not read yet; the cache knew its stamp and
	// content hash, sum (cache.go).
	lazy bool
	sum  [32]byte
	// draft is the parsed file, nil until parsed.
	draft *draftFile
}

// NewLoader returns an empty loader.
func NewLoader() *Loader { return &Loader{maxBytes: MaxFileBytes} }

// AddPath adds a model file or a directory.
//
// A file named here is always read as a model (IDL, or a JSON AST when it
// ends in .json), except a smithy-build.json (by that name, or a .json with
// "sources" or "imports" and no "smithy" key), which adds its sources and
// imports (see addBuildFile). A directory that holds a smithy-build.json at
// its top is read through it; any other directory adds every .smithy file
// and every .json file that is a JSON AST (an object with a top-level
// "smithy" key) under it, in name order, and skips other files: other
// JSON files (package.json, tsconfig.json), FIFOs, devices and sockets.
func (l *Loader) AddPath(path string) error {
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("model path: %w", err)
	}
	if info.IsDir() {
		cfg := filepath.Join(path, buildFileName)
		if ci, err := os.Stat(cfg); err == nil && ci.Mode().IsRegular() {
			return l.addBuildFile(cfg)
		}
		return l.addDir(path)
	}
	src, err := l.readModel(path)
	if err != nil {
		return err
	}
	if !src.lazy && strings.HasSuffix(path, ".json") && isBuildFile(path, src.text) {
		return l.addBuildFile(path)
	}
	l.add(src)
	return nil
}

// addDir adds the model files under dir (see AddPath).
func (l *Loader) addDir(dir string) error {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !(strings.HasSuffix(p, ".smithy") || strings.HasSuffix(p, ".json")) {
			return nil
		}
		mode := d.Type()
		if mode&fs.ModeSymlink != 0 {
			info, err := os.Stat(p)
			if err != nil {
				return err
			}
			mode = info.Mode().Type()
		}
		if mode.IsRegular() {
			files = append(files, p)
		} else {
			l.note(SeverityNote, p, "Skipped `%s`: not a regular file", p)
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("model directory %s: %w", dir, err)
	}
	sort.Strings(files)
	for _, f := range files {
		src, err := l.readModel(f)
		if err != nil {
			return err
		}
		if !strings.HasSuffix(f, ".json") {
			l.add(src)
			continue
		}
		src.kind = sourceDirJSON
		l.sources = append(l.sources, src)
	}
	return nil
}

// parseDirJSON reads a .json file found in a directory: a JSON AST, or a
// note that it was skipped.
func parseDirJSON(f, text string) *draftFile {
	if ast := readASTFast(f, text); ast != nil {
		return ast
	}
	root, perr := ParseJSONNode(text)
	switch {
	case perr != nil && !smithyKey().MatchString(text):
		return noteFile(SeverityWarning, f, "Skipped `%s`: not valid JSON and not a Smithy JSON AST (%v)", f, perr)
	case perr == nil && !isASTRoot(root):
		return noteFile(SeverityNote, f, "Skipped `%s`: a JSON file without a top-level `smithy` key is not a Smithy model", f)
	default:
		return readAST(f, text, root, perr)
	}
}

// smithyKey finds a "smithy" key in JSON text that does not parse: a broken
// JSON AST is reported, not skipped (compiled when first needed).
var smithyKey = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`"smithy"\s*:`) })

func isASTRoot(root Node) bool {
	if root.Kind() != ObjectNode {
		return false
	}
	_, ok := root.Get("smithy")
	return ok
}

// read reads a model file, at most l.maxBytes of it, and the file's stamp
// (zero when it is not a regular file).
func (l *Loader) read(path string) (string, fileStamp, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", fileStamp{}, fmt.Errorf("model file: %w", err)
	}
	defer f.Close()
	tooLarge := func() error { return fmt.Errorf("model file %s: %w (%d MiB)", path, ErrTooLarge, l.maxBytes>>20) }
	size := int64(512)
	var stamp fileStamp
	if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
		if info.Size() > l.maxBytes {
			return "", fileStamp{}, tooLarge()
		}
		size = info.Size() + 1 // one more byte sees the end without growing
		stamp = stampOf(info)
	}
	// Like os.ReadFile, sized for a regular file, but bounded.
	src := make([]byte, 0, size)
	for {
		if len(src) == cap(src) {
			src = append(src, 0)[:len(src)]
		}
		n, err := f.Read(src[len(src):cap(src)])
		src = src[:len(src)+n]
		if int64(len(src)) > l.maxBytes {
			return "", fileStamp{}, tooLarge()
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", fileStamp{}, fmt.Errorf("model file: %w", err)
		}
	}
	if stamp.size != int64(len(src)) {
		stamp = fileStamp{} // changed while read: hash it
	}
	// The buffer is ours alone and never written again: the model's strings
	// may point into it instead of into a copy.
	return unsafe.String(unsafe.SliceData(src), len(src)), stamp, nil
}

// note records an event of the loader itself (a skipped file, a build file
// setting that is not supported), reported by the next Load.
func (l *Loader) note(sev Severity, path string, format string, args ...any) {
	f := noteFile(sev, path, format, args...)
	l.sources = append(l.sources, &source{name: path, text: f.events[0].Message, kind: sourceNote, draft: f})
}

// noteFile is a file that holds only an event of the loader itself.
func noteFile(sev Severity, path string, format string, args ...any) *draftFile {
	return &draftFile{path: path, version: "2.0",
		events: []Event{{Severity: sev, ID: "Model", Loc: SourceLocation{File: path}, Message: sprintf(format, args...)}}}
}

// AddSource adds model text under a name used in error locations. The text is
// read as a JSON AST when name ends in .json or the text starts with '{',
// else as Smithy IDL. src is copied: the caller may reuse it. Text over
// MaxFileBytes is not read: the next Load reports it as an error.
func (l *Loader) AddSource(name string, src []byte) {
	if int64(len(src)) > l.maxBytes {
		l.note(SeverityError, name, "Model source `%s` is %d bytes, over the limit of %d MiB", name, len(src), l.maxBytes>>20)
		return
	}
	l.add(&source{name: name, text: string(src)})
}

// namedSource is a source's text and the name errors give it.
type namedSource struct{ name, text string }

// add adds a model source (kind sourceModel), whose text nobody changes
// afterwards.
func (l *Loader) add(s *source) {
	if !s.lazy && strings.HasPrefix(s.text, snapshotMagic) {
		s.kind = sourceSnapshot
		l.snapshots = append(l.snapshots, namedSource{s.name, s.text})
	}
	l.sources = append(l.sources, s)
}

// readModel reads the model file path; a file the cache knows by its stamp
// as a model (no snapshot, no build file) is read only when a Load parses
// it (see parse).
func (l *Loader) readModel(path string) (*source, error) {
	if l.cacheMode() != CacheOff {
		if info, err := os.Stat(path); err == nil && info.Mode().IsRegular() && info.Size() <= l.maxBytes {
			stamp := stampOf(info)
			if sum, ok := contentSums.knownModel(path, stamp); ok {
				return &source{name: path, stamp: stamp, lazy: true, sum: sum}, nil
			}
		}
	}
	text, stamp, err := l.read(path)
	if err != nil {
		return nil, err
	}
	return &source{name: path, text: text, stamp: stamp}, nil
}

// parse reads the sources not read yet and returns every file read.
func (l *Loader) parse() []*draftFile {
	files := make([]*draftFile, 0, len(l.sources))
	for _, s := range l.sources {
		if s.draft == nil && s.lazy {
			text, stamp, err := l.read(s.name)
			switch {
			case err != nil:
				s.draft = noteFile(SeverityError, s.name, "Cannot read model file `%s`: %v", s.name, err)
			case stamp != s.stamp:
				s.draft = noteFile(SeverityError, s.name, "Model file `%s` changed while it was loaded: load it again", s.name)
			default:
				s.text, s.lazy = text, false
			}
		}
		if s.draft == nil {
			switch {
			case s.kind == sourceSnapshot:
				continue
			case s.kind == sourceDirJSON:
				s.draft = parseDirJSON(s.name, s.text)
			case strings.HasSuffix(s.name, ".json") || strings.HasPrefix(strings.TrimLeft(s.text, " \t\r\n"), "{"):
				s.draft = parseAST(s.name, s.text)
			default:
				s.draft = parseIDLText(s.name, s.text)
			}
		}
		files = append(files, s.draft)
	}
	return files
}

// Load assembles and validates the files added so far. It returns the model
// and every event found; err is a *LoadError when any event is an ERROR or
// DANGER, and then the model must not be used. A model loaded before, in
// this process or (from a snapshot) in another one, may be reused: see
// SetCache.
func (l *Loader) Load(ctx context.Context) (*Model, []Event, error) {
	if err := ctx.Err(); err != nil {
		return nil, nil, err
	}
	return l.loadCached()
}

// loadFresh parses, assembles and validates the sources, or reads the
// snapshot, without the cache.
func (l *Loader) loadFresh() (*Model, []Event, error) {
	files := l.parse()
	if len(l.snapshots) > 0 {
		return l.loadSnapshot(files)
	}
	m, events := assemble(files)
	if bad := failures(events); len(bad) > 0 {
		return nil, events, &LoadError{Events: bad}
	}
	return m, events, nil
}

// failures returns the ERROR and DANGER events, which make a load fail.
func failures(events []Event) []Event {
	var bad []Event
	for _, e := range events {
		if e.Severity >= SeverityDanger {
			bad = append(bad, e)
		}
	}
	return bad
}

// loadSnapshot loads the one snapshot added, which cannot be combined with
// other model files: it is a whole model, already assembled and validated.
func (l *Loader) loadSnapshot(files []*draftFile) (*Model, []Event, error) {
	first := l.snapshots[0]
	fail := func(format string, args ...any) (*Model, []Event, error) {
		events := []Event{{Severity: SeverityError, ID: "Model", Loc: SourceLocation{File: first.name}, Message: sprintf(format, args...)}}
		return nil, events, &LoadError{Events: events}
	}
	var events []Event
	others := len(l.snapshots) > 1
	for _, f := range files {
		// Files without definitions (notes of the loader, empty files)
		// do not conflict.
		others = others || len(f.shapes)+len(f.applies)+len(f.metadata) > 0
		events = append(events, f.events...)
	}
	if others {
		return fail("The model snapshot `%s` is a whole model: it cannot be loaded with other model files or snapshots", first.name)
	}
	if bad := failures(events); len(bad) > 0 {
		return nil, events, &LoadError{Events: bad}
	}
	m, err := unmarshalSnapshot(first.name, first.text)
	if err != nil {
		return fail("Cannot read the model snapshot: %s", err.(*SnapshotError).Msg)
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
