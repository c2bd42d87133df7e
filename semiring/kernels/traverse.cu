// Fused push levels of a traversal, for runs of narrow frontiers (high-diameter graphs: a
// 2-D grid has thousands of levels of a few thousand vertices each). One block runs level
// after level with no host round trip: each level is the push step
//     q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q
// with the frontier's edges load balanced over the block by a prefix sum of the frontier's
// degrees in shared memory (as the multi-block push in spmspv.cu does per tile).
// The block stops when the frontier empties, outgrows the shared-memory queue or its edges
// exceed `max_edges` (then the multi-block path is faster), or after `max_levels` levels.
//
// state (int64[4]), in and out: [0] frontier size (in queue qa), [1] the frontier's depth,
// [2] status (out), [3] levels run (out). The frontier's vertices are those with
// level == state[1] on exit; the host rebuilds it from `level` when it goes on.

#define SR_TRAVERSE_THREADS 1024
#define SR_TRAVERSE_ITEMS 8
#define SR_TRAVERSE_QUEUE (SR_TRAVERSE_THREADS * SR_TRAVERSE_ITEMS)

#define SR_TRAVERSE_DONE 0      // the next frontier is empty: the traversal is over
#define SR_TRAVERSE_WIDE 1      // the frontier has more than max_edges edges
#define SR_TRAVERSE_OVERFLOW 2  // the next frontier has more than SR_TRAVERSE_QUEUE vertices
#define SR_TRAVERSE_LIMIT 3     // max_levels levels were run

// Claim v for level d1 from u: a CAS of level[v] from -1, so exactly one caller wins. With
// PARENTS == 1 the winner writes parent[v] = u; with PARENTS == 2 every u reaching v at d1
// offers itself with an atomic min (parent[v] starts at -1, the largest as unsigned: the
// smallest u wins). Returns whether this call claimed v.
template <int PARENTS>
__device__ __forceinline__ bool sr_claim(long long* level, long long* parent, long long v,
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

// The block-wide degree scan of push_levels and relax_rounds: the frontier cur[0, count)
// (count <= SR_TRAVERSE_QUEUE) gets s_off[f] = the sum of the degrees of slots 0 .. f - 1, each
// thread scanning SR_TRAVERSE_ITEMS consecutive slots, then its warp, then the warps' sums.
// Returns the frontier's total out-edges (the same in every thread); when it exceeds max_edges
// s_off is not written (the caller hands back). Every thread of the block calls it; its
// __syncthreads also publish what the block wrote before the call. The caller synchronizes
// before reading s_off.
template <typename I>
__device__ __forceinline__ long long sr_block_degree_scan(
    const I* __restrict__ indptr, const I* cur, long long count, long long max_edges,
    int* s_off, long long* s_warp)
{
    const int tid = threadIdx.x, lane = tid & 31, warp = tid >> 5;
    long long local[SR_TRAVERSE_ITEMS];
    long long sum = 0;
#pragma unroll
    for (int i = 0; i < SR_TRAVERSE_ITEMS; ++i) {
        const long long f = (long long)tid * SR_TRAVERSE_ITEMS + i;
        long long d = 0;
        if (f < count) {
            const I u = cur[f];
            d = (long long)indptr[u + 1] - (long long)indptr[u];
        }
        local[i] = sum;
        sum += d;
    }
    long long incl = sum;
    for (int off = 1; off < 32; off <<= 1) {
        const long long o = __shfl_up_sync(0xffffffffu, incl, off);
        if (lane >= off) incl += o;
    }
    if (lane == 31) s_warp[warp] = incl;
    __syncthreads();
    if (warp == 0) {
        long long w = lane < SR_TRAVERSE_THREADS / 32 ? s_warp[lane] : 0;
        for (int off = 1; off < 32; off <<= 1) {
            const long long o = __shfl_up_sync(0xffffffffu, w, off);
            if (lane >= off) w += o;
        }
        s_warp[lane] = w;  // inclusive over warps
    }
    __syncthreads();
    const long long base = (warp > 0 ? s_warp[warp - 1] : 0) + incl - sum;
    const long long total = s_warp[SR_TRAVERSE_THREADS / 32 - 1];
    if (total <= max_edges) {
#pragma unroll
        for (int i = 0; i < SR_TRAVERSE_ITEMS; ++i) {
            const long long f = (long long)tid * SR_TRAVERSE_ITEMS + i;
            if (f < count) s_off[f] = (int)(base + local[i]);
        }
    }
    return total;
}

// The frontier slot that edge e (< the scan's total) belongs to, after sr_block_degree_scan:
// the last f with s_off[f] <= e.
__device__ __forceinline__ int sr_block_slot(const int* s_off, long long count, long long e)
{
    int lo = 0, hi = (int)count;
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (s_off[mid] <= e) lo = mid; else hi = mid;
    }
    return lo;
}

// PARENTS: 0 none, 1 any in-neighbour on the previous level (the first to claim), 2 the
// smallest-index one (min_secondi: deterministic).
template <typename I, int PARENTS>
__global__ void __launch_bounds__(SR_TRAVERSE_THREADS) push_levels(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    long long* __restrict__ level, long long* __restrict__ parent,
    I* __restrict__ qa, I* __restrict__ qb, long long* __restrict__ state,
    long long max_edges, long long max_levels)
{
    __shared__ int s_off[SR_TRAVERSE_QUEUE];  // exclusive prefix of the frontier's degrees
    __shared__ long long s_warp[SR_TRAVERSE_THREADS / 32];
    __shared__ int s_next;
    const int tid = threadIdx.x;
    long long count = state[0];
    long long depth = state[1];
    long long levels = 0;
    int status = SR_TRAVERSE_LIMIT;
    I* cur = qa;
    I* nxt = qb;
    while (levels < max_levels) {
        // 1. the frontier's degrees, scanned over the block into s_off
        if (tid == 0) s_next = 0;
        const long long total =
            sr_block_degree_scan<I>(indptr, cur, count, max_edges, s_off, s_warp);
        if (total > max_edges) { status = SR_TRAVERSE_WIDE; break; }
        __syncthreads();
        // 2. every edge of the frontier: claim unvisited heads for depth + 1
        const long long d1 = depth + 1;
        for (long long e = tid; e < total; e += SR_TRAVERSE_THREADS) {
            const int lo = sr_block_slot(s_off, count, e);
            const I u = cur[lo];
            const I v = indices[(long long)indptr[u] + (e - s_off[lo])];
            if (sr_claim<PARENTS>(level, parent, v, u, d1)) {
                const int pos = atomicAdd(&s_next, 1);
                if (pos < SR_TRAVERSE_QUEUE) nxt[pos] = v;
            }
        }
        __syncthreads();
        const int n = s_next;
        if (n == 0) { status = SR_TRAVERSE_DONE; break; }
        depth = d1;
        ++levels;
        if (n > SR_TRAVERSE_QUEUE) { status = SR_TRAVERSE_OVERFLOW; count = n; break; }
        count = n;
        I* t = cur; cur = nxt; nxt = t;
        __syncthreads();  // s_next and s_off are rewritten by the next level
    }
    if (tid == 0) {
        state[0] = count;
        state[1] = depth;
        state[2] = status;
        state[3] = levels;
    }
}

// Fused relaxation rounds of a frontier Bellman–Ford (or of delta-stepping's light edges
// inside a bucket), for runs of narrow frontiers: one block runs round after round of
//     t = f min.+ A ;  d = min(d, t) ;  f = {v : d(v) improved and d(v) < hi}
// with push_levels' block-wide degree scan (sr_block_degree_scan) and load-balanced edge
// loop, and an atomic min on d. Reading d(u) while other threads lower it is chaotic relaxation: every
// value written is the length of a real path, so the fixed point is the same and it is never
// reached later than with synchronous rounds.
// In delta-stepping mode (`pending` not null) each frontier vertex is marked settled and not
// pending before its edges are relaxed, and every improved vertex is marked pending.
// `flag` (n bytes, zero) dedupes the next frontier; on overflow it holds exactly the next
// frontier (the host rebuilds it from there). state: [0] frontier size (in qa), [1] rounds
// run (out), [2] status (out), [3] 1 when the frontier on exit is in qb (out).

template <typename T> __device__ __forceinline__ bool sr_relax_min(T* addr, T v);
template <> __device__ __forceinline__ bool sr_relax_min<int>(int* a, int v) {
    return *reinterpret_cast<volatile int*>(a) > v && atomicMin(a, v) > v;
}
template <> __device__ __forceinline__ bool sr_relax_min<long long>(long long* a, long long v) {
    return *reinterpret_cast<volatile long long*>(a) > v && atomicMin(a, v) > v;
}
template <> __device__ __forceinline__ bool sr_relax_min<float>(float* a, float v) {
    unsigned int* p = reinterpret_cast<unsigned int*>(a);
    unsigned int old = *reinterpret_cast<volatile unsigned int*>(p);
    while (__int_as_float((int)old) > v) {
        const unsigned int seen = atomicCAS(p, old, (unsigned int)__float_as_int(v));
        if (seen == old) return true;
        old = seen;
    }
    return false;
}
template <> __device__ __forceinline__ bool sr_relax_min<double>(double* a, double v) {
    unsigned long long* p = reinterpret_cast<unsigned long long*>(a);
    unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(p);
    while (__longlong_as_double((long long)old) > v) {
        const unsigned long long seen = atomicCAS(p, old, (unsigned long long)__double_as_longlong(v));
        if (seen == old) return true;
        old = seen;
    }
    return false;
}

template <typename I, typename T>
__global__ void __launch_bounds__(SR_TRAVERSE_THREADS) relax_rounds(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, T* d, unsigned char* pending, unsigned char* settled, T hi,
    unsigned char* flag, I* __restrict__ qa, I* __restrict__ qb, long long* __restrict__ state,
    long long max_edges, long long max_rounds)
{
    __shared__ int s_off[SR_TRAVERSE_QUEUE];
    __shared__ long long s_warp[SR_TRAVERSE_THREADS / 32];
    __shared__ int s_next;
    const int tid = threadIdx.x;
    long long count = state[0];
    long long rounds = 0;
    int status = SR_TRAVERSE_LIMIT;
    I* cur = qa;
    I* nxt = qb;
    while (rounds < max_rounds) {
        // the frontier's degrees, scanned over the block into s_off; then its vertices leave
        // pending for settled (delta-stepping), before any of their edges is relaxed
        if (tid == 0) s_next = 0;
        const long long total =
            sr_block_degree_scan<I>(indptr, cur, count, max_edges, s_off, s_warp);
        if (total > max_edges) { status = SR_TRAVERSE_WIDE; break; }
        if (pending != nullptr) {
            for (int f = tid; f < count; f += SR_TRAVERSE_THREADS) {
                const I u = cur[f];
                settled[u] = 1;
                pending[u] = 0;
            }
        }
        __syncthreads();
        for (long long e = tid; e < total; e += SR_TRAVERSE_THREADS) {
            const int lo = sr_block_slot(s_off, count, e);
            const I u = cur[lo];
            const long long p = (long long)indptr[u] + (e - s_off[lo]);
            const I v = indices[p];
            const T nd = *reinterpret_cast<volatile T*>(&d[u]) + w[p * wstride];
            if (sr_relax_min<T>(&d[v], nd)) {
                if (pending != nullptr) pending[v] = 1;
                if (nd < hi) {
                    // claim v for the next frontier once (byte flag, set with a CAS on its word)
                    unsigned int* word = reinterpret_cast<unsigned int*>(
                        reinterpret_cast<size_t>(flag + v) & ~(size_t)3);
                    const unsigned int bit = 1u << (8u * (unsigned int)(reinterpret_cast<size_t>(flag + v) & 3));
                    if ((atomicOr(word, bit) & bit) == 0u) {
                        const int pos = atomicAdd(&s_next, 1);
                        if (pos < SR_TRAVERSE_QUEUE) nxt[pos] = v;
                    }
                }
            }
        }
        __syncthreads();
        const int n = s_next;
        ++rounds;
        if (n == 0) { status = SR_TRAVERSE_DONE; count = 0; break; }
        if (n > SR_TRAVERSE_QUEUE) { status = SR_TRAVERSE_OVERFLOW; count = n; break; }
        for (int i = tid; i < n; i += SR_TRAVERSE_THREADS) flag[nxt[i]] = 0;
        count = n;
        I* t = cur; cur = nxt; nxt = t;
        __syncthreads();
    }
    if (tid == 0) {
        state[0] = count;
        state[1] = rounds;
        state[2] = status;
        state[3] = cur == qb;
    }
}

// ---------------------------------------------------------------------------------------------
// The bookkeeping of a BFS whose frontier lives as a bitmap (bool per vertex), one launch
// each, for wide levels run by the multi-block pull: what would otherwise be half a dozen
// whole-vector CuPy calls a level (count, degree sums, three masked assigns).
//
// counters (uint64[3], zeroed by the host): [0] frontier vertices, [1] their out-edges,
// [2] out-edges of the unseen vertices. Per-thread sums, a warp sum, one atomic per warp.
__device__ __forceinline__ void sr_count3(unsigned long long* counters, long long a,
                                          long long b, long long c)
{
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) {
        a += __shfl_down_sync(0xffffffffu, a, off);
        b += __shfl_down_sync(0xffffffffu, b, off);
        c += __shfl_down_sync(0xffffffffu, c, off);
    }
    if ((threadIdx.x & 31) == 0) {
        if (a) atomicAdd(&counters[0], (unsigned long long)a);
        if (b) atomicAdd(&counters[1], (unsigned long long)b);
        if (c) atomicAdd(&counters[2], (unsigned long long)c);
    }
}

