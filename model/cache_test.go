package model

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/smithycurl/smithycurl/testing/shareddata"
)

// cachedLoader is a loader of paths with the disk cache in dir.
func cachedLoader(t testing.TB, dir string, paths ...string) *Loader {
	t.Helper()
	l := NewLoader()
	l.SetCache(CacheOn)
	l.SetCacheDir(dir)
	for _, p := range paths {
		if err := l.AddPath(p); err != nil {
			t.Fatal(err)
		}
	}
	return l
}

// forget drops key from the process's cache, so that the next load of it
// reads the disk cache.
func (c *memCache) forget(key [32]byte) { c.Remove(key) }

func sameEvents(a, b []Event) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.DeepEqual(a, b))
}

// cacheTestModels are every model of the shared models folder (not
// aws-models) and the repository's IDL models.
func cacheTestModels(t *testing.T) []string {
	var paths []string
	for _, dir := range []string{"aws", "aws-large"} {
		found, err := filepath.Glob(filepath.Join(shareddata.Path(t, "models", dir), "*.json"))
		if err != nil || len(found) == 0 {
			t.Fatalf("no models in %s: %v", dir, err)
		}
		paths = append(paths, found...)
	}
	return append(paths, "../examples/todo", "../examples/httpbin", "../testing/servers/kvserver/kv.smithy")
}

// TestCacheEntryIsTheModel: for every model, what the disk cache gives
// another process (the entry read back) and what the process's cache gives
// are the model a load without the cache gives, events included.
func TestCacheEntryIsTheModel(t *testing.T) {
	dir := t.TempDir()
	for _, path := range cacheTestModels(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			fresh := NewLoader()
			fresh.SetCache(CacheOff)
			if err := fresh.AddPath(path); err != nil {
				t.Fatal(err)
			}
			want, wantEvents, err := fresh.Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			// The entry a load writes (TestCacheDamagedEntry tests that
			// loads write it), read back as another process would.
			key := cachedLoader(t, dir, path).cacheKey()
			if err := writeCacheEntry(dir, key, want, wantEvents); err != nil {
				t.Fatal(err)
			}
			processCache.forget(key)
			got, events, err := cachedLoader(t, dir, path).Load(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if got == want {
				t.Fatal("the entry was not read from the disk cache")
			}
			if !sameEvents(events, wantEvents) {
				t.Fatalf("events %v, want %v", events, wantEvents)
			}
			checkSameModel(t, got, want)
			again, _, err := cachedLoader(t, dir, path).Load(context.Background())
			if err != nil || again != got {
				t.Fatalf("the second load in the process did not reuse the model: %v", err)
			}
		})
	}
}

