//go:build cuda

package mlirrt

/*
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include "mlirrt_cuda.h"
*/
import "C"

import (
	"runtime"
	"runtime/cgo"
	"sync"
	"sync/atomic"
	"unsafe"
)

// This file is MLIR's async runtime (upstream mlir/lib/ExecutionEngine/AsyncRuntime.cpp, its C ABI
// in mlir/include/mlir/ExecutionEngine/AsyncRuntime.h), which the code that convert-async-to-llvm
// (LLVM 21) makes of the async dialect calls: tokens, values and groups, reference counted, and
// the coroutines of async.execute regions, resumed on worker goroutines.
//
// The lowered code holds each object as an opaque pointer that it only passes back to these
// functions: a cgo.Handle of the Go object (never a Go pointer, which cgo forbids handing to C).
// A value's storage, which the lowered code reads and writes, is C memory (malloc). As upstream,
// an object is destroyed when its reference count reaches zero: its handle deleted, its storage
// freed. Tokens and values start with two references, one for the lowered code and one that
// emplacing (or setting the error state) drops; groups start with one.
//
// Continuations: a coroutine that awaits an object not yet available is resumed, as upstream, by
// the thread that makes it available (emplaces the token or value, or adds the group's last token),
// before that call returns; one that awaits an object already available is resumed at once, inline.
// mlirAsyncRuntimeExecute resumes a coroutine on a new goroutine (the worker): Go's scheduler
// takes the place of upstream's thread pool, and since a goroutine in C code holds an OS thread
// of its own, a blocked worker never starves the others.
//
// The runtime's only global state is cgo's handle table (runtime/cgo) and the goroutines it
// starts: nothing else outlives a call.

// asyncKind is what an async object is.
type asyncKind int

const (
	asyncToken asyncKind = iota
	asyncValue
	asyncGroup
)

func (k asyncKind) String() string {
	return [...]string{"token", "value", "group"}[k]
}

// asyncObject is a token, a value or a group. A token or value becomes ready once, available or in
// error; a group, once its pending tokens (its size at creation) have all been added and become
// ready.
type asyncObject struct {
	kind   asyncKind
	handle cgo.Handle
	refs   atomic.Int64

	mu       sync.Mutex
	ready    bool          // the object is available or in error
	done     chan struct{} // closed when ready
	failed   bool          // a token or value in error
	awaiters []func()      // what runs once the object is ready: resumed coroutines, a group's count

	storage unsafe.Pointer // a value's storage (C memory)
	pending int64          // a group's tokens not yet ready
	errors  int64          // a group's tokens in error
	rank    int64          // the number of tokens added to the group
}

// newAsync makes an object of kind with refs references and its handle.
func newAsync(kind asyncKind, refs int64) *asyncObject {
	o := &asyncObject{kind: kind, done: make(chan struct{})}
	o.refs.Store(refs)
	o.handle = cgo.NewHandle(o)
	return o
}

// pointer is the object as the lowered code holds it.
func (o *asyncObject) pointer() unsafe.Pointer { return C.mlirrt_async_handle(C.uintptr_t(o.handle)) }

// asyncObjectAt is the live object that the lowered code passed to call as p, of kind want (any
// kind when want is negative); anything else is a fatal error, naming the call.
func asyncObjectAt(call string, p unsafe.Pointer, want asyncKind) (o *asyncObject) {
	if p == nil {
		die("%s: the async object is null", call)
	}
	defer func() {
		if recover() != nil {
			die("%s: %#x is not a live async object (destroyed already: its reference count reached zero)", call, uintptr(p))
		}
	}()
	o, ok := cgo.Handle(uintptr(p)).Value().(*asyncObject)
	if !ok {
		die("%s: %#x is not an async object", call, uintptr(p))
	}
	if want >= 0 && o.kind != want {
		die("%s: the async object is a %v, not a %v", call, o.kind, want)
	}
	return o
}

// dropRef drops n references; the last one destroys the object.
func (o *asyncObject) dropRef(call string, n int64) {
	left := o.refs.Add(-n)
	switch {
	case left < 0:
		die("%s: dropped %d references of an async %v that had %d", call, n, o.kind, left+n)
	case left == 0:
		o.handle.Delete()
		if o.storage != nil {
			C.free(o.storage)
			o.storage = nil
		}
	}
}

// whenReady runs f once the object is ready: at once, on the calling thread, if it is; else on the
// thread that makes it ready.
func (o *asyncObject) whenReady(f func()) {
	o.mu.Lock()
	if o.ready {
		o.mu.Unlock()
		f()
		return
	}
	o.awaiters = append(o.awaiters, f)
	o.mu.Unlock()
}

