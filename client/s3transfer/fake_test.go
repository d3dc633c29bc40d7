package s3transfer

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
)

// fakeS3 is the part of S3 the transfers call, path-style, in memory:
// it checks every part's CRC32 and the parts Complete names, and lets a
// test fail a part, fail Complete or act when a part or range arrives.
// (s3rver checks neither part checksums nor Complete's checksums, and
// cannot fail on demand.)
type fakeS3 struct {
	mu       sync.Mutex
	objects  map[string]*fakeObject
	uploads  map[string]map[int]fakePart // uploadId -> parts
	nextID   int
	aborted  []string
	attempts map[int]int // UploadPart attempts by part number
	// failPart answers 500 to that many attempts of a part.
	failPart map[int]int
	// failComplete answers 500 to every CompleteMultipartUpload.
	failComplete bool
	// cutGet sends half of that many ranged GETs and drops the connection.
	cutGet int
	gets   int // ranged GETs
	// onPart and onGet run as a part or a ranged GET arrives.
	onPart func(r *http.Request, n int)
	onGet  func(r *http.Request)
}

type fakeObject struct {
	body       []byte
	etag, crc  string
	createdCRC bool // CreateMultipartUpload said ChecksumAlgorithm CRC32
}

type fakePart struct {
	body      []byte
	etag, crc string
}

// with runs f under the fake's lock: the tests set and read its state
// while its handlers run (the race detector sees no order through the
// sockets).
func (f *fakeS3) with(do func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	do()
}

func newFakeS3() *fakeS3 {
	return &fakeS3{objects: map[string]*fakeObject{}, uploads: map[string]map[int]fakePart{}, attempts: map[int]int{}, failPart: map[int]int{}}
}

func s3Error(w http.ResponseWriter, status int, code string) {
	w.WriteHeader(status)
	fmt.Fprintf(w, "<Error><Code>%s</Code><Message>fake</Message></Error>", code)
}

func etagOf(b []byte) string {
	sum := md5.Sum(b)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

func (f *fakeS3) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s3Error(w, 400, "IncompleteBody")
		return
	}
	q := r.URL.Query()
	key := r.URL.Path
	id := q.Get("uploadId")
	switch {
	case r.Method == "POST" && q.Has("uploads"):
		f.mu.Lock()
		f.nextID++
		id = strconv.Itoa(f.nextID)
		f.uploads[id] = map[int]fakePart{}
		f.mu.Unlock()
		if r.Header.Get("X-Amz-Checksum-Algorithm") != "CRC32" {
			s3Error(w, 400, "NoChecksumAlgorithm")
			return
		}
		fmt.Fprintf(w, "<InitiateMultipartUploadResult><UploadId>%s</UploadId></InitiateMultipartUploadResult>", id)
	case r.Method == "PUT" && id != "":
		n, _ := strconv.Atoi(q.Get("partNumber"))
		f.mu.Lock()
		f.attempts[n]++
		fail := f.failPart[n] > 0
		f.failPart[n]--
		onPart := f.onPart
		f.mu.Unlock()
		if onPart != nil {
			onPart(r, n)
		}
		if fail {
			s3Error(w, 500, "InternalError")
			return
		}
		crc := r.Header.Get("X-Amz-Checksum-Crc32")
		if crc != crc32b64(body) {
			s3Error(w, 400, "BadDigest")
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		parts, ok := f.uploads[id]
		if !ok {
			s3Error(w, 404, "NoSuchUpload")
			return
		}
		parts[n] = fakePart{body: body, etag: etagOf(body), crc: crc}
		w.Header().Set("ETag", etagOf(body))
		w.Header().Set("X-Amz-Checksum-Crc32", crc)
	case r.Method == "POST" && id != "":
		f.complete(w, key, id, body)
	case r.Method == "DELETE" && id != "":
		f.mu.Lock()
		delete(f.uploads, id)
		f.aborted = append(f.aborted, id)
		f.mu.Unlock()
		w.WriteHeader(204)
	case r.Method == "PUT":
		crc := r.Header.Get("X-Amz-Checksum-Crc32")
		if crc != crc32b64(body) {
			s3Error(w, 400, "BadDigest")
			return
		}
		f.mu.Lock()
		f.objects[key] = &fakeObject{body: body, etag: etagOf(body), crc: crc}
		f.mu.Unlock()
		w.Header().Set("ETag", etagOf(body))
		w.Header().Set("X-Amz-Checksum-Crc32", crc)
	case r.Method == "HEAD" || r.Method == "GET":
		f.get(w, r, key)
	default:
		s3Error(w, 405, "MethodNotAllowed")
	}
}

