__global__ void on() {}
