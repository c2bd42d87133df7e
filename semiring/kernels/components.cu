// Weak connected components by Afforest (Sutton, Ben-Nun & Barak, IPDPS 2018, "Optimizing
// Parallel Graph Connectivity Computation via Subgraph Sampling"; the code follows GAP's
// src/cc.cc: Link, Compress, SampleFrequentElement), laid out for the GPU as ECL-CC does
// (Jaiganesh & Burtscher, HPDC 2018: lock-free hooking by compare-and-swap on the parent
// array, intermediate pointer jumping, one thread per vertex for the init / compress steps).
//
// comp[v] is v's parent; every parent is smaller than its child (Link hooks the larger of two
// roots under the smaller one), so each tree's root is its least vertex and, after the last
// Compress, comp[v] is the least vertex of v's component. Trees only ever merge, so
// "comp[u] == c" read at any time means u is in c's tree for good.
//
// The launcher (semiring/backend/gpu/components.py) runs:
//   cc_init; { cc_sample_link(r); cc_compress } for r < k; then the last pass over every
//   edge from offset k on, either
//   - with the skip (a symmetric pattern only): cc_frequent (the most frequent root among a
//     sample of vertices, left on the device), cc_link_rows (vertices outside its tree; the
//     heavy ones onto a worklist), cc_link_heavy (the worklist, a block a vertex); or
//   - without: cc_tile_rows, cc_link_rest (every edge, tiles of consecutive positions);
//   then cc_compress_flag; a cumsum of the root flags; cc_number.
// Index type I: int or long long, the CSR's (indptr, indices) and the parent array's.

#define SR_CC_SAMPLE_THREADS 1024

template <typename I> __device__ __forceinline__ I cc_load(const I* p) {
    return *reinterpret_cast<const volatile I*>(p);
}

__device__ __forceinline__ int cc_cas(int* p, int cmp, int val) {
    return atomicCAS(p, cmp, val);
}
__device__ __forceinline__ long long cc_cas(long long* p, long long cmp, long long val) {
    return (long long)atomicCAS(reinterpret_cast<unsigned long long*>(p),
                                (unsigned long long)cmp, (unsigned long long)val);
}

// Three ways to link, a template argument L of every linking kernel (the launcher's
// SAMPLE_LINK / REST_LINK pick them, with the measurements; bench/probes/cc_probe.py):
//   SR_CC_GAP   GAP's Link: climbs from both parents two steps at a time, reads only;
//   SR_CC_SPLIT finds both roots splitting the paths on the way (each vertex passed is
//               pointed at its grandparent: ECL-CC's "intermediate pointer jumping"), hooks,
//               finds again after a lost compare-and-swap;
//   SR_CC_ECL   ECL-CC's hooking: finds with splitting, then after a lost compare-and-swap
//               goes on from the value it returned (no writes while retrying).
// Every write keeps comp[x] an ancestor of x smaller than x: the trees stay the same.
#define SR_CC_GAP 0
#define SR_CC_SPLIT 1
#define SR_CC_ECL 2

// The root of x's tree, splitting the path on the way up.
template <typename I> __device__ __forceinline__ I cc_find(I x, I* comp) {
    I cur = cc_load(comp + x);
    if (cur != x) {
        I prev = x, next;
        while (cur > (next = cc_load(comp + cur))) {
            comp[prev] = next;  // an ancestor of prev: the tree is unchanged
            prev = cur;
            cur = next;
        }
    }
    return cur;
}

// Place u and v in the same tree: the larger root goes under the smaller one.
template <int L, typename I> __device__ __forceinline__ void cc_link(I u, I v, I* comp) {
    if (L == SR_CC_GAP) {
        I p1 = cc_load(comp + u);
        I p2 = cc_load(comp + v);
        while (p1 != p2) {
            I high = p1 > p2 ? p1 : p2;
            I low = p1 > p2 ? p2 : p1;
            I p_high = cc_load(comp + high);
            // already 'low', or we wrote 'low' into a root
            if (p_high == low || (p_high == high && cc_cas(comp + high, high, low) == high))
                break;
            p1 = cc_load(comp + cc_load(comp + high));
            p2 = cc_load(comp + low);
        }
    } else {
        I a = cc_find(u, comp);
        I b = cc_find(v, comp);
        while (a != b) {
            I high = a > b ? a : b;
            I low = a > b ? b : a;
            I ret = cc_cas(comp + high, high, low);
            if (ret == high) break;
            // high was hooked meanwhile: its new parent (ECL), or its new root (SPLIT)
            I next = L == SR_CC_ECL ? ret : cc_find(high, comp);
            if (a == high) a = next; else b = next;
        }
    }
}