// level⟨q⟩ = depth ;  parent⟨q⟩ = vals ;  unseen⟨q⟩ = false ;  counters += (|q|, q's out-edges)
// q is the present bitmap of the pull's product (q⟨unseen⟩ = Aᵀ any.secondi f); PARENTS
// copies its values (the in-neighbour found) into parent.
template <typename I, bool PARENTS>
__global__ void bfs_commit(
    const bool* __restrict__ q, const long long* __restrict__ vals, long long n,
    long long depth, long long* __restrict__ level, long long* __restrict__ parent,
    bool* __restrict__ unseen, const I* __restrict__ indptr,
    unsigned long long* __restrict__ counters)
{
    long long count = 0, edges = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        if (q[v]) {
            level[v] = depth;
            if (PARENTS) parent[v] = vals[v];
            unseen[v] = false;
            ++count;
            edges += (long long)indptr[v + 1] - (long long)indptr[v];
        }
    }
    sr_count3(counters, count, edges, 0);
}

// frontier = (level == depth) ;  unseen = (level < 0) ;  counters += (|frontier|, its
// out-edges, the unseen vertices' out-edges): the bitmap form of a frontier that fused push
// levels left in `level`.
template <typename I>
__global__ void bfs_frontier_of_level(
    const long long* __restrict__ level, long long n, long long depth,
    const I* __restrict__ indptr, bool* __restrict__ frontier, bool* __restrict__ unseen,
    unsigned long long* __restrict__ counters)
{
    long long count = 0, edges = 0, left = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        const long long l = level[v];
        const bool f = l == depth, u = l < 0;
        frontier[v] = f;
        unseen[v] = u;
        if (f || u) {
            const long long d = (long long)indptr[v + 1] - (long long)indptr[v];
            if (f) { ++count; edges += d; } else { left += d; }
        }
    }
    sr_count3(counters, count, edges, left);
}

// The commit of a pull relaxation round, t = f min.+ A over Aᵀ's rows (t present where tpres):
//     improved = t < d ;  d⟨improved⟩ = t ;  next = improved ∧ t < hi ;  counters[0] += |next|
// and, for a delta-stepping bucket (pending != nullptr): settled⟨f⟩ = true, pending⟨f⟩ = false,
// then pending⟨improved⟩ = true.
template <typename T>
__global__ void relax_commit(
    const T* __restrict__ t, const bool* __restrict__ tpres, const bool* __restrict__ f,
    long long n, T hi, T* __restrict__ d, bool* __restrict__ next,
    bool* __restrict__ pending, bool* __restrict__ settled,
    unsigned long long* __restrict__ counters)
{
    long long count = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        const bool imp = tpres[v] && t[v] < d[v];
        if (imp) d[v] = t[v];
        if (pending != nullptr) {
            const bool fv = f[v];
            if (fv) settled[v] = true;
            if (fv || imp) pending[v] = imp;
        }
        const bool nx = imp && t[v] < hi;
        next[v] = nx;
        count += nx;
    }
    sr_count3(counters, count, 0, 0);
}

// The frontier slot of edge e: the first f with offsets[f] > e (offsets: the inclusive prefix
// sum of the frontier's degrees); `first` gets the slot's first edge number.
__device__ __forceinline__ long long sr_edge_slot(const long long* __restrict__ offsets,
                                                  long long nf, long long e, long long& first)
{
    long long lo = 0, hi = nf - 1;
    while (lo < hi) {
        const long long mid = (lo + hi) >> 1;
        if (offsets[mid] > e) hi = mid; else lo = mid + 1;
    }
    first = lo ? offsets[lo - 1] : 0;
    return lo;
}

// Append v to out (when take) at a slot from *count: one atomic per warp, not per vertex.
__device__ __forceinline__ void sr_append_warp(bool take, long long v, long long* __restrict__ out,
                                               unsigned long long* count)
{
    const unsigned active = __activemask();
    const unsigned want = __ballot_sync(active, take);
    if (want) {
        const int lane = threadIdx.x & 31, leader = __ffs(want) - 1;
        unsigned long long base = 0;
        if (lane == leader) base = atomicAdd(count, (unsigned long long)__popc(want));
        base = __shfl_sync(active, base, leader);
        if (take) out[base + __popc(want & ((1u << lane) - 1u))] = v;
    }
}

// One push level over the whole grid, for a frontier too wide for push_levels' single block:
//     q⟨¬visited⟩ = f any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q ;  unseen⟨q⟩ = false
// Edge e of the frontier's out-edges belongs to the slot f with offsets[f-1] <= e <
// offsets[f] (offsets: the inclusive prefix sum of the frontier's degrees). A head is claimed
// by a CAS of its level from -1, as in push_levels; claimed heads are appended to `next`
// (warp-aggregated) and counters get [0] |q| and [1] q's out-edges.
template <typename I, int PARENTS>
__global__ void bfs_push_level(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const long long* __restrict__ frontier, long long nf, const long long* __restrict__ offsets,
    long long depth, long long* __restrict__ level, long long* __restrict__ parent,
    bool* __restrict__ unseen, long long* __restrict__ next,
    unsigned long long* __restrict__ counters)
{
    const long long total = offsets[nf - 1];
    long long edges = 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        long long first;
        const long long u = frontier[sr_edge_slot(offsets, nf, e, first)];
        const long long v = (long long)indices[(long long)indptr[u] + (e - first)];
        const bool claimed = sr_claim<PARENTS>(level, parent, v, u, depth);
        if (claimed) {
            unseen[v] = false;
            edges += (long long)indptr[v + 1] - (long long)indptr[v];
        }
        sr_append_warp(claimed, v, next, &counters[0]);
    }
    sr_count3(counters + 1, edges, 0, 0);
}

// One relaxation round in the push direction over the whole grid, for a frontier too wide
// for relax_rounds' single block (the same step, chaotic in the same way):
//     t = f min.+ A ;  d = min(d, t) ;  next = {v : d(v) improved, t(v) < hi}
// pending (nullable): every improved vertex becomes pending (the host marks the frontier
// settled and not pending before the launch). `flag` (int per vertex, zero) dedupes next.
template <typename I, typename T>
__global__ void relax_push(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, const long long* __restrict__ frontier, long long nf,
    const long long* __restrict__ offsets, T hi, T* d, bool* __restrict__ pending,
    int* __restrict__ flag, long long* __restrict__ next, unsigned long long* __restrict__ counters)
{
    const long long total = offsets[nf - 1];
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long e = (long long)blockIdx.x * blockDim.x + threadIdx.x; e < total; e += stride) {
        long long first;
        const long long u = frontier[sr_edge_slot(offsets, nf, e, first)];
        const long long p = (long long)indptr[u] + (e - first);
        const long long v = (long long)indices[p];
        const T nd = *reinterpret_cast<volatile T*>(&d[u]) + w[p * wstride];
        bool joined = false;
        if (sr_relax_min<T>(&d[v], nd)) {
            if (pending != nullptr) pending[v] = true;
            joined = nd < hi && atomicExch(&flag[v], 1) == 0;
        }
        sr_append_warp(joined, v, next, &counters[0]);
    }
}

// ---------------------------------------------------------------------------------------------
// Fused push levels over the whole device: the push_levels loop run by a persistent grid (a
// cooperative launch: every block resident at once), the levels separated by a grid-wide
// barrier instead of one block's __syncthreads. Each level is the same step
//     q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q
// with the frontier's edges load balanced over every thread of the grid.
//
// The load balance needs each frontier slot's first edge number (the exclusive prefix sum of
// the frontier's degrees). No separate scan is run: a claimed vertex is appended to the next
// queue together with its degree, by one 64-bit atomic per warp on a packed counter
// (vertices << SR_GRID_EDGE_BITS | edges). The atomic hands the warp a range of queue slots
// and, at the same time, a range of edge numbers, so the slots' edge offsets rise with the
// slots: the next level's prefix sum comes out of the appends, and its total (the max_edges
// test) and its size are one word read after the barrier. One barrier a level.
//
// Buffers: q[2] (frontier vertices) and o[2] (their first edge numbers), `cap` slots each;
// the host puts the starting frontier into q[1]. state (int64[SR_GRID_STATE], in/out):
// [0] frontier size in / last size out, [1] depth in/out, [2] status (out), [3] levels (out),
// [4..6] packed counters, [7..9] overflow flags (the three rotate by level: the one a level
// appends to, the one it reads, the one it zeroes for the next), [10] the barrier word.
// [4..10] must be zero on entry.

#define SR_GRID_THREADS 512
// The packed counter's fields: vertices in the top 28 bits (n <= 2^28), edges in the low 36
// (a level's out-edges below 6.9e10, more than a graph that fits one GPU holds). 24 / 40 kept
// graphs of more than 2^24 vertices off the device loops: kron-25's BFS took 7-8 ms by the
// host's level loop where kron-24's took 0.8-1.15 in bfs_grid (2 H200, bench/results/session21).
#define SR_GRID_EDGE_BITS 36
#define SR_GRID_STATE 12
// Evenly spaced samples of the frontier's edge offsets that each block keeps in shared memory
// a level: an edge's slot is searched there first, leaving a few steps (none for a frontier of
// at most this many vertices) of dependent L2 loads instead of log2(frontier) of them.
#ifndef SR_GRID_SAMPLES
#define SR_GRID_SAMPLES 2048
#endif
// 1: every block loads the samples every level, even one without edges to relax (the former
// behaviour; bench/probes/road_probe.py compares the two through GRID_OPTIONS)
#ifndef SR_GRID_SAMPLES_ALL
#define SR_GRID_SAMPLES_ALL 0
#endif

// Grid-wide barrier of a cooperative launch (the algorithm of cooperative_groups'
// grid.sync(), which NVRTC cannot include without the CUDA toolkit's headers on its path):
// block 0 adds 2^31 - (blocks - 1), every other block 1, so the top bit of the word flips
// exactly when the last block arrives; each block waits for the flip from the value it saw.
// The word's low 31 bits must be zero before the first barrier (a partial sum would otherwise
// cross the top bit before the last block arrives: an early release, then a hang); each whole
// barrier adds 2^31, leaving them zero for the next.
// The fences make every write before the barrier visible to every read after it.
__device__ __forceinline__ void sr_grid_sync(unsigned int* bar)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int inc = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
        __threadfence();
        const unsigned int old = atomicAdd(bar, inc);
        while (((old ^ *reinterpret_cast<volatile unsigned int*>(bar)) & 0x80000000u) == 0u) {
        }
        __threadfence();
    }
    __syncthreads();
}

// Append v (when take) with its out-degree `deg` to the queue q / offsets o, warp-aggregated:
// one atomic on the packed counter gives the warp its slots and its edge numbers. Every lane
// of the warp calls it (full mask). A slot at or past `cap` is not written but raises *over.
template <typename I>
__device__ __forceinline__ void sr_grid_append(bool take, I v, long long deg, I* q, long long* o,
                                               unsigned long long* ctr, long long* over,
                                               long long cap)
{
    const unsigned want = __ballot_sync(0xffffffffu, take);
    if (want == 0u) return;
    const int lane = threadIdx.x & 31;
    const long long d = take ? deg : 0;
    long long incl = d;  // inclusive prefix of the taking lanes' degrees
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const long long x = __shfl_up_sync(0xffffffffu, incl, off);
        if (lane >= off) incl += x;
    }
    const long long sum = __shfl_sync(0xffffffffu, incl, 31);
    const int k = __popc(want);
    unsigned long long old = 0;
    if (lane == 0) {
        old = atomicAdd(ctr, ((unsigned long long)k << SR_GRID_EDGE_BITS) + (unsigned long long)sum);
        if ((long long)(old >> SR_GRID_EDGE_BITS) + k > cap) *reinterpret_cast<volatile long long*>(over) = 1;
    }
    old = __shfl_sync(0xffffffffu, old, 0);
    if (take) {
        const long long pos = (long long)(old >> SR_GRID_EDGE_BITS) + __popc(want & ((1u << lane) - 1u));
        if (pos < cap) {
            q[pos] = v;
            o[pos] = (long long)(old & ((1ull << SR_GRID_EDGE_BITS) - 1ull)) + incl - d;
        }
    }
}

// A warp's appends, buffered in shared memory (SR_WARP_BUF vertices a warp) and flushed to
// the queue q / offsets o with one atomic on the packed counter for the whole buffer. The
// per-warp atomic of sr_grid_append serializes on one address when a level appends in most
// warp steps (a wide push level: 450 000 warp steps on Kronecker 24, each ~1 ns at L2).
// Both calls are warp-uniform (nb, the buffer's fill, is the same in every lane).
#ifndef SR_WARP_BUF
#define SR_WARP_BUF 128
#endif
// SR_FLUSH_UNROLL 1: bfs_grid's flushes (UNROLL below) load the buffered vertices' row bounds
// for the whole buffer at once (a fixed, unrolled loop), where a loop over the fill chains a
// DRAM latency per 32 vertices (up to 4 on the critical path of a warp's flush)
#ifndef SR_FLUSH_UNROLL
#define SR_FLUSH_UNROLL 1
#endif

