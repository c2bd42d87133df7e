// Triangles of an undirected graph in two launches and no host sync: the forward listing
// (Schank & Wagner 2005, "Finding, counting and listing all triangles in large graphs"; the
// degree order of Cohen 2009), a thread an entry, with the structural symmetry check in the
// same pass, and the entries of long walks handed to a warp each.
//
// The graph: a canonical CSR (each row sorted, no duplicates) whose stored entries are its
// edges; values are not read, self-loops are in no triangle. Vertices are ranked by
// (row length, index) ascending. The thread of entry (u, v) in tc_forward:
//   1. looks for u in row v (binary search): a miss counts toward out[1], and the counts of an
//      asymmetric graph mean nothing (the launcher refuses them);
//   2. if rank(u) < rank(v), walks the shorter of rows u and v and, for each w ranked above v
//      in it, looks for w in the other row: each hit is the triangle u < v < w (in rank),
//      found at this entry alone (its lowest edge, its top vertex w). Rows of lengths within
//      SR_TC_MERGE_RATIO of each other are merged instead (tc_merge: the same triangles).
// A walk longer than `walk` entries (two hubs' edge: the walks of a skewed graph differ by
// orders of magnitude, and one thread's 10^4 searches would hold its whole block) goes onto a
// worklist instead; tc_forward_warps then runs each listed entry's step 2 with a warp, its
// lanes splitting the walk. The launcher (backend/gpu/triangles.py) zeroes out[0..2] (and t),
// launches both kernels, and reads out[] back once.
// Index type I: int or long long, the CSR's (indptr, indices).

#define SR_TC_THREADS 256

// Whether key is among indices[lo, hi) (sorted ascending).
template <typename I>
__device__ __forceinline__ bool tc_has(const I* __restrict__ indices, long long lo, long long hi,
                                       I key) {
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        I x = indices[mid];
        if (x == key) return true;
        if (x < key) lo = mid + 1; else hi = mid;
    }
    return false;
}

// rank(a) < rank(b): (degree, index) ascending.
__device__ __forceinline__ bool tc_before(long long da, long long a, long long db, long long b) {
    return da < db || (da == db && a < b);
}

// A warp's sum of a per-thread count, added to *out by its lane 0.
__device__ __forceinline__ void tc_add(unsigned long long v, unsigned long long* out) {
    for (int o = 16; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffffu, v, o);
    if ((threadIdx.x & 31) == 0 && v) atomicAdd(out, v);
}

// The rows an entry's step 2 walks and searches: (a0, a1) the shorter, (b0, b1) the other.
struct tc_walk {
    long long a0, a1, b0, b1;
};

__device__ __forceinline__ tc_walk tc_rows(long long u0, long long u1, long long v0,
                                           long long v1) {
    return u1 - u0 <= v1 - v0 ? tc_walk{u0, u1, v0, v1} : tc_walk{v0, v1, u0, u1};
}

// The row holding entry e: the last u with indptr[u] <= e (indptr[n] = nnz > e).
template <typename I>
__device__ __forceinline__ long long tc_row(const I* __restrict__ indptr, long long n,
                                            long long e) {
    long long lo = 1, hi = n;
    while (lo < hi) {
        long long mid = (lo + hi) >> 1;
        if ((long long)indptr[mid] > e) hi = mid; else lo = mid + 1;
    }
    return lo - 1;
}

// Step 2 over the walk's positions p = first, first + step, ... < a1: the triangles found.
template <typename I>
__device__ __forceinline__ unsigned long long tc_step(
        const I* __restrict__ indptr, const I* __restrict__ indices, long long u, long long v,
        long long dv, tc_walk r, long long first, long long step,
        unsigned long long* __restrict__ t) {
    unsigned long long found = 0;
    for (long long p = first; p < r.a1; p += step) {
        const I w = indices[p];
        const long long dw = indptr[(long long)w + 1] - indptr[w];
        if (!tc_before(dv, v, dw, (long long)w)) continue;
        if (tc_has(indices, r.b0, r.b1, w)) {
            ++found;
            if (t != nullptr) {
                atomicAdd(t + u, 1ull);
                atomicAdd(t + v, 1ull);
                atomicAdd(t + w, 1ull);
            }
        }
    }
    return found;
}

