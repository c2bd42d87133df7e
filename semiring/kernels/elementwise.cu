// Elementwise kernels of ewise_add / ewise_mult / apply / accumulators on sparse entries.
// Every operand is (pointer, stride): stride 0 broadcasts one value (a bound scalar, the value
// of a structure-only matrix, or a coordinate that is always 0), stride 1 reads an array.
// Coordinates are int64 (sr_index) because positional ops return them.

// Multiplicative inverse with GraphBLAS's integer rules (SuiteSparse GB_IMINV): 1/0 is the
// type's maximum, 1/-1 is -1, any other |x| > 1 truncates to 0; bool minv is true.
__device__ __forceinline__ bool sr_minv(bool x) { (void)x; return true; }
__device__ __forceinline__ int sr_minv(int x) { return x == 0 ? 2147483647 : (x == -1 ? -1 : 1 / x); }
__device__ __forceinline__ long long sr_minv(long long x) {
    return x == 0 ? 9223372036854775807LL : (x == -1 ? -1LL : 1LL / x);
}
__device__ __forceinline__ float sr_minv(float x) { return 1.0f / x; }
__device__ __forceinline__ double sr_minv(double x) { return 1.0 / x; }

// Additive inverse; bool is its own (GraphBLAS AINV_BOOL is the identity).
template <typename T> __device__ __forceinline__ T sr_ainv(T x) { return -x; }
template <> __device__ __forceinline__ bool sr_ainv<bool>(bool x) { return x; }

template <typename T> __device__ __forceinline__ T sr_abs(T x) { return (x < 0) ? -x : x; }
template <> __device__ __forceinline__ bool sr_abs<bool>(bool x) { return x; }
template <> __device__ __forceinline__ float sr_abs<float>(float x) { return fabsf(x); }
template <> __device__ __forceinline__ double sr_abs<double>(double x) { return fabs(x); }

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
