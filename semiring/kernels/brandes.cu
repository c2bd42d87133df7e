// Brandes' dependencies (Brandes 2001, "A faster algorithm for betweenness centrality") of a
// batch of sources, one thread block a source, for graphs of many narrow levels (grids, road
// networks, long paths). The algebra's form (algorithms/centrality.py: a masked SpMV a BFS
// level, forward and backward, each a few launches) pays a fixed cost a level; here a level
// costs two block barriers, and the blocks of a batch run their sources side by side.
//
// Block b runs source sources[b] on its own slices of the workspaces (n entries each; start:
// n + 2): level (-1: unreached), queue (the reached vertices in BFS order), start (where each
// level begins in queue), sigma (shortest-path counts) and delta (dependencies).
//
// Forward, level d → d + 1: the block expands level d's segment of the queue (push over A's
// rows; a vertex joins level d + 1 by a compare-and-swap on its level, then takes a queue slot),
// then each vertex w of the new level pulls σ(w) = Σ σ(u) over its in-neighbours u on level d
// (Aᵀ's row, in stored order: no atomics on σ, the same sums on every run).
// Backward, d = D .. 1: each vertex v on level d − 1 pulls q(v) = Σ (1 + δ(w)) / σ(w) over its
// out-neighbours w on level d, and δ(v) = σ(v) · q(v) — with NetworkX's arithmetic where σ
// overflowed float64 (algorithms/centrality.py, _dependency): σ(v) = inf gives NaN if v has a
// successor, else 0.
//
// Vertices are int (the launcher checks n < 2^31); I is the CSR's index type (int or long
// long); workspace offsets are 64-bit.

#ifndef SR_BRANDES_THREADS
#define SR_BRANDES_THREADS 1024
#endif

template <typename I>
__global__ void __launch_bounds__(SR_BRANDES_THREADS) brandes_block(
    const I* __restrict__ ap, const I* __restrict__ ai,  // A: row v holds v's out-neighbours
    const I* __restrict__ tp, const I* __restrict__ ti,  // Aᵀ: row w holds w's in-neighbours
    long long n, const long long* __restrict__ sources, int* level_ws, int* queue_ws,
    int* start_ws, double* sigma_ws, double* delta_ws, int* __restrict__ depth_out) {
    // No __restrict__ on the workspaces: the block's threads share them through the barriers,
    // and with it NVCC hoists their loads above a barrier (start[] read before thread 0 wrote
    // it: garbage levels, illegal addresses on the GPU run of 2026-11-28).
    const long long b = blockIdx.x;
    int* level = level_ws + b * n;
    int* queue = queue_ws + b * n;
    int* start = start_ws + b * (n + 2);
    double* sigma = sigma_ws + b * n;
    double* delta = delta_ws + b * n;
    __shared__ int tail;

    for (long long v = threadIdx.x; v < n; v += blockDim.x) {
        level[v] = -1;
        sigma[v] = 0.0;
        delta[v] = 0.0;
    }
    __syncthreads();
    if (threadIdx.x == 0) {
        const int s = (int)sources[b];
        level[s] = 0;
        queue[0] = s;
        sigma[s] = 1.0;
        start[0] = 0;
        start[1] = 1;
        tail = 1;
    }
    __syncthreads();

    int d = 0;
    for (;;) {
        const int qs = start[d], qe = start[d + 1];
        if (qs == qe) break;  // level d is empty: the search is over (uniform in the block)
        for (int i = qs + (int)threadIdx.x; i < qe; i += blockDim.x) {
            const int v = queue[i];
            for (I e = ap[v]; e < ap[v + 1]; ++e) {
                const int w = (int)ai[e];
                if (level[w] == -1 && atomicCAS(level + w, -1, d + 1) == -1)
                    queue[atomicAdd(&tail, 1)] = w;
            }
        }
        __syncthreads();  // level d + 1 complete: its levels and queue entries visible
        const int ne = tail;
        if (threadIdx.x == 0) start[d + 2] = ne;
        for (int i = qe + (int)threadIdx.x; i < ne; i += blockDim.x) {
            const int w = queue[i];
            double s = 0.0;
            for (I e = tp[w]; e < tp[w + 1]; ++e) {
                const int u = (int)ti[e];
                if (level[u] == d) s += sigma[u];
            }
            sigma[w] = s;
        }
        __syncthreads();  // σ of level d + 1 and start[d + 2] visible; tail read by all
        ++d;
    }

    const int deepest = d - 1;
    for (int dd = deepest; dd >= 1; --dd) {
        for (int i = start[dd - 1] + (int)threadIdx.x; i < start[dd]; i += blockDim.x) {
            const int v = queue[i];
            double q = 0.0;
            bool successor = false;
            for (I e = ap[v]; e < ap[v + 1]; ++e) {
                const int w = (int)ai[e];
                if (level[w] == dd) {
                    q += (1.0 + delta[w]) / sigma[w];
                    successor = true;
                }
            }
            const double sv = sigma[v];
            delta[v] = isinf(sv) ? (successor ? __longlong_as_double(0x7ff8000000000000LL) : 0.0)
                                 : sv * q;
        }
        __syncthreads();  // level dd − 1's δ visible before level dd − 2 reads it
    }
    if (threadIdx.x == 0) depth_out[b] = deepest;
}