// TestCacheSeesChanges: a file changed in place, with its size kept and
// its modification time set back, is loaded again, not taken from the
// cache; so is the same text under another name.
func TestCacheSeesChanges(t *testing.T) {
	dir, cache := t.TempDir(), t.TempDir()
	path := filepath.Join(dir, "m.smithy")
	write := func(name string, mtime time.Time) {
		src := "$version: \"2\"\nnamespace ex\nstructure " + name + " {}\n"
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(path, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	load := func(path string) *Model {
		m, _, err := cachedLoader(t, cache, path).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	old := time.Now().Add(-time.Hour)
	write("Aaa", old)
	a := load(path)
	if load(path) != a {
		t.Fatal("the second load did not reuse the model")
	}
	write("Bbb", old) // same size, same modification time
	b := load(path)
	if _, ok := b.Shape("ex#Bbb"); !ok {
		t.Fatal("the changed file was taken from the cache")
	}
	write("Ccc", time.Now()) // recent: hashed at every load
	if _, ok := load(path).Shape("ex#Ccc"); !ok {
		t.Fatal("the changed file was taken from the cache")
	}
	other := filepath.Join(dir, "n.smithy")
	data, _ := os.ReadFile(path)
	if err := os.WriteFile(other, data, 0o644); err != nil {
		t.Fatal(err)
	}
	if s, _ := load(other).Shape("ex#Ccc"); s == nil || s.Loc.File != other {
		t.Fatalf("the same text under another name: %+v", s)
	}
}

// TestCacheDamagedEntry: a truncated, damaged or foreign entry (another
// model's, another format's, not an entry) is ignored and written again;
// the load gives the right model.
func TestCacheDamagedEntry(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path, other := "../testing/servers/kvserver/kv.smithy", "../examples/todo"
	want, err := loadUncached(path)
	if err != nil {
		t.Fatal(err)
	}
	l := cachedLoader(t, dir, path)
	key := l.cacheKey()
	processCache.forget(key)
	if _, _, err := l.Load(ctx); err != nil {
		t.Fatal(err)
	}
	entry := cacheEntryPath(dir, key)
	good, err := os.ReadFile(entry)
	if err != nil {
		t.Fatal(err)
	}
	ol := cachedLoader(t, dir, other)
	processCache.forget(ol.cacheKey())
	if _, _, err := ol.Load(ctx); err != nil {
		t.Fatal(err)
	}
	foreign, err := os.ReadFile(cacheEntryPath(dir, ol.cacheKey()))
	if err != nil {
		t.Fatal(err)
	}
	flip := func(i int) []byte {
		b := bytes.Clone(good)
		b[i] ^= 0x55
		return b
	}
	otherVersion := bytes.Clone(good)
	otherVersion[len(cacheEntryMagic)]++
	cases := map[string][]byte{
		"empty": nil, "header only": good[:cacheHeaderSize], "truncated": good[:len(good)/2],
		"one byte short": good[:len(good)-1], "longer": append(bytes.Clone(good), 0),
		"magic": flip(0), "key": flip(len(cacheEntryMagic) + 4), "checksum": flip(cacheHeaderSize - 9),
		"body": flip(cacheHeaderSize + 3), "last byte": flip(len(good) - 1),
		"another model's entry": foreign, "another format version": otherVersion,
		"not an entry": []byte("hello"), "a bare snapshot": want.MarshalSnapshot(),
	}
	for name, data := range cases {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(entry, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if _, _, ok := readCacheEntry(dir, key); ok {
				t.Fatal("the entry was used")
			}
			processCache.forget(key)
			m, _, err := cachedLoader(t, dir, path).Load(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if d := Diff(m, want); len(d) > 0 {
				t.Fatalf("wrong model: %v", d)
			}
			if got, _ := os.ReadFile(entry); !bytes.Equal(got, good) {
				t.Fatal("the entry was not written again")
			}
		})
	}
}

// TestCacheConcurrent: loads of one model from several goroutines at once,
// each writing the disk entry, give the model; readers racing the writers
// see a whole entry or none. Run under -race.
func TestCacheConcurrent(t *testing.T) {
	dir := t.TempDir()
	path := "../examples/todo"
	want, err := loadUncached(path)
	if err != nil {
		t.Fatal(err)
	}
	key := cachedLoader(t, dir, path).cacheKey()
	var wg sync.WaitGroup
	errs := make(chan string, 64)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 5; i++ {
				l := NewLoader()
				l.SetCache(CacheOn)
				l.SetCacheDir(dir)
				if err := l.AddPath(path); err != nil {
					errs <- err.Error()
					return
				}
				m, _, err := l.Load(context.Background())
				if err != nil || len(Diff(m, want)) > 0 {
					errs <- "a wrong model"
					return
				}
				if err := writeCacheEntry(dir, key, m, nil); err != nil {
					errs <- err.Error()
					return
				}
				if m, _, ok := readCacheEntry(dir, key); !ok || len(Diff(m, want)) > 0 {
					errs <- "an entry that cannot be read"
					return
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	left, _ := filepath.Glob(filepath.Join(dir, ".tmp-*"))
	if len(left) > 0 {
		t.Fatalf("temporary files left: %v", left)
	}
}

// TestCacheModes: SMITHYCURL_MODEL_CACHE=off reads the file every time and
// writes no entry; =memory reuses the model without an entry; SetCache
// wins over the variable. A load that fails is not cached.
func TestCacheModes(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	src := filepath.Join(t.TempDir(), "m.smithy")
	if err := os.WriteFile(src, []byte("$version: \"2\"\nnamespace ex\nstructure Modes {}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	load := func(mode CacheMode) *Model {
		l := cachedLoader(t, dir, src)
		l.SetCache(mode)
		m, _, err := l.Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	entries := func() int {
		found, _ := filepath.Glob(filepath.Join(dir, "*"+cacheEntrySuffix))
		return len(found)
	}
	t.Setenv(CacheEnv, "off")
	if load(CacheDefault) == load(CacheDefault) || entries() != 0 {
		t.Fatal("off: the model was cached")
	}
	t.Setenv(CacheEnv, "memory")
	if m := load(CacheDefault); m != load(CacheDefault) || entries() != 0 {
		t.Fatal("memory: the model was not reused, or an entry was written")
	}
	processCache.forget(cachedLoader(t, dir, src).cacheKey())
	if load(CacheOn); entries() != 1 {
		t.Fatal("SetCache(CacheOn) under memory: no entry written")
	}
	bad := filepath.Join(t.TempDir(), "bad.smithy")
	if err := os.WriteFile(bad, []byte("$version: \"2\"\nnamespace ex\nstructure X { a: Nope }\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 2; i++ {
		if _, _, err := cachedLoader(t, dir, bad).Load(ctx); err == nil || !strings.Contains(err.Error(), "Nope") {
			t.Fatalf("load %d of a bad model: %v", i, err)
		}
	}
	if entries() != 1 {
		t.Fatal("a failed load was written to the cache")
	}
}

// BenchmarkCachedLoad loads DynamoDB's JSON AST (1.1 MB) from its file:
// from the process's cache (what a next client costs), from the disk
// cache's entry (the first client of a later process), and without the
// cache.
func BenchmarkCachedLoad(b *testing.B) {
	dir := b.TempDir()
	path := filepath.Join(shareddata.Path(b, "models", "aws"), "dynamodb.json")
	load := func(b *testing.B, mode CacheMode, forget bool) {
		for b.Loop() {
			l := cachedLoader(b, dir, path)
			l.SetCache(mode)
			if forget {
				processCache.forget(l.cacheKey())
			}
			if _, _, err := l.Load(context.Background()); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("process", func(b *testing.B) { load(b, CacheOn, false) })
	b.Run("disk", func(b *testing.B) { load(b, CacheOn, true) })
	b.Run("none", func(b *testing.B) { load(b, CacheOff, false) })
}

// TestCacheLazyFileChanged: a file the cache knows is not read by AddPath;
// when the model is no longer cached and the file changed before Load, the
// load is an error saying so, not a model of text it did not hash.
func TestCacheLazyFileChanged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.smithy")
	write := func(src string) {
		if err := os.WriteFile(path, []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
		old := time.Now().Add(-time.Hour)
		if err := os.Chtimes(path, old, old); err != nil {
			t.Fatal(err)
		}
	}
	write("$version: \"2\"\nnamespace ex\nstructure Lazy {}\n")
	l := cachedLoader(t, t.TempDir(), path)
	l.SetCache(CacheMemory)
	if _, _, err := l.Load(context.Background()); err != nil {
		t.Fatal(err)
	}
	l = cachedLoader(t, t.TempDir(), path)
	l.SetCache(CacheMemory)
	if !l.sources[0].lazy {
		t.Fatal("a known file was read again")
	}
	processCache.forget(l.cacheKey())
	write("$version: \"2\"\nnamespace ex\nstructure Lazz {}\n")
	if _, _, err := l.Load(context.Background()); err == nil || !strings.Contains(err.Error(), "changed while it was loaded") {
		t.Fatalf("got %v", err)
	}
}

// TestMemCacheBound: the process's cache keeps its last max models, within
// its bytes, and always the last one.
func TestMemCacheBound(t *testing.T) {
	c := newMemCache(2, 100)
	models := []*Model{{}, {}, {}, {}}
	for i, m := range models[:3] {
		c.put([32]byte{byte(i)}, m, nil, 10)
	}
	if _, _, ok := c.get([32]byte{0}); ok {
		t.Fatal("the least recently used model was kept")
	}
	for i := 1; i < 3; i++ {
		if m, _, ok := c.get([32]byte{byte(i)}); !ok || m != models[i] {
			t.Fatalf("model %d was dropped", i)
		}
	}
	c.put([32]byte{3}, models[3], nil, 500) // over the bytes alone: kept alone
	if c.Len() != 1 || c.Weight() != 500 {
		t.Fatalf("%d models of %d bytes kept", c.Len(), c.Weight())
	}
	if m, _, ok := c.get([32]byte{3}); !ok || m != models[3] {
		t.Fatal("the last model was dropped")
	}
}