template <typename I, bool UNROLL = false>
__device__ __forceinline__ void sr_buf_flush(I* buf, int& nb, const I* __restrict__ indptr,
                                             I* q, long long* o, unsigned long long* ctr,
                                             long long* over, long long cap)
{
    if (nb == 0) return;
    const int lane = threadIdx.x & 31;
    __syncwarp();
    long long sum = 0;
    if constexpr (UNROLL && SR_FLUSH_UNROLL) {
#pragma unroll
        for (int j = 0; j < SR_WARP_BUF / 32; ++j) {
            const int i = lane + 32 * j;
            if (i < nb) {
                const I v = buf[i];
                sum += (long long)indptr[v + 1] - (long long)indptr[v];
            }
        }
    } else {
        for (int i = lane; i < nb; i += 32) {
            const I v = buf[i];
            sum += (long long)indptr[v + 1] - (long long)indptr[v];
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    unsigned long long old = 0;
    if (lane == 0) {
        old = atomicAdd(ctr, ((unsigned long long)nb << SR_GRID_EDGE_BITS) + (unsigned long long)sum);
        if ((long long)(old >> SR_GRID_EDGE_BITS) + nb > cap) *reinterpret_cast<volatile long long*>(over) = 1;
    }
    old = __shfl_sync(0xffffffffu, old, 0);
    const long long base = (long long)(old >> SR_GRID_EDGE_BITS);
    long long run = (long long)(old & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
    for (int i0 = 0; i0 < nb; i0 += 32) {
        const int i = i0 + lane;
        I v = 0;
        long long d = 0;
        if (i < nb) {
            v = buf[i];
            d = (long long)indptr[v + 1] - (long long)indptr[v];
        }
        long long incl = d;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const long long x = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += x;
        }
        if (i < nb && base + i < cap) {
            q[base + i] = v;
            o[base + i] = run + incl - d;
        }
        run += __shfl_sync(0xffffffffu, incl, 31);
    }
    __syncwarp();
    nb = 0;
}

template <typename I, bool UNROLL = false>
__device__ __forceinline__ void sr_buf_add(bool take, I v, I* buf, int& nb,
                                           const I* __restrict__ indptr, I* q, long long* o,
                                           unsigned long long* ctr, long long* over, long long cap)
{
    const unsigned int want = __ballot_sync(0xffffffffu, take);
    if (want == 0u) return;
    if (nb + __popc(want) > SR_WARP_BUF) sr_buf_flush<I, UNROLL>(buf, nb, indptr, q, o, ctr, over, cap);
    if (take) buf[nb + __popc(want & ((1u << (threadIdx.x & 31)) - 1u))] = v;
    nb += __popc(want);
}

// One push level of a persistent grid, between two grid barriers:
//     q⟨¬visited⟩ = f any.secondi A ;  level⟨q⟩ = d1 ;  parent⟨q⟩ = f ;  vis⟨q⟩ = true
// The frontier f is the queue qi (count vertices) with oi its vertices' first edge numbers
// (total edges in all); edge e belongs to the last slot whose offset is <= e, found among
// evenly spaced samples of oi kept in shared memory, then in oi itself. A head is claimed by
// a CAS of its level from -1 or, given the visited bitmap vis (nullable) and no smallest
// parent to find, by an atomicOr of its bit there; it is appended to qo/oo through the warp's
// buffer s_buf (sr_buf_add).
// qi, oi and vis were written before the last barrier by other blocks. The barrier's
// fences invalidate each multiprocessor's L1 (__threadfence is MEMBAR.SC.GPU + CCTL.IVALL in
// the sm_90 SASS), so what is read through L1 after it is what was written before it: with
// SR_PUSH_L1 the binary search over oi and the queue's vertices go through L1 (the top steps
// of every thread's search hit the same words), else through L2 alone (__ldcg). vis changes
// during the level: its pre-check may read a stale word, which only sends the claim to the
// atomicOr that decides.
#ifndef SR_PUSH_L1
#define SR_PUSH_L1 1
#endif
#if SR_PUSH_L1
#define SR_LD_PUSH(p) __ldca(p)
#else
#define SR_LD_PUSH(p) __ldcg(p)
#endif
// Claim head v (reached from u) for level d1: by an atomicOr of its bit in vis where there is
// one and no smallest parent is sought (the bitmap stays in L2, the level array, 8 bytes a
// vertex at random, would not), else by sr_claim's CAS on level. Returns whether this call
// claimed v.
template <typename I, int PARENTS>
__device__ __forceinline__ bool sr_push_claim(long long* level, long long* parent,
                                              unsigned int* vis, I u, I v, long long d1)
{
    bool claimed = false;
    if (vis != nullptr && PARENTS != 2) {
        const unsigned int bit = 1u << (v & 31);
        if (!(SR_LD_PUSH(vis + (v >> 5)) & bit))
            claimed = !(atomicOr(vis + (v >> 5), bit) & bit);
        if (claimed) level[v] = d1;
        if (claimed && PARENTS == 1) parent[v] = (long long)u;
    } else {
        claimed = sr_claim<PARENTS>(level, parent, v, u, d1);
        if (claimed && vis != nullptr) atomicOr(vis + (v >> 5), 1u << (v & 31));
    }
    return claimed;
}

// The slot of edge e (< total): the last f with oi[f] <= e, among the ns samples s_samp[j] =
// oi[j * step] first, then in oi itself (at most log2(step) dependent loads).
__device__ __forceinline__ int sr_push_slot(const long long* oi, long long count,
                                            const long long* s_samp, int ns, int step,
                                            long long e)
{
    int lo = 0, hi = ns;
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (s_samp[mid] <= e) lo = mid; else hi = mid;
    }
    lo *= step;  // count <= 2^28 (the queue counter's vertex field): slots fit an int
    hi = (int)min((long long)lo + step, count);
    while (hi - lo > 1) {
        const int mid = (lo + hi) >> 1;
        if (SR_LD_PUSH(oi + mid) <= e) lo = mid; else hi = mid;
    }
    return lo;
}

// The slots of a batch of B edges e[k] (each < the level's total): for each, the last f with
// oi[f] <= e[k], among the ns samples s_samp[j] = oi[j * step] first, then in oi itself, in
// fixed steps so that the batch's searches advance together (top_s, top_o: the largest
// powers of two below ns and step, 0 for none). sr_grid_push's batches and bfs_peer.cu's
// push share it.
template <int B>
__device__ __forceinline__ void sr_push_slots(const long long* oi, long long count,
                                              const long long* s_samp, int ns, int step,
                                              int top_s, int top_o, const long long (&e)[B],
                                              int (&f)[B])
{
#pragma unroll
    for (int k = 0; k < B; ++k) f[k] = 0;
    for (int s = top_s; s > 0; s >>= 1) {
#pragma unroll
        for (int k = 0; k < B; ++k)
            if (f[k] + s < ns && s_samp[f[k] + s] <= e[k]) f[k] += s;
    }
    if (top_o) {
        int hi[B];
#pragma unroll
        for (int k = 0; k < B; ++k) {
            f[k] *= step;
            hi[k] = (int)min((long long)f[k] + step, count);
        }
        for (int s = top_o; s > 0; s >>= 1) {
#pragma unroll
            for (int k = 0; k < B; ++k)
                if (f[k] + s < hi[k] && SR_LD_PUSH(oi + f[k] + s) <= e[k]) f[k] += s;
        }
    }
}

// SR_PUSH_BATCH > 1: a thread of a push with the visited bitmap (bfs_grid's, parents any or
// none) takes that many of its edges at once, each step's loads issued for the whole batch
// before any is used. A thread's edges are e, e + stride, ... (a wide level gives each
// several: kron-22's 4.5 M-edge push of a 1071-vertex hub frontier, 33 a thread on an H200's
// 135 168), and each edge is a chain of dependent loads (its slot's search, the tail, its row
// start, the head, its visited word, the atomic): one edge at a time pays the whole chain
// per edge. That push on an H200 (bench/probes/bfs_levels_probe.py, session 13): 88 us one
// at a time, 79 two, 73 four, 84 eight.
#ifndef SR_PUSH_BATCH
#define SR_PUSH_BATCH 4
#endif
template <typename I, int PARENTS>
__device__ __forceinline__ void sr_grid_push(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long* level,
    long long* parent, unsigned int* vis, const I* qi, const long long* oi, long long count,
    long long total, I* qo, long long* oo, unsigned long long* ctr, long long* over,
    long long cap, long long d1, long long* s_samp, I* s_buf, unsigned int* fbits)
{
    I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
    int nb = 0;
    const int lane = threadIdx.x & 31;
    const int step = (int)max(1LL, (count + SR_GRID_SAMPLES - 1) / SR_GRID_SAMPLES);
    const int ns = (int)((count + step - 1) / step);
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    // only a block with edges this level needs them (a narrow level keeps most blocks idle)
    if (SR_GRID_SAMPLES_ALL || (long long)blockIdx.x * blockDim.x < total)
        for (int j = threadIdx.x; j < ns; j += blockDim.x) s_samp[j] = SR_LD_PUSH(oi + (long long)j * step);
    __syncthreads();
#if SR_PUSH_BATCH > 1
    if (vis != nullptr && PARENTS != 2) {
        // SR_PUSH_BATCH edges a thread at once (e, e + stride, ...), each step's loads issued
        // for all of them before any is used: the chain of an edge (its slot, the tail's row
        // start, the head, its visited word, the claim's atomic) is paid once a batch, not
        // once an edge (see SR_PUSH_BATCH)
        const int top_s = ns > 1 ? 1 << (31 - __clz(ns - 1)) : 0;      // < ns
        const int top_o = step > 1 ? 1 << (31 - __clz(step - 1)) : 0;  // < step
        for (long long e0 = gtid; e0 - lane < total; e0 += SR_PUSH_BATCH * stride) {
            long long e[SR_PUSH_BATCH];
            int f[SR_PUSH_BATCH];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k)
                e[k] = min(e0 + k * stride, total - 1);  // past the end: a repeat, not claimed
            // the last sample <= e, then the last slot <= e after it
            sr_push_slots<SR_PUSH_BATCH>(oi, count, s_samp, ns, step, top_s, top_o, e, f);
            I u[SR_PUSH_BATCH], v[SR_PUSH_BATCH];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) {
                u[k] = SR_LD_PUSH(qi + f[k]);
                e[k] -= SR_LD_PUSH(oi + f[k]);  // the edge's place in its tail's row
            }
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) e[k] += (long long)indptr[u[k]];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) v[k] = indices[e[k]];
            unsigned int w[SR_PUSH_BATCH];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) w[k] = SR_LD_PUSH(vis + (v[k] >> 5));
            bool claimed[SR_PUSH_BATCH];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) {
                const unsigned int bit = 1u << (v[k] & 31);
                claimed[k] = e0 + k * stride < total && !(w[k] & bit)
                             && !(atomicOr(vis + (v[k] >> 5), bit) & bit);
            }
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) {
                if (claimed[k]) {
                    level[v[k]] = d1;
                    if (PARENTS == 1) parent[v[k]] = (long long)u[k];
                    if (fbits != nullptr) atomicOr(fbits + (v[k] >> 5), 1u << (v[k] & 31));
                }
                sr_buf_add<I, true>(claimed[k], v[k], buf, nb, indptr, qo, oo, ctr, over, cap);
            }
        }
        sr_buf_flush<I, true>(buf, nb, indptr, qo, oo, ctr, over, cap);
        return;
    }
#endif
    // warp-uniform (bounded by the warp's first lane): the append's shuffles see all lanes
    for (long long e = gtid; e - lane < total; e += stride) {
        bool claimed = false;
        I v = 0;
        if (e < total) {
            const int f = sr_push_slot(oi, count, s_samp, ns, step, e);
            const I u = SR_LD_PUSH(qi + f);
            v = indices[(long long)indptr[u] + (e - SR_LD_PUSH(oi + f))];
            claimed = sr_push_claim<I, PARENTS>(level, parent, vis, u, v, d1);
            if (claimed && fbits != nullptr) atomicOr(fbits + (v >> 5), 1u << (v & 31));
        }
        sr_buf_add<I>(claimed, v, buf, nb, indptr, qo, oo, ctr, over, cap);
    }
    sr_buf_flush<I>(buf, nb, indptr, qo, oo, ctr, over, cap);
}

template <typename I, int PARENTS>
__global__ void __launch_bounds__(SR_GRID_THREADS) push_levels_grid(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    long long* level, long long* parent, I* q0, I* q1, long long* o0, long long* o1,
    long long* state, long long cap, long long max_edges, long long max_levels)
{
    unsigned long long* ctr = reinterpret_cast<unsigned long long*>(state + 4);
    long long* over = state + 7;
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + 10);
    const int lane = threadIdx.x & 31;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    // every loop below runs warp-uniformly (bounded by the warp's first lane) so that the
    // appends' shuffles see all 32 lanes
    __shared__ long long s_samp[SR_GRID_SAMPLES];
    __shared__ I s_buf[SR_GRID_THREADS / 32 * SR_WARP_BUF];
    const long long first = state[0];
    long long depth = state[1];
    for (long long i = gtid; i - lane < first; i += stride) {
        const bool ok = i < first;
        const I u = ok ? q1[i] : (I)0;
        const long long deg = ok ? (long long)indptr[u + 1] - (long long)indptr[u] : 0;
        sr_grid_append<I>(ok, u, deg, q0, o0, &ctr[0], &over[0], cap);
    }
    sr_grid_sync(bar);

    unsigned long long cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[0]);
    long long count = (long long)(cur >> SR_GRID_EDGE_BITS);
    long long levels = 0;
    int status = SR_TRAVERSE_LIMIT;
    int c = 0;      // the counter (and flag) of the current frontier
    int p = 0;      // its queue: q0/o0 or q1/o1
    while (levels < max_levels) {
        const long long total = (long long)(cur & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
        if (total > max_edges) { status = SR_TRAVERSE_WIDE; break; }
        const int nc = c == 2 ? 0 : c + 1;
        const int zc = nc == 2 ? 0 : nc + 1;
        // the previous level's counter: every block read it before the last barrier
        if (gtid == 0) { ctr[zc] = 0; over[zc] = 0; }
        const I* qi = p ? q1 : q0;
        const long long* oi = p ? o1 : o0;
        const long long d1 = depth + 1;
        sr_grid_push<I, PARENTS>(indptr, indices, level, parent, (unsigned int*)nullptr,
                                 qi, oi, count, total, p ? q0 : q1, p ? o0 : o1,
                                 &ctr[nc], &over[nc], cap, d1, s_samp, s_buf, nullptr);
        sr_grid_sync(bar);
        // every block reads the same words here: its decisions below are the grid's
        const unsigned long long next = *reinterpret_cast<volatile unsigned long long*>(&ctr[nc]);
        const bool overflow = *reinterpret_cast<volatile long long*>(&over[nc]) != 0;
        if (!overflow && next == 0ull) { status = SR_TRAVERSE_DONE; break; }
        depth = d1;
        ++levels;
        count = (long long)(next >> SR_GRID_EDGE_BITS);
        if (overflow) { status = SR_TRAVERSE_OVERFLOW; break; }
        cur = next;
        c = nc;
        p ^= 1;
    }
    if (gtid == 0) {
        state[0] = count;
        state[1] = depth;
        state[2] = status;
        state[3] = levels;
    }
}

