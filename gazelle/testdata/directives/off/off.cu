__global__ void off() {}
