// A whole breadth-first search of a small graph in one thread block (issue 21 item 2: the
// fixed cost of a small call). The levels, the two frontier queues and the parents live in
// shared memory, so a level costs two dependent loads from global memory (the frontier
// vertex's indptr, then its indices) and shared-memory atomics, separated by __syncthreads:
// about a microsecond, where the cooperative grid (bfs_grid) pays a grid-wide barrier and
// global atomics a level. Push only: each warp takes a frontier vertex, its lanes the
// vertex's out-edges; an unvisited head is claimed by a compare-and-swap on its level.
//
//   q⟨¬visited⟩ = q any.secondi A ;  level⟨q⟩ = depth ;  parent⟨q⟩ = q
//
// PARENTS: 0 none, 1 any in-neighbour on the previous level (the claimer), 2 the least one
// (an atomicMin over the frontier's edges into the level's new vertices, after the claims).
// Shared memory (dynamic): int level[n], int queue[2][n] (+ int parent[n]), at most 48 KiB with
// the static counters: n is at most (48 KiB - 256) / 16 = 3056 (the launcher checks). Index type I: the CSR's (int or long long).
// The launcher is semiring/backend/gpu/small.py; the policy that picks it algorithms/bfs.py.

#define SR_SMALL_THREADS 1024

template <typename I, int PARENTS>
__global__ void __launch_bounds__(SR_SMALL_THREADS) bfs_small(
    const I* __restrict__ indptr, const I* __restrict__ indices, int n, int source,
    long long* __restrict__ level, long long* __restrict__ parent)
{
    extern __shared__ int sr_small_mem[];
    int* lvl = sr_small_mem;
    int* qa = lvl + n;
    int* qb = qa + n;
    int* par = qb + n;  // PARENTS only
    __shared__ int cnt[2];  // the frontier's size, the next frontier's
    const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5, nwarps = blockDim.x >> 5;
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
        for (int k = warp; k < count; k += nwarps) {
            const int u = qi[k];
            const long long e = (long long)indptr[u + 1];
            for (long long p = (long long)indptr[u] + lane; p < e; p += 32) {
                const int v = (int)indices[p];
                if (lvl[v] == -1 && atomicCAS(&lvl[v], -1, d1) == -1) {
                    qo[atomicAdd(&cnt[1], 1)] = v;
                    if (PARENTS == 1) par[v] = u;
                }
            }
        }
        __syncthreads();
        if (PARENTS == 2) {  // the least in-neighbour of each new vertex on this level
            for (int k = warp; k < count; k += nwarps) {
                const int u = qi[k];
                const long long e = (long long)indptr[u + 1];
                for (long long p = (long long)indptr[u] + lane; p < e; p += 32) {
                    const int v = (int)indices[p];
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