// Step 2 of a thread whose two rows differ in length by at most SR_TC_MERGE_RATIO: both rows
// read in order side by side (a merge), a rank read only on a common w. A search a w costs a
// few dependent loads of the other row where the merge costs one (H200, session 27,
// bench/probes/tc_variants.py, the thread pass: urand-18-ef8 1.02 -> 0.65 ms, urand-20 16.5
// -> 9.5, kron-18 19.7 -> 19.5). Searching every w first and reading its rank only on a hit
// lost (urand-18-ef8 1.29 -> 1.58 ms): ranks are indptr reads that L2 holds, and half the
// walk's searches are saved by them.
#define SR_TC_MERGE_RATIO 4

template <typename I>
__device__ __forceinline__ unsigned long long tc_merge(
        const I* __restrict__ indptr, const I* __restrict__ indices, long long u, long long v,
        long long dv, tc_walk r, unsigned long long* __restrict__ t) {
    unsigned long long found = 0;
    long long p = r.a0, q = r.b0;
    while (p < r.a1 && q < r.b1) {
        const I x = indices[p], y = indices[q];
        if (x != y) {
            if (x < y) ++p; else ++q;
            continue;
        }
        ++p;
        ++q;
        const long long dw = indptr[(long long)x + 1] - indptr[x];
        if (!tc_before(dv, v, dw, (long long)x)) continue;
        ++found;
        if (t != nullptr) {
            atomicAdd(t + u, 1ull);
            atomicAdd(t + v, 1ull);
            atomicAdd(t + x, 1ull);
        }
    }
    return found;
}

// out[0] += the triangles, out[1] += the entries (u, v) without (v, u), out[2]: the entries
// listed in work[] for tc_forward_warps (walks longer than `walk`); t (or nullptr): each
// vertex's triangles added (three atomics a triangle). check = 0 skips step 1 (the launcher
// knows the structure symmetric: out[1] stays 0).
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_forward(const I* __restrict__ indptr, const I* __restrict__ indices, long long n,
           long long nnz, long long walk, int check, unsigned long long* __restrict__ out,
           unsigned long long* __restrict__ t, I* __restrict__ work) {
    unsigned long long found = 0, asym = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += stride) {
        const long long u = tc_row(indptr, n, e), v = (long long)indices[e];
        const long long u0 = indptr[u], u1 = indptr[u + 1], v0 = indptr[v], v1 = indptr[v + 1];
        if (check && !tc_has(indices, v0, v1, (I)u)) {
            ++asym;
            continue;
        }
        const long long dv = v1 - v0;
        if (!tc_before(u1 - u0, u, dv, v)) continue;  // also u == v
        const tc_walk r = tc_rows(u0, u1, v0, v1);
        if (r.a1 - r.a0 > walk) {
            work[atomicAdd(out + 2, 1ull)] = (I)e;
            continue;
        }
        found += r.b1 - r.b0 <= SR_TC_MERGE_RATIO * (r.a1 - r.a0)
                     ? tc_merge(indptr, indices, u, v, dv, r, t)
                     : tc_step(indptr, indices, u, v, dv, r, r.a0, 1, t);
    }
    tc_add(found, out);
    tc_add(asym, out + 1);
}

// Step 2 of each entry listed by tc_forward, a warp an entry (grid-stride over the list).
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_forward_warps(const I* __restrict__ indptr, const I* __restrict__ indices, long long n,
                 unsigned long long* __restrict__ out, unsigned long long* __restrict__ t,
                 const I* __restrict__ work) {
    const long long listed = (long long)out[2];
    const int lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    unsigned long long found = 0;
    for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < listed;
         i += warps) {
        const long long e = (long long)work[i];
        const long long u = tc_row(indptr, n, e), v = (long long)indices[e];
        const long long v0 = indptr[v], v1 = indptr[v + 1];
        const tc_walk r = tc_rows(indptr[u], indptr[u + 1], v0, v1);
        found += tc_step(indptr, indices, u, v, v1 - v0, r, r.a0 + lane, 32, t);
    }
    tc_add(found, out);
}
