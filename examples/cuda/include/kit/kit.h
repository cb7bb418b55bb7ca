// kit.h: a small header library that host and device code share (a cc_library of its own).
#ifndef KIT_KIT_H_
#define KIT_KIT_H_

#ifdef __CUDACC__
#define KIT_HD __host__ __device__
#else
#define KIT_HD
#endif

#ifndef KIT_CLAMP_LIMIT
#error "KIT_CLAMP_LIMIT comes from the kit cc_library's defines"
#endif

// Clamps x to [-KIT_CLAMP_LIMIT, KIT_CLAMP_LIMIT].
KIT_HD inline float kit_clamp(float x) {
  return x < -KIT_CLAMP_LIMIT ? -KIT_CLAMP_LIMIT : (x > KIT_CLAMP_LIMIT ? KIT_CLAMP_LIMIT : x);
}

#endif  // KIT_KIT_H_
