// Elementwise kernels of ewise_add / ewise_mult / apply / accumulators on sparse entries.
// Every operand is (pointer, stride): stride 0 broadcasts one value (a bound scalar, the value
// of a structure-only matrix, or a coordinate that is always 0), stride 1 reads an array.
// Coordinates are int64 (sr_index) because positional ops return them.

// (The unary helpers sr_minv, sr_ainv, sr_abs are in common.cuh, before the op structs.)

// z[t] = Op(x[t], y[t]) at coordinates (ia, ja) of x's entry and (ib, jb) of y's.
template <class Op, typename T, typename R>
__global__ void ew_binary(const T* __restrict__ x, long long xs, const T* __restrict__ y, long long ys,
                          const sr_index* __restrict__ ia, long long ias,
                          const sr_index* __restrict__ ja, long long jas,
                          const sr_index* __restrict__ ib, long long ibs,
                          const sr_index* __restrict__ jb, long long jbs,
                          long long n, R* __restrict__ z)
{
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        z[t] = Op::template f<R, T>(x[t * xs], y[t * ys], ia[t * ias], ja[t * jas], ib[t * ibs], jb[t * jbs]);
    }
}

// z[t] = U(x[t]) at coordinates (i, j).
template <class U, typename T, typename R>
__global__ void ew_unary(const T* __restrict__ x, long long xs,
                         const sr_index* __restrict__ i, long long is,
                         const sr_index* __restrict__ j, long long js,
                         long long n, R* __restrict__ z)
{
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < n;
         t += (long long)gridDim.x * blockDim.x) {
        z[t] = U::template f<R, T>(x[t * xs], i[t * is], j[t * js]);
    }
}
