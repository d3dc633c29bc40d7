package awscustom

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"hash"

	"github.com/smithycurl/smithycurl/model"
)

// glacierAPIVersion sends x-amz-glacier-version, the service's version,
// on every request: Glacier refuses a request without it, and the model
// does not say so.
func glacierAPIVersion(_ *model.Model, svc *model.Service, _ *model.Operation) Hooks {
	version := svc.Shape.Version
	return Hooks{request: []func(*Request) error{func(r *Request) error {
		r.Header.Set("X-Amz-Glacier-Version", version)
		return nil
	}}}
}

// glacierAccountID makes accountId "-" (the account of the credentials)
// when the input leaves it out or empty (as the Go and JavaScript SDKs:
// a typed Go client's unset string is "").
func glacierAccountID(_ *model.Model, _ *model.Service, op *model.Operation) Hooks {
	if _, ok := op.Input.Member("accountId"); !ok {
		return Hooks{}
	}
	return Hooks{input: []func([]byte) ([]byte, error){func(in []byte) ([]byte, error) {
		o, ok := parseObject(in)
		if v, isStr := o.str("accountId"); !ok || (isStr && v != "") || (!isStr && o.has("accountId")) {
			return in, nil
		}
		o.setStr("accountId", "-")
		return o.bytes(), nil
	}}}
}

// glacierChecksums sends the body's SHA-256 (x-amz-content-sha256, also
// the signature's payload hash) and its tree hash (x-amz-sha256-tree-hash)
// on uploads, each unless the request has it.
func glacierChecksums(_ *model.Model, _ *model.Service, _ *model.Operation) Hooks {
	return Hooks{request: []func(*Request) error{func(r *Request) error {
		const contentHeader, treeHeader = "X-Amz-Content-Sha256", "X-Amz-Sha256-Tree-Hash"
		needContent, needTree := r.Header.Get(contentHeader) == "", r.Header.Get(treeHeader) == ""
		if !needContent && !needTree {
			return nil
		}
		content, tree := sha256.New(), &treeHash{}
		ok, err := r.HashBody(content, tree)
		if err != nil {
			return err
		}
		if !ok {
			return errors.New("Glacier needs the body's SHA-256 and tree hash: give a body reader that is an io.Seeker, or both checksums (x-amz-content-sha256 with WithCallHeader, and the checksum member)")
		}
		if needContent {
			r.Header.Set(contentHeader, hex.EncodeToString(content.Sum(nil)))
		}
		if needTree {
			r.Header.Set(treeHeader, hex.EncodeToString(tree.sum()))
		}
		return nil
	}}}
}

// treeHash is Glacier's SHA-256 tree hash: the SHA-256 of each MiB, then
// of each pair of hashes, level by level, an odd one passed up as is.
type treeHash struct {
	chunk  hash.Hash
	n      int // bytes in chunk
	leaves [][]byte
}

const treeChunk = 1 << 20

func (t *treeHash) Write(p []byte) (int, error) {
	total := len(p)
	for len(p) > 0 {
		if t.chunk == nil {
			t.chunk = sha256.New()
		}
		k := min(len(p), treeChunk-t.n)
		t.chunk.Write(p[:k])
		t.n += k
		p = p[k:]
		if t.n == treeChunk {
			t.leaves = append(t.leaves, t.chunk.Sum(nil))
			t.chunk, t.n = nil, 0
		}
	}
	return total, nil
}

func (t *treeHash) sum() []byte {
	level := t.leaves
	if t.chunk != nil {
		level = append(level, t.chunk.Sum(nil))
	}
	if len(level) == 0 {
		empty := sha256.Sum256(nil)
		return empty[:]
	}
	for len(level) > 1 {
		var next [][]byte
		for i := 0; i < len(level); i += 2 {
			if i+1 == len(level) {
				next = append(next, level[i])
				continue
			}
			h := sha256.New()
			h.Write(level[i])
			h.Write(level[i+1])
			next = append(next, h.Sum(nil))
		}
		level = next
	}
	return level[0]
}
