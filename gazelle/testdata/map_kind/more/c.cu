__global__ void c() {}
