// BFS levels on one rank's vertex block of a distributed graph (semiring/blocks.py): the rank
// owns vertices lo..hi-1, holds the column block B = A(:, lo:hi) (n rows, local column ids)
// and its transpose Bᵀ (the rank's vertices' in-edges, global source ids, each row in
// ascending order), and exchanges the frontier with its peers as a bitmap.
//
// The rank's send buffer `out` (uint32): [0..1] the new frontier's size (u64), [2..3] its
// out-edges (u64, the global out-degrees `deg` of the rank's vertices), then the words of the
// bitmap of the new frontier over the global words lo/32 .. (hi-1)/32: local vertex j is bit
// (j + shift) with shift = lo % 32. The ranks' buffers all-gathered and OR-ed (bb_join) are the
// global frontier bitmap, each rank having set only its own vertices' bits.
//
// level, parent: the rank's slices (int64, -1 where unreached). PARENTS: 0 none, 1 any
// in-neighbour on the previous level, 2 the smallest (min_secondi; the pull's first hit in a
// sorted row is the smallest, the push takes an atomic min).

#define SR_BB_HEAD 4     // uint32 words of the send buffer's header
// A pull row of at most this many in-edges is scanned by its own lane; longer rows by the
// whole warp, 32 edges a step (a Kronecker hub's thousands of in-edges would otherwise hold a
// lane, and its warp, for the whole scan).
#define SR_BB_LIGHT 32

__device__ __forceinline__ void sr_bb_count(unsigned* out, long long count, long long edges)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        count += __shfl_down_sync(0xffffffffu, count, off);
        edges += __shfl_down_sync(0xffffffffu, edges, off);
    }
    if ((threadIdx.x & 31) == 0) {
        unsigned long long* head = reinterpret_cast<unsigned long long*>(out);
        if (count) atomicAdd(&head[0], (unsigned long long)count);
        if (edges) atomicAdd(&head[1], (unsigned long long)edges);
    }
}

// Set the bits of a warp's 32 consecutive local vertices base .. base+31 (base a multiple of
// 32) where `mask` says so: two words at most (shift > 0 straddles).
__device__ __forceinline__ void sr_bb_set_warp(unsigned* words, long long base, int shift,
                                               unsigned mask)
{
    if (mask == 0u || (threadIdx.x & 31) != 0) return;
    const long long w = (base + shift) >> 5;
    atomicOr(&words[w], mask << shift);
    if (shift && (mask >> (32 - shift))) atomicOr(&words[w + 1], mask >> (32 - shift));
}

__device__ __forceinline__ bool sr_bb_bit(const unsigned* __restrict__ bits, long long u)
{
    return (bits[u >> 5] >> (u & 31)) & 1u;
}

// Pull: every unreached local vertex j scans its in-edges (row j of Bᵀ) for a vertex of the
// frontier bitmap `fbits` (global), stopping at the first:
//     q⟨¬v⟩ = Bᵀ any.secondi f ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;  out ∪= q ; counts
// Each warp takes 32 consecutive vertices (grid-stride, the same trip count in every lane).
template <typename I, int PARENTS>
__global__ void bb_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long np,
    const unsigned* __restrict__ fbits, long long depth, long long* __restrict__ level,
    long long* __restrict__ parent, const long long* __restrict__ deg,
    unsigned* __restrict__ out, int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0, edges = 0;
    for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane; base < np;
         base += step) {
        const long long j = base + lane;
        long long b = 0, e = 0;
        if (j < np && level[j] < 0) {
            b = (long long)indptr[j];
            e = (long long)indptr[j + 1];
        }
        long long found = -1;
        const bool light = e - b <= SR_BB_LIGHT;
        if (light) {
            for (long long k = b; k < e; ++k) {
                const long long u = (long long)indices[k];
                if (sr_bb_bit(fbits, u)) { found = u; break; }
            }
        }
        unsigned heavy = __ballot_sync(0xffffffffu, !light);
        while (heavy) {
            const int src = __ffs(heavy) - 1;
            heavy &= heavy - 1u;
            const long long hb = __shfl_sync(0xffffffffu, b, src);
            const long long he = __shfl_sync(0xffffffffu, e, src);
            long long hit = -1;
            for (long long k = hb; k < he; k += 32) {
                long long u = -1;
                bool h = false;
                if (k + lane < he) {
                    u = (long long)indices[k + lane];
                    h = sr_bb_bit(fbits, u);
                }
                const unsigned m = __ballot_sync(0xffffffffu, h);
                if (m) {  // the lowest lane's: the row's first hit, its smallest
                    hit = __shfl_sync(0xffffffffu, u, __ffs(m) - 1);
                    break;
                }
            }
            if (lane == src) found = hit;
        }
        const bool take = found >= 0;
        if (take) {
            level[j] = depth;
            if (PARENTS) parent[j] = found;
            ++count;
            edges += deg[j];
        }
        sr_bb_set_warp(words, base, shift, __ballot_sync(0xffffffffu, take));
    }
    sr_bb_count(out, count, edges);
}

