// axpby_params.cuh: a header of the gpu_module itself (hdrs), included by its package path.
#ifndef EXAMPLES_PROJECT_AXPBY_PARAMS_CUH_
#define EXAMPLES_PROJECT_AXPBY_PARAMS_CUH_

#ifndef AXPBY_BETA
#error "AXPBY_BETA comes from the gpu_module's defines"
#endif

constexpr float kAlpha = 2.0f;
constexpr float kBeta = AXPBY_BETA;

#endif  // EXAMPLES_PROJECT_AXPBY_PARAMS_CUH_
