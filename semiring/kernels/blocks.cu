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
// first[labels[v]].
template <typename L>
__global__ void bb_first(const L* __restrict__ labels, long long n,
                         unsigned long long* __restrict__ first)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step)
        atomicMin(&first[(long long)labels[v]], (unsigned long long)v);
}

template <typename L>
__global__ void bb_roots(const L* __restrict__ labels, long long n,
                         const long long* __restrict__ first, long long* __restrict__ roots)
{
    const long long step = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += step)
        roots[v] = first[(long long)labels[v]];
}