// setReady makes a token or value available (failed false) or in error, runs its awaiters and
// drops the reference that waited for it.
func (o *asyncObject) setReady(call string, failed bool) {
	o.mu.Lock()
	if o.ready {
		o.mu.Unlock()
		die("%s: the async %v is ready already: a token or value is emplaced, or set to the error state, once", call, o.kind)
	}
	o.ready, o.failed = true, failed
	close(o.done)
	awaiters := o.awaiters
	o.awaiters = nil
	o.mu.Unlock()
	for _, f := range awaiters {
		f()
	}
	o.dropRef(call, 1)
}

// groupTokenReady counts one of a group's tokens ready, in error or not; the last one makes the
// group ready and runs its awaiters.
func (o *asyncObject) groupTokenReady(call string, failed bool) {
	o.mu.Lock()
	if failed {
		o.errors++
	}
	if o.pending <= 0 {
		o.mu.Unlock()
		die("%s: more tokens added to an async group than its size", call)
	}
	o.pending--
	if o.pending > 0 {
		o.mu.Unlock()
		return
	}
	o.ready = true
	close(o.done)
	awaiters := o.awaiters
	o.awaiters = nil
	o.mu.Unlock()
	for _, f := range awaiters {
		f()
	}
}

// resume resumes the coroutine handle with its resume function.
func resume(handle, fn unsafe.Pointer) { C.mlirrt_async_resume(handle, fn) }

//export mlirAsyncRuntimeAddRef
func mlirAsyncRuntimeAddRef(p unsafe.Pointer, count C.int64_t) {
	o := asyncObjectAt("mlirAsyncRuntimeAddRef", p, -1)
	if o.refs.Add(int64(count)) <= int64(count) {
		die("mlirAsyncRuntimeAddRef: the async %v was destroyed already", o.kind)
	}
}

//export mlirAsyncRuntimeDropRef
func mlirAsyncRuntimeDropRef(p unsafe.Pointer, count C.int64_t) {
	asyncObjectAt("mlirAsyncRuntimeDropRef", p, -1).dropRef("mlirAsyncRuntimeDropRef", int64(count))
}

//export mlirAsyncRuntimeCreateToken
func mlirAsyncRuntimeCreateToken() unsafe.Pointer { return newAsync(asyncToken, 2).pointer() }

//export mlirAsyncRuntimeCreateValue
func mlirAsyncRuntimeCreateValue(size C.int64_t) unsafe.Pointer {
	if size < 0 {
		die("mlirAsyncRuntimeCreateValue: a value of %d bytes", int64(size))
	}
	o := newAsync(asyncValue, 2)
	o.storage = C.calloc(1, C.size_t(max(size, 1)))
	if o.storage == nil {
		die("mlirAsyncRuntimeCreateValue: out of memory for a value of %d bytes", int64(size))
	}
	return o.pointer()
}

//export mlirAsyncRuntimeCreateGroup
func mlirAsyncRuntimeCreateGroup(size C.int64_t) unsafe.Pointer {
	if size < 0 {
		die("mlirAsyncRuntimeCreateGroup: a group of %d tokens", int64(size))
	}
	o := newAsync(asyncGroup, 1)
	o.pending = int64(size)
	if size == 0 {
		o.ready = true
		close(o.done)
	}
	return o.pointer()
}

//export mlirAsyncRuntimeAddTokenToGroup
func mlirAsyncRuntimeAddTokenToGroup(token, group unsafe.Pointer) C.int64_t {
	const call = "mlirAsyncRuntimeAddTokenToGroup"
	t := asyncObjectAt(call, token, asyncToken)
	g := asyncObjectAt(call, group, asyncGroup)
	g.mu.Lock()
	rank := g.rank
	g.rank++
	g.mu.Unlock()
	// The group stays alive until the token is ready, even if the lowered code drops it before.
	g.refs.Add(1)
	t.whenReady(func() {
		t.mu.Lock()
		failed := t.failed
		t.mu.Unlock()
		g.groupTokenReady(call, failed)
		g.dropRef(call, 1)
	})
	return C.int64_t(rank)
}

//export mlirAsyncRuntimeEmplaceToken
func mlirAsyncRuntimeEmplaceToken(token unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeEmplaceToken", token, asyncToken).setReady("mlirAsyncRuntimeEmplaceToken", false)
}