// A whole breadth-first search in one persistent cooperative launch, direction-optimizing
// on the device (Beamer, Asanović & Patterson 2012): each level is the push step above
// (sr_grid_push) or the pull step
//     q⟨¬vis⟩ = Aᵀ any.secondi f ;  level⟨q⟩ = d1 ;  parent⟨q⟩ = q ;  vis⟨q⟩ = true
// over f's bitmap, and every block takes the same decision after each barrier from the same
// words: push → pull when f's out-edges exceed the edges not yet checked top-down / alpha
// (GAP's rule: the graph's edges less those of the frontiers pushed), pull → push when f
// holds fewer than n / beta vertices (mode 1: push only, 2: pull only).
//
// The pull gives each warp one 32-vertex word of the visited bitmap: each unvisited lane scans
// its first SR_PULL_LANE in-neighbours alone, SR_PULL_STEP at a time, then the warp scans the
// longer rows one at a time, 32 in-neighbours a step, stopping at the first in the frontier. Aᵀ's rows are sorted,
// so the first found is the smallest: the min_secondi parent, whatever PARENTS asks. The warp
// writes its word of the next frontier's bitmap whole (zeros included) and of `vis`; the
// next frontier's size and out-edges are summed per block (one atomic a block, where a
// warp-aggregated append to the queue would cost one a word, hundreds of thousands on one
// address). A pull leaves the frontier as a bitmap only: before a push the grid appends the
// bitmap's vertices to the queue. A push leaves it as a queue only: before a pull the grid
// clears a bitmap and sets the queue's bits.
//
// Buffers: q0/q1 (n slots) and o0/o1 as in push_levels_grid, vis and fb0/fb1 (bitmaps of
// ceil(n / 32) words); the kernel writes every entry of level and parent (see SR_LAZY_FILL)
// and sets the bitmaps to zero. state (int64[13], any values on entry but [10], the barrier
// word, and [12], zero: the kernel sets what it reads and leaves those two zero): [0] depth
// out (the last non-empty level), [1] levels (run, or the last one known empty: SR_STOP_ALL),
// [2] push levels, [3] pull levels, [4..6] the rotating packed counters, [7..9] overflow flags
// (never raised: the queues hold n), [10] the barrier word, [11] the counter of the bitmap →
// queue appends, [12] the vertices visited at the start. mode: 0 auto, 1 push only, 2 pull
// only, plus 4 where level (and parent) come filled with -1. The queue counter's vertex
// field is 28 bits: n <= 2^28. trace (nullable, a profile): the start time, then for each of the first
// trace_levels levels its end time (ns, %globaltimer), frontier size, out-edges and direction.
#define SR_PULL_LANE 32
#ifndef SR_PULL_STEP  // bench/probes/probe_tune.py sweeps it through backend.gpu.traversal.GRID_OPTIONS
#define SR_PULL_STEP 4
#endif
// The in-neighbours a lane loads at once after its first step. Wider than the first step
// it shortens a word's chain of steps but loses: on an H200 (session 14, same probe, with
// SR_STOP_ALL and SR_PUSH_BITS on) urand-22's wide pull 230 -> 250 / 274 / 307 us at 8 / 12 /
// 16 (no spills): each step issues that many bit loads a lane, whose rate bounds the pull.
#ifndef SR_PULL_NEXT
#define SR_PULL_NEXT SR_PULL_STEP
#endif

__device__ __forceinline__ long long sr_clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long)t;
}

// The pull's frontier bitmap is read-only during the level and was written before the last
// barrier, whose fences invalidate L1 (see sr_grid_push): with SR_PULL_L1 its words are read
// through L1, where the bits of the in-neighbours many rows share stay, instead of an L2
// round trip each. On an H200 (bench/probes/bfs_levels_probe.py, session 12, with
// SR_PUSH_L1; device time of the whole search, mean of two sources) it was mixed: urand-22
// 455 -> 433 us, kron-22 282 -> 281, kron-24 1085 -> 1103; kept for urand's (wide pull, few
// hubs) sake, where the 40x-GAP target is tightest.
#ifndef SR_PULL_L1
#define SR_PULL_L1 1
#endif
template <typename I>
__device__ __forceinline__ bool sr_bit(const unsigned int* bits, I u)
{
#if SR_PULL_L1
    return (__ldca(bits + (u >> 5)) >> (u & 31)) & 1u;
#else
    return (__ldcg(bits + (u >> 5)) >> (u & 31)) & 1u;
#endif
}

// A pull is a chain of dependent loads a word (visited bits, row bounds, the first
// in-neighbours, their bits, the found vertex's out-degree), 31 words a warp on kron-22: its
// time is that chain's latency, not bandwidth. Two switches shorten the chain (H200,
// bench/probes/bfs_levels_probe.py, session 12, the pull levels' device time):
// SR_PULL_DEG_EARLY 1: a lane loads its vertex's out-row bounds with its in-row bounds, not
// after the scan (0): kron-24 475 / 331 -> 410 / 295 us, urand-22 284 -> 266 us, kron-22
// 107 / 65 -> 98 / 63 us.
// SR_PULL_PREFETCH 1: a warp loads its next word's visited bits and row bounds before scanning
// this one (bounds of visited lanes too: 4n bytes a level, coalesced): on top of the above,
// kron-24 410 / 295 / 133 -> 327 / 230 / 94 us, urand-22 266 -> 250 us, kron-22 98 / 63 ->
// 79 / 50 us; the whole search kron-24 1.109 -> 0.911 ms.
#ifndef SR_PULL_PREFETCH
#define SR_PULL_PREFETCH 1
#endif
#ifndef SR_PULL_DEG_EARLY
#define SR_PULL_DEG_EARLY 1
#endif
// SR_PULL_SKIP 1 (with the prefetch): a warp takes 32 words of the visited bitmap at once
// (one load, a lane a word) and scans only those with an unvisited vertex, where the word
// loop above paid a word's chain of loads for every word. With the vertices no edge enters
// marked visited from the start (noin: 43 % of kron-22's vertices, isolated), the pulls after
// the widest level find most words done: kron-22's second pull has ~27 k vertices left to
// find besides 1.8 M isolated ones (H200, session 13: 34 -> 23 us; urand-22's last pull
// 24 -> 8, kron-24's 92 / 96 -> 22 / 32). The warp's words stay interleaved with the other
// warps' (w = warp + i * warps): 32 consecutive words a warp scattered the grid's reads over
// the whole graph and cost the wide pulls 30-125 us (kron-24 329 -> 397 us).
#ifndef SR_PULL_SKIP
#define SR_PULL_SKIP 1
#endif
// SR_PUSH_CLEARS 1: a push level zeroes the bitmap that a pull after it would fill with its
// frontier (unused during a push: the frontier is the queue), so that the pull's conversion of
// the queue into bits needs no zeroing pass and grid barrier of its own (0: it zeroes, then
// waits at a barrier). The bitmaps start zeroed, for a search that starts with a pull.
#ifndef SR_PUSH_CLEARS
#define SR_PUSH_CLEARS 1
#endif
// SR_PUSH_BITS 1: a push sets its claimed vertices' bits in the next frontier's bitmap too
// (a fire-and-forget atomicOr each), so that a pull after it has its frontier without the
// queue → bitmap pass and its grid barrier (0). The bitmaps then keep: fb[b] holds the
// frontier at every level's start, fb[b ^ 1] is zero at a push's start (the push zeroes
// fb[b] for the next one, the bitmap → queue step after pulls the pulls' last input).
// Off: on an H200 (session 14, same probe) the other levels got slower (the register cap
// again): urand-22 0.377 -> 0.409 ms, kron-22 0.228 -> 0.248.
#ifndef SR_PUSH_BITS
#define SR_PUSH_BITS 0
#endif
// SR_PULL_AHEAD 1 (with SR_PULL_SKIP): the next word's first SR_PULL_STEP in-neighbours are
// loaded with its bounds, before this word's scan: a word's first step then starts at its
// bits' loads, one DRAM latency less on the chain (the wide pulls find most vertices in it):
// H200, session 13, kron-22's first pull 91 -> 77 us, urand-22's 243 -> 221 us.
#ifndef SR_PULL_AHEAD
#define SR_PULL_AHEAD 1
#endif
// SR_NOIN 0: noin ignored (every vertex left for the pulls to scan)
#ifndef SR_NOIN
#define SR_NOIN 1
#endif
// SR_B2Q_BATCH 1: the bitmap -> queue step before a push (after pulls) loads 32 words a warp
// at once, where 0 chained a word a step: the level after kron-24's pulls 56 / 58 -> 18 / 19
// us, kron-22's last 12 -> 6 us (H200, same probe).
#ifndef SR_B2Q_BATCH
#define SR_B2Q_BATCH 1
#endif
// Blocks a multiprocessor the compiler plans bfs_grid's registers for (__launch_bounds__'s
// second argument). With none, nvcc 13.0 gave it 40 registers and 78 bytes of spills (room for
// 3 blocks of 512 threads); with 2 (BFS_GRID_BLOCKS_PER_SM), 62-64 registers and no spills:
// whole-search device time on an H200 (same probe) kron-22 292 -> 282 us, urand-22 465 ->
// 455, kron-24 1094 -> 1085.
#ifndef SR_BFS_MINB
#define SR_BFS_MINB 2
#endif
// 1: level / parent get their -1 from the first pull or a pass at the end (see bfs_grid's
// start), not from a fill before the first level (0): one write of the n int64 instead of up
// to two. Measured slower, so 0 (H200, bench/probes/bfs_levels_probe.py kron-24 --variants
// base,fill, two sources, whole-search device time): lazy 830 / 995 us, the fill 692 / 776 us;
// the first pulls, which write the unvisited vertices' -1 as they go, lost more (416 / 555 us
// against 329 / 401) than the fill costs.
#ifndef SR_LAZY_FILL
#define SR_LAZY_FILL 0
#endif
// SR_STOP_ALL 1: the search stops once every vertex is visited (those no edge enters, marked
// from the start, included), where the level after that ran to find nothing: urand-22's
// last level, a push from the last pull's few thousand vertices (~11 us on an H200, session
// 13's trace). The count starts as state[12] (zero on entry, left zero by every search).
// Off: on an H200 (session 14, bench/probes/bfs_levels_probe.py, call by call) it saved that
// level but slowed the others (the kernel is at its 64-register cap): GAP's urand-22 0.377 ->
// 0.406 ms, kron-22 0.228 -> 0.258, kron-24 0.657 -> 0.804 (the count in shared memory; in a
// register alike).
#ifndef SR_STOP_ALL
#define SR_STOP_ALL 0
#endif

template <typename I, int PARENTS>
__global__ void __launch_bounds__(SR_GRID_THREADS, SR_BFS_MINB) bfs_grid(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const I* __restrict__ tindptr, const I* __restrict__ tindices, long long n, long long source,
    long long* level, long long* parent, I* q0, I* q1, long long* o0, long long* o1,
    unsigned int* vis, unsigned int* fb0, unsigned int* fb1, long long* state,
    long long alpha, long long beta, int mode, long long* trace, long long trace_levels,
    const unsigned int* noin)
{
    unsigned long long* ctr = reinterpret_cast<unsigned long long*>(state + 4);
    long long* over = state + 7;
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + 10);
    const int lane = threadIdx.x & 31;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long gwarp = gtid >> 5, nwarps = stride >> 5;
    const long long nwords = (n + 31) >> 5;
    __shared__ long long s_samp[SR_GRID_SAMPLES];
    __shared__ I s_buf[SR_GRID_THREADS / 32 * SR_WARP_BUF];
    const long long m = (long long)indptr[n];
    const long long deg0 = (long long)indptr[source + 1] - (long long)indptr[source];
    // the outputs, bitmaps and counters start here, not in fills before the launch (a launch
    // each), the source's entries with the rest: one barrier. The barrier word alone must
    // come in zeroed (sr_grid_sync's partial sums must not cross its top bit before the last
    // block arrives; a whole barrier adds 2^31 and leaves its low bits zero again).
    // With SR_LAZY_FILL the -1 of an unreached vertex is written by the first pull (which
    // writes every unvisited vertex's entry: its level or -1, whole sectors) or, in a search
    // without pulls, by a pass at the end: n int64 written once, not once here and again when
    // found. The deterministic push (PARENTS 2) claims by a CAS of level from -1: filled here.
    // mode bit 2: the host filled level (and parent) with -1 before the launch (a memset
    // that runs while the host is still making the cooperative launch): only the source's
    // entries are written here
    const bool prefilled = (mode & 4) != 0;
    mode &= 3;
    const bool lazy = SR_LAZY_FILL && PARENTS != 2 && !prefilled;
    if (prefilled) {
        if (gtid == 0) {
            level[source] = 0;
            if (PARENTS) parent[source] = source;
        }
    } else if (!lazy) {
        for (long long i = gtid; i < n; i += stride) {
            level[i] = i == source ? 0 : -1;
            if (PARENTS) parent[i] = i == source ? source : -1;
        }
    } else if (gtid == 0) {
        level[source] = 0;
        if (PARENTS) parent[source] = source;
    }
    // vis starts with the source, the bits past n and (without the lazy fill, which writes
    // the -1 of the vertices a pull scans, and where a pull may run) the vertices that no
    // edge enters (noin, nullable: Aᵀ's empty rows): none of them is ever found, so a pull
    // need not scan them (SR_PULL_SKIP)
    const unsigned int* skip = lazy || !SR_NOIN || mode == 1 ? nullptr : noin;
    // (and the vertices visited so far counted into state[12], zero on entry: see SR_STOP_ALL)
    unsigned long long known = 0;
    for (long long w = gtid; w < nwords; w += stride) {
        unsigned int x = skip != nullptr ? __ldcg(skip + w) : 0u;
        if (w == (source >> 5)) x |= 1u << (source & 31);
        known += __popc(x);
        if (w == nwords - 1 && (n & 31)) x |= ~0u << (n & 31);
        vis[w] = x;
        // (SR_PUSH_BITS: the frontier {source} in fb0 too)
        fb0[w] = SR_PUSH_BITS && w == (source >> 5) ? 1u << (source & 31) : 0u;
        fb1[w] = 0u;
    }
