__global__ void scale(float *x) { x[threadIdx.x] *= 2.0f; }

int main() {
  scale<<<1, 32>>>(nullptr);
  return 0;
}