// Claim local v for level d1 from u (as sr_claim in traverse.cu): a CAS of level[v] from -1,
// exactly one winner; PARENTS == 1 the winner writes parent[v] = u, PARENTS == 2 every u
// reaching v at d1 offers itself by an atomic min (-1 is the largest unsigned).
template <int PARENTS>
__device__ __forceinline__ bool sr_bb_claim(long long* level, long long* parent, long long v,
                                            long long u, long long d1)
{
    const long long lv = *reinterpret_cast<volatile long long*>(&level[v]);
    bool claimed = false;
    if (lv == -1) {
        const unsigned long long old = atomicCAS(
            reinterpret_cast<unsigned long long*>(&level[v]), ~0ull, (unsigned long long)d1);
        claimed = old == ~0ull;
        if (PARENTS == 2 && (claimed || (long long)old == d1))
            atomicMin(reinterpret_cast<unsigned long long*>(&parent[v]), (unsigned long long)u);
    } else if (PARENTS == 2 && lv == d1) {
        atomicMin(reinterpret_cast<unsigned long long*>(&parent[v]), (unsigned long long)u);
    }
    if (PARENTS == 1 && claimed) parent[v] = u;
    return claimed;
}

// Push: the frontier's vertices (global ids, frontier[0, nf)) scatter along their rows of B
// (their out-edges into lo:hi), one thread an edge; edge e belongs to the slot f with
// offsets[f-1] <= e < offsets[f] (offsets: the inclusive prefix sum of the rows' lengths;
// the total is read here, so the host needs no sync for it):
//     q⟨¬v⟩ = f any.secondi B ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;  out ∪= q ; counts
template <typename I, int PARENTS>
__global__ void bb_push(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const long long* __restrict__ frontier, long long nf, const long long* __restrict__ offsets,
    long long depth, long long* __restrict__ level, long long* __restrict__ parent,
    const long long* __restrict__ deg, unsigned* __restrict__ out, int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const long long total = nf ? offsets[nf - 1] : 0;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0, edges = 0;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += step) {
        long long lo = 0, hi = nf - 1;
        while (lo < hi) {  // the first slot whose inclusive end exceeds e
            const long long mid = (lo + hi) >> 1;
            if (offsets[mid] > e) hi = mid; else lo = mid + 1;
        }
        const long long first = lo ? offsets[lo - 1] : 0;
        const long long u = frontier[lo];
        const long long v = (long long)indices[(long long)indptr[u] + (e - first)];
        if (sr_bb_claim<PARENTS>(level, parent, v, u, depth)) {
            const long long bit = v + shift;
            atomicOr(&words[bit >> 5], 1u << (bit & 31));
            ++count;
            edges += deg[v];
        }
    }
    sr_bb_count(out, count, edges);
}

// The global frontier bitmap from the all-gathered send buffers (P buffers of `stride`
// words each, rank p's words starting at global word wlo[p], wn[p] of them): word g is the
// OR of the ranks' words covering it (each rank set only its own vertices' bits).
__global__ void bb_join(const unsigned* __restrict__ got, int P, long long stride,
                        const long long* __restrict__ wlo, const long long* __restrict__ wn,
                        long long nwords, unsigned* __restrict__ fbits)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long g = (long long)blockIdx.x * blockDim.x + threadIdx.x; g < nwords; g += step) {
        unsigned acc = 0u;
        for (int p = 0; p < P; ++p) {
            const long long k = g - wlo[p];
            if (k >= 0 && k < wn[p]) acc |= got[(long long)p * stride + SR_BB_HEAD + k];
        }
        fbits[g] = acc;
    }
}

