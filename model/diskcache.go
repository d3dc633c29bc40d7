package model

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unsafe"
)

// The snapshots of the model cache (cache.go), one file per key:
// DIR/<hex key>.scmodel, DIR being SetCacheDir's folder or
// $XDG_CACHE_HOME/smithycurl/models (~/.cache/smithycurl/models).
//
//	header  magic (8 bytes) | entry format version (u32 LE) | key (32 bytes) |
//	        CRC-32 of the body (u32 LE) | body length (u64 LE)
//	body    the load's events (uvarint count; each: severity byte, then
//	        uvarint-prefixed id, shape, file, message and uvarint line,
//	        column), then the model's snapshot (snapshot.go)
//
// A file is written to a temporary name in DIR and renamed into place, so a
// reader sees a whole entry or none, and concurrent writers of one key each
// rename a whole one. An entry that is truncated, damaged (the checksum,
// then the snapshot's own checks), of another format or of another key is
// ignored, and the load writes it again. DIR keeps at most maxDiskEntries
// entries: a write removes the least recently used beyond that.

const (
	cacheEntryMagic   = "\x93SCCACH\n"
	cacheEntryVersion = 2
	cacheHeaderSize   = len(cacheEntryMagic) + 4 + 32 + 4 + 8
	cacheEntrySuffix  = ".scmodel"
	// maxDiskEntries bounds the entries of a cache folder.
	maxDiskEntries = 64
	// touchAfter: a hit on an entry older than this renews its
	// modification time, which orders entries for removal.
	touchAfter = 24 * time.Hour
	// staleTemp: a temporary file this old is a writer's that died.
	staleTemp = time.Hour
)

// diskCacheDir is the folder of the loader's snapshots; "" when there is none.
func (l *Loader) diskCacheDir() string {
	if l.cacheDir != "" {
		return l.cacheDir
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(base, "smithycurl", "models")
}

func cacheEntryPath(dir string, key [32]byte) string {
	return filepath.Join(dir, hex.EncodeToString(key[:])+cacheEntrySuffix)
}

// readCacheEntry reads the entry of key; ok is false when there is none or
// it cannot be used.
func readCacheEntry(dir string, key [32]byte) (*Model, []Event, bool) {
	path := cacheEntryPath(dir, key)
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, false
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() < int64(cacheHeaderSize) || info.Size() > 4*MaxFileBytes {
		return nil, nil, false
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, false
	}
	m, events, err := decodeCacheEntry(path, key, data)
	if err != nil {
		return nil, nil, false
	}
	if time.Since(info.ModTime()) > touchAfter {
		now := time.Now()
		_ = os.Chtimes(path, now, now)
	}
	return m, events, true
}

// decodeCacheEntry reads an entry of key; the model's strings point into
// data, which the caller must never change afterwards.
func decodeCacheEntry(name string, key [32]byte, data []byte) (*Model, []Event, error) {
	h := data
	if len(h) < cacheHeaderSize || string(h[:len(cacheEntryMagic)]) != cacheEntryMagic {
		return nil, nil, errors.New("not a model cache entry")
	}
	h = h[len(cacheEntryMagic):]
	if binary.LittleEndian.Uint32(h) != cacheEntryVersion {
		return nil, nil, errors.New("another entry format version")
	}
	if !bytes.Equal(h[4:36], key[:]) {
		return nil, nil, errors.New("the entry of another key")
	}
	sum, size := binary.LittleEndian.Uint32(h[36:]), binary.LittleEndian.Uint64(h[40:])
	body := data[cacheHeaderSize:]
	if size != uint64(len(body)) {
		return nil, nil, errors.New("truncated")
	}
	if checksum(body) != sum {
		return nil, nil, errors.New("checksum mismatch")
	}
	r := snapReader{src: unsafe.String(unsafe.SliceData(body), len(body))}
	events := make([]Event, r.count())
	for i := range events {
		sev := Severity(r.byte())
		if sev > SeverityError {
			r.fail("an invalid severity")
		}
		events[i] = Event{Severity: sev, ID: r.rawStr(), Shape: ShapeID(r.rawStr()),
			Loc: SourceLocation{File: r.rawStr()}, Message: r.rawStr()}
		events[i].Loc.Line, events[i].Loc.Column = int32(uint32(r.uvarint())), int32(uint32(r.uvarint()))
	}
	if r.err != "" {
		return nil, nil, errors.New(r.err)
	}
	m, err := unmarshalSnapshot(name, r.src[r.i:])
	if err != nil {
		return nil, nil, err
	}
	return m, events, nil
}

// encodeCacheEntry writes the entry of key.
func encodeCacheEntry(key [32]byte, m *Model, events []Event) []byte {
	body := binary.AppendUvarint(nil, uint64(len(events)))
	str := func(s string) {
		body = binary.AppendUvarint(body, uint64(len(s)))
		body = append(body, s...)
	}
	for _, e := range events {
		body = append(body, byte(e.Severity))
		str(e.ID)
		str(string(e.Shape))
		str(e.Loc.File)
		str(e.Message)
		body = binary.AppendUvarint(body, uint64(uint32(e.Loc.Line)))
		body = binary.AppendUvarint(body, uint64(uint32(e.Loc.Column)))
	}
	body = append(body, m.MarshalSnapshot()...)
	out := make([]byte, 0, cacheHeaderSize+len(body))
	out = append(out, cacheEntryMagic...)
	out = binary.LittleEndian.AppendUint32(out, cacheEntryVersion)
	out = append(out, key[:]...)
	out = binary.LittleEndian.AppendUint32(out, checksum(body))
	out = binary.LittleEndian.AppendUint64(out, uint64(len(body)))
	return append(out, body...)
}

// writeCacheEntry writes the entry of key atomically (a temporary file
// renamed into place), then keeps the folder within its bound.
func writeCacheEntry(dir string, key [32]byte, m *Model, events []Event) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("model cache %s: %w", dir, err)
	}
	tmp, err := os.CreateTemp(dir, ".tmp-*")
	if err != nil {
		return fmt.Errorf("model cache %s: %w", dir, err)
	}
	_, werr := tmp.Write(encodeCacheEntry(key, m, events))
	if cerr := tmp.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(tmp.Name(), cacheEntryPath(dir, key))
	}
	if werr != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("model cache %s: %w", dir, werr)
	}
	pruneCacheDir(dir)
	return nil
}

// pruneCacheDir removes the least recently used entries beyond
// maxDiskEntries, and temporary files that their writers left.
func pruneCacheDir(dir string) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	type entry struct {
		path string
		mod  time.Time
	}
	var entries []entry
	for _, e := range ents {
		info, err := e.Info()
		if err != nil || !info.Mode().IsRegular() {
			continue
		}
		p := filepath.Join(dir, e.Name())
		switch {
		case strings.HasPrefix(e.Name(), ".tmp-"):
			if time.Since(info.ModTime()) > staleTemp {
				os.Remove(p)
			}
		case strings.HasSuffix(e.Name(), cacheEntrySuffix):
			entries = append(entries, entry{p, info.ModTime()})
		}
	}
	if len(entries) <= maxDiskEntries {
		return
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].mod.After(entries[j].mod) })
	for _, e := range entries[maxDiskEntries:] {
		os.Remove(e.path)
	}
}

// rawStr reads a uvarint length and that many bytes.
func (r *snapReader) rawStr() string {
	n := r.countOf(1)
	s := r.src[r.i : r.i+n]
	r.i += n
	return s
}