// comp[v] = v
template <typename I> __global__ void cc_init(I* comp, long long n) {
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < n;
         v += (long long)gridDim.x * blockDim.x)
        comp[v] = (I)v;
}

// Link every vertex with its r-th neighbour (when it has one): the sampled subgraph.
template <typename I, int L>
__global__ void cc_sample_link(const I* __restrict__ indptr, const I* __restrict__ indices,
                               I* comp, long long n, long long r) {
    for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n;
         u += (long long)gridDim.x * blockDim.x) {
        long long e = (long long)indptr[u] + r;
        if (e < (long long)indptr[u + 1]) cc_link<L>((I)u, indices[e], comp);
    }
}

// Pointer jumping to the root: every tree becomes a star (GAP's Compress).
template <typename I> __global__ void cc_compress(I* comp, long long n) {
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < n;
         v += (long long)gridDim.x * blockDim.x) {
        I p = cc_load(comp + v);
        I pp = cc_load(comp + p);
        while (p != pp) {
            comp[v] = pp;
            p = pp;
            pp = cc_load(comp + p);
        }
    }
}

// The last Compress, which also flags the roots (a root's parent is itself; compressing
// changes no root) for the numbering: flag[v] = (comp[v] == v).
template <typename I> __global__ void cc_compress_flag(I* comp, int* flag, long long n) {
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < n;
         v += (long long)gridDim.x * blockDim.x) {
        I p = cc_load(comp + v);
        flag[v] = (long long)p == v;
        I pp = cc_load(comp + p);
        while (p != pp) {
            comp[v] = pp;
            p = pp;
            pp = cc_load(comp + p);
        }
    }
}

__device__ __forceinline__ unsigned long long cc_mix(unsigned long long x) {  // splitmix64
    x += 0x9E3779B97F4A7C15ULL;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ULL;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBULL;
    return x ^ (x >> 31);
}

// The most frequent root among `samples` (<= SR_CC_SAMPLE_THREADS) pseudo-random vertices
// (GAP's SampleFrequentElement): one block of SR_CC_SAMPLE_THREADS threads sorts the sampled
// roots (bitonic, in shared memory), counts each run, and keeps the longest (ties: the
// smaller root) in *out. n > 0.
template <typename I>
__global__ void cc_frequent(const I* comp, long long n, int samples, unsigned long long seed,
                            I* out) {
    __shared__ I key[SR_CC_SAMPLE_THREADS];
    __shared__ int cnt[SR_CC_SAMPLE_THREADS];
    const int t = threadIdx.x;
    const I none = (I)n;  // never a root: pads the unused slots
    key[t] = t < samples ? cc_load(comp + (long long)(cc_mix(seed + t) % (unsigned long long)n))
                         : none;
    __syncthreads();
    for (int size = 2; size <= SR_CC_SAMPLE_THREADS; size <<= 1) {
        for (int stride = size >> 1; stride > 0; stride >>= 1) {
            int o = t ^ stride;
            if (o > t) {
                bool up = (t & size) == 0;
                I a = key[t], b = key[o];
                if ((a > b) == up) { key[t] = b; key[o] = a; }
            }
            __syncthreads();
        }
    }
    // a run starts at t: its length is the first different key's position minus t
    I k = key[t];
    int c = 0;
    if (k != none && (t == 0 || key[t - 1] != k)) {
        int lo = t, hi = SR_CC_SAMPLE_THREADS;  // first position > k in [t, threads)
        while (lo < hi) {
            int mid = (lo + hi) >> 1;
            if (key[mid] > k) hi = mid; else lo = mid + 1;
        }
        c = lo - t;
    }
    __syncthreads();
    cnt[t] = c;
    // key[t] is left as is: the winner is the key at the winning slot
    __shared__ int slot[SR_CC_SAMPLE_THREADS];
    slot[t] = t;
    __syncthreads();
    for (int s = SR_CC_SAMPLE_THREADS >> 1; s > 0; s >>= 1) {
        if (t < s) {
            int a = slot[t], b = slot[t + s];
            // longer run wins; on a tie the smaller key (sorted: the smaller slot)
            if (cnt[b] > cnt[a] || (cnt[b] == cnt[a] && b < a)) slot[t] = b;
        }
        __syncthreads();
    }
    if (t == 0) *out = cnt[slot[0]] > 0 ? key[slot[0]] : none;
}

