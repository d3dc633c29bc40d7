package client

import (
	"bytes"
	"errors"
	"io"
	"testing"
	"time"
)

// The pipe holds at most its bound (plus one write): a writer waits until
// the reader drains it, and closing the read side releases the writer.
func TestBodyPipeBound(t *testing.T) {
	p := newBodyPipe(100)
	if _, err := p.Write(make([]byte, 60)); err != nil {
		t.Fatal(err)
	}
	wrote := make(chan error, 1)
	go func() { _, err := p.Write(make([]byte, 60)); wrote <- err }()
	select {
	case err := <-wrote:
		t.Fatalf("a write over the bound returned at once (%v)", err)
	case <-time.After(50 * time.Millisecond):
	}
	buf := make([]byte, 60)
	if n, err := io.ReadFull(p, buf); n != 60 || err != nil {
		t.Fatalf("read %d, %v", n, err)
	}
	if err := <-wrote; err != nil {
		t.Fatal(err)
	}
	go func() { _, err := p.Write(make([]byte, 60)); wrote <- err }()
	time.Sleep(20 * time.Millisecond)
	stop := errors.New("stop")
	p.CloseRead(stop)
	if err := <-wrote; err != stop {
		t.Errorf("blocked write after CloseRead: %v", err)
	}
	if _, err := p.Read(buf); err != stop {
		t.Errorf("read after CloseRead: %v", err)
	}
}

// What was written before CloseWrite is read, then the writer's error.
func TestBodyPipeEnd(t *testing.T) {
	for _, end := range []error{nil, errors.New("cut")} {
		p := newBodyPipe(1 << 10)
		want := bytes.Repeat([]byte("abc"), 500)
		go func() {
			for i := 0; i < len(want); i += 7 {
				p.Write(want[i:min(i+7, len(want))])
			}
			p.CloseWrite(end)
		}()
		got, err := io.ReadAll(p)
		if !bytes.Equal(got, want) || err != end {
			t.Errorf("end %v: read %d bytes (equal %v), %v", end, len(got), bytes.Equal(got, want), err)
		}
	}
}
