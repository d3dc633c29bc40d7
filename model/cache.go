package model

import (
	"crypto/sha256"
	"encoding/binary"
	"os"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/smithycurl/smithycurl/internal/contract"
	"github.com/smithycurl/smithycurl/internal/lru"
)

// The model cache. Loading the same sources again reuses what was loaded:
//
//   - in this process: the last models loaded (memCacheEntries,
//     memCacheBytes), kept in a process-wide LRU cache keyed by the
//     sources' names and contents;
//   - across processes: a model assembled from model files (JSON AST, IDL)
//     is written as a snapshot to the user's cache directory
//     ($XDG_CACHE_HOME/smithycurl/models, else ~/.cache/smithycurl/models),
//     keyed by the same key, and a later process reads that instead of
//     parsing and assembling (diskcache.go).
//
// The key is a SHA-256 hash of the library's version and build, the snapshot
// format version and every source's name, kind and content hash, so a
// changed file is a new key, never stale data. A file's content hash is
// remembered under its stamp (device, inode, size, modification and change
// time): a file whose stamp is unchanged since it was hashed, and whose
// modification time was over racyWindow before that, is not hashed again.
// Loads that fail are never cached.

// CacheMode says which caches a Loader uses.
type CacheMode uint8

const (
	// CacheDefault is the mode SMITHYCURL_MODEL_CACHE gives (see
	// ParseCacheMode); CacheOn when it is unset or not a mode.
	CacheDefault CacheMode = iota
	// CacheOff reads and assembles the sources every time.
	CacheOff
	// CacheMemory reuses models loaded in this process only.
	CacheMemory
	// CacheOn reuses models loaded in this process and snapshots that
	// earlier loads wrote to the cache directory.
	CacheOn
)

// CacheEnv is the environment variable CacheDefault reads.
const CacheEnv = "SMITHYCURL_MODEL_CACHE"

// SetCache sets which caches Load uses (CacheDefault unless set).
func (l *Loader) SetCache(mode CacheMode) { l.cache = mode }

// SetCacheDir sets the folder of the snapshots CacheOn reads and writes,
// instead of the user's cache directory (see diskcache.go).
func (l *Loader) SetCacheDir(dir string) { l.cacheDir = dir }

// ParseCacheMode reads a mode as SMITHYCURL_MODEL_CACHE and the C and
// Python options write it: "" (CacheDefault), "on", "memory", "off" (or
// "0", "false", "no"); ok is false for anything else.
func ParseCacheMode(s string) (mode CacheMode, ok bool) {
	switch s {
	case "":
		return CacheDefault, true
	case "on":
		return CacheOn, true
	case "memory":
		return CacheMemory, true
	case "off", "0", "false", "no":
		return CacheOff, true
	}
	return CacheDefault, false
}

// cacheMode is the loader's mode with CacheDefault resolved: the
// variable's mode, CacheOn when it is unset or not a mode.
func (l *Loader) cacheMode() CacheMode {
	if l.cache != CacheDefault {
		return l.cache
	}
	if mode, _ := ParseCacheMode(os.Getenv(CacheEnv)); mode != CacheDefault {
		return mode
	}
	return CacheOn
}

// loadCached is Load through the caches of the loader's mode.
func (l *Loader) loadCached() (*Model, []Event, error) {
	mode := l.cacheMode()
	if mode == CacheOff || len(l.sources) == 0 {
		return l.loadFresh()
	}
	key := l.cacheKey()
	if m, events, ok := processCache.get(key); ok {
		return m, events, nil
	}
	dir := ""
	if mode == CacheOn && len(l.snapshots) == 0 {
		dir = l.diskCacheDir()
	}
	if dir != "" {
		if m, events, ok := readCacheEntry(dir, key); ok {
			processCache.put(key, m, events, l.sourceBytes())
			return m, events, nil
		}
	}
	m, events, err := l.loadFresh()
	if err != nil {
		return m, events, err
	}
	processCache.put(key, m, events, l.sourceBytes())
	if dir != "" {
		// A cache that cannot be written is no error of the load.
		_ = writeCacheEntry(dir, key, m, events)
	}
	return m, events, nil
}

// cacheKey is the key of the loader's sources (see above).
func (l *Loader) cacheKey() [32]byte {
	h := sha256.New()
	h.Write([]byte(buildID()))
	var b []byte
	for _, s := range l.sources {
		sum := contentSums.sum(s)
		b = append(b[:0], byte(s.kind))
		b = binary.AppendUvarint(b, uint64(len(s.name)))
		b = append(b, s.name...)
		b = append(b, sum[:]...)
		h.Write(b)
	}
	var key [32]byte
	h.Sum(key[:0])
	return key
}