// The frontier's vertices from its bitmap, in no particular order (a warp's words appended
// at one atomic), with each one's row length in B: list[0, count), lens[0, count).
template <typename I>
__global__ void bb_list(const unsigned* __restrict__ fbits, long long nwords,
                        const I* __restrict__ indptr, long long* __restrict__ list,
                        long long* __restrict__ lens, unsigned long long* __restrict__ count)
{
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane; base < nwords;
         base += step) {
        const long long g = base + lane;
        unsigned w = g < nwords ? fbits[g] : 0u;
        const int c = __popc(w);
        int incl = c;
        for (int off = 1; off < 32; off <<= 1) {
            const int o = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += o;
        }
        unsigned long long at = 0;
        if (lane == 31 && incl) at = atomicAdd(count, (unsigned long long)incl);
        at = __shfl_sync(0xffffffffu, at, 31) + (unsigned long long)(incl - c);
        while (w) {
            const long long u = g * 32 + (__ffs(w) - 1);
            w &= w - 1u;
            list[at] = u;
            lens[at] = (long long)indptr[u + 1] - (long long)indptr[u];
            ++at;
        }
    }
}

// Each vertex's component's least vertex from component labels (any ids < n): first[c] =
// the least v with labels[v] == c (first: n entries, each n before), then roots[v] =
// first[labels[v]]. A giant component's millions of vertices share one label: an atomic
// each would queue on one address, so a warp's lanes of one label send only their least
// (the lowest lane: vertices ascend with the lane), and only when first[c] is still larger
// (after the first waves it rarely is).
template <typename L>
__global__ void bb_first(const L* __restrict__ labels, long long n,
                         unsigned long long* __restrict__ first)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step) {
        const unsigned long long c = (unsigned long long)labels[v];
        const unsigned same = __match_any_sync(__activemask(), c);
        if ((int)(threadIdx.x & 31) == __ffs(same) - 1
            && (unsigned long long)v < *reinterpret_cast<volatile unsigned long long*>(&first[c]))
            atomicMin(&first[c], (unsigned long long)v);
    }
}

// A rank's edges stored both ways (E_p ∪ E_pᵀ, n × n, for Afforest's symmetric skip): row i
// is B's row i (columns lo + local id) followed, for lo <= i < hi, by Bᵀ's row i - lo (global
// source ids); ptr: the rows' offsets (made by the caller). A warp a row, its lanes copying.
template <typename I>
__global__ void bb_mirror(const I* __restrict__ bptr, const I* __restrict__ bidx,
                          const I* __restrict__ tptr, const I* __restrict__ tidx, long long n,
                          long long lo, long long hi, const long long* __restrict__ ptr,
                          I* __restrict__ idx)
{
    const int lane = threadIdx.x & 31;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    for (long long i = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5; i < n;
         i += warps) {
        const long long b = (long long)bptr[i], e = (long long)bptr[i + 1];
        long long at = ptr[i];
        for (long long k = b + lane; k < e; k += 32) idx[at + k - b] = (I)((long long)bidx[k] + lo);
        if (i >= lo && i < hi) {
            at += e - b;
            const long long tb = (long long)tptr[i - lo], te = (long long)tptr[i - lo + 1];
            for (long long k = tb + lane; k < te; k += 32) idx[at + k - tb] = tidx[k];
        }
    }
}

template <typename L>
__global__ void bb_roots(const L* __restrict__ labels, long long n,
                         const long long* __restrict__ first, long long* __restrict__ roots)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step)
        roots[v] = first[(long long)labels[v]];
}

// ---------------------------------------------------------------- Bellman–Ford rounds
// A rank's relaxation round on its block, the distances d replicated on every rank (global,
// n entries; the rank writes only its own d[lo:hi]); the changed vertices go out as bits of
// the send buffer (as the BFS levels' new frontier), their count in the header, and their
// new distances packed in bitmap order (bb_pack) for a second all-gather (bb_unpack).

template <typename T> struct sr_bb_word;
template <> struct sr_bb_word<int> { typedef unsigned type; };
template <> struct sr_bb_word<float> { typedef unsigned type; };
template <> struct sr_bb_word<long long> { typedef unsigned long long type; };
template <> struct sr_bb_word<double> { typedef unsigned long long type; };

// a = min(a, v) by compare-and-swap on the bits; whether this call lowered it.
template <typename T>
__device__ __forceinline__ bool sr_bb_atomic_min(T* a, T v)
{
    typedef typename sr_bb_word<T>::type W;
    union U { T t; W w; };
    U o, nv;
    o.t = *reinterpret_cast<volatile T*>(a);
    nv.t = v;
    while (v < o.t) {
        const W prev = atomicCAS(reinterpret_cast<W*>(a), o.w, nv.w);
        if (prev == o.w) return true;
        o.w = prev;
    }
    return false;
}

