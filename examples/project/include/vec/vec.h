// vec.h: a header-only library that host C++ and CUDA C++ share (a cc_library). Its include path
// (includes = ["include"]) and its define VEC_UNROLL reach a gpu_module that depends on it.
#ifndef VEC_VEC_H_
#define VEC_VEC_H_

#ifdef __CUDACC__
#define VEC_FN __host__ __device__ inline
#else
#define VEC_FN inline
#endif

#ifndef VEC_UNROLL
#error "VEC_UNROLL comes from the cc_library's defines"
#endif

namespace vec {

// a * x + b * y, the element-wise step of axpby.
VEC_FN float axpby(float a, float x, float b, float y) { return a * x + b * y; }

}  // namespace vec

#endif  // VEC_VEC_H_