// buildID names what decides a load's result besides its sources: the
// library's version, its build's revision when the build has one, and the
// snapshot and cache entry format versions.
var buildID = sync.OnceValue(func() string {
	id := sprintf("smithycurl %s snapshot %d cache %d", contract.VersionString(), SnapshotVersion, cacheEntryVersion)
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, s := range info.Settings {
			if s.Key == "vcs.revision" || s.Key == "vcs.time" || s.Key == "vcs.modified" {
				id += " " + s.Key + "=" + s.Value
			}
		}
	}
	return id
})

// ---- content hashes ----

// fileStamp identifies a file's content (stamp_linux.go); zero when unknown.
type fileStamp struct {
	dev, ino     uint64
	size         int64
	mtime, ctime int64 // nanoseconds
}

// racyWindow: a file modified this close before it was hashed may be
// modified again without changing its stamp (coarse file system clocks), so
// its hash is not trusted until it is older (as git's "racily clean").
const racyWindow = 2 * time.Second

// maxSums bounds the remembered content hashes.
const maxSums = 1024

type sumEntry struct {
	stamp    fileStamp
	sum      [32]byte
	hashedAt int64 // nanoseconds
	// model: the text is a model's, read as a model source (no snapshot,
	// no build file), so that a loader may leave it unread (readModel).
	model bool
}

// trusted: the file's stamp is the one hashed, and was not racy then.
func (e sumEntry) trusted(stamp fileStamp) bool {
	return e.stamp == stamp && e.hashedAt-stamp.mtime > int64(racyWindow)
}

// sumTable remembers the content hashes of files by name and stamp.
type sumTable struct {
	mu   sync.Mutex
	sums map[string]sumEntry
}

var contentSums = &sumTable{sums: map[string]sumEntry{}}

// sum is the SHA-256 hash of s's text, remembered for a file with a stamp.
func (t *sumTable) sum(s *source) [32]byte {
	if s.lazy {
		return s.sum
	}
	if s.stamp == (fileStamp{}) {
		return sha256.Sum256([]byte(s.text))
	}
	t.mu.Lock()
	e, ok := t.sums[s.name]
	t.mu.Unlock()
	if ok && e.trusted(s.stamp) {
		return e.sum
	}
	e = sumEntry{stamp: s.stamp, sum: sha256.Sum256([]byte(s.text)), hashedAt: time.Now().UnixNano(),
		model: (s.kind == sourceModel || s.kind == sourceDirJSON) && !(strings.HasSuffix(s.name, ".json") && isBuildFile(s.name, s.text))}
	t.mu.Lock()
	if len(t.sums) >= maxSums {
		clear(t.sums)
	}
	t.sums[s.name] = e
	t.mu.Unlock()
	return e.sum
}

// knownModel returns the hash of the model file path when its stamp is
// trusted (see sum).
func (t *sumTable) knownModel(path string, stamp fileStamp) ([32]byte, bool) {
	if stamp == (fileStamp{}) {
		return [32]byte{}, false
	}
	t.mu.Lock()
	e, ok := t.sums[path]
	t.mu.Unlock()
	return e.sum, ok && e.model && e.trusted(stamp)
}

// ---- the models of this process ----

// memCacheEntries and memCacheBytes bound the models the process-wide
// cache keeps: at most 16, and at most 64 MiB of model text (a loaded model
// holds about three times its text), the most recent one always.
const (
	memCacheEntries = 16
	memCacheBytes   = 64 << 20
)

type memEntry struct {
	model  *Model
	events []Event
	size   int64 // the model's text, in bytes
}

// memCache is an LRU cache of loaded models, safe for concurrent use.
type memCache struct {
	lru.Cache[[32]byte, *memEntry]
}

var processCache = newMemCache(memCacheEntries, memCacheBytes)

func newMemCache(max int, maxBytes int64) *memCache {
	c := &memCache{}
	c.MaxEntries, c.MaxWeight = max, maxBytes
	c.Weigh = func(e *memEntry) int64 { return e.size }
	return c
}

// sourceBytes is the size of the loader's model text.
func (l *Loader) sourceBytes() int64 {
	var n int64
	for _, s := range l.sources {
		if s.lazy {
			n += s.stamp.size
		} else {
			n += int64(len(s.text))
		}
	}
	return n
}

// get returns the model of key and a copy of its events.
func (c *memCache) get(key [32]byte) (*Model, []Event, bool) {
	e, ok := c.Get(key)
	if !ok {
		return nil, nil, false
	}
	return e.model, append([]Event(nil), e.events...), true
}

// put adds the model of key; a model already there stays.
func (c *memCache) put(key [32]byte, m *Model, events []Event, size int64) {
	c.GetOrAdd(key, func() *memEntry {
		return &memEntry{model: m, events: append([]Event(nil), events...), size: size}
	})
}
