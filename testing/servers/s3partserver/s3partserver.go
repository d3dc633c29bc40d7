// Package s3partserver is the part of S3 that transfers call, path-style,
// in memory: PutObject, HeadObject, ranged GetObject, CreateMultipartUpload,
// UploadPart, CompleteMultipartUpload, AbortMultipartUpload and
// ListMultipartUploads. It checks every part's CRC32 and the parts
// Complete names, and fails on demand: a Go test sets the fields of
// Server (under With), a C or Python test names the failure in the key:
// a key containing "fail-complete" gets 500 on every
// CompleteMultipartUpload, one containing "fail-part-N" gets 500 on the
// first attempt of part N of each upload, one containing "hang-part-N"
// holds every attempt of part N until the client gives up on it (a cancel
// in the middle of an upload). (s3rver checks neither part
// checksums nor Complete's, and neither s3rver nor fauxqs lists uploads or
// fails on demand.) No signature is checked.
package s3partserver

import (
	"crypto/md5"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/xml"
	"fmt"
	"hash/crc32"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Server is the fake; its exported fields are read and set under With.
type Server struct {
	mu sync.Mutex
	// Objects by path ("/bucket/key").
	Objects map[string]*Object
	// Uploads in progress: upload id -> part number -> part.
	Uploads map[string]map[int]Part
	// Aborted: the upload ids AbortMultipartUpload ended.
	Aborted []string
	// Attempts: UploadPart attempts by part number.
	Attempts map[int]int
	// FailPart answers 500 to that many attempts of a part (by number).
	FailPart map[int]int
	// FailComplete answers 500 to every CompleteMultipartUpload.
	FailComplete bool
	// CutGet sends half of that many ranged GETs and drops the connection.
	CutGet int
	// Gets counts the ranged GETs.
	Gets int
	// OnPart and OnGet run as a part or a ranged GET arrives (unlocked).
	OnPart func(r *http.Request, n int)
	OnGet  func(r *http.Request)

	nextID    int
	uploadKey map[string]string   // upload id -> path
	keyFailed map[string]struct{} // "id/N": the key's fail-part-N was answered
}

// Object is a stored object.
type Object struct {
	Body       []byte
	ETag, CRC  string
	CreatedCRC bool // CreateMultipartUpload said ChecksumAlgorithm CRC32
}

// Part is an uploaded part.
type Part struct {
	Body      []byte
	ETag, CRC string
}

// With runs do under the fake's lock: the tests set and read its state
// while its handlers run (the race detector sees no order through the
// sockets).
func (f *Server) With(do func()) {
	f.mu.Lock()
	defer f.mu.Unlock()
	do()
}

// New returns an empty fake.
func New() *Server {
	return &Server{Objects: map[string]*Object{}, Uploads: map[string]map[int]Part{}, Attempts: map[int]int{},
		FailPart: map[int]int{}, uploadKey: map[string]string{}, keyFailed: map[string]struct{}{}}
}

// CRC32 is S3's CRC32 of b: big-endian, in base64.
func CRC32(b []byte) string {
	return base64.StdEncoding.EncodeToString(binary.BigEndian.AppendUint32(nil, crc32.ChecksumIEEE(b)))
}

func s3Error(w http.ResponseWriter, status int, code string) {
	w.WriteHeader(status)
	fmt.Fprintf(w, "<Error><Code>%s</Code><Message>fake</Message></Error>", code)
}

func etagOf(b []byte) string {
	sum := md5.Sum(b)
	return `"` + hex.EncodeToString(sum[:]) + `"`
}

// listUploads answers ListMultipartUploads of bucket: the uploads in
// progress whose path is in it.
func (f *Server) listUploads(w http.ResponseWriter, bucket string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	var b strings.Builder
	fmt.Fprintf(&b, "<ListMultipartUploadsResult><Bucket>%s</Bucket><IsTruncated>false</IsTruncated>", bucket)
	for id := range f.Uploads {
		if k, ok := strings.CutPrefix(f.uploadKey[id], "/"+bucket+"/"); ok {
			fmt.Fprintf(&b, "<Upload><Key>%s</Key><UploadId>%s</UploadId></Upload>", k, id)
		}
	}
	b.WriteString("</ListMultipartUploadsResult>")
	w.Write([]byte(b.String()))
}

func (f *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		s3Error(w, 400, "IncompleteBody")
		return
	}
	q := r.URL.Query()
	key := r.URL.Path
	id := q.Get("uploadId")
	switch {
	case r.Method == "GET" && q.Has("uploads"):
		f.listUploads(w, strings.Trim(key, "/"))
	case r.Method == "POST" && q.Has("uploads"):
		f.mu.Lock()
		f.nextID++
		id = strconv.Itoa(f.nextID)
		f.Uploads[id] = map[int]Part{}
		f.uploadKey[id] = key
		f.mu.Unlock()
		if r.Header.Get("X-Amz-Checksum-Algorithm") != "CRC32" {
			s3Error(w, 400, "NoChecksumAlgorithm")
			return
		}
		fmt.Fprintf(w, "<InitiateMultipartUploadResult><UploadId>%s</UploadId></InitiateMultipartUploadResult>", id)
	case r.Method == "PUT" && id != "":
		n, _ := strconv.Atoi(q.Get("partNumber"))
		f.mu.Lock()
		f.Attempts[n]++
		fail := f.FailPart[n] > 0
		f.FailPart[n]--
		if _, done := f.keyFailed[id+"/"+strconv.Itoa(n)]; !done && strings.Contains(key, fmt.Sprintf("fail-part-%d", n)) {
			f.keyFailed[id+"/"+strconv.Itoa(n)] = struct{}{}
			fail = true
		}
		onPart := f.OnPart
		f.mu.Unlock()
		if onPart != nil {
			onPart(r, n)
		}
		if strings.Contains(key, fmt.Sprintf("hang-part-%d", n)) {
			// Until the client gives up on it (30 s at most).
			t := time.NewTimer(30 * time.Second)
			select {
			case <-r.Context().Done():
			case <-t.C:
			}
			t.Stop()
			s3Error(w, 500, "InternalError")
			return
		}
		if fail {
			s3Error(w, 500, "InternalError")
			return
		}
		crc := r.Header.Get("X-Amz-Checksum-Crc32")
		if crc != CRC32(body) {
			s3Error(w, 400, "BadDigest")
			return
		}
		f.mu.Lock()
		defer f.mu.Unlock()
		parts, ok := f.Uploads[id]
		if !ok {
			s3Error(w, 404, "NoSuchUpload")
			return
		}
		parts[n] = Part{Body: body, ETag: etagOf(body), CRC: crc}
		w.Header().Set("ETag", etagOf(body))
		w.Header().Set("X-Amz-Checksum-Crc32", crc)
	case r.Method == "POST" && id != "":
		f.complete(w, key, id, body)
	case r.Method == "DELETE" && id != "":
		f.mu.Lock()
		delete(f.Uploads, id)
		delete(f.uploadKey, id)
		f.Aborted = append(f.Aborted, id)
		f.mu.Unlock()
		w.WriteHeader(204)
	case r.Method == "PUT":
		crc := r.Header.Get("X-Amz-Checksum-Crc32")
		if crc != CRC32(body) {
			s3Error(w, 400, "BadDigest")
			return
		}
		f.mu.Lock()
		f.Objects[key] = &Object{Body: body, ETag: etagOf(body), CRC: crc}
		f.mu.Unlock()
		w.Header().Set("ETag", etagOf(body))
		w.Header().Set("X-Amz-Checksum-Crc32", crc)
	case r.Method == "HEAD" || r.Method == "GET":
		f.get(w, r, key)
	default:
		s3Error(w, 405, "MethodNotAllowed")
	}
}

