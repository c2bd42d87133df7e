// Triangles of an undirected graph in a few launches and no host sync: the forward listing
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
// worklist instead; tc_listed_warps then runs each listed entry's step 2 with a warp, its
// lanes splitting the walk. The launcher (backend/gpu/triangles.py) zeroes out[0..2] (and t),
// launches both kernels, and reads out[] back once. The oriented variant (the end of this file)
// makes the orientation first and lists from it.
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

// A triangle (u, v, w) found: its three vertices' counts (t, when asked for).
__device__ __forceinline__ void tc_hit(unsigned long long* __restrict__ t, long long u,
                                       long long v, long long w) {
    if (t != nullptr) {
        atomicAdd(t + u, 1ull);
        atomicAdd(t + v, 1ull);
        atomicAdd(t + w, 1ull);
    }
}

// Whether w closes a triangle above (u, v): ranked above v (Ranked: rows of A, whose common
// entries include those below v; the oriented rows hold only entries ranked above their row).
template <bool Ranked, typename I>
__device__ __forceinline__ bool tc_above(const I* __restrict__ indptr, long long v, long long dv,
                                         I w) {
    if (!Ranked) return true;
    const long long dw = indptr[(long long)w + 1] - indptr[w];
    return tc_before(dv, v, dw, (long long)w);
}

// Step 2 over the walk's positions p = first, first + step, ... < a1: the triangles found.
// indices: the array the walk's rows index (A's, or the oriented graph's); indptr: A's.
template <bool Ranked, typename I>
__device__ __forceinline__ unsigned long long tc_step(
        const I* __restrict__ indptr, const I* __restrict__ indices, long long u, long long v,
        long long dv, tc_walk r, long long first, long long step,
        unsigned long long* __restrict__ t) {
    unsigned long long found = 0;
    for (long long p = first; p < r.a1; p += step) {
        const I w = indices[p];
        if (!tc_above<Ranked>(indptr, v, dv, w)) continue;
        if (tc_has(indices, r.b0, r.b1, w)) {
            ++found;
            tc_hit(t, u, v, w);
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

template <bool Ranked, typename I>
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
        if (!tc_above<Ranked>(indptr, v, dv, x)) continue;
        ++found;
        tc_hit(t, u, v, x);
    }
    return found;
}

// Step 2 of one thread: the merge where the rows' lengths are within SR_TC_MERGE_RATIO, else
// the walk's searches.
template <bool Ranked, typename I>
__device__ __forceinline__ unsigned long long tc_pair(
        const I* __restrict__ indptr, const I* __restrict__ indices, long long u, long long v,
        long long dv, tc_walk r, unsigned long long* __restrict__ t) {
    return r.b1 - r.b0 <= SR_TC_MERGE_RATIO * (r.a1 - r.a0)
               ? tc_merge<Ranked>(indptr, indices, u, v, dv, r, t)
               : tc_step<Ranked>(indptr, indices, u, v, dv, r, r.a0, 1, t);
}

// out[0] += the triangles, out[1] += the entries (u, v) without (v, u), out[2]: the entries
// listed in work[] for tc_listed_warps (walks longer than `walk`); t (or nullptr): each
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
        found += tc_pair<true>(indptr, indices, u, v, dv, r, t);
    }
    tc_add(found, out);
    tc_add(asym, out + 1);
}

// ---------------------------------------------------------------------------------------------
// The oriented variant: the forward orientation made once as a CSR of its own (row u: the
// entries v of A's row u ranked above u, in A's order), then a thread an oriented entry whose
// two rows hold only vertices ranked above it: no rank reads, no threads that stop at once
// (half of tc_forward's), rows of half the length. Four launches and a scan where tc_forward
// is two launches: the launcher takes it for large graphs.

