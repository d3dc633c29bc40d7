package wire

import (
	"reflect"
	"testing"
)

func TestHeader(t *testing.T) {
	h := Header{}
	h.Set("content-type", "a")
	h.Add("X-Multi", "1")
	h.Add("x-multi", "2")
	if got := h.Get("Content-Type"); got != "a" {
		t.Errorf("Get = %q", got)
	}
	if got := h.Values("X-MULTI"); !reflect.DeepEqual(got, []string{"1", "2"}) {
		t.Errorf("Values = %q", got)
	}
	c := h.Clone()
	if !reflect.DeepEqual(c, h) {
		t.Fatalf("Clone = %v, want %v", c, h)
	}
	c["X-Multi"][0] = "changed"
	c.Add("Content-Type", "b")
	if h.Get("X-Multi") != "1" || len(h["Content-Type"]) != 1 {
		t.Errorf("the clone shares storage with the original: %v", h)
	}
	h.Del("content-type")
	if _, ok := h["Content-Type"]; ok {
		t.Errorf("Del left %v", h)
	}
	if Header(nil).Clone() != nil {
		t.Errorf("Clone of nil is not nil")
	}
	if got := (Header{"Empty": nil}).Clone(); got["Empty"] != nil || len(got) != 1 {
		t.Errorf("Clone of a nil value: %#v", got)
	}
	if CanonicalHeaderKey("x-amz-target") != "X-Amz-Target" {
		t.Errorf("CanonicalHeaderKey")
	}
}
