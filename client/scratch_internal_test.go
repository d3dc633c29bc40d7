package client

import (
	"testing"

	"github.com/smithycurl/smithycurl/wire"
)

// giveBack keeps a scratch out of the pool while the output shares its
// response body (a codec may hand out part of the body as it is), or when
// its body array is large; what goes back is poisoned under -race.
func TestScratchGiveBack(t *testing.T) {
	var sp scratchPool
	s := &scratch{resp: wire.Response{Status: 200, Body: []byte(`{"a":1}`), Header: wire.Header{"X-A": {"1"}}}}
	sp.giveBack(s, s.resp.Body[1:3])
	if got := sp.get(); got == s {
		t.Fatal("a scratch whose body the output shares was pooled")
	}
	big := &scratch{resp: wire.Response{Body: make([]byte, maxKeptBody+1)}}
	sp.giveBack(big, nil)
	if got := sp.get(); got == big {
		t.Fatal("a scratch with a large body array was pooled")
	}
	if b := s.resp.Body; shares(b[:2:2], b[2:4:4]) || !shares(b[:3:3], b[2:4:4]) || shares(b, nil) {
		t.Error("shares: wrong about parts of one array")
	}
	body, hdr := s.resp.Body, s.resp.Header
	sp.giveBack(s, []byte("{}"))
	if poisonScratch && (body[0] != 0xEE || hdr.Get("X-A") == "1" || s.resp.Status != -1) {
		t.Errorf("a scratch given back under -race was not poisoned: %q %v", body, hdr)
	}
	if s.req.URL != "" || s.body.input != nil {
		t.Error("a scratch given back keeps its call's request or body")
	}
}