// count[u] = |oriented row u|, a warp a row; check: out[1] += the entries (u, v) without (v, u).
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_orient_count(const I* __restrict__ indptr, const I* __restrict__ indices, long long n,
                int check, I* __restrict__ count, unsigned long long* __restrict__ out) {
    const int lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    unsigned long long asym = 0;
    for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; u < n;
         u += warps) {
        const long long u0 = indptr[u], u1 = indptr[u + 1];
        unsigned long long kept = 0;
        for (long long p = u0 + lane; p < u1; p += 32) {
            const long long v = (long long)indices[p];
            const long long v0 = indptr[v], v1 = indptr[v + 1];
            if (check && !tc_has(indices, v0, v1, (I)u)) ++asym;
            kept += tc_before(u1 - u0, u, v1 - v0, v);  // also u == v: not kept
        }
        for (int o = 16; o > 0; o >>= 1) kept += __shfl_down_sync(0xffffffffu, kept, o);
        if (lane == 0) count[u] = (I)kept;
    }
    tc_add(asym, out + 1);
}

// The oriented rows (optr: the scan of tc_orient_count's counts) and each entry's row, a warp a
// row: a ballot a round of 32 entries keeps A's order. cap: the room in oind and orow (the
// launcher sizes them without reading optr[n] back).
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_orient_fill(const I* __restrict__ indptr, const I* __restrict__ indices, long long n,
               const I* __restrict__ optr, long long cap, I* __restrict__ oind,
               I* __restrict__ orow) {
    const int lane = threadIdx.x & 31;
    const unsigned below = (1u << lane) - 1u;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    for (long long u = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; u < n;
         u += warps) {
        const long long u0 = indptr[u], u1 = indptr[u + 1];
        long long base = optr[u];
        for (long long q = u0; q < u1; q += 32) {  // the same trip count on every lane
            const long long p = q + lane;
            bool keep = false;
            I v = 0;
            if (p < u1) {
                v = indices[p];
                keep = tc_before(u1 - u0, u, indptr[(long long)v + 1] - indptr[v], (long long)v);
            }
            const unsigned m = __ballot_sync(0xffffffffu, keep);
            const long long at = base + __popc(m & below);
            if (keep && at < cap) {
                oind[at] = v;
                orow[at] = (I)u;
            }
            base += __popc(m);
        }
    }
}

// out[0] += the triangles of the oriented graph (optr, oind, orow; optr[n] entries, at most
// cap), a thread an entry; walks longer than `walk` listed in work[] (out[2]) for
// tc_listed_warps.
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_oriented(const I* __restrict__ optr, const I* __restrict__ oind, const I* __restrict__ orow,
            long long n, long long cap, long long walk, unsigned long long* __restrict__ out,
            unsigned long long* __restrict__ t, I* __restrict__ work) {
    const long long m = min((long long)optr[n], cap);
    const long long stride = (long long)gridDim.x * blockDim.x;
    unsigned long long found = 0;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < m; e += stride) {
        const long long u = (long long)orow[e], v = (long long)oind[e];
        const tc_walk r = tc_rows(optr[u], optr[u + 1], optr[v], optr[v + 1]);
        if (r.a1 - r.a0 > walk) {
            work[atomicAdd(out + 2, 1ull)] = (I)e;
            continue;
        }
        found += tc_pair<false>(optr, oind, u, v, 0, r, t);
    }
    tc_add(found, out);
}

// Step 2 of each entry listed by tc_forward (Oriented = false: ptr, ind are A's, its rows found
// by search, row = nullptr) or tc_oriented (Oriented = true: the oriented graph's arrays and
// each entry's row), a warp an entry (grid-stride over the list), its lanes splitting the walk.
template <typename I, bool Oriented>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_listed_warps(const I* __restrict__ ptr, const I* __restrict__ ind, const I* __restrict__ row,
                long long n, unsigned long long* __restrict__ out,
                unsigned long long* __restrict__ t, const I* __restrict__ work) {
    const long long listed = (long long)out[2];
    const int lane = threadIdx.x & 31;
    const long long warps = (long long)gridDim.x * (blockDim.x >> 5);
    unsigned long long found = 0;
    for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < listed;
         i += warps) {
        const long long e = (long long)work[i];
        const long long u = Oriented ? (long long)row[e] : tc_row(ptr, n, e);
        const long long v = (long long)ind[e];
        const long long v0 = ptr[v], v1 = ptr[v + 1];
        const tc_walk r = tc_rows(ptr[u], ptr[u + 1], v0, v1);
        found += tc_step<!Oriented>(ptr, ind, u, v, v1 - v0, r, r.a0 + lane, 32, t);
    }
    tc_add(found, out);
}