func (f *Server) complete(w http.ResponseWriter, key, id string, body []byte) {
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
	if f.FailComplete || strings.Contains(key, "fail-complete") {
		s3Error(w, 500, "InternalError")
		return
	}
	parts, ok := f.Uploads[id]
	if !ok {
		s3Error(w, 404, "NoSuchUpload")
		return
	}
	var all []byte
	for i, p := range req.Parts {
		got, ok := parts[p.PartNumber]
		if p.PartNumber != i+1 || !ok || got.ETag != p.ETag || got.CRC != p.ChecksumCRC32 {
			s3Error(w, 400, "InvalidPart")
			return
		}
		all = append(all, got.Body...)
	}
	if len(req.Parts) != len(parts) {
		s3Error(w, 400, "InvalidPart")
		return
	}
	delete(f.Uploads, id)
	delete(f.uploadKey, id)
	etag := fmt.Sprintf(`"%s-%d"`, strings.Trim(etagOf(all), `"`), len(parts))
	crc := fmt.Sprintf("%s-%d", CRC32(all), len(parts)) // a composite checksum: not the object's CRC
	f.Objects[key] = &Object{Body: all, ETag: etag, CRC: crc, CreatedCRC: true}
	fmt.Fprintf(w, "<CompleteMultipartUploadResult><ETag>%s</ETag><ChecksumCRC32>%s</ChecksumCRC32></CompleteMultipartUploadResult>",
		strings.ReplaceAll(etag, `"`, "&quot;"), crc)
}

func (f *Server) get(w http.ResponseWriter, r *http.Request, key string) {
	f.mu.Lock()
	obj, ok := f.Objects[key]
	onGet := f.OnGet
	f.mu.Unlock()
	if !ok {
		s3Error(w, 404, "NoSuchKey")
		return
	}
	if r.Method == "HEAD" {
		w.Header().Set("Content-Length", strconv.Itoa(len(obj.Body)))
		w.Header().Set("ETag", obj.ETag)
		if r.Header.Get("X-Amz-Checksum-Mode") == "ENABLED" {
			w.Header().Set("X-Amz-Checksum-Crc32", obj.CRC)
		}
		return
	}
	f.mu.Lock()
	f.Gets++
	cut := f.CutGet > 0
	f.CutGet--
	f.mu.Unlock()
	if onGet != nil {
		onGet(r)
		f.mu.Lock()
		obj = f.Objects[key]
		f.mu.Unlock()
	}
	if m := r.Header.Get("If-Match"); m != "" && m != obj.ETag {
		s3Error(w, 412, "PreconditionFailed")
		return
	}
	var a, b int
	if _, err := fmt.Sscanf(r.Header.Get("Range"), "bytes=%d-%d", &a, &b); err != nil || a > b || b >= len(obj.Body) {
		s3Error(w, 416, "InvalidRange")
		return
	}
	w.Header().Set("ETag", obj.ETag)
	w.Header().Set("Content-Range", fmt.Sprintf("bytes %d-%d/%d", a, b, len(obj.Body)))
	w.Header().Set("Content-Length", strconv.Itoa(b-a+1))
	w.WriteHeader(206)
	if cut {
		w.Write(obj.Body[a : a+(b-a+1)/2])
		w.(http.Flusher).Flush()
		panic(http.ErrAbortHandler) // the connection drops mid-body
	}
	w.Write(obj.Body[a : b+1])
}
