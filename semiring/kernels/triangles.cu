// Triangles of a small undirected graph in one launch: the forward listing (Schank & Wagner
// 2005, "Finding, counting and listing all triangles in large graphs"; the degree order of
// Cohen 2009), a thread an entry, with the structural symmetry check in the same pass.
//
// The graph: a canonical CSR (each row sorted, no duplicates) whose stored entries are its
// edges; values are not read, self-loops are in no triangle. Vertices are ranked by
// (row length, index) ascending. The thread of entry (u, v):
//   1. looks for u in row v (binary search): a miss counts toward asym[0], and the counts of
//      an asymmetric graph mean nothing (the launcher refuses them);
//   2. if rank(u) < rank(v), walks the shorter of rows u and v and, for each w ranked above
//      v in it, looks for w in the other row: each hit is the triangle u < v < w (in rank),
//      found by this thread alone (its lowest edge, its top vertex w).
// A thread's work is O(min(deg u, deg v) · log max(deg u, deg v)): cheap for the small graphs
// this is for, whose whole count would otherwise be a chain of launches and host round trips
// (orientation, the masked product, its reduction). The launcher (backend/gpu/triangles.py)
// zeroes out[0..1] (and t), launches tc_forward, and reads out[] back once.
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

// out[0] += the triangles, out[1] += the entries (u, v) without (v, u); t (or nullptr): each
// vertex's triangles added (three atomics a triangle).
template <typename I>
__global__ void __launch_bounds__(SR_TC_THREADS)
tc_forward(const I* __restrict__ indptr, const I* __restrict__ indices, long long n,
           long long nnz, unsigned long long* __restrict__ out,
           unsigned long long* __restrict__ t) {
    unsigned long long found = 0, asym = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < nnz; e += stride) {
        // u: the row holding e, the last with indptr[u] <= e (indptr[n] = nnz > e)
        long long lo = 1, hi = n;
        while (lo < hi) {
            long long mid = (lo + hi) >> 1;
            if ((long long)indptr[mid] > e) hi = mid; else lo = mid + 1;
        }
        const long long u = lo - 1, v = (long long)indices[e];
        const long long u0 = indptr[u], u1 = indptr[u + 1], v0 = indptr[v], v1 = indptr[v + 1];
        if (!tc_has(indices, v0, v1, (I)u)) {
            ++asym;
            continue;
        }
        const long long du = u1 - u0, dv = v1 - v0;
        if (!tc_before(du, u, dv, v)) continue;  // also u == v
        // walk the shorter row, look in the longer
        const bool short_u = du <= dv;
        const long long a0 = short_u ? u0 : v0, a1 = short_u ? u1 : v1;
        const long long b0 = short_u ? v0 : u0, b1 = short_u ? v1 : u1;
        for (long long p = a0; p < a1; ++p) {
            const I w = indices[p];
            const long long dw = indptr[(long long)w + 1] - indptr[w];
            if (!tc_before(dv, v, dw, (long long)w)) continue;
            if (tc_has(indices, b0, b1, w)) {
                ++found;
                if (t != nullptr) {
                    atomicAdd(t + u, 1ull);
                    atomicAdd(t + v, 1ull);
                    atomicAdd(t + w, 1ull);
                }
            }
        }
    }
    tc_add(found, out);
    tc_add(asym, out + 1);
}
