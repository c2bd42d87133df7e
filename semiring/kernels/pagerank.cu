// PageRank's whole power iteration in one cooperative launch (algorithms.pagerank's "fused"
// variant). The program is traverse.cu, then this file: sr_grid_sync and SR_GRID_THREADS.
//
// The loop of algorithms.pagerank pays, a sweep, a pulled SpMV launch, the fused vector step
// (power.cu) and a host synchronization for the stopping test: ~90 µs on an H200 host
// whatever the graph's size, where a graph of 10^4-10^6 entries needs a few µs of the device.
// Here every block stays resident and a sweep ends in one grid-wide barrier:
//
//     setup:  outdeg = A ⊕.⊗ 1 ;  inv = 1 ./ outdeg (0 where dangling) ;  x = x0 ;  w = x .* inv
//             s = Σ x(dangling)
//     sweep:  t = w ⊕.⊗ A   (pulled over Aᵀ's rows: t(i) = Σ_j Aᵀ(i, j) · w(j))
//             x' = d · (t + s · u) + (1 − d) · p ;  w' = x' .* inv
//             change = ‖x' − x‖₁ ;  s' = Σ x'(dangling)
//             → barrier → stop when change < threshold
//
// A row of Aᵀ (A) is summed by a group of 2^glog lanes of a warp (the launcher picks the group
// from the mean degree), or, past `long_row` entries, by a whole block (the rows listed in
// tlong / along): a hub's row would otherwise hold the sweep up for its group's hundreds of
// steps. The per-block sums (change, s', and in setup the weight checks) go to `part`, read by
// every block after the barrier in block order: the same change and s' in every block (one
// decision to stop) and on every run, the grid's size being fixed by n and the device. `part`
// is double-buffered by sweep parity (a fast block's next sums must not overwrite the ones a
// slow block is still reading).
//
// The vector arithmetic is NumPy's, operation by operation (no contraction into fused
// multiply-adds), as power.cu's: x' = d · (t + s · u) + teleport, teleport = (1 − d) · p.
//
// state (out): [0] sweeps made, [1] the last change, [2] status: 0 the sweeps ran (converged
// or at max_iter), 1 a weight is negative, infinite or NaN (nothing else done), 2 an
// out-degree lies beyond 2^±256 (the caller scales the rows and iterates by the loop).

#define SR_PR_THREADS SR_GRID_THREADS
#define SR_PR_STATUS_WEIGHTS 1
#define SR_PR_STATUS_SCALE 2

// The warp's sums of a and b, in lane 0 (a tree of shuffles: a fixed order).
__device__ __forceinline__ void sr_pr_warp_sum2(double& a, double& b)
{
    for (int off = 16; off > 0; off >>= 1) {
        a = __dadd_rn(a, __shfl_down_sync(0xffffffffu, a, off));
        b = __dadd_rn(b, __shfl_down_sync(0xffffffffu, b, off));
    }
}

// The block's sums of a and b in a fixed order (each warp's by shuffles, then warp 0's over
// the warps), in every thread. sa / sb hold 33 doubles.
__device__ __forceinline__ void sr_pr_block_sum2(double& a, double& b, double* sa, double* sb)
{
    sr_pr_warp_sum2(a, b);
    __syncthreads();  // sa / sb may still be read from the last call
    if ((threadIdx.x & 31) == 0) {
        sa[threadIdx.x >> 5] = a;
        sb[threadIdx.x >> 5] = b;
    }
    __syncthreads();
    if (threadIdx.x < 32) {
        double x = threadIdx.x < SR_PR_THREADS / 32 ? sa[threadIdx.x] : 0.0;
        double y = threadIdx.x < SR_PR_THREADS / 32 ? sb[threadIdx.x] : 0.0;
        sr_pr_warp_sum2(x, y);
        if (threadIdx.x == 0) {
            sa[32] = x;
            sb[32] = y;
        }
    }
    __syncthreads();
    a = sa[32];
    b = sb[32];
}

// After the barrier: the grid's sums of the blocks' pairs in part (block b's at 2b, 2b + 1),
// in block order, in every thread of every block.
__device__ __forceinline__ void sr_pr_grid_sum2(const double* part, double& a, double& b,
                                                double* sa, double* sb)
{
    if (threadIdx.x < 32) {
        double x = 0.0, y = 0.0;
        for (int k = threadIdx.x; k < (int)gridDim.x; k += 32) {
            x = __dadd_rn(x, __ldcg(part + 2 * k));
            y = __dadd_rn(y, __ldcg(part + 2 * k + 1));
        }
        sr_pr_warp_sum2(x, y);
        if (threadIdx.x == 0) {
            sa[0] = x;
            sb[0] = y;
        }
    }
    __syncthreads();
    a = sa[0];
    b = sb[0];
    __syncthreads();
}