// Pull: every vertex j of the block takes the least d(u) + w(u, j) over its in-edges from
// the frontier bitmap (row j of Bᵀ, weights w[k * wstride]):
//     t = f min.+ B ;  improved = t < d_p ;  d_p⟨improved⟩ = t ;  out ∪= improved ; count
// Rows of more than `heavy` in-edges are left to bb_relax_heavy (a Kronecker hub's ~10⁵-10⁶
// in-edges would hold one warp for the whole round).
template <typename I, typename T>
__global__ void bb_relax_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, long long np, const unsigned* __restrict__ fbits, T* d, long long lo,
    unsigned* __restrict__ out, int shift, long long heavy)
{
    unsigned* words = out + SR_BB_HEAD;
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0;
    for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane; base < np;
         base += step) {
        const long long j = base + lane;
        long long b = 0, e = 0;
        T t = T(0);
        bool got = false;
        if (j < np) {
            b = (long long)indptr[j];
            e = (long long)indptr[j + 1];
            if (e - b > heavy) e = b;   // bb_relax_heavy's
        }
        const bool light = e - b <= SR_BB_LIGHT;
        if (light) {
            for (long long k = b; k < e; ++k) {
                const long long u = (long long)indices[k];
                if (sr_bb_bit(fbits, u)) {
                    const T c = d[u] + w[k * wstride];
                    if (!got || c < t) { t = c; got = true; }
                }
            }
        }
        unsigned heavy = __ballot_sync(0xffffffffu, !light);
        while (heavy) {
            const int src = __ffs(heavy) - 1;
            heavy &= heavy - 1u;
            const long long hb = __shfl_sync(0xffffffffu, b, src);
            const long long he = __shfl_sync(0xffffffffu, e, src);
            T ht = T(0);
            bool hg = false;
            for (long long k = hb + lane; k < he; k += 32) {
                const long long u = (long long)indices[k];
                if (sr_bb_bit(fbits, u)) {
                    const T c = d[u] + w[k * wstride];
                    if (!hg || c < ht) { ht = c; hg = true; }
                }
            }
            for (int off = 16; off > 0; off >>= 1) {  // the warp's least
                const T ot = __shfl_down_sync(0xffffffffu, ht, off);
                const int og = __shfl_down_sync(0xffffffffu, (int)hg, off);
                if (og && (!hg || ot < ht)) { ht = ot; hg = true; }
            }
            ht = __shfl_sync(0xffffffffu, ht, 0);
            hg = __shfl_sync(0xffffffffu, (int)hg, 0);
            if (lane == src) { t = ht; got = hg; }
        }
        const bool take = got && t < d[lo + j];
        if (take) {
            d[lo + j] = t;
            ++count;
        }
        sr_bb_set_warp(words, base, shift, __ballot_sync(0xffffffffu, take));
    }
    sr_bb_count(out, count, 0);
}

// The heavy rows of a pull round (more than `heavy` in-edges, rows[0, H) ascending), cut in
// tiles of at most `tile` edges (tile t: row index tile_row[t] into rows, edges from
// tile_start[t]): a block a tile (grid-stride), its least d(u) + w(u, j) over the tile's
// frontier sources min-combined into tmin[h] (none: the type's max, inf for floats) by one
// atomic a block:
//     t(j) = min over tiles of (f min.+ B)(tile)
template <typename I, typename T>
__global__ void bb_relax_heavy(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, const long long* __restrict__ rows, const long long* __restrict__ tile_row,
    const long long* __restrict__ tile_start, long long ntiles, long long tile,
    const unsigned* __restrict__ fbits, const T* d, T* __restrict__ tmin)
{
    __shared__ T best_w[32];
    __shared__ int got_w[32];
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const int nwarps = (blockDim.x + 31) >> 5;
    for (long long t = blockIdx.x; t < ntiles; t += gridDim.x) {
        const long long h = tile_row[t];
        const long long kb = tile_start[t];
        const long long rend = (long long)indptr[rows[h] + 1];
        const long long ke = kb + tile < rend ? kb + tile : rend;
        T bt = T(0);
        bool bg = false;
        for (long long k = kb + threadIdx.x; k < ke; k += blockDim.x) {
            const long long u = (long long)indices[k];
            if (sr_bb_bit(fbits, u)) {
                const T c = d[u] + w[k * wstride];
                if (!bg || c < bt) { bt = c; bg = true; }
            }
        }
        for (int off = 16; off > 0; off >>= 1) {
            const T ot = __shfl_down_sync(0xffffffffu, bt, off);
            const int og = __shfl_down_sync(0xffffffffu, (int)bg, off);
            if (og && (!bg || ot < bt)) { bt = ot; bg = true; }
        }
        if (lane == 0) { best_w[warp] = bt; got_w[warp] = bg; }
        __syncthreads();
        if (threadIdx.x == 0) {
            for (int k = 1; k < nwarps; ++k)
                if (got_w[k] && (!bg || best_w[k] < bt)) { bt = best_w[k]; bg = true; }
            if (bg) sr_bb_atomic_min(&tmin[h], bt);
        }
        __syncthreads();
    }
}