#if SR_STOP_ALL
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) known += __shfl_xor_sync(0xffffffffu, known, off);
    if (lane == 0 && known) atomicAdd(reinterpret_cast<unsigned long long*>(state + 12), known);
#endif
    if (gtid == 0) {
        q0[0] = (I)source;
        o0[0] = 0;
        ctr[0] = (1ull << SR_GRID_EDGE_BITS) + (unsigned long long)deg0;
        ctr[1] = ctr[2] = 0ull;
        over[0] = over[1] = over[2] = 0;
        state[11] = 0;  // the bitmap → queue appends' counter
    }
    sr_grid_sync(bar);

    if (trace != nullptr && gtid == 0) trace[0] = sr_clock_ns();
    unsigned long long cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[0]);
#if SR_STOP_ALL
    // the vertices visited (or never to be found: noin) before a level, in shared memory by
    // the level's parity (thread 0 writes the next level's while the block reads this one's:
    // no register held through the loop); state[12] is read here by each block's thread 0
    // and zeroed after the first level's barrier, for the next search
    __shared__ int s_visited[2];
    if (threadIdx.x == 0) s_visited[0] = (int)*reinterpret_cast<volatile long long*>(state + 12);
#endif
    long long depth = 0, levels = 0;
    // the push and pull levels, counted by thread 0 of each block (only block 0's are
    // written out): two registers fewer in every thread
    __shared__ int s_pushes, s_pulls;
    if (threadIdx.x == 0) s_pushes = s_pulls = 0;
    // the edges not yet checked top-down: m less the out-edges of each frontier pushed, as
    // GAP's edges_to_check (Beamer's own code: a pull's frontier is not taken off). Taking
    // every level's off sent a search's tail, whose unvisited vertices are mostly unreachable
    // and hold few edges, back to a pull over all n vertices: on an H200 kron-22 from one
    // source pulled a 409-vertex frontier in 28-33 us where a push takes ~6 (session 12,
    // bench/probes/bfs_levels_probe.py; the other traces' decisions are the same either way)
    long long left = m;
    bool pushing = mode != 2;
    bool bitmap = SR_PUSH_BITS;  // the frontier is in fb[b] (after a pull; SR_PUSH_BITS: always)
    bool queued = true;        // the frontier is in the queue qi/oi (after a push)
    bool filled = !lazy;       // every unvisited vertex's level (and parent) holds -1
    int c = 0, p = 0, b = 0;   // the frontier's counter, queue and bitmap
    unsigned long long* scratch = reinterpret_cast<unsigned long long*>(state + 11);
    __shared__ unsigned long long s_found;
    while (depth < n) {
        const long long count = (long long)(cur >> SR_GRID_EDGE_BITS);
        const long long total = (long long)(cur & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
        if (mode == 0) {
            if (pushing && total * alpha > left) pushing = false;
            else if (!pushing && count * beta < n) pushing = true;
        }
        if (pushing) left -= total;
        const int nc = c == 2 ? 0 : c + 1;
        const int zc = nc == 2 ? 0 : nc + 1;
        if (gtid == 0) { ctr[zc] = 0; over[zc] = 0; }
        const I* qi = p ? q1 : q0;
        const long long* oi = p ? o1 : o0;
        I* qo = p ? q0 : q1;
        long long* oo = p ? o0 : o1;
        const long long d1 = depth + 1;
        if (pushing) {
            if (!queued) {  // the frontier's bitmap into the queue (after pulls)
                const unsigned int* fb = b ? fb1 : fb0;
                I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
                int nb = 0;
#if SR_B2Q_BATCH
                // a warp loads 32 words at once (a lane each) and appends the set bits of the
                // nonzero ones: one round trip per 32 words where a word a step chained one a
                // word (kron-24: 124 words a warp, most of a 68 us level on an H100)
                for (long long w0 = gwarp << 5; w0 < nwords; w0 += nwarps << 5) {
                    const unsigned int mine = w0 + lane < nwords ? __ldcg(fb + w0 + lane) : 0u;
                    for (unsigned int nz = __ballot_sync(0xffffffffu, mine != 0u); nz; nz &= nz - 1u) {
                        const int j = __ffs(nz) - 1;
                        const unsigned int word = __shfl_sync(0xffffffffu, mine, j);
                        sr_buf_add<I, true>((word >> lane) & 1u, (I)(((w0 + j) << 5) + lane),
                                            buf, nb, indptr, (I*)qi, (long long*)oi, scratch,
                                            over, n);
                    }
                }
#else
                for (long long w = gwarp; w < nwords; w += nwarps) {
                    const bool take = (__ldcg(fb + w) >> lane) & 1u;
                    sr_buf_add<I>(take, (I)((w << 5) + lane), buf, nb, indptr, (I*)qi,
                                  (long long*)oi, scratch, over, n);
                }
#endif
                sr_buf_flush<I, true>(buf, nb, indptr, (I*)qi, (long long*)oi, scratch, over, n);
                if (SR_PUSH_BITS) {  // the last pull's frontier: the push below fills it
                    unsigned int* fo = b ? fb0 : fb1;
                    for (long long w = gtid; w < nwords; w += stride) fo[w] = 0u;
                }
                sr_grid_sync(bar);
                if (gtid == 0) *scratch = 0ull;  // its next use is after another barrier
            }
            // SR_PUSH_BITS: the claimed vertices' bits go to fb[b ^ 1] (zero), the next
            // frontier's bitmap, where a pull after this level would make it from the queue
            unsigned int* fbits = SR_PUSH_BITS && mode != 1 ? (b ? fb0 : fb1) : nullptr;
            sr_grid_push<I, PARENTS>(indptr, indices, level, parent, vis, qi, oi, count, total,
                                     qo, oo, &ctr[nc], &over[nc], n, d1, s_samp, s_buf, fbits);
            if (SR_PUSH_CLEARS || SR_PUSH_BITS) {
                // this frontier's bitmap: a pull after this level fills it (SR_PUSH_CLEARS), or
                // the push after it (SR_PUSH_BITS, which keeps fb[b ^ 1] zero at a push's start)
                unsigned int* fb = b ? fb1 : fb0;
                for (long long w = gtid; w < nwords; w += stride) fb[w] = 0u;
            }
            if (SR_PUSH_BITS && mode != 1) b ^= 1;
            bitmap = SR_PUSH_BITS && mode != 1;
            queued = true;
            if (threadIdx.x == 0) ++s_pushes;
        } else {
            unsigned int* fb = b ? fb1 : fb0;
            unsigned int* fn = b ? fb0 : fb1;
            if (!bitmap) {  // the queue's bits into a cleared bitmap
                if (!SR_PUSH_CLEARS) {
                    for (long long w = gtid; w < nwords; w += stride) fb[w] = 0u;
                    sr_grid_sync(bar);
                }
                for (long long i = gtid; i < count; i += stride) {
                    const I u = __ldcg(qi + i);
                    atomicOr(fb + (u >> 5), 1u << (u & 31));
                }
                sr_grid_sync(bar);
            }
            if (threadIdx.x == 0) s_found = 0ull;
            __syncthreads();
            // one word of the visited bitmap (w, its bits `seen`, each lane's in-row bounds
            // beg / end and out-row bounds ob / oe, loaded for an unvisited lane): its
            // unvisited vertices scan their in-neighbours; the word of the next frontier and
            // of vis written, the found vertices' count and out-edges added to s_found
            auto pull_word = [&](long long w, unsigned int seen, long long beg, long long end,
                                 I ob, I oe, bool ahead, const I (&pre)[SR_PULL_STEP]) {
                const long long v = (w << 5) + lane;
                const bool mine = v < n && !((seen >> lane) & 1u);
                bool found = false;
                I par = 0;
                if (mine) {
#if !SR_PULL_PREFETCH
                    beg = (long long)tindptr[v];
                    end = (long long)tindptr[v + 1];
                    // the out-degree a found vertex adds to the next frontier's edges, loaded
                    // with the row bounds rather than after the scan (a DRAM latency off the
                    // chain of each word)
                    if (SR_PULL_DEG_EARLY) { ob = indptr[v]; oe = indptr[v + 1]; }
#endif
                    const long long lim = min(end, beg + SR_PULL_LANE);
                    // SR_PULL_STEP in-neighbours at a time (the first step's loaded ahead),
                    // then SR_PULL_NEXT: their loads, then their bits' loads, independent of
                    // each other (one load a step would chain a DRAM and an L2 latency per
                    // in-neighbour: 0.6 ms for urand-22's wide pull)
                    if (beg < lim) {
                        I u[SR_PULL_STEP];
                        bool hit[SR_PULL_STEP];
#pragma unroll
                        for (int k = 0; k < SR_PULL_STEP; ++k)
                            u[k] = ahead ? pre[k] : beg + k < lim ? tindices[beg + k] : (I)0;
#pragma unroll
                        for (int k = 0; k < SR_PULL_STEP; ++k)
                            hit[k] = beg + k < lim && sr_bit(fb, u[k]);
#pragma unroll
                        for (int k = SR_PULL_STEP - 1; k >= 0; --k)
                            if (hit[k]) { found = true; par = u[k]; }  // the first hit wins
                        beg += SR_PULL_STEP;
                    }
                    for (; beg < lim && !found; beg += SR_PULL_NEXT) {
                        I u[SR_PULL_NEXT];
                        bool hit[SR_PULL_NEXT];
#pragma unroll
                        for (int k = 0; k < SR_PULL_NEXT; ++k)
                            u[k] = beg + k < lim ? tindices[beg + k] : (I)0;
#pragma unroll
                        for (int k = 0; k < SR_PULL_NEXT; ++k)
                            hit[k] = beg + k < lim && sr_bit(fb, u[k]);
#pragma unroll
                        for (int k = SR_PULL_NEXT - 1; k >= 0; --k)
                            if (hit[k]) { found = true; par = u[k]; }
                    }
                    // not found: [beg, lim) all scanned (the steps may overshoot lim)
                    if (beg > lim) beg = lim;
                }
                unsigned int longer = __ballot_sync(0xffffffffu, mine && !found && beg < end);
                while (longer) {
                    const int l = __ffs(longer) - 1;
                    longer &= longer - 1u;
                    const long long lb = __shfl_sync(0xffffffffu, beg, l);
                    const long long le = __shfl_sync(0xffffffffu, end, l);
                    for (long long e0 = lb; e0 < le; e0 += 32) {
                        const long long e = e0 + lane;
                        I u = 0;
                        bool hit = false;
                        if (e < le) {
                            u = tindices[e];
                            hit = sr_bit(fb, u);
                        }
                        const unsigned int h = __ballot_sync(0xffffffffu, hit);
                        if (h) {
                            const I pu = __shfl_sync(0xffffffffu, u, __ffs(h) - 1);
                            if (lane == l) { found = true; par = pu; }
                            break;
                        }
                    }
                }
                const unsigned int hits = __ballot_sync(0xffffffffu, found);
                long long deg = 0;
                if (found) {
                    level[v] = d1;
                    if (PARENTS) parent[v] = (long long)par;
                    deg = SR_PULL_DEG_EARLY ? (long long)oe - (long long)ob
                                            : (long long)indptr[v + 1] - (long long)indptr[v];
                } else if (!filled && mine) {
                    level[v] = -1;
                    if (PARENTS) parent[v] = -1;
                }
                // the next frontier's size and out-edges, summed in the block: one atomic on
                // the grid's counter a block and level (the queue is built only if a push
                // follows)
#pragma unroll
                for (int off = 16; off > 0; off >>= 1) deg += __shfl_xor_sync(0xffffffffu, deg, off);
                if (lane == 0) {
                    fn[w] = hits;
                    if (hits) {
                        vis[w] = seen | hits;
                        atomicAdd(&s_found, ((unsigned long long)__popc(hits) << SR_GRID_EDGE_BITS)
                                                + (unsigned long long)deg);
                    }
                }
            };
#if SR_PULL_SKIP && SR_PULL_PREFETCH
            // the warp's words are gwarp + i * nwarps as in the loop below (the grid's warps
            // on neighbouring words at once: what they read lies together), taken 32 at a
            // time: one load of their visited words (a lane each), the next frontier's word 0
            // for those whose every vertex is visited (or never found: see noin), and only the
            // others scanned, the next one's bits and bounds loaded before this one's scan
            // (see SR_PULL_SKIP)
            for (long long i0 = 0; gwarp + i0 * nwarps < nwords; i0 += 32) {
                const long long wl = gwarp + (i0 + lane) * nwarps;  // this lane's word
                const unsigned int mine = wl < nwords ? __ldcg(vis + wl) : ~0u;
                if (mine == ~0u && wl < nwords) fn[wl] = 0u;
                unsigned int todo = __ballot_sync(0xffffffffu, mine != ~0u);
                unsigned int seen_n = 0u;
                I beg_n = 0, end_n = 0, ob_n = 0, oe_n = 0;
                I pre_n[SR_PULL_STEP];
                auto bounds = [&](int j) {  // word j's bits and its unvisited lanes' bounds
                    seen_n = __shfl_sync(0xffffffffu, mine, j);
                    const long long vn = ((gwarp + (i0 + j) * nwarps) << 5) + lane;
                    if (vn < n && !((seen_n >> lane) & 1u)) {
                        beg_n = tindptr[vn]; end_n = tindptr[vn + 1];
                        if (SR_PULL_DEG_EARLY) { ob_n = indptr[vn]; oe_n = indptr[vn + 1]; }
                        // and its first in-neighbours (SR_PULL_AHEAD)
#pragma unroll
                        for (int k = 0; k < SR_PULL_STEP; ++k)
                            if (SR_PULL_AHEAD) pre_n[k] = beg_n + k < end_n ? tindices[beg_n + k] : (I)0;
                    }
                };
                if (todo) bounds(__ffs(todo) - 1);
                while (todo) {
                    const int j = __ffs(todo) - 1;
                    todo &= todo - 1u;
                    const unsigned int seen = seen_n;
                    const long long beg = beg_n, end = end_n;
                    const I ob = ob_n, oe = oe_n;
                    I pre[SR_PULL_STEP];
#pragma unroll
                    for (int k = 0; k < SR_PULL_STEP; ++k) pre[k] = SR_PULL_AHEAD ? pre_n[k] : (I)0;
                    if (todo) bounds(__ffs(todo) - 1);
                    pull_word(gwarp + (i0 + j) * nwarps, seen, beg, end, ob, oe, SR_PULL_AHEAD,
                              pre);
                }
            }
#else
#if SR_PULL_PREFETCH
            // the next word's visited bits and row bounds are loaded before this word's scan,
            // so its scan starts without their two dependent latencies (the bounds are read
            // for visited lanes too: n index pairs a pull level, coalesced)
            unsigned int seen_n = 0u;
            I beg_n = 0, end_n = 0, ob_n = 0, oe_n = 0;
            if (gwarp < nwords) {
                const long long v0 = (gwarp << 5) + lane;
                seen_n = __ldcg(vis + gwarp);
                if (v0 < n) {
                    beg_n = tindptr[v0]; end_n = tindptr[v0 + 1];
                    if (SR_PULL_DEG_EARLY) { ob_n = indptr[v0]; oe_n = indptr[v0 + 1]; }
                }
            }
#endif
            for (long long w = gwarp; w < nwords; w += nwarps) {
#if SR_PULL_PREFETCH
                const unsigned int seen = seen_n;
                const long long beg = beg_n, end = end_n;
                const I ob = ob_n, oe = oe_n;
                {
                    const long long wn = w + nwarps, vn = (wn << 5) + lane;
                    if (wn < nwords) {
                        seen_n = __ldcg(vis + wn);
                        if (vn < n) {
                            beg_n = tindptr[vn]; end_n = tindptr[vn + 1];
                            if (SR_PULL_DEG_EARLY) { ob_n = indptr[vn]; oe_n = indptr[vn + 1]; }
                        }
                    }
                }
#else
                const unsigned int seen = __ldcg(vis + w);
                const long long beg = 0, end = 0;
                const I ob = 0, oe = 0;
#endif
                const I none[SR_PULL_STEP] = {};
                pull_word(w, seen, beg, end, ob, oe, false, none);
            }
#endif
            __syncthreads();
            if (threadIdx.x == 0 && s_found) atomicAdd(&ctr[nc], s_found);
            bitmap = true;
            queued = false;
            filled = true;
            b ^= 1;
            if (threadIdx.x == 0) ++s_pulls;
        }
        sr_grid_sync(bar);
        const unsigned long long next = *reinterpret_cast<volatile unsigned long long*>(&ctr[nc]);
        if (trace != nullptr && gtid == 0 && levels < trace_levels) {
            long long* t = trace + 1 + 4 * levels;
            t[0] = sr_clock_ns();
            t[1] = count;
            t[2] = total;
            t[3] = pushing;
        }
        if (SR_STOP_ALL && levels == 0 && gtid == 0) state[12] = 0;  // every block has read it
        ++levels;
        if (next == 0ull) break;
        depth = d1;
#if SR_STOP_ALL
        const int visited = s_visited[(levels - 1) & 1] + (int)(next >> SR_GRID_EDGE_BITS);
        if (threadIdx.x == 0) s_visited[levels & 1] = visited;  // n <= 2^28: an int
        if (visited >= n) {
            // every vertex is visited: the next level would find none. It is counted (in the
            // direction the rule would take) but not run (SR_STOP_ALL)
            const long long nct = (long long)(next >> SR_GRID_EDGE_BITS);
            const long long ntot = (long long)(next & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
            bool way = pushing;
            if (mode == 0) {
                if (way && ntot * alpha > left) way = false;
                else if (!way && nct * beta < n) way = true;
            }
            if (trace != nullptr && gtid == 0 && levels < trace_levels) {  // its row: no time
                long long* t = trace + 1 + 4 * levels;
                t[0] = trace[4 * levels - 3];
                t[1] = nct;
                t[2] = ntot;
                t[3] = way;
            }
            ++levels;
            if (threadIdx.x == 0) { if (way) ++s_pushes; else ++s_pulls; }
            break;
        }
#endif
        cur = next;
        c = nc;
        p ^= 1;
    }
    if (!filled) {  // no pull ran: the unreached vertices' -1 (vis is final after the barrier)
        for (long long i = gtid; i < n; i += stride)
            if (!((__ldcg(vis + (i >> 5)) >> (i & 31)) & 1u)) {
                level[i] = -1;
                if (PARENTS) parent[i] = -1;
            }
    }
    if (gtid == 0) {
        state[0] = depth;
        state[1] = levels;
        state[2] = s_pushes;
        state[3] = s_pulls;
    }
}

// Many breadth-first searches at once, bit-parallel (Then et al. 2014, "The more the merrier:
// efficient multi-source graph traversal"): up to 64 sources, source j owning bit j of one
// 64-bit word a vertex. Each level is the pull step
//     F'⟨¬S⟩ = Aᵀ bor.second F ;  level⟨F'⟩ = d1 ;  parent⟨F'⟩ = Aᵀ's first supplier ;  S |= F'
// (the n × s boolean frontier matrix of the SpMM form, 64 columns packed to a word): each
// vertex ORs its in-neighbours' frontier words, stopping once it holds the bit of every search
// still running (a search is done when its frontier is empty), so one pass over the graph
// serves 64 searches and a vertex every search has reached costs one load a level.
//
// The pull is balanced by in-degree (Kronecker graphs have rows of 10^5 in-neighbours, which
// one thread would scan for milliseconds while the grid waits at the barrier):
// - rows of more than heavy_deg in-neighbours (the list `heavy`, built by the host) are
//   scanned by a whole block, SR_GRID_THREADS × SR_MSBFS_ITEMS in-neighbours a step;
// - every other vertex belongs to a lane of the warp that owns its 32-vertex word: the lane
//   scans its first SR_MSBFS_LANE in-neighbours alone (SR_PULL_STEP loads in flight), then
//   the warp scans the longer rows one at a time, 32 × SR_MSBFS_ITEMS in-neighbours a step.
// Aᵀ's rows are sorted and a scan takes a bit from the first in-neighbour (in row order) that
// supplies it (across lanes or threads: an exclusive prefix OR), so each parent is the smallest
// in-neighbour on the previous level: min_secondi, the same on every run.
//
// Levels are kept bit-sliced during the search: bit j of L[b][v] is bit b of level(j, v), set
// once when bit j first reaches v (only the slices of the set bits of d1 are written, by v's
// owner), and written out as int64 by msbfs_write after the search, coalesced, with -1 where
// bit j of S[v] is clear: the search itself writes no n × s array. Parents are written where
// found into a vertex-major scratch, P[v][j] = u (32 bits: n < 2^32), and msbfs_write turns
// them into the s × n int64 rows (-1 where unreached) with the levels: a parent written
// straight into its row, 8 bytes in a sector whose other entries come at other levels, cost
// a DRAM read-modify-write of the sector each (kron-22: 9.4 ms of parents against 6.7 ms of
// levels), where a vertex's 64 entries share 8 sectors here. Slice b is zeroed one
// level before its first use (level 2^b - 1; slice 0 at the start).
//
// P: n × 64 (PARENTS only). F0, F1, S: n words each, L: nb × n words
// (the kernel zeroes what it reads). heavy: the vertices of in-degree > heavy_deg, nheavy of
// them.
// state (int64[12], zero): [0] depth out (the deepest level reached), [1] levels run,
// [4..6] the rotating ORs of a level's new bits (the searches running next), [7..9] the
// rotating counts of a level's new vertices (the next frontier), [10] the barrier word, [11]
// the distinct sources.
// fbits (nullable when nfb = 0): nfb zeroed bitmaps of ceil(n / 32) words (each at a multiple
// of 32 words: ceil(n / 1024) * 32 words apart; cbits alike), the frontier of the
// first nfb levels (the sources', then each level's new vertices); a level whose frontier
// holds fewer than n / filter_div vertices (filter_div > 0) reads an in-neighbour's word only
// where its bit is set; with marks (A = Aᵀ), such a level first marks the frontier's rows in
// cbits' bitmap of the level (nfb zeroed ones, never reused) and scans only marked vertices.
// trace (nullable, a profile): the start time, then for each of the first
// trace_levels levels its end time (ns, %globaltimer), its new vertices and whether it was
// filtered.
#define SR_MSBFS_LANE 32
#ifndef SR_MSBFS_ITEMS
#define SR_MSBFS_ITEMS 4
#endif
#define SR_MSBFS_SLICES 32

// Inclusive prefix OR of x over the lanes of a warp (every lane calls it).
__device__ __forceinline__ unsigned long long sr_warp_scan_or(unsigned long long x)
{
    const int lane = threadIdx.x & 31;
#pragma unroll
    for (int off = 1; off < 32; off <<= 1) {
        const unsigned long long y = __shfl_up_sync(0xffffffffu, x, off);
        if (lane >= off) x |= y;
    }
    return x;
}

// One step of a cooperative scan: this thread's SR_MSBFS_ITEMS consecutive in-neighbours u[k]
// with their frontier words w[k] (0 past the row's end), `excl` the bits that threads before
// it in row order supply this step. Writes the parents of the bits this thread supplies first.
template <typename I, int PARENTS>
__device__ __forceinline__ void sr_msbfs_own(const I* u, const unsigned long long* w,
                                             unsigned long long want, unsigned long long excl,
                                             unsigned int* P, long long v)
{
    if (!PARENTS) return;
    unsigned long long taken = excl;
#pragma unroll
    for (int k = 0; k < SR_MSBFS_ITEMS; ++k) {
        const unsigned long long b = w[k] & want & ~taken;
        taken |= b;
        for (unsigned long long r = b; r; r &= r - 1ull)
            P[v * 64 + (__ffsll((long long)r) - 1)] = (unsigned int)u[k];
    }
}

// Whether u may be on the frontier: its bit in the frontier's bitmap fb, when there is one.
template <typename I>
__device__ __forceinline__ bool sr_in_frontier(const unsigned int* fb, I u)
{
    return fb == nullptr || ((fb[u >> 5] >> (u & 31)) & 1u);
}

// v's new bits: record them (S, the level slices of d1) and return them.
__device__ __forceinline__ void sr_msbfs_commit(unsigned long long* S, unsigned long long* L,
                                                long long n, long long v, long long d1,
                                                unsigned long long seen, unsigned long long acc)
{
    S[v] = seen | acc;
    for (long long r = d1; r; r &= r - 1) {
        unsigned long long* p = L + (long long)(__ffsll(r) - 1) * n + v;
        *p = __ldcg(p) | acc;
    }
}

template <typename I, int PARENTS>
__global__ void __launch_bounds__(SR_GRID_THREADS) msbfs_grid(
    const I* __restrict__ tindptr, const I* __restrict__ tindices, long long n,
    const long long* __restrict__ src, int s, const I* __restrict__ heavy, long long nheavy,
    long long heavy_deg, unsigned long long* F0, unsigned long long* F1, unsigned long long* S,
    unsigned long long* L, int nb, unsigned int* P, long long* state, unsigned int* fbits,
    unsigned int* cbits, long long nfb, long long filter_div, int marks, long long* trace,
    long long trace_levels)
{
    unsigned long long* act = reinterpret_cast<unsigned long long*>(state + 4);
    unsigned long long* cnt = reinterpret_cast<unsigned long long*>(state + 7);
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + 10);
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long gwarp = gtid >> 5, nwarps = stride >> 5;
    const long long nwords = (n + 31) >> 5;
    __shared__ unsigned long long s_act;
    __shared__ unsigned long long s_wor[SR_GRID_THREADS / 32];
    __shared__ unsigned long long s_cnt;
    for (long long v = gtid; v < n; v += stride) F0[v] = S[v] = L[v] = 0ull;
    sr_grid_sync(bar);
    for (long long j = gtid; j < s; j += stride) {
        const long long v = src[j];
        if (atomicOr(F0 + v, 1ull << j) == 0ull) atomicAdd(reinterpret_cast<unsigned long long*>(state + 11), 1ull);
        atomicOr(S + v, 1ull << j);
        if (nfb > 0) atomicOr(fbits + (v >> 5), 1u << (v & 31));
        if (PARENTS) P[v * 64 + j] = (unsigned int)v;
    }
    // the searches still running: those with a non-empty frontier (all of them at first)
    unsigned long long active = s == 64 ? ~0ull : (1ull << s) - 1ull;
    sr_grid_sync(bar);
    long long count = *reinterpret_cast<volatile long long*>(state + 11);  // the frontier's vertices
    if (trace != nullptr && gtid == 0) trace[0] = sr_clock_ns();
    long long depth = 0, levels = 0;
    int c = 0;
    while (depth < n) {
        const long long d1 = depth + 1;
        const unsigned long long* F = (depth & 1) ? F1 : F0;
        unsigned long long* Fn = (depth & 1) ? F0 : F1;
        const int nc = c == 2 ? 0 : c + 1;
        if (gtid == 0) act[nc] = cnt[nc] = 0ull;  // read two barriers ago
        if (threadIdx.x == 0) s_act = s_cnt = 0ull;
        __syncthreads();
        // the frontier's bitmap (one a level, written during the level before, never reused: no
        // L1 line of it can be stale) filters the in-neighbours before their words are loaded
        // while the frontier holds fewer than n / filter_div vertices
        // (nwp: a bitmap's words, rounded up to whole 128-byte lines so that no L1 line holds
        // the end of one level's bitmap and the start of the next's)
        const long long nw = (n + 31) >> 5, nwp = (nw + 31) & ~31LL;
        const unsigned int* fb = levels < nfb && filter_div > 0 && count * filter_div < n
                                     ? fbits + levels * nwp : nullptr;
        unsigned int* fbn = levels + 1 < nfb ? fbits + (levels + 1) * nwp : nullptr;
        // on such a level of a symmetric graph, the frontier first marks its out-neighbours
        // (its rows) in a bitmap of the level's own: only those can gain a bit, the others
        // skip their scan (a push of marks, then the pull on the marked vertices)
        unsigned int* cb = fb != nullptr && marks ? cbits + levels * nwp : nullptr;
        if (cb != nullptr) {
            for (long long h = blockIdx.x; h < nheavy; h += gridDim.x) {  // long rows: a block
                const long long u = (long long)heavy[h];
                if (!((fb[u >> 5] >> (u & 31)) & 1u)) continue;
                const long long end = (long long)tindptr[u + 1];
                for (long long e = (long long)tindptr[u] + threadIdx.x; e < end; e += blockDim.x) {
                    const long long v = (long long)tindices[e];
                    atomicOr(cb + (v >> 5), 1u << (v & 31));
                }
            }
            for (long long wd = gwarp; wd < nw; wd += nwarps) {  // the others: a warp a row
                unsigned int bits = fb[wd];
                while (bits) {
                    const long long u = (wd << 5) + (__ffs(bits) - 1);
                    bits &= bits - 1u;
                    const long long beg = (long long)tindptr[u], end = (long long)tindptr[u + 1];
                    if (end - beg > heavy_deg) continue;
                    for (long long e = beg + lane; e < end; e += 32) {
                        const long long v = (long long)tindices[e];
                        atomicOr(cb + (v >> 5), 1u << (v & 31));
                    }
                }
            }
            sr_grid_sync(bar);
        }
        if (((d1 + 1) & d1) == 0) {  // the slice first written at level d1 + 1 (a power of 2)
            const int b = __ffsll(d1 + 1) - 1;
            if (b < nb)
                for (long long v = gtid; v < n; v += stride) L[(long long)b * n + v] = 0ull;
        }
        // a vertex can only gain the bits of running searches: it is done once it has them
        const unsigned long long done = ~active;
        unsigned long long grew = 0ull;

        // the longest rows first, a block each
        for (long long h = blockIdx.x; h < nheavy; h += gridDim.x) {
            const long long v = (long long)heavy[h];
            const unsigned long long seen = __ldcg(S + v);
            const long long beg = (long long)tindptr[v], end = (long long)tindptr[v + 1];
            unsigned long long got = 0ull;  // the same in every thread of the block
            if ((seen | done) != ~0ull && sr_in_frontier(cb, v)) {
                for (long long e0 = beg; e0 < end; e0 += (long long)SR_GRID_THREADS * SR_MSBFS_ITEMS) {
                    const unsigned long long want = ~(seen | done | got);
                    const long long e = e0 + (long long)threadIdx.x * SR_MSBFS_ITEMS;
                    I u[SR_MSBFS_ITEMS];
                    unsigned long long w[SR_MSBFS_ITEMS];
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k) u[k] = e + k < end ? tindices[e + k] : (I)0;
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k)
                        w[k] = e + k < end && sr_in_frontier(fb, u[k]) ? __ldcg(F + u[k]) & want : 0ull;
                    unsigned long long mine = 0ull;
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k) mine |= w[k];
                    const unsigned long long incl = sr_warp_scan_or(mine);
                    if (lane == 31) s_wor[warp] = incl;
                    __syncthreads();
                    unsigned long long before = 0ull, total = 0ull;
#pragma unroll
                    for (int i = 0; i < SR_GRID_THREADS / 32; ++i) {
                        const unsigned long long x = s_wor[i];
                        if (i < warp) before |= x;
                        total |= x;
                    }
                    __syncthreads();  // s_wor is written again next step
                    const unsigned long long prev = __shfl_up_sync(0xffffffffu, incl, 1);
                    if (mine) sr_msbfs_own<I, PARENTS>(u, w, want, before | (lane ? prev : 0ull),
                                                       P, v);
                    got |= total;
                    if ((got | seen | done) == ~0ull) break;
                }
            }
            if (threadIdx.x == 0) {
                Fn[v] = got;
                if (got) {
                    sr_msbfs_commit(S, L, n, v, d1, seen, got);
                    if (fbn != nullptr) atomicOr(fbn + (v >> 5), 1u << (v & 31));
                    atomicAdd(&s_cnt, 1ull);
                }
                grew |= got;
            }
        }

        // every other vertex: a lane of the warp owning its word
        for (long long wd = gwarp; wd < nwords; wd += nwarps) {
            const long long v = (wd << 5) + lane;
            unsigned long long seen = 0ull, acc = 0ull;
            long long beg = 0, end = 0;
            bool light = false, mine = false;
            if (v < n) {
                seen = __ldcg(S + v);
                beg = (long long)tindptr[v];
                end = (long long)tindptr[v + 1];
                light = end - beg <= heavy_deg;
                mine = light && beg < end && (seen | done) != ~0ull && sr_in_frontier(cb, v);
            }
            if (mine) {
                const long long lim = min(end, beg + SR_MSBFS_LANE);
                // SR_PULL_STEP in-neighbours a step: their loads, then their words' loads
                for (; beg < lim; beg += SR_PULL_STEP) {
                    I u[SR_PULL_STEP];
                    unsigned long long w[SR_PULL_STEP];
#pragma unroll
                    for (int k = 0; k < SR_PULL_STEP; ++k) u[k] = beg + k < lim ? tindices[beg + k] : (I)0;
#pragma unroll
                    for (int k = 0; k < SR_PULL_STEP; ++k)
                        w[k] = beg + k < lim && sr_in_frontier(fb, u[k]) ? __ldcg(F + u[k]) : 0ull;
#pragma unroll
                    for (int k = 0; k < SR_PULL_STEP; ++k) {
                        const unsigned long long b = w[k] & ~seen & ~acc;
                        if (b) {
                            acc |= b;
                            if (PARENTS)
                                for (unsigned long long r = b; r; r &= r - 1ull)
                                    P[v * 64 + (__ffsll((long long)r) - 1)] = (unsigned int)u[k];
                        }
                    }
                    if ((acc | seen | done) == ~0ull) break;
                }
                beg = (acc | seen | done) == ~0ull ? end : lim;
            }
            // the longer rows, the warp on one at a time
            unsigned int longer = __ballot_sync(0xffffffffu, mine && beg < end);
            while (longer) {
                const int l = __ffs(longer) - 1;
                longer &= longer - 1u;
                const long long lb = __shfl_sync(0xffffffffu, beg, l);
                const long long le = __shfl_sync(0xffffffffu, end, l);
                const unsigned long long lseen = __shfl_sync(0xffffffffu, seen, l);
                const long long lv = (wd << 5) + l;
                unsigned long long got = __shfl_sync(0xffffffffu, acc, l);
                if ((got | lseen | done) == ~0ull) continue;
                for (long long e0 = lb; e0 < le; e0 += 32 * SR_MSBFS_ITEMS) {
                    const unsigned long long want = ~(lseen | done | got);
                    const long long e = e0 + (long long)lane * SR_MSBFS_ITEMS;
                    I u[SR_MSBFS_ITEMS];
                    unsigned long long w[SR_MSBFS_ITEMS];
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k) u[k] = e + k < le ? tindices[e + k] : (I)0;
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k)
                        w[k] = e + k < le && sr_in_frontier(fb, u[k]) ? __ldcg(F + u[k]) & want : 0ull;
                    unsigned long long mine_w = 0ull;
#pragma unroll
                    for (int k = 0; k < SR_MSBFS_ITEMS; ++k) mine_w |= w[k];
                    const unsigned long long incl = sr_warp_scan_or(mine_w);
                    const unsigned long long prev = __shfl_up_sync(0xffffffffu, incl, 1);
                    if (mine_w) sr_msbfs_own<I, PARENTS>(u, w, want, lane ? prev : 0ull, P, lv);
                    got |= __shfl_sync(0xffffffffu, incl, 31);
                    if ((got | lseen | done) == ~0ull) break;
                }
                if (lane == l) acc = got;
            }
            if (light) {  // a heavy vertex's word is its block's to write
                Fn[v] = acc;
                if (acc) {
                    sr_msbfs_commit(S, L, n, v, d1, seen, acc);
                    grew |= acc;
                }
            }
            const unsigned int hit = __ballot_sync(0xffffffffu, light && acc != 0ull);
            if (lane == 0 && hit) {
                if (fbn != nullptr) atomicOr(fbn + wd, hit);
                atomicAdd(&s_cnt, (unsigned long long)__popc(hit));
            }
        }
        if (grew) atomicOr(&s_act, grew);
        __syncthreads();
        if (threadIdx.x == 0 && s_act) {
            atomicOr(&act[c], s_act);
            atomicAdd(&cnt[c], s_cnt);
        }
        sr_grid_sync(bar);
        active = *reinterpret_cast<volatile unsigned long long*>(&act[c]);
        count = (long long)*reinterpret_cast<volatile unsigned long long*>(&cnt[c]);
        if (trace != nullptr && gtid == 0 && levels < trace_levels) {
            trace[1 + 3 * levels] = sr_clock_ns();
            trace[2 + 3 * levels] = count;
            trace[3 + 3 * levels] = fb != nullptr;
        }
        ++levels;
        if (active == 0ull) break;
        depth = d1;
        c = nc;
    }
    if (gtid == 0) {
        state[0] = depth;
        state[1] = levels;
    }
}

