__global__ void o() {}