// The heavy rows' round: t = tmin[h] (then reset to `none` for the next round) lowers
// d(lo + rows[h]) where smaller, its bit and count going to the send buffer as the pull's.
template <typename T>
__global__ void bb_relax_heavy_done(const long long* __restrict__ rows, long long H,
                                    T* __restrict__ tmin, T none, T* d, long long lo,
                                    unsigned* __restrict__ out, int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0;
    for (long long h = (long long)blockIdx.x * blockDim.x + threadIdx.x; h < H; h += step) {
        const T t = tmin[h];
        tmin[h] = none;
        const long long j = rows[h];
        if (t < d[lo + j]) {
            d[lo + j] = t;
            const long long bit = j + shift;
            atomicOr(&words[bit >> 5], 1u << (bit & 31));
            ++count;
        }
    }
    sr_bb_count(out, count, 0);
}

// Push: the frontier's vertices relax their rows of B, an atomic min on d_p; a vertex lowered
// joins the changed set once (its bit's first setter counts it). A warp takes a chunk of
// consecutive edges of the frontier's rows laid end to end (offsets: the rows' inclusive
// sums); two lanes find the chunk's first and last slots by a binary search over the whole
// frontier, and each lane then finds its edges' slots by a search between those two, from
// its previous one (its edges ascend): one edge a thread searching the whole frontier paid
// log2(nf) dependent loads an edge (the near–far rounds' wide piles). The chunk is the
// round's edges over the grid's warps, a multiple of 32 from 32 (a lane an edge: a small
// round keeps every warp busy) to SR_BB_CHUNK. On one H200 (kron-22, one rank's rounds,
// bench/results/session14/dist7_relax_push_h200.json) chunks of 256 halved the
// 2.1e7-edge round against a thread an edge (0.33 / 0.61 ms) but took 1.8-3.2x as long on
// the rounds of 1e3-3e5 edges (e.g. 35 / 19 us); sized by the round, 0.46 ms for the eight
// push rounds against 0.52 (256 always) and 0.76 (a thread an edge); the whole loop, pulls
// included, 8.51 / 8.61 / 8.78 ms.
#define SR_BB_CHUNK 256

__device__ __forceinline__ long long sr_bb_slot(const long long* __restrict__ offsets,
                                                long long a, long long z, long long e)
{   // the first slot in [a, z] whose inclusive offset passes e (z's does)
    while (a < z) {
        const long long mid = (a + z) >> 1;
        if (offsets[mid] > e) z = mid; else a = mid + 1;
    }
    return a;
}

template <typename I, typename T>
__global__ void bb_relax_push(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, const long long* __restrict__ frontier, long long nf,
    const long long* __restrict__ offsets, T* d, long long lo, unsigned* __restrict__ out,
    int shift)
{
    unsigned* words = out + SR_BB_HEAD;
    const long long total = nf ? offsets[nf - 1] : 0;
    const int lane = threadIdx.x & 31;
    const long long warp = ((long long)blockIdx.x * blockDim.x + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * blockDim.x) >> 5;
    long long chunk = (((total + warps - 1) / warps + 31) >> 5) << 5;
    chunk = chunk < 32 ? 32 : chunk > SR_BB_CHUNK ? SR_BB_CHUNK : chunk;
    long long count = 0;
    for (long long c0 = warp * chunk; c0 < total; c0 += warps * chunk) {
        const long long c1 = c0 + chunk < total ? c0 + chunk : total;
        long long s = 0;
        if (lane < 2) s = sr_bb_slot(offsets, 0, nf - 1, lane ? c1 - 1 : c0);
        const long long a0 = __shfl_sync(0xffffffffu, s, 0);
        const long long a1 = __shfl_sync(0xffffffffu, s, 1);
        long long a = a0;
        for (long long e = c0 + lane; e < c1; e += 32) {
            a = sr_bb_slot(offsets, a, a1, e);
            const long long first = a ? offsets[a - 1] : 0;
            const long long u = frontier[a];
            const long long k = (long long)indptr[u] + (e - first);
            const long long v = (long long)indices[k];
            const T c = *reinterpret_cast<volatile T*>(&d[u]) + w[k * wstride];
            if (sr_bb_atomic_min(&d[lo + v], c)) {
                const long long bit = v + shift;
                const unsigned m = 1u << (bit & 31);
                if (!(atomicOr(&words[bit >> 5], m) & m)) ++count;
            }
        }
    }
    sr_bb_count(out, count, 0);
}