// The levels of a msbfs_grid batch out of its bit slices, for SL >= the slices in use: the
// 32 sources of one half-word at a time, bit j of the slices' words gathered into level(j, v).
template <int SL, int PARENTS>
__device__ __forceinline__ void sr_msbfs_write_vertex(
    const unsigned long long* __restrict__ S, const unsigned long long* __restrict__ L, int bl,
    const unsigned int* __restrict__ P, long long n, int s, long long v, long long* level,
    long long* parent)
{
    const unsigned long long sv = S[v];
    for (int j0 = 0; j0 < s; j0 += 32) {
        const unsigned int reach = (unsigned int)(sv >> j0);
        unsigned int w[SL];
#pragma unroll
        for (int b = 0; b < SL; ++b) w[b] = b < bl ? (unsigned int)(L[(long long)b * n + v] >> j0) : 0u;
        const int jn = min(32, s - j0);
        for (int j = 0; j < jn; ++j) {
            long long out = -1;
            if ((reach >> j) & 1u) {
                unsigned int x = 0u;
#pragma unroll
                for (int b = 0; b < SL; ++b) x |= ((w[b] >> j) & 1u) << b;
                out = (long long)x;
            }
            level[(long long)(j0 + j) * n + v] = out;
            if (PARENTS) parent[(long long)(j0 + j) * n + v] = out < 0 ? -1 : (long long)P[v * 64 + j0 + j];
        }
    }
}