// One lane's share of row i's sum (lanes `lane`, lane + step, ...): PULL the products
// w(col) · value (value 1 unless WEIGHTED), else the row's values (WEIGHTED) with `bad`
// raised by a negative, infinite or NaN one.
template <typename I, bool WEIGHTED, bool PULL>
__device__ __forceinline__ double sr_pr_lane(const I* __restrict__ ptr, const I* __restrict__ idx,
                                             const double* __restrict__ val, long long stride,
                                             const double* w, I beg, I end, int lane, int step,
                                             bool& bad)
{
    double acc = 0.0;
#pragma unroll 4
    for (I k = beg + lane; k < end; k += step) {
        if (PULL) {
            const double wj = __ldcg(w + idx[k]);  // (written by other blocks last sweep)
            acc = __dadd_rn(acc, WEIGHTED ? __dmul_rn(wj, val[k * stride]) : wj);
        } else {
            const double v = val[k * stride];
            bad |= !(v >= 0.0 && v <= 1.7976931348623157e308);  // negative, inf or NaN
            acc = __dadd_rn(acc, v);
        }
    }
    return acc;
}

// (Two blocks a multiprocessor, the launcher's PAGERANK_BLOCKS_PER_SM: __launch_bounds__ with
// the thread count alone had ptxas hold 40 registers and spill.)
template <typename I, int WEIGHTED>
__global__ void __launch_bounds__(SR_PR_THREADS, 2) pagerank_grid(
    const I* __restrict__ ap, const double* __restrict__ av, long long astride,
    const I* __restrict__ along, long long nalong,
    const I* __restrict__ tp, const I* __restrict__ ti, const double* __restrict__ tv,
    long long tstride, const I* __restrict__ tlong, long long ntlong, long long long_row,
    long long n, int glog, double d, double inv_n, const double* __restrict__ p,
    const double* __restrict__ u, const double* __restrict__ x0, int spread, double threshold,
    long long max_iter, double* xa, double* xb, double* wa, double* wb,
    double* inv, double* part, unsigned int* bar, double* __restrict__ state)
{
    __shared__ double sa[33];
    __shared__ double sb[33];
    const int G = 1 << glog;
    const int lane = threadIdx.x & 31;
    const int sub = lane >> glog;      // the group within the warp
    const int gl = lane & (G - 1);     // the lane within the group
    const long long per_warp = 32 >> glog;
    const long long warp = ((long long)blockIdx.x * SR_PR_THREADS + threadIdx.x) >> 5;
    const long long warps = ((long long)gridDim.x * SR_PR_THREADS) >> 5;
    const double omd = __dadd_rn(1.0, -d);
    const double tele_uniform = __dmul_rn(omd, inv_n);

    // ---- setup: outdeg, inv, x, w over A's rows; s = Σ x(dangling); the weight checks
    double g = 0.0, flags = 0.0;
    bool bad = false;
    auto settle = [&](long long i, double outdeg) {
        if (WEIGHTED && (outdeg > 0x1p256 || (outdeg > 0.0 && outdeg < 0x1p-256))) flags = 1.0;
        const double q = outdeg == 0.0 ? 0.0 : __ddiv_rn(1.0, outdeg);
        const double xi = x0 == nullptr ? inv_n : x0[i];
        inv[i] = q;
        xa[i] = xi;
        wa[i] = __dmul_rn(xi, q);
        if (q == 0.0) g = __dadd_rn(g, xi);
    };
    for (long long j = blockIdx.x; j < nalong; j += gridDim.x) {  // long rows: a block each
        const long long i = along[j];
        double o = WEIGHTED ? sr_pr_lane<I, true, false>(ap, ap, av, astride, nullptr, ap[i],
                                                          ap[i + 1], threadIdx.x,
                                                          SR_PR_THREADS, bad)
                            : 0.0;
        double unused = 0.0;
        sr_pr_block_sum2(o, unused, sa, sb);
        if (threadIdx.x == 0) settle(i, WEIGHTED ? o : (double)(ap[i + 1] - ap[i]));
    }
    for (long long base = warp * per_warp; base < n; base += warps * per_warp) {
        const long long i = base + sub;
        I beg = 0, end = 0;
        if (i < n) {
            beg = ap[i];
            end = ap[i + 1];
        }
        const bool mine = i < n && (long long)(end - beg) <= long_row;
        double o = 0.0;
        if (WEIGHTED && mine)
            o = sr_pr_lane<I, true, false>(ap, ap, av, astride, nullptr, beg, end, gl, G, bad);
        for (int off = G >> 1; off > 0; off >>= 1)
            o = __dadd_rn(o, __shfl_down_sync(0xffffffffu, o, off, G));
        if (mine && gl == 0) settle(i, WEIGHTED ? o : (double)(end - beg));
    }
    // a bad weight counts 2^30, a scale flag 1: the grid's sum tells them apart (it holds
    // fewer than 2^30 threads)
    if (bad) flags += 0x1p30;
    sr_pr_block_sum2(g, flags, sa, sb);
    if (threadIdx.x == 0) {
        part[2 * blockIdx.x] = g;
        part[2 * blockIdx.x + 1] = flags;
    }
    sr_grid_sync(bar);
    double s, f;
    sr_pr_grid_sum2(part, s, f, sa, sb);
    if (f != 0.0) {
        if (blockIdx.x == 0 && threadIdx.x == 0) {
            state[0] = 0.0;
            state[1] = 0.0;
            state[2] = f >= 0x1p30 ? SR_PR_STATUS_WEIGHTS : SR_PR_STATUS_SCALE;
        }
        return;  // every block: the same f
    }
    if (!spread) s = 0.0;

    // ---- the sweeps
    double* x = xa;
    double* xn = xb;
    double* w = wa;
    double* wn = wb;
    double change = __longlong_as_double(0x7ff0000000000000LL);  // inf
    long long it = 0;
    while (it < max_iter) {
        ++it;
        double c = 0.0;
        g = 0.0;
        // xi, q: x(i) and inv(i), loaded before the row's sum (their latency under its own);
        // inv was settled by another block, maybe, so both bypass L1 (__ldcg)
        auto update = [&](long long i, double t, double xi, double q) {
            const double ui = u == nullptr ? inv_n : u[i];
            const double te = p == nullptr ? tele_uniform : __dmul_rn(omd, p[i]);
            const double v = __dadd_rn(__dmul_rn(d, __dadd_rn(t, __dmul_rn(s, ui))), te);
            xn[i] = v;
            wn[i] = __dmul_rn(v, q);
            c = __dadd_rn(c, fabs(__dadd_rn(v, -xi)));
            if (q == 0.0) g = __dadd_rn(g, v);
        };
        for (long long j = blockIdx.x; j < ntlong; j += gridDim.x) {
            const long long i = tlong[j];
            const double xi = __ldcg(x + i), q = __ldcg(inv + i);
            double t = sr_pr_lane<I, (bool)WEIGHTED, true>(tp, ti, tv, tstride, w, tp[i],
                                                            tp[i + 1], threadIdx.x,
                                                            SR_PR_THREADS, bad);
            double unused = 0.0;
            sr_pr_block_sum2(t, unused, sa, sb);
            if (threadIdx.x == 0) update(i, t, xi, q);
        }
        for (long long base = warp * per_warp; base < n; base += warps * per_warp) {
            const long long i = base + sub;
            I beg = 0, end = 0;
            if (i < n) {
                beg = tp[i];
                end = tp[i + 1];
            }
            const bool mine = i < n && (long long)(end - beg) <= long_row;
            double t = 0.0, xi = 0.0, q = 0.0;
            if (mine && gl == 0) {
                xi = __ldcg(x + i);
                q = __ldcg(inv + i);
            }
            if (mine)
                t = sr_pr_lane<I, (bool)WEIGHTED, true>(tp, ti, tv, tstride, w, beg, end, gl, G,
                                                        bad);
            for (int off = G >> 1; off > 0; off >>= 1)
                t = __dadd_rn(t, __shfl_down_sync(0xffffffffu, t, off, G));
            if (mine && gl == 0) update(i, t, xi, q);
        }
        sr_pr_block_sum2(c, g, sa, sb);
        double* pp = part + 2 * (long long)gridDim.x * (it & 1);
        if (threadIdx.x == 0) {
            pp[2 * blockIdx.x] = c;
            pp[2 * blockIdx.x + 1] = g;
        }
        sr_grid_sync(bar);
        double s_next;
        sr_pr_grid_sum2(pp, change, s_next, sa, sb);
        s = spread ? s_next : 0.0;
        double* t1 = x; x = xn; xn = t1;
        double* t2 = w; w = wn; wn = t2;
        if (change < threshold) break;
    }
    if (blockIdx.x == 0 && threadIdx.x == 0) {
        state[0] = (double)it;
        state[1] = change;
        state[2] = 0.0;
    }
}
