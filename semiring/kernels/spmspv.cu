// Push-direction SpMSpV: out(o) = ⊕_{k in x} x(k) ⊗ M(k,o) over the rows of M listed by a
// sparse vector x (M is A for vxm, Aᵀ for mxv). The frontier's edges are load balanced by an
// inclusive prefix sum `offsets` over the frontier's degrees (Merrill, Garland & Grimshaw 2012;
// seed 001): edge e belongs to frontier slot t = upper_bound(offsets, e). A persistent grid walks
// tiles of SR_PUSH_TILE consecutive edges; per tile, one binary search in global memory finds the
// slots it spans, their offsets are staged in shared memory, and each edge finds its slot there
// (the load-balanced search of moderngpu). The edge count is read from device memory, so the
// host needs no synchronization before the launch.

#define SR_PUSH_THREADS 256
#define SR_PUSH_ITEMS 4
#define SR_PUSH_TILE (SR_PUSH_THREADS * SR_PUSH_ITEMS)

// The number of offsets[0..n) that are <= e (offsets is nondecreasing).
__device__ __forceinline__ long long sr_upper_bound(const long long* __restrict__ offsets, long long n, long long e) {
    long long lo = 0, hi = n;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (offsets[mid] <= e) lo = mid + 1; else hi = mid;
    }
    return lo;
}

// Calls visit(o, k, p, t, e) for every edge e of the frontier: output index o, inner index k,
// position p in M's arrays, frontier slot t. Must be called by every thread of the block.
template <typename I, typename F>
__device__ __forceinline__ void sr_push_edges(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const long long* __restrict__ xidx, long long nx, const long long* __restrict__ offsets,
    F visit)
{
    __shared__ long long s_off[SR_PUSH_TILE];
    __shared__ long long s_t0, s_ns, s_base;
    if (nx == 0) return;
    const long long total = offsets[nx - 1];
    for (long long e0 = (long long)blockIdx.x * SR_PUSH_TILE; e0 < total;
         e0 += (long long)gridDim.x * SR_PUSH_TILE) {
        const long long e1 = min(e0 + (long long)SR_PUSH_TILE, total);
        if (threadIdx.x == 0) {
            const long long t0 = sr_upper_bound(offsets, nx, e0);
            const long long t1 = sr_upper_bound(offsets, nx, e1 - 1);
            s_t0 = t0;
            s_ns = t1 - t0 + 1;
            s_base = t0 > 0 ? offsets[t0 - 1] : 0;
        }
        __syncthreads();
        const long long t0 = s_t0, ns = s_ns, base = s_base;
        // frontier vertices of degree 0 can make a tile span more slots than it has edges
        const bool staged = ns <= SR_PUSH_TILE;
        if (staged) {
            for (long long i = threadIdx.x; i < ns; i += SR_PUSH_THREADS) s_off[i] = offsets[t0 + i];
        }
        __syncthreads();
#pragma unroll
        for (int it = 0; it < SR_PUSH_ITEMS; ++it) {
            const long long e = e0 + (long long)it * SR_PUSH_THREADS + threadIdx.x;
            if (e < e1) {
                long long j, first;
                if (staged) {
                    long long lo = 0, hi = ns;
                    while (lo < hi) {
                        const long long mid = (lo + hi) >> 1;
                        if (s_off[mid] <= e) lo = mid + 1; else hi = mid;
                    }
                    j = lo;
                    first = j > 0 ? s_off[j - 1] : base;
                } else {
                    j = sr_upper_bound(offsets + t0, ns, e);
                    first = j > 0 ? offsets[t0 + j - 1] : base;
                }
                const long long t = t0 + j;
                const long long k = xidx[t];
                const long long p = (long long)indptr[k] + (e - first);
                visit((long long)indices[p], k, p, t, e);
            }
        }
        __syncthreads();  // s_off is restaged by the next tile
    }
}

// deg[t] = degree of frontier vertex xidx[t]
template <typename I>
__global__ void frontier_degrees(const I* __restrict__ indptr, const long long* __restrict__ xidx,
                                 long long nx, long long* __restrict__ deg)
{
    const long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (t < nx) deg[t] = (long long)indptr[xidx[t] + 1] - (long long)indptr[xidx[t]];
}

// Idempotent monoids (min, max, lor, land, any): combine with atomics into a dense workspace
// `out` that holds the identity, and list each touched output index once through `claimed`.
// Both are restored by gather_reset, so the next call starts clean without an O(n) fill.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_PUSH_THREADS) spmspv_atomic(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const long long* __restrict__ xidx, const T* __restrict__ xval, long long nx,
    const long long* __restrict__ offsets,
    const bool* __restrict__ allowed,
    R* __restrict__ out, int* __restrict__ claimed,
    long long* __restrict__ touched, unsigned long long* __restrict__ ntouched,
    int term_mode)
{
    sr_push_edges<I>(indptr, indices, xidx, nx, offsets,
        [&](long long o, long long k, long long p, long long t, long long e) {
            if (allowed != nullptr && !allowed[o]) return;
            const R prod = sr_mult<Mul, T, R, XFIRST>(avals[p * astride], xval[t], o, k);
            if (term_mode == SR_TERM_ANY) {
                out[o] = prod;  // any: whichever product lands last is a valid answer
            } else {
                sr_atomic<Add, R>::combine(out + o, prod);
            }
            if (claimed[o] == 0 && atomicCAS(claimed + o, 0, 1) == 0) {
                touched[atomicAdd(ntouched, 1ULL)] = o;
            }
        });
}

// vals[i] = out[touched[i]], then restore the workspace entry to (identity, unclaimed).
template <typename R>
__global__ void gather_reset(const long long* __restrict__ touched, long long n,
                             R* __restrict__ out, int* __restrict__ claimed, R identity,
                             R* __restrict__ vals)
{
    const long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    const long long o = touched[i];
    vals[i] = out[o];
    out[o] = identity;
    claimed[o] = 0;
}

// Other monoids (plus, times, lxor, user-defined): emit (output index, product) per edge for a
// sort and a segmented reduction; masked-out edges get the key `nout`, which sorts last.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST>
__global__ void __launch_bounds__(SR_PUSH_THREADS) spmspv_emit(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const long long* __restrict__ xidx, const T* __restrict__ xval, long long nx,
    const long long* __restrict__ offsets,
    const bool* __restrict__ allowed, long long nout,
    long long* __restrict__ keys, R* __restrict__ prods)
{
    sr_push_edges<I>(indptr, indices, xidx, nx, offsets,
        [&](long long o, long long k, long long p, long long t, long long e) {
            if (allowed != nullptr && !allowed[o]) { keys[e] = nout; return; }
            keys[e] = o;
            prods[e] = sr_mult<Mul, T, R, XFIRST>(avals[p * astride], xval[t], o, k);
        });
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
    for (long long p = begin + lane; p < end; p += 32) sr_fold<Add, R>(acc, found, vals[p]);
    sr_group_reduce<Add, R>(0xffffffffu, 32, acc, found);
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
