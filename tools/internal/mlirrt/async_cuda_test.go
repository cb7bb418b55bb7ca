//go:build cuda

package mlirrt

import (
	"runtime/cgo"
	"testing"
	"time"
	"unsafe"
)

// object is the Go object behind a pointer that the async runtime handed out.
func object(p unsafe.Pointer) *asyncObject { return cgo.Handle(uintptr(p)).Value().(*asyncObject) }

// A token or value is destroyed (its storage freed) when its references are all dropped: the
// lowered code's, by DropRef, and the one that emplacing or setting the error drops.
func TestAsyncRefCounts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		create func() unsafe.Pointer
		ready  func(unsafe.Pointer)
	}{
		{"token emplaced", mlirAsyncRuntimeCreateToken, mlirAsyncRuntimeEmplaceToken},
		{"token in error", mlirAsyncRuntimeCreateToken, mlirAsyncRuntimeSetTokenError},
		{"value emplaced", func() unsafe.Pointer { return mlirAsyncRuntimeCreateValue(8) }, mlirAsyncRuntimeEmplaceValue},
		{"value in error", func() unsafe.Pointer { return mlirAsyncRuntimeCreateValue(8) }, mlirAsyncRuntimeSetValueError},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := tc.create()
			o := object(p)
			mlirAsyncRuntimeAddRef(p, 2)
			mlirAsyncRuntimeDropRef(p, 2)
			mlirAsyncRuntimeDropRef(p, 1)
			if got := o.refs.Load(); got != 1 {
				t.Fatalf("%d references, want 1 (the one that becoming ready drops)", got)
			}
			tc.ready(p)
			if got := o.refs.Load(); got != 0 || o.storage != nil {
				t.Errorf("after the last reference: %d references, storage %p; want it destroyed", got, o.storage)
			}
			if _, ok := func() (v any, ok bool) {
				defer func() { ok = recover() == nil && ok }()
				return cgo.Handle(uintptr(p)).Value(), true
			}(); ok {
				t.Errorf("the handle still resolves after the object was destroyed")
			}
		})
	}
}

// A value's storage is C memory of its size that the lowered code writes and reads.
func TestAsyncValueStorage(t *testing.T) {
	v := mlirAsyncRuntimeCreateValue(8)
	s := (*int64)(mlirAsyncRuntimeGetValueStorage(v))
	*s = 42
	mlirAsyncRuntimeEmplaceValue(v)
	mlirAsyncRuntimeAwaitValue(v)
	if mlirAsyncRuntimeIsValueError(v) || *(*int64)(mlirAsyncRuntimeGetValueStorage(v)) != 42 {
		t.Errorf("the value holds %d (error %v), want 42", *s, mlirAsyncRuntimeIsValueError(v))
	}
	mlirAsyncRuntimeDropRef(v, 1)
}

// A coroutine that awaits a ready object resumes at once, inline; one that awaits an object not
// yet ready resumes when it becomes ready, before the call that makes it so returns.
func TestAsyncAwaitAndExecute(t *testing.T) {
	for _, tc := range []struct {
		name  string
		ready bool
	}{{"ready", true}, {"not yet ready", false}} {
		t.Run(tc.name, func(t *testing.T) {
			tok := mlirAsyncRuntimeCreateToken()
			val := mlirAsyncRuntimeCreateValue(4)
			grp := mlirAsyncRuntimeCreateGroup(1)
			mlirAsyncRuntimeAddTokenToGroup(tok, grp)
			if tc.ready {
				mlirAsyncRuntimeEmplaceToken(tok)
				mlirAsyncRuntimeEmplaceValue(val)
			}
			coros := []testCoroutine{newTestCoroutine(), newTestCoroutine(), newTestCoroutine()}
			mlirAsyncRuntimeAwaitTokenAndExecute(tok, coros[0].handle, coros[0].resume)
			mlirAsyncRuntimeAwaitValueAndExecute(val, coros[1].handle, coros[1].resume)
			mlirAsyncRuntimeAwaitAllInGroupAndExecute(grp, coros[2].handle, coros[2].resume)
			want := int64(0)
			if tc.ready {
				want = 1
			}
			for i, c := range coros {
				if got := c.resumed(); got != want {
					t.Errorf("coroutine %d resumed %d times before the objects were ready, want %d", i, got, want)
				}
			}
			if !tc.ready {
				mlirAsyncRuntimeEmplaceToken(tok)
				mlirAsyncRuntimeEmplaceValue(val)
			}
			for i, c := range coros {
				if got := c.resumed(); got != 1 {
					t.Errorf("coroutine %d resumed %d times, want 1", i, got)
				}
				c.free()
			}
			mlirAsyncRuntimeDropRef(tok, 1)
			mlirAsyncRuntimeDropRef(val, 1)
			mlirAsyncRuntimeDropRef(grp, 1)
		})
	}
}

// A group is ready once all its tokens are, in error if one is; its tokens' ranks count from 0; a
// group of none is ready at once.
func TestAsyncGroup(t *testing.T) {
	g := mlirAsyncRuntimeCreateGroup(3)
	var toks []unsafe.Pointer
	for i := range 3 {
		tok := mlirAsyncRuntimeCreateToken()
		if rank := mlirAsyncRuntimeAddTokenToGroup(tok, g); int64(rank) != int64(i) {
			t.Errorf("token %d has rank %d", i, rank)
		}
		toks = append(toks, tok)
	}
	mlirAsyncRuntimeEmplaceToken(toks[0])
	mlirAsyncRuntimeSetTokenError(toks[1])
	select {
	case <-object(g).done:
		t.Fatal("the group is ready with a token pending")
	default:
	}
	mlirAsyncRuntimeEmplaceToken(toks[2])
	mlirAsyncRuntimeAwaitAllInGroup(g)
	if !mlirAsyncRuntimeIsGroupError(g) || !mlirAsyncRuntimeIsTokenError(toks[1]) || mlirAsyncRuntimeIsTokenError(toks[0]) {
		t.Errorf("errors: group %v, tokens %v %v; want true, true, false", mlirAsyncRuntimeIsGroupError(g),
			mlirAsyncRuntimeIsTokenError(toks[1]), mlirAsyncRuntimeIsTokenError(toks[0]))
	}
	for _, tok := range toks {
		mlirAsyncRuntimeDropRef(tok, 1)
	}
	mlirAsyncRuntimeDropRef(g, 1)

	empty := mlirAsyncRuntimeCreateGroup(0)
	mlirAsyncRuntimeAwaitAllInGroup(empty)
	mlirAsyncRuntimeDropRef(empty, 1)
}

// Execute resumes the coroutine on a worker, not on the calling thread.
func TestAsyncExecute(t *testing.T) {
	c := newTestCoroutine()
	defer c.free()
	mlirAsyncRuntimeExecute(c.handle, c.resume)
	for deadline := time.Now().Add(10 * time.Second); c.resumed() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the coroutine was not resumed")
		}
	}
	if n := mlirAsyncRuntimGetNumWorkerThreads(); n < 1 {
		t.Errorf("%d worker threads", n)
	}
}
