// Push-direction SpMSpV: out(o) = ⊕_{k in x} x(k) ⊗ M(k,o) over the rows of M listed by a
// sparse vector x (M is A for vxm, Aᵀ for mxv). The frontier's edges are load balanced by an
// inclusive prefix sum `offsets` over the frontier's degrees (Merrill, Garland & Grimshaw 2012;
// seed 001): edge e belongs to frontier slot t = upper_bound(offsets, e). A persistent grid
// strides over the edges and reads the edge count from device memory, so the host needs no
// synchronization before the launch.

// Largest t with offsets[t-1] <= e, i.e. the number of offsets <= e.
__device__ __forceinline__ long long sr_upper_bound(const long long* __restrict__ offsets, long long n, long long e) {
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (offsets[mid] <= e) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// Idempotent monoids (min, max, lor, land, any): combine with atomics into a dense `out`
// that holds the identity, and list each touched output index once through `claimed`.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void spmspv_atomic(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const long long* __restrict__ xidx, const T* __restrict__ xval, long long nx,
    const long long* __restrict__ offsets,
    const bool* __restrict__ allowed,
    R* __restrict__ out, int* __restrict__ claimed,
    long long* __restrict__ touched, unsigned long long* __restrict__ ntouched,
    int term_mode)
{
    if (nx == 0) return;
    const long long total = offsets[nx - 1];
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        const long long t = sr_upper_bound(offsets, nx, e);
        const long long k = xidx[t];
        const long long p = (long long)indptr[k] + (e - (t > 0 ? offsets[t - 1] : 0));
        const long long o = indices[p];
        if (allowed != nullptr && !allowed[o]) continue;
        const R prod = sr_mult<Mul, T, R, XFIRST>(avals[p * astride], xval[t], o, k);
        if (term_mode == SR_TERM_ANY) {
            // any: whichever product lands last is a valid answer
            out[o] = prod;
        } else {
            sr_atomic<Add, R>::combine(out + o, prod);
        }
        if (claimed[o] == 0 && atomicCAS(claimed + o, 0, 1) == 0) {
            touched[atomicAdd(ntouched, 1ULL)] = o;
        }
    }
}

// Other monoids (plus, times, lxor, user-defined): emit (output index, product) per edge for a
// sort and a segmented reduction; masked-out edges get the key `nout`, which sorts last.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void spmspv_emit(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const long long* __restrict__ xidx, const T* __restrict__ xval, long long nx,
    const long long* __restrict__ offsets,
    const bool* __restrict__ allowed, long long nout,
    long long* __restrict__ keys, R* __restrict__ prods)
{
    if (nx == 0) return;
    const long long total = offsets[nx - 1];
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        const long long t = sr_upper_bound(offsets, nx, e);
        const long long k = xidx[t];
        const long long p = (long long)indptr[k] + (e - (t > 0 ? offsets[t - 1] : 0));
        const long long o = indices[p];
        if (allowed != nullptr && !allowed[o]) { keys[e] = nout; continue; }
        keys[e] = o;
        prods[e] = sr_mult<Mul, T, R, XFIRST>(avals[p * astride], xval[t], o, k);
    }
}

// Reduce segments [seg[s], seg[s+1]) of `vals` in a fixed order (deterministic for floats):
// one warp per segment.
template <class Add, typename R>
__global__ void segment_reduce(const long long* __restrict__ seg, long long nseg,
                               const R* __restrict__ vals, R* __restrict__ out)
{
    const long long s = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const int lane = threadIdx.x & 31;
    if (s >= nseg) return;
    const long long begin = seg[s], end = seg[s + 1];
    R acc = R();
    bool found = false;
    for (long long p = begin + lane; p < end; p += 32) {
        acc = found ? Add::template f<R, R>(acc, vals[p], 0, 0, 0, 0) : vals[p];
        found = true;
    }
    for (int off = 16; off > 0; off >>= 1) {
        const R oacc = sr_shfl_down<R>(0xffffffffu, acc, off, 32);
        const bool ofound = sr_shfl_down<bool>(0xffffffffu, found, off, 32);
        if (ofound) {
            acc = found ? Add::template f<R, R>(acc, oacc, 0, 0, 0, 0) : oacc;
            found = true;
        }
    }
    if (lane == 0) out[s] = acc;
}

// Fold runs [seg[s], seg[s+1]) of `vals` left to right with any binary op (duplicate entries
// of from_coo with a dup_op that need not commute): one thread per run; runs are short.
template <class Op, typename T>
__global__ void segment_fold(const long long* __restrict__ seg, long long nseg,
                             const T* __restrict__ vals, T* __restrict__ out)
{
    const long long s = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (s >= nseg) return;
    T acc = vals[seg[s]];
    for (long long p = seg[s] + 1; p < seg[s + 1]; ++p) acc = Op::template f<T, T>(acc, vals[p], 0, 0, 0, 0);
    out[s] = acc;
}