//export mlirAsyncRuntimeEmplaceValue
func mlirAsyncRuntimeEmplaceValue(value unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeEmplaceValue", value, asyncValue).setReady("mlirAsyncRuntimeEmplaceValue", false)
}

//export mlirAsyncRuntimeSetTokenError
func mlirAsyncRuntimeSetTokenError(token unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeSetTokenError", token, asyncToken).setReady("mlirAsyncRuntimeSetTokenError", true)
}

//export mlirAsyncRuntimeSetValueError
func mlirAsyncRuntimeSetValueError(value unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeSetValueError", value, asyncValue).setReady("mlirAsyncRuntimeSetValueError", true)
}

// isError reports whether a token or value is in error, or a group has a token in error.
func isError(call string, p unsafe.Pointer, kind asyncKind) C.bool {
	o := asyncObjectAt(call, p, kind)
	o.mu.Lock()
	defer o.mu.Unlock()
	return C.bool(o.failed || o.errors > 0)
}

//export mlirAsyncRuntimeIsTokenError
func mlirAsyncRuntimeIsTokenError(token unsafe.Pointer) C.bool {
	return isError("mlirAsyncRuntimeIsTokenError", token, asyncToken)
}

//export mlirAsyncRuntimeIsValueError
func mlirAsyncRuntimeIsValueError(value unsafe.Pointer) C.bool {
	return isError("mlirAsyncRuntimeIsValueError", value, asyncValue)
}

//export mlirAsyncRuntimeIsGroupError
func mlirAsyncRuntimeIsGroupError(group unsafe.Pointer) C.bool {
	return isError("mlirAsyncRuntimeIsGroupError", group, asyncGroup)
}

//export mlirAsyncRuntimeAwaitToken
func mlirAsyncRuntimeAwaitToken(token unsafe.Pointer) {
	<-asyncObjectAt("mlirAsyncRuntimeAwaitToken", token, asyncToken).done
}

//export mlirAsyncRuntimeAwaitValue
func mlirAsyncRuntimeAwaitValue(value unsafe.Pointer) {
	<-asyncObjectAt("mlirAsyncRuntimeAwaitValue", value, asyncValue).done
}

//export mlirAsyncRuntimeAwaitAllInGroup
func mlirAsyncRuntimeAwaitAllInGroup(group unsafe.Pointer) {
	<-asyncObjectAt("mlirAsyncRuntimeAwaitAllInGroup", group, asyncGroup).done
}

//export mlirAsyncRuntimeGetValueStorage
func mlirAsyncRuntimeGetValueStorage(value unsafe.Pointer) unsafe.Pointer {
	return asyncObjectAt("mlirAsyncRuntimeGetValueStorage", value, asyncValue).storage
}

//export mlirAsyncRuntimeExecute
func mlirAsyncRuntimeExecute(handle, fn unsafe.Pointer) {
	go resume(handle, fn)
}

//export mlirAsyncRuntimeAwaitTokenAndExecute
func mlirAsyncRuntimeAwaitTokenAndExecute(token, handle, fn unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeAwaitTokenAndExecute", token, asyncToken).whenReady(func() { resume(handle, fn) })
}

//export mlirAsyncRuntimeAwaitValueAndExecute
func mlirAsyncRuntimeAwaitValueAndExecute(value, handle, fn unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeAwaitValueAndExecute", value, asyncValue).whenReady(func() { resume(handle, fn) })
}

//export mlirAsyncRuntimeAwaitAllInGroupAndExecute
func mlirAsyncRuntimeAwaitAllInGroupAndExecute(group, handle, fn unsafe.Pointer) {
	asyncObjectAt("mlirAsyncRuntimeAwaitAllInGroupAndExecute", group, asyncGroup).whenReady(func() { resume(handle, fn) })
}

// mlirAsyncRuntimGetNumWorkerThreads (upstream's spelling) is the number of workers that the
// lowering of async's parallel loops (async-parallel-for) sizes its blocks by: Go's GOMAXPROCS,
// the CPUs it runs Go code on, as upstream's thread pool has a thread per hardware thread. (The
// goroutines that mlirAsyncRuntimeExecute starts are not bounded by it while in C code.)
//
//export mlirAsyncRuntimGetNumWorkerThreads
func mlirAsyncRuntimGetNumWorkerThreads() C.int64_t { return C.int64_t(runtime.GOMAXPROCS(0)) }

//export mlirAsyncRuntimePrintCurrentThreadId
func mlirAsyncRuntimePrintCurrentThreadId() { C.mlirrt_async_print_thread_id() }
