// A whole breadth-first search of a small graph in one thread block (issue 21 item 2: the
// fixed cost of a small call). The levels, the two frontier queues and the parents live in
// shared memory, so a level costs two dependent loads from global memory (the frontier
// vertex's indptr, then its indices) and shared-memory atomics, separated by __syncthreads,
// where the cooperative grid (bfs_grid) pays a grid-wide barrier and global atomics a level.
// STAGE 1 first copies the whole CSR into shared memory (every load in flight at once), so a
// level's chain is shared-memory loads only. Push only: a group of 2^glog lanes takes a
// frontier vertex (a warp's lanes cover the mean out-degree, not 32 lanes for 8 edges), its
// lanes the vertex's out-edges; an unvisited head is claimed by a compare-and-swap on its level.
//
//   q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q
//
// PARENTS: 0 none, 1 any in-neighbour on the previous level (the claimer), 2 the least one
// (an atomicMin over the frontier's edges into the level's new vertices, after the claims).
// Shared memory (dynamic): int level[n], int queue[2][n] (+ int parent[n]), then with STAGE
// int indptr[n + 1] and int indices[nnz]; the launcher (semiring/backend/gpu/small.py) checks
// the sizes and opts in past 48 KiB. Index type I: the CSR's (int or long long). The policy
// that picks it is algorithms/bfs.py.

#define SR_SMALL_THREADS 1024

// The CSR the levels read: global (STAGE 0) or the block's shared copy (STAGE 1, int).
template <typename I, int STAGE>
struct SrSmallCsr;
template <typename I>
struct SrSmallCsr<I, 0> {
    const I* __restrict__ indptr;
    const I* __restrict__ indices;
};
template <typename I>
struct SrSmallCsr<I, 1> {
    const int* indptr;
    const int* indices;
};

template <typename I, int PARENTS, int STAGE>
__global__ void __launch_bounds__(SR_SMALL_THREADS) bfs_small(
    const I* __restrict__ indptr, const I* __restrict__ indices, int n, int source, int glog,
    long long* __restrict__ level, long long* __restrict__ parent)
{
    extern __shared__ int sr_small_mem[];
    int* lvl = sr_small_mem;
    int* qa = lvl + n;
    int* qb = qa + n;
    int* par = qb + n;  // PARENTS only
    __shared__ int cnt[2];  // the frontier's size, the next frontier's
    SrSmallCsr<I, STAGE> g;
    if (STAGE) {
        int* sp = par + (PARENTS ? n : 0);
        int* si = sp + n + 1;
        const int nnz = (int)indptr[n];
        for (int i = threadIdx.x; i <= n; i += blockDim.x) sp[i] = (int)indptr[i];
        for (int i = threadIdx.x; i < nnz; i += blockDim.x) si[i] = (int)indices[i];
        g.indptr = (decltype(g.indptr))sp;  // (both branches compile for every STAGE)
        g.indices = (decltype(g.indices))si;
    } else {
        g.indptr = (decltype(g.indptr))indptr;
        g.indices = (decltype(g.indices))indices;
    }
    // a group of 2^glog lanes a frontier vertex
    const int width = 1 << glog, sub = threadIdx.x & (width - 1);
    const int group = threadIdx.x >> glog, ngroups = blockDim.x >> glog;
    const int unset = PARENTS == 2 ? 0x7fffffff : -1;
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        lvl[i] = -1;
        if (PARENTS) par[i] = unset;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        lvl[source] = 0;
        if (PARENTS) par[source] = source;
        qa[0] = source;
        cnt[0] = 1;
        cnt[1] = 0;
    }
    __syncthreads();
    int* qi = qa;
    int* qo = qb;
    int depth = 0;
    while (true) {
        const int count = cnt[0];
        if (count == 0) break;
        const int d1 = depth + 1;
        for (int k = group; k < count; k += ngroups) {
            const int u = qi[k];
            const long long e = (long long)g.indptr[u + 1];
            for (long long p = (long long)g.indptr[u] + sub; p < e; p += width) {
                const int v = (int)g.indices[p];
                if (lvl[v] == -1 && atomicCAS(&lvl[v], -1, d1) == -1) {
                    qo[atomicAdd(&cnt[1], 1)] = v;
                    if (PARENTS == 1) par[v] = u;
                }
            }
        }
        __syncthreads();
        if (PARENTS == 2) {  // the least in-neighbour of each new vertex on this level
            for (int k = group; k < count; k += ngroups) {
                const int u = qi[k];
                const long long e = (long long)g.indptr[u + 1];
                for (long long p = (long long)g.indptr[u] + sub; p < e; p += width) {
                    const int v = (int)g.indices[p];
                    if (lvl[v] == d1) atomicMin(&par[v], u);
                }
            }
        }
        if (threadIdx.x == 0) {  // cnt[0] is read by every thread only after the barrier below
            cnt[0] = cnt[1];
            cnt[1] = 0;
        }
        __syncthreads();
        int* t = qi;
        qi = qo;
        qo = t;
        depth = d1;
    }
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        const int l = lvl[i];
        level[i] = l;
        if (PARENTS) parent[i] = l < 0 ? -1 : par[i];
    }
}
