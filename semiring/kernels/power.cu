// One power-iteration step's vector work (algorithms.pagerank), fused: after the product
// t = w ⊕.⊗ A, over the n vertices
//
//     x'(i) = d · (t(i) + s · u(i)) + p(i)      (t(i) = 0 where tpres(i) is 0, when given)
//     w'(i) = x'(i) · inv(i)                     (the next product's operand)
//
// and, per block, the two sums the host reads: Σ |x'(i) − x(i)| (the change, the stopping
// test) and Σ x'(i) over the dangling vertices, inv(i) == 0 (the next step's s). Separate
// CuPy element-wise kernels and reductions cost ~15 µs each on an H200 host, most of a small
// PageRank's iteration (bench/probes/pagerank_iteration_gpu.py).
//
// The arithmetic is NumPy's, operation by operation (no contraction into fused multiply-adds):
// from the same t, x and s, the CPU path's x' and w', bit for bit. The sums are in a fixed
// order for a given n (a grid-stride loop over a grid the launcher sizes from n alone, then a
// tree in shared memory): the same change and s on every run; part[2b], part[2b + 1] hold
// block b's.

#ifndef SR_POWER_THREADS
#define SR_POWER_THREADS 256
#endif

__global__ void __launch_bounds__(SR_POWER_THREADS) power_update(
    const double* __restrict__ t, const bool* __restrict__ tpres, const double* __restrict__ x,
    const double* __restrict__ u, const double* __restrict__ p, const double* __restrict__ inv,
    double d, double s, long long n, double* __restrict__ xn, double* __restrict__ w,
    double* __restrict__ part) {
    __shared__ double change[SR_POWER_THREADS];
    __shared__ double dangling[SR_POWER_THREADS];
    double c = 0.0, g = 0.0;
    const long long stride = (long long)gridDim.x * SR_POWER_THREADS;
    for (long long i = (long long)blockIdx.x * SR_POWER_THREADS + threadIdx.x; i < n;
         i += stride) {
        const double ti = (tpres == nullptr || tpres[i]) ? t[i] : 0.0;
        const double v = __dadd_rn(__dmul_rn(d, __dadd_rn(ti, __dmul_rn(s, u[i]))), p[i]);
        const double q = inv[i];
        xn[i] = v;
        w[i] = __dmul_rn(v, q);
        c = __dadd_rn(c, fabs(__dadd_rn(v, -x[i])));
        if (q == 0.0) g = __dadd_rn(g, v);
    }
    change[threadIdx.x] = c;
    dangling[threadIdx.x] = g;
    __syncthreads();
    for (int k = SR_POWER_THREADS / 2; k > 0; k >>= 1) {
        if (threadIdx.x < k) {
            change[threadIdx.x] += change[threadIdx.x + k];
            dangling[threadIdx.x] += dangling[threadIdx.x + k];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        part[2 * blockIdx.x] = change[0];
        part[2 * blockIdx.x + 1] = dangling[0];
    }
}