func (f *fakeS3) complete(w http.ResponseWriter, key, id string, body []byte) {
	var req struct {
		Parts []struct {
			PartNumber    int
			ETag          string
			ChecksumCRC32 string
		} `xml:"Part"`
	}
	if err := xml.Unmarshal(body, &req); err != nil {
		s3Error(w, 400, "MalformedXML")
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failComplete {
		s3Error(w, 500, "InternalError")
		return
	}
	parts, ok := f.uploads[id]
	if !ok {
		s3Error(w, 404, "NoSuchUpload")
		return
	}
	var all []byte
	for i, p := range req.Parts {
		got, ok := parts[p.PartNumber]
		if p.PartNumber != i+1 || !ok || got.etag != p.ETag || got.crc != p.ChecksumCRC32 {
			s3Error(w, 400, "InvalidPart")
			return
		}
		all = append(all, got.body...)
	}
	if len(req.Parts) != len(parts) {
		s3Error(w, 400, "InvalidPart")
		return
	}
	delete(f.uploads, id)
	etag := fmt.Sprintf(`"%s-%d"`, strings.Trim(etagOf(all), `"`), len(parts))
	crc := fmt.Sprintf("%s-%d", crc32b64(all), len(parts)) // a composite checksum: not the object's CRC
	f.objects[key] = &fakeObject{body: all, etag: etag, crc: crc, createdCRC: true}
	fmt.Fprintf(w, "<CompleteMultipartUploadResult><ETag>%s</ETag><ChecksumCRC32>%s</ChecksumCRC32></CompleteMultipartUploadResult>",
		strings.ReplaceAll(etag, `"`, "&quot;"), crc)
}

func (f *fakeS3) get(w http.ResponseWriter, r *http.Request, key string) {
	f.mu.Lock()
	obj, ok := f.objects[key]
	onGet := f.onGet
	f.mu.Unlock()
	if !ok {
		s3Error(w, 404, "NoSuchKey")
		return
	}
	if r.Method == "HEAD" {
		w.Header().Set("Content-Length", strconv.Itoa(len(obj.body)))
		w.Header().Set("ETag", obj.etag)
		if r.Header.Get("X-Amz-Checksum-Mode") == "ENABLED" {
			w.Header().Set("X-Amz-Checksum-Crc32", obj.crc)
		}
		return
	}
	f.mu.Lock()
	f.gets++
	cut := f.cutGet > 0
	f.cutGet--
	f.mu.Unlock()
	if onGet != nil {
		onGet(r)
		f.mu.Lock()
		obj = f.objects[key]
		f.mu.Unlock()
	}
	if m := r.Header.Get("If-Match"); m != "" && m != obj.etag {
		s3Error(w, 412, "PreconditionFailed")
		return
	}
	var a, b int
	if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err != nil || a > b || b >= len(obj.body) {
		s3Error(w, 416, "InvalidRange")
		return
	}
	w.Header().Set("ETag", obj.etag)
	w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a, b, len(obj.body)))
	w.Header().Set("Content-Length", strconv.Itoa(b-a+1))
	w.WriteHeader(206)
	if cut {
		w.Write(obj.body[a : a+(b-a+1)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops mid-body
	}
	w.Write(obj.body[a : b+1])
}