// level (s × n, int64): level(j, v) from the slices L (bit j of L[b][v] is bit b of it), -1
// where bit j of S[v] is clear; with PARENTS, parent(j, v) = P[v][j] or -1 likewise (a
// thread's reads of its vertex's 256-byte row of P come from L1 after the first). The slices
// in use: those of the bits of the deepest level, state[0].
template <int PARENTS>
__global__ void msbfs_write(const unsigned long long* __restrict__ S,
                            const unsigned long long* __restrict__ L, long long n, int s,
                            const long long* __restrict__ state, long long* level,
                            const unsigned int* __restrict__ P, long long* parent)
{
    const long long depth = state[0];
    const int bl = depth > 0 ? 64 - __clzll(depth) : 0;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v = (long long)blockIdx.x * blockDim.x + threadIdx.x; v < n; v += stride) {
        if (bl <= 4) sr_msbfs_write_vertex<4, PARENTS>(S, L, bl, P, n, s, v, level, parent);
        else if (bl <= 8) sr_msbfs_write_vertex<8, PARENTS>(S, L, bl, P, n, s, v, level, parent);
        else if (bl <= 16) sr_msbfs_write_vertex<16, PARENTS>(S, L, bl, P, n, s, v, level, parent);
        else sr_msbfs_write_vertex<SR_MSBFS_SLICES, PARENTS>(S, L, bl, P, n, s, v, level, parent);
    }
}