// Set bits per word: counts[i] = popc(words[i]) for `nw` words at stride... (rows of P
// buffers: word i of row p at got[p * stride + HEAD + i], i < nw; counts (P, nw)).
__global__ void bb_popc(const unsigned* __restrict__ got, int P, long long stride, long long nw,
                        long long* __restrict__ counts)
{
    const long long total = (long long)P * nw;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long p = i / nw, k = i - p * nw;
        counts[i] = __popc(got[p * stride + SR_BB_HEAD + k]);
    }
}

// The changed vertices' distances in bitmap order: vals[excl[k] + r] = d[lo + j] for the
// r-th set bit of local word k (vertex j = 32 k + bit - shift); excl: exclusive prefix sums
// of the words' counts.
template <typename T>
__global__ void bb_pack(const unsigned* __restrict__ out, long long nw,
                        const long long* __restrict__ incl, const T* __restrict__ d,
                        long long lo, int shift, T* __restrict__ vals)
{
    const unsigned* words = out + SR_BB_HEAD;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long k = (long long)blockIdx.x * blockDim.x + threadIdx.x; k < nw; k += step) {
        unsigned m = words[k];
        long long at = k ? incl[k - 1] : 0;
        while (m) {
            const long long j = k * 32 + (__ffs(m) - 1) - shift;
            m &= m - 1u;
            vals[at++] = d[lo + j];
        }
    }
}

// The inverse on every rank: rank p's packed values (vals[p * kmax ...]) into d at its
// changed vertices (bits of its buffer in got), incl: (P, nw) inclusive sums of the words'
// counts, each row its own; bounds: P + 1 cut points.
template <typename T>
__global__ void bb_unpack(const unsigned* __restrict__ got, int P, long long stride,
                          long long nw, const long long* __restrict__ incl,
                          const long long* __restrict__ bounds, const T* __restrict__ vals,
                          long long kmax, T* __restrict__ d)
{
    const long long total = (long long)P * nw;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long p = i / nw, k = i - p * nw;
        unsigned m = got[p * stride + SR_BB_HEAD + k];
        long long at = p * kmax + (k ? incl[i - 1] : 0);
        const long long lo = bounds[p];
        const int shift = (int)(lo & 31);
        while (m) {
            const long long j = k * 32 + (__ffs(m) - 1) - shift;
            m &= m - 1u;
            d[lo + j] = vals[at++];
        }
    }
}

// ---------------------------------------------------------------- near–far piles
// The distributed near–far search (Davidson, Baxter, Garland & Owens 2014) on a rank's block:
// the rank keeps its own pending vertices (lowered, not yet relaxed since) as bits `pend` over
// the block's words (the send buffer's layout, without its header). After a round the vertices
// it lowered (the bits of `chg`, the relaxation's buffer, cleared here for the next round) join
// them, and those below the threshold tau leave for the near pile, written as bits of the send
// buffer `out` with their count and out-edges (`deg`) in its header, as a BFS level's frontier:
//     p = p ∪ c ;  near = {v ∈ p : d(v) < tau} ;  p = p \ near
// The buffer's tail (u64): [0] the least distance left pending (the far pile's), as the bitwise
// complement of an order-preserving key (sr_bb_key; an atomic max, 0 where nothing is pending,
// which no key's complement is); [1] the near pile's size below tau; [2] the pairs' slots
// taken (where cap > 0: the near pile's size): each near vertex also goes to the first `cap`
// pairs (local id, distance) after the tail, in any order, so that one all-gather carries the
// frontier's distances too.