// Link every edge (u, v) at offset >= r in u's row (the last pass without the skip: right
// for any pattern, as Link returns at once when both ends already share a root). The edges
// are cut into tiles of blockDim.x * ITEMS consecutive CSR positions, one tile a block (load
// balance on any degree distribution); rows[b] (cc_tile_rows) is the row of tile b's first
// position, and a thread finds its edge's row by a binary search from there.
template <typename I, int ITEMS, int L>
__global__ void cc_link_rest(const I* __restrict__ indptr, const I* __restrict__ indices,
                             I* comp, long long nnz, long long r,
                             const long long* __restrict__ rows) {
    const long long tile = (long long)blockDim.x * ITEMS;
    const long long t0 = blockIdx.x * tile;
    const long long t1 = t0 + tile < nnz ? t0 + tile : nnz;
    long long row = rows[blockIdx.x];
    const long long last = rows[blockIdx.x + 1];
#pragma unroll
    for (int j = 0; j < ITEMS; ++j) {
        long long e = t0 + (long long)j * blockDim.x + threadIdx.x;
        if (e >= t1) break;
        // row = the last u in [row, last] with indptr[u] <= e
        long long lo = row, hi = last;
        while (lo < hi) {
            long long mid = (lo + hi + 1) >> 1;
            if ((long long)indptr[mid] <= e) lo = mid; else hi = mid - 1;
        }
        row = lo;
        if (e - (long long)indptr[row] < r) continue;  // linked by the sampling rounds
        cc_link<L>((I)row, indices[e], comp);
    }
}

// The row of each tile's first position (tile b: positions [b * tile, (b + 1) * tile)), and
// rows[tiles] = n - 1: one thread a tile, so that a block of cc_link_rest starts at once.
template <typename I>
__global__ void cc_tile_rows(const I* __restrict__ indptr, long long n, long long nnz,
                             long long tile, long long tiles, long long* rows) {
    for (long long b = blockIdx.x * (long long)blockDim.x + threadIdx.x; b <= tiles;
         b += (long long)gridDim.x * blockDim.x) {
        if (b == tiles) { rows[b] = n - 1; continue; }
        long long p = b * tile;  // the last u with indptr[u] <= p
        long long lo = 0, hi = n - 1;
        while (lo < hi) {
            long long mid = (lo + hi + 1) >> 1;
            if ((long long)indptr[mid] <= p) lo = mid; else hi = mid - 1;
        }
        rows[b] = lo;
    }
}

// The last pass with the skip, by vertex: a vertex outside the frequent root's tree links
// its edges from offset r on itself when it has at most `inline_max` of them, else it goes
// on the worklist of cc_link_heavy (*count entries). A vertex of that tree costs one load.
template <typename I, int L>
__global__ void cc_link_rows(const I* __restrict__ indptr, const I* __restrict__ indices,
                             I* comp, long long n, long long r, const I* frequent,
                             long long inline_max, I* work, unsigned long long* count) {
    const I c = *frequent;
    for (long long u = blockIdx.x * (long long)blockDim.x + threadIdx.x; u < n;
         u += (long long)gridDim.x * blockDim.x) {
        long long b = (long long)indptr[u] + r, e = (long long)indptr[u + 1];
        if (b >= e || cc_load(comp + u) == c) continue;
        if (e - b <= inline_max) {
            for (long long k = b; k < e; ++k) cc_link<L>((I)u, indices[k], comp);
        } else {
            work[atomicAdd(count, 1ULL)] = (I)u;
        }
    }
}

// The worklist's vertices, one block each (their edges from offset r on, over the block's
// threads).
template <typename I, int L>
__global__ void cc_link_heavy(const I* __restrict__ indptr, const I* __restrict__ indices,
                              I* comp, long long r, const I* __restrict__ work,
                              const unsigned long long* count) {
    const long long m = (long long)*count;
    for (long long i = blockIdx.x; i < m; i += gridDim.x) {
        I u = work[i];
        long long e = (long long)indptr[u + 1];
        for (long long k = (long long)indptr[u] + r + threadIdx.x; k < e; k += blockDim.x)
            cc_link<L>(u, indices[k], comp);
    }
}

// labels[v] = (number of roots <= comp[v]) - 1: components numbered 0..k-1 in order of
// their least vertex. csum: the inclusive prefix sum of cc_compress_flag's flags.
template <typename I>
__global__ void cc_number(const I* __restrict__ comp, const int* __restrict__ csum,
                          int* __restrict__ labels, long long n) {
    for (long long v = blockIdx.x * (long long)blockDim.x + threadIdx.x; v < n;
         v += (long long)gridDim.x * blockDim.x)
        labels[v] = csum[comp[v]] - 1;
}