// ---------------------------------------------------------------------------------------------
// A whole single-source shortest-path search in one persistent cooperative launch: the
// near–far pile of Davidson, Baxter, Garland & Owens (IPDPS 2014, "Work-efficient parallel GPU
// methods for single-source shortest paths"), run on the device, for high-diameter graphs
// (road networks, meshes) where the host's per-bucket round trips cost more than the edges.
// Weights must be non-negative. Each round relaxes the near queue's out-edges
//     t = f min.+ A ;  d = min(d, t) ;  near' = {v improved : t(v) < S} ;  far ∪= {v improved : t(v) >= S}
// (the push step of sr_grid_push, with an atomic min on d as in relax_rounds: chaotic, exact),
// rounds separated by a grid-wide barrier. When the near queue empties the bucket closes:
// the far pile is scanned twice, once for m, the least distance of its live entries (d >= S),
// then to split it: entries with d < S were relaxed already (dropped), those with d < m + Δ
// (or d <= m, should m + Δ round to m) become the near queue, the rest stay; S = m + Δ. The
// search ends when the pile holds no live entry (or m > limit).
//
// Invariant (exactness): when a bucket closes, every vertex with d < S has had its out-edges
// relaxed with its current d: each improvement below S puts the vertex into the next near
// queue (a per-vertex stamp, the number of the round that will relax it, dedupes the queue
// without clearing), each improvement at or above S into the far pile (a bitmap dedupes it).
// So at the end every reached vertex has been relaxed with its final distance: the fixed
// point of the min-plus relaxation in T, the rounds' answer whatever Δ.
//
// Buffers: q0/q1 (n slots, the near queues) with o0/o1 (their first edge numbers, as in
// push_levels_grid: the packed counter gives the load balance), far0/far1 (n slots), stamp
// (n ints), farbits (ceil(n / 32) words); the kernel initializes d, stamp and farbits.
// state (int64[SR_SSSP_STATE], zero on entry): [0] rounds (out), [1] buckets (out),
// [2] edges relaxed (out), [3] status (out: 0 done, 3 max_rounds rounds or buckets run: a
// bug, a safety net against a hung launch), [4..6] the rotating
// packed near counters, [7..8] the far piles' counters, [9..11] the rotating bucket minima
// (order keys), [12] the barrier word, [13] an overflow word (never raised: queues hold n).
#define SR_SSSP_STATE 16

// sr_relax_min for distances and candidates >= 0 (never -0.0 either: d starts at +0 and
// w >= 0): non-negative IEEE floats order as their bit patterns do as signed integers, so one
// integer atomicMin replaces the compare-and-swap loop.
template <typename T> __device__ __forceinline__ bool sr_relax_min_nonneg(T* a, T v) { return sr_relax_min<T>(a, v); }
template <> __device__ __forceinline__ bool sr_relax_min_nonneg<float>(float* a, float v) {
    return sr_relax_min<int>(reinterpret_cast<int*>(a), __float_as_int(v));
}
template <> __device__ __forceinline__ bool sr_relax_min_nonneg<double>(double* a, double v) {
    return sr_relax_min<long long>(reinterpret_cast<long long*>(a), __double_as_longlong(v));
}

// Order-preserving keys of the distances (a min of keys is the key of the min).
__device__ __forceinline__ unsigned long long sr_key(int x) { return (unsigned long long)((unsigned int)x ^ 0x80000000u); }
__device__ __forceinline__ unsigned long long sr_key(long long x) { return (unsigned long long)x ^ 0x8000000000000000ull; }
__device__ __forceinline__ unsigned long long sr_key(float x) {
    const unsigned int b = (unsigned int)__float_as_int(x);
    return (unsigned long long)((b & 0x80000000u) ? ~b : (b | 0x80000000u));
}
__device__ __forceinline__ unsigned long long sr_key(double x) {
    const unsigned long long b = (unsigned long long)__double_as_longlong(x);
    return (b & 0x8000000000000000ull) ? ~b : (b | 0x8000000000000000ull);
}
template <typename T> __device__ __forceinline__ T sr_unkey(unsigned long long k);
template <> __device__ __forceinline__ int sr_unkey<int>(unsigned long long k) { return (int)((unsigned int)k ^ 0x80000000u); }
template <> __device__ __forceinline__ long long sr_unkey<long long>(unsigned long long k) { return (long long)(k ^ 0x8000000000000000ull); }
template <> __device__ __forceinline__ float sr_unkey<float>(unsigned long long k) {
    const unsigned int b = (unsigned int)k;
    return __int_as_float((int)((b & 0x80000000u) ? (b & 0x7fffffffu) : ~b));
}
template <> __device__ __forceinline__ double sr_unkey<double>(unsigned long long k) {
    return __longlong_as_double((long long)((k & 0x8000000000000000ull) ? (k & 0x7fffffffffffffffull) : ~k));
}
template <typename T> __device__ __forceinline__ T sr_inf();
template <> __device__ __forceinline__ int sr_inf<int>() { return 0x7fffffff; }
template <> __device__ __forceinline__ long long sr_inf<long long>() { return 0x7fffffffffffffffLL; }
template <> __device__ __forceinline__ float sr_inf<float>() { return __int_as_float(0x7f800000); }
template <> __device__ __forceinline__ double sr_inf<double>() { return __longlong_as_double(0x7ff0000000000000LL); }
// lo + delta without passing the type's "infinity" (integers: its maximum)
template <typename T> __device__ __forceinline__ T sr_add_sat(T lo, T delta, T inf) {
    return lo > inf - delta ? inf : lo + delta;
}
template <> __device__ __forceinline__ float sr_add_sat<float>(float lo, float delta, float) { return lo + delta; }
template <> __device__ __forceinline__ double sr_add_sat<double>(double lo, double delta, double) { return lo + delta; }

// Append v (when take) to the pile `out` at a slot from *count, one atomic a warp. Every lane
// of the warp calls it (full mask).
template <typename I>
__device__ __forceinline__ void sr_pile_append(bool take, I v, I* out, unsigned long long* count)
{
    const unsigned int want = __ballot_sync(0xffffffffu, take);
    if (want == 0u) return;
    const int lane = threadIdx.x & 31;
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(count, (unsigned long long)__popc(want));
    base = __shfl_sync(0xffffffffu, base, 0);
    if (take) out[base + __popc(want & ((1u << lane) - 1u))] = v;
}

template <typename I, typename T>
__global__ void __launch_bounds__(SR_GRID_THREADS) sssp_grid(
    const I* __restrict__ indptr, const I* __restrict__ indices, const T* __restrict__ w,
    long long wstride, long long n, long long source, T delta, T limit, T* d,
    I* q0, I* q1, long long* o0, long long* o1, I* far0, I* far1, int* stamp,
    unsigned int* farbits, long long* state, long long max_rounds)
{
    unsigned long long* ctr = reinterpret_cast<unsigned long long*>(state + 4);
    unsigned long long* fcnt = reinterpret_cast<unsigned long long*>(state + 7);
    unsigned long long* mins = reinterpret_cast<unsigned long long*>(state + 9);
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + 12);
    long long* over = state + 13;
    const int lane = threadIdx.x & 31;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long nwords = (n + 31) >> 5;
    __shared__ long long s_samp[SR_GRID_SAMPLES];
    __shared__ I s_buf[SR_GRID_THREADS / 32 * SR_WARP_BUF];
    __shared__ unsigned long long s_min;
    // d starts "unreached" (sr_inf: +inf for floats, the type's maximum for integers)
    for (long long i = gtid; i < n; i += stride) { d[i] = sr_inf<T>(); stamp[i] = 0; }
    for (long long i = gtid; i < nwords; i += stride) farbits[i] = 0u;
    sr_grid_sync(bar);
    if (gtid == 0) {
        d[source] = (T)0;
        stamp[source] = 1;
        q0[0] = (I)source;
        o0[0] = 0;
        ctr[0] = (1ull << SR_GRID_EDGE_BITS)
                 + (unsigned long long)((long long)indptr[source + 1] - (long long)indptr[source]);
        mins[0] = mins[1] = mins[2] = ~0ull;
    }
    sr_grid_sync(bar);

    unsigned long long cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[0]);
    T S = sr_add_sat<T>((T)0, delta, sr_inf<T>());  // the near queue: d < S
    long long rounds = 0, buckets = 0, edges = 0;
    int status = SR_TRAVERSE_DONE;
    int rnd = 1;    // the stamp of the near queue's vertices: the round that relaxes them
    int c = 0;      // its packed counter
    int p = 0;      // its queue: q0/o0 or q1/o1
    int fc = 0;     // the far pile appended to: far0 or far1
    while (true) {
        const long long count = (long long)(cur >> SR_GRID_EDGE_BITS);
        if (count > 0) {
            if (rounds >= max_rounds) { status = SR_TRAVERSE_LIMIT; break; }
            // one round: t = f min.+ A ;  d = min(d, t) ;  near' / far by t < S
            const long long total = (long long)(cur & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
            const int nc = c == 2 ? 0 : c + 1;
            const int zc = nc == 2 ? 0 : nc + 1;
            if (gtid == 0) ctr[zc] = 0;  // read two barriers ago
            const I* qi = p ? q1 : q0;
            const long long* oi = p ? o1 : o0;
            I* qo = p ? q0 : q1;
            long long* oo = p ? o0 : o1;
            I* fo = fc ? far1 : far0;
            const int r1 = rnd + 1;
            I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
            int nb = 0;
            const int step = (int)max(1LL, (count + SR_GRID_SAMPLES - 1) / SR_GRID_SAMPLES);
            const int ns = (int)((count + step - 1) / step);
            if (SR_GRID_SAMPLES_ALL || (long long)blockIdx.x * blockDim.x < total)
                for (int j = threadIdx.x; j < ns; j += blockDim.x) s_samp[j] = SR_LD_PUSH(oi + (long long)j * step);
            __syncthreads();
            for (long long e = gtid; e - lane < total; e += stride) {
                bool near = false, farq = false;
                I v = 0;
                if (e < total) {
                    int lo = 0, hi = ns;
                    while (hi - lo > 1) {
                        const int mid = (lo + hi) >> 1;
                        if (s_samp[mid] <= e) lo = mid; else hi = mid;
                    }
                    lo *= step;
                    hi = (int)min((long long)lo + step, count);
                    while (hi - lo > 1) {
                        const int mid = (lo + hi) >> 1;
                        if (__ldcg(oi + mid) <= e) lo = mid; else hi = mid;
                    }
                    const I u = __ldcg(qi + lo);
                    const long long pe = (long long)indptr[u] + (e - __ldcg(oi + lo));
                    v = indices[pe];
                    const T nd = *reinterpret_cast<volatile T*>(&d[u]) + w[pe * wstride];
                    if (sr_relax_min_nonneg<T>(&d[v], nd)) {
                        if (nd < S) {
                            near = __ldcg(stamp + v) != r1 && atomicExch(stamp + v, r1) != r1;
                        } else {
                            const unsigned int bit = 1u << (v & 31);
                            farq = !(__ldcg(farbits + (v >> 5)) & bit)
                                   && !(atomicOr(farbits + (v >> 5), bit) & bit);
                        }
                    }
                }
                sr_buf_add<I>(near, v, buf, nb, indptr, qo, oo, &ctr[nc], over, n);
                sr_pile_append<I>(farq, v, fo, &fcnt[fc]);
            }
            sr_buf_flush<I>(buf, nb, indptr, qo, oo, &ctr[nc], over, n);
            sr_grid_sync(bar);
            cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[nc]);
            edges += total;
            ++rounds;
            rnd = r1;
            c = nc;
            p ^= 1;
            continue;
        }
        // the near queue is empty: close the bucket. 1. m = min{d(v) : v in far, d(v) >= S}
        if (buckets >= max_rounds) { status = SR_TRAVERSE_LIMIT; break; }  // (a safety net)
        const long long nf = (long long)*reinterpret_cast<volatile unsigned long long*>(&fcnt[fc]);
        const I* fi = fc ? far1 : far0;
        unsigned long long* mw = &mins[buckets % 3];
        if (gtid == 0) mins[(buckets + 1) % 3] = ~0ull;  // read three bucket closes ago
        if (threadIdx.x == 0) s_min = ~0ull;
        __syncthreads();
        unsigned long long kmin = ~0ull;
        for (long long i = gtid; i < nf; i += stride) {
            const T dv = __ldcg(d + __ldcg(fi + i));
            if (!(dv < S)) kmin = min(kmin, sr_key(dv));
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) kmin = min(kmin, __shfl_xor_sync(0xffffffffu, kmin, off));
        if (lane == 0 && kmin != ~0ull) atomicMin(&s_min, kmin);
        __syncthreads();
        if (threadIdx.x == 0 && s_min != ~0ull) atomicMin(mw, s_min);
        sr_grid_sync(bar);
        const unsigned long long km = *reinterpret_cast<volatile unsigned long long*>(mw);
        if (km == ~0ull) break;                       // no live entry: every distance is final
        const T m = sr_unkey<T>(km);
        if (m == sr_inf<T>()) break;                  // (cannot happen: far entries were reached)
        if (m > limit) break;                         // the caller wants no farther distances
        // 2. split the pile: dropped (d < S: relaxed already), near (d < m + Δ, or d <= m), kept
        const T S0 = S;
        S = sr_add_sat<T>(m, delta, sr_inf<T>());
        I* fo = fc ? far0 : far1;
        I* qo = p ? q1 : q0;       // the (empty) current queue and counter take the near ones
        long long* oo = p ? o1 : o0;
        I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
        int nb = 0;
        for (long long i = gtid; i - lane < nf; i += stride) {
            bool near = false, keep = false;
            I v = 0;
            if (i < nf) {
                v = __ldcg(fi + i);
                const T dv = __ldcg(d + v);
                if (dv < S0) {
                    atomicAnd(farbits + (v >> 5), ~(1u << (v & 31)));
                } else if (dv < S || dv <= m) {
                    atomicAnd(farbits + (v >> 5), ~(1u << (v & 31)));
                    near = atomicExch(stamp + v, rnd) != rnd;
                } else {
                    keep = true;
                }
            }
            sr_buf_add<I>(near, v, buf, nb, indptr, qo, oo, &ctr[c], over, n);
            sr_pile_append<I>(keep, v, fo, &fcnt[fc ^ 1]);
        }
        sr_buf_flush<I>(buf, nb, indptr, qo, oo, &ctr[c], over, n);
        sr_grid_sync(bar);
        if (gtid == 0) fcnt[fc] = 0;  // every block read it before the barrier
        fc ^= 1;
        ++buckets;
        cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[c]);
    }
    if (gtid == 0) {
        state[0] = rounds;
        state[1] = buckets;
        state[2] = edges;
        state[3] = status;
    }
}