__device__ __forceinline__ unsigned long long sr_bb_key(long long x)
{
    return (unsigned long long)x ^ 0x8000000000000000ull;
}
__device__ __forceinline__ unsigned long long sr_bb_key(double x)
{
    const unsigned long long u = (unsigned long long)__double_as_longlong(x);
    return (u & 0x8000000000000000ull) ? ~u : (u | 0x8000000000000000ull);
}
__device__ __forceinline__ unsigned long long sr_bb_key(float x)
{
    const unsigned u = __float_as_uint(x);
    return (unsigned long long)((u & 0x80000000u) ? ~u : (u | 0x80000000u));
}

// The warp's near vertices of word k (bits `near`, lanes of one warp-uniform step) into the
// pairs: one atomic a warp for the slots.
template <typename T>
__device__ __forceinline__ void sr_bb_pairs(unsigned near, long long k, int shift,
                                            const T* __restrict__ d, long long lo,
                                            unsigned long long* __restrict__ slots,
                                            unsigned* __restrict__ ids, T* __restrict__ vals,
                                            long long cap)
{
    const int lane = threadIdx.x & 31;
    const unsigned c = __popc(near);
    unsigned incl = c;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const unsigned o = __shfl_up_sync(0xffffffffu, incl, off);
        if (lane >= off) incl += o;
    }
    const unsigned total = __shfl_sync(0xffffffffu, incl, 31);
    unsigned long long base = 0ull;
    if (lane == 31 && total) base = atomicAdd(slots, (unsigned long long)total);
    base = __shfl_sync(0xffffffffu, base, 31);
    unsigned long long at = base + incl - c;
    for (unsigned m = near; m && at < (unsigned long long)cap; m &= m - 1u, ++at) {
        const long long j = k * 32 + (__ffs(m) - 1) - shift;
        ids[at] = (unsigned)j;
        vals[at] = d[lo + j];
    }
}

template <typename T>
__global__ void bb_split(unsigned* __restrict__ chg, unsigned* __restrict__ pend, long long nw,
                         const T* __restrict__ d, const long long* __restrict__ deg,
                         long long lo, int shift, T tau, unsigned* __restrict__ out,
                         unsigned long long* __restrict__ tail, unsigned* __restrict__ ids,
                         T* __restrict__ vals, long long cap)
{
    unsigned* words = out + SR_BB_HEAD;
    unsigned* changed = chg + SR_BB_HEAD;
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0, edges = 0;
    unsigned long long far = 0ull;          // the complement of the least pending key
    for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane; base < nw;
         base += step) {
        const long long k = base + lane;
        unsigned near = 0u;
        if (k < nw) {
            const unsigned p = pend[k] | changed[k];
            changed[k] = 0u;
            for (unsigned m = p; m; m &= m - 1u) {
                const int b = __ffs(m) - 1;
                const long long j = k * 32 + b - shift;
                const T x = d[lo + j];
                if (x < tau) { near |= 1u << b; edges += deg[j]; }
                else far = max(far, ~sr_bb_key(x));
            }
            pend[k] = p & ~near;
            words[k] = near;
            count += __popc(near);
        }
        if (cap) sr_bb_pairs(near, k, shift, d, lo, &tail[2], ids, vals, cap);
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        far = max(far, __shfl_down_sync(0xffffffffu, far, off));
    if (lane == 0 && far) atomicMax(&tail[0], far);
    sr_bb_count(out, count, edges);
    // tail[1], the size below tau: the header's count before any bucket ahead
#pragma unroll
    for (int off = 16; off > 0; off >>= 1)
        count += __shfl_down_sync(0xffffffffu, count, off);
    if (lane == 0 && count) atomicAdd(&tail[1], (unsigned long long)count);
}

// The inverse of sr_bb_key.
__device__ __forceinline__ void sr_bb_unkey(unsigned long long k, long long* x)
{
    *x = (long long)(k ^ 0x8000000000000000ull);
}
__device__ __forceinline__ void sr_bb_unkey(unsigned long long k, double* x)
{
    *x = __longlong_as_double((long long)((k & 0x8000000000000000ull) ? k ^ 0x8000000000000000ull : ~k));
}
__device__ __forceinline__ void sr_bb_unkey(unsigned long long k, float* x)
{
    const unsigned u = (unsigned)k;
    *x = __uint_as_float((u & 0x80000000u) ? u ^ 0x80000000u : ~u);
}
__device__ __forceinline__ long long sr_bb_above(long long x, long long delta)
{
    return x > 0x7fffffffffffffffll - delta ? 0x7fffffffffffffffll : x + delta;
}
__device__ __forceinline__ double sr_bb_above(double x, double delta)
{
    const double t = x + delta;
    return t > x ? t : nextafter(x, __longlong_as_double(0x7ff0000000000000ll));
}
__device__ __forceinline__ float sr_bb_above(float x, float delta)
{
    const float t = x + delta;
    return t > x ? t : nextafterf(x, __int_as_float(0x7f800000));
}

