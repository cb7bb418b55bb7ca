//go:build cuda

// The C half of package mlirrt's async runtime (async_cuda.go): what Go cannot do itself, calling
// a coroutine's resume function through its pointer, and naming the calling thread.

#include "mlirrt_cuda.h"

#include <pthread.h>
#include <stdio.h>

void mlirrt_async_resume(void *handle, void *resume) { ((void (*)(void *))resume)(handle); }

void *mlirrt_async_handle(uintptr_t handle) { return (void *)handle; }

void mlirrt_async_print_thread_id(void) {
  printf("Current thread id: %lu\n", (unsigned long)pthread_self());
  fflush(stdout);
}