// The rank's bucket ahead: where bb_split found no near vertex below tau (tail[1] == 0) but
// some pending (tail[0] != 0), the pending vertices below the rank's own next threshold
// f_p + delta (f_p its least pending distance) go to the near pile (bits, counts, pairs) at
// once, so that the round after a global bucket's end needs no exchange of its own:
//     near = {v ∈ p : d(v) < f_p + Δ} ;  p = p \ near
template <typename T>
__global__ void bb_split_ahead(unsigned* __restrict__ pend, long long nw,
                               const T* __restrict__ d, const long long* __restrict__ deg,
                               long long lo, int shift, T delta, unsigned* __restrict__ out,
                               unsigned long long* __restrict__ tail,
                               unsigned* __restrict__ ids, T* __restrict__ vals, long long cap)
{
    if (tail[1] != 0ull || tail[0] == 0ull) return;
    T f;
    sr_bb_unkey(~tail[0], &f);
    const T tau = sr_bb_above(f, delta);
    unsigned* words = out + SR_BB_HEAD;
    const int lane = threadIdx.x & 31;
    const long long step = (long long)gridDim.x * blockDim.x;
    long long count = 0, edges = 0;
    for (long long base = (long long)blockIdx.x * blockDim.x + threadIdx.x - lane; base < nw;
         base += step) {
        const long long k = base + lane;
        unsigned near = 0u;
        if (k < nw) {
            const unsigned p = pend[k];
            for (unsigned m = p; m; m &= m - 1u) {
                const int b = __ffs(m) - 1;
                const long long j = k * 32 + b - shift;
                if (d[lo + j] < tau) { near |= 1u << b; edges += deg[j]; }
            }
            if (near) {
                pend[k] = p & ~near;
                words[k] = near;
                count += __popc(near);
            }
        }
        if (cap) sr_bb_pairs(near, k, shift, d, lo, &tail[2], ids, vals, cap);
    }
    sr_bb_count(out, count, edges);
}

// Every rank's pairs into d: rank p's first min(slots_p, cap) pairs (local id, distance) of
// its buffer (row p of got; the tail at word `tail_at`, the ids at `ids_at`, the values at
// `vals_at`, each row `stride` words) set d[bounds[p] + id].
template <typename T>
__global__ void bb_unpack_pairs(const unsigned* __restrict__ got, int P, long long stride,
                                long long tail_at, long long ids_at, long long vals_at,
                                long long cap, const long long* __restrict__ bounds,
                                T* __restrict__ d)
{
    const long long total = (long long)P * cap;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long p = i / cap, s = i - p * cap;
        const unsigned* row = got + p * stride;
        const unsigned long long slots =
            reinterpret_cast<const unsigned long long*>(row + tail_at)[2];
        if ((unsigned long long)s >= slots) continue;
        const T* vals = reinterpret_cast<const T*>(row + vals_at);
        d[bounds[p] + (long long)row[ids_at + s]] = vals[s];
    }
}

// The push's frontier from every rank's pairs: list[offset_p + s] = bounds[p] + id (global),
// lens the rows' lengths in B (offset_p: the ranks' slots before p, each at most cap).
template <typename I>
__global__ void bb_pairs_list(const unsigned* __restrict__ got, int P, long long stride,
                              long long tail_at, long long ids_at, long long cap,
                              const long long* __restrict__ bounds,
                              const I* __restrict__ indptr, long long* __restrict__ list,
                              long long* __restrict__ lens)
{
    const long long total = (long long)P * cap;
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x; i < total; i += step) {
        const long long p = i / cap, s = i - p * cap;
        long long off = 0, slots = 0;
        for (long long q = 0; q <= p; ++q) {
            const unsigned long long t =
                reinterpret_cast<const unsigned long long*>(got + q * stride + tail_at)[2];
            slots = t < (unsigned long long)cap ? (long long)t : cap;
            if (q < p) off += slots;
        }
        if (s >= slots) continue;
        const long long v = bounds[p] + (long long)got[p * stride + ids_at + s];
        list[off + s] = v;
        lens[off + s] = (long long)indptr[v + 1] - (long long)indptr[v];
    }
}
