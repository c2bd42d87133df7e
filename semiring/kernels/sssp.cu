// The near–far SSSP of sssp_grid (traverse.cu, which this program follows: its helpers
// sr_grid_sync, sr_buf_add / sr_buf_flush, sr_pile_append, sr_relax_min_nonneg, sr_key and
// sr_add_sat come from there) with the round's edges scheduled in warp ranges:
//
//     t = f min.+ A ;  d = min(d, t) ;  near' = {v improved : t(v) < S} ;  far ∪= {v improved : t(v) >= S}
//
// Each warp of the grid takes one contiguous range of the round's edge numbers (the round's
// total split evenly over the grid's warps, in multiples of 32). It finds the frontier slot of
// its first edge once, by a 32-ary search over the slots' edge offsets (each lane loads one of
// 32 evenly spaced offsets, a ballot picks the interval: log32(frontier) dependent loads),
// then walks its range through windows of 32 consecutive slots: lane j loads slot j's offset,
// vertex, row start and distance (one coalesced step, once per window), and each edge finds
// its slot among the window's 32 offsets by a binary search over the lanes' registers
// (shuffles). An edge then costs its column, its weight, the target's distance and the atomic:
// sssp_grid's per-edge search (shared-memory samples, then log2(frontier / 2048) dependent L2
// loads per edge) set its pace on wide rounds (bench/probes/sssp_dense_probe.py: 15 G edges/s
// on urand-22 against 90 G/s for a whole min-plus SpMV). A slot's distance is read once a
// window: should it drop during the round, the vertex is queued again and relaxed again.
//
// A round's far-pile appends go through a per-warp buffer (SR_SSSP_FAR_BUF), as the near
// queue's do. With SR_SSSP_ONE_SCAN a bucket closes with one scan of the far pile: its least
// live distance m is known ahead, as the least of the kept entries' distances (taken by the
// last split) and of the bucket's far improvements (taken by the rounds), where sssp_grid scans
// the pile once for m and once to split it. Buffers and state are sssp_grid's (plus three
// words); the exactness argument is the same: the split moves every pile entry below
// S = m + Δ near, whatever m is, and m never exceeds the least live distance (a kept entry
// lowered since only makes it smaller: then the split may move nothing, and the next close,
// with no round between, has the exact m).

// 1: a round's far-pile appends go through a per-warp buffer in shared memory (SR_FAR_BUF
// vertices), one atomic on the pile's counter a flush; 0: one atomic a warp step with an
// append (sr_pile_append), on that one counter from every warp of the grid.
#ifndef SR_SSSP_FAR_BUF
#define SR_SSSP_FAR_BUF 1
#endif
#define SR_FAR_BUF 64
// 1: a bucket closes with one scan of the far pile: its least live distance m is known ahead,
// the least of the kept entries' distances (from the last split) and of the far improvements
// of the bucket's rounds (each round reduces them, one atomic a block). Stale values (a kept
// entry lowered below S since) make m a lower bound only: then S = m + Δ may move no vertex
// near, and the next close (no round between) has the exact m. 0 (the default until 1 has run
// on a GPU: a build of 1 without the barrier of two closes in a row failed a test there): two
// scans (sssp_grid's: one for m, one to split).
#ifndef SR_SSSP_ONE_SCAN
#define SR_SSSP_ONE_SCAN 0
#endif
// Words of the state (int64): sssp_grid's SR_SSSP_STATE, then [16..18] the rotating minima
// of the kept entries (order keys; SR_SSSP_ONE_SCAN).
#define SR_SSSP_RANGES_STATE 20

template <typename I>
__device__ __forceinline__ void sr_far_flush(I* fbuf, int& fnb, I* pile,
                                             unsigned long long* count)
{
    if (fnb == 0) return;  // warp-uniform
    const int lane = threadIdx.x & 31;
    __syncwarp();
    unsigned long long base = 0;
    if (lane == 0) base = atomicAdd(count, (unsigned long long)fnb);
    base = __shfl_sync(0xffffffffu, base, 0);
    for (int i = lane; i < fnb; i += 32) pile[base + i] = fbuf[i];
    __syncwarp();
    fnb = 0;
}

// Append v (when take) to the warp's buffer, flushing it to the pile first when it would
// overflow. Every lane of the warp calls it (full mask); fnb is warp-uniform.
template <typename I>
__device__ __forceinline__ void sr_far_add(bool take, I v, I* fbuf, int& fnb, I* pile,
                                           unsigned long long* count)
{
    const unsigned int want = __ballot_sync(0xffffffffu, take);
    if (want == 0u) return;
    if (fnb + __popc(want) > SR_FAR_BUF) sr_far_flush<I>(fbuf, fnb, pile, count);
    if (take) fbuf[fnb + __popc(want & ((1u << (threadIdx.x & 31)) - 1u))] = v;
    fnb += __popc(want);
}

// Blocks a multiprocessor the registers must allow (64 a thread for 2 blocks of 512): on
// GAP's graphs two blocks a multiprocessor beat one (sssp_dense_probe.py)
#ifndef SR_SSSP_MIN_BLOCKS
#define SR_SSSP_MIN_BLOCKS 2
#endif

template <typename I, typename T>
__global__ void __launch_bounds__(SR_GRID_THREADS, SR_SSSP_MIN_BLOCKS) sssp_ranges(
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
    const long long warps = stride >> 5;
    const long long wid = gtid >> 5;
    const long long nwords = (n + 31) >> 5;
    __shared__ I s_buf[SR_GRID_THREADS / 32 * SR_WARP_BUF];
    __shared__ unsigned long long s_min;
#if SR_SSSP_ONE_SCAN
    unsigned long long* kept = reinterpret_cast<unsigned long long*>(state + 16);
    __shared__ unsigned long long s_rmin;
    if (threadIdx.x == 0) s_rmin = ~0ull;
#endif
    I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
#if SR_SSSP_FAR_BUF
    __shared__ I s_far[SR_GRID_THREADS / 32 * SR_FAR_BUF];
    I* fbuf = s_far + (threadIdx.x >> 5) * SR_FAR_BUF;
#endif
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
#if SR_SSSP_ONE_SCAN
        kept[0] = kept[1] = kept[2] = ~0ull;
#endif
    }
    sr_grid_sync(bar);

    unsigned long long cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[0]);
    T S = sr_add_sat<T>((T)0, delta, sr_inf<T>());  // the near queue: d < S
    long long rounds = 0, buckets = 0, edges = 0;
    long long rounds_at_close = -1;  // rounds run when the last bucket closed
    int status = SR_TRAVERSE_DONE;
    int rnd = 1;    // the stamp of the near queue's vertices: the round that relaxes them
    int c = 0;      // its packed counter
    int p = 0;      // its queue: q0/o0 or q1/o1
    int fc = 0;     // the far pile appended to: far0 or far1
    while (true) {
        const long long count = (long long)(cur >> SR_GRID_EDGE_BITS);
        if (count > 0) {
            if (rounds >= max_rounds) { status = SR_TRAVERSE_LIMIT; break; }
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
            int nb = 0;
            int fnb = 0;
            unsigned long long fmin = ~0ull;  // the least far improvement (ONE_SCAN)
            // this warp's edges [e0, e1): the total split evenly, in multiples of 32
            const long long per = (((total + warps - 1) / warps) + 31) & ~31LL;
            const long long e0 = wid * per;
            const long long e1 = min(total, e0 + per);
            if (e0 < e1) {  // warp-uniform
                // s = the last slot with oi[s] <= e0 (32-ary search: oi[lo] <= e0 < oi[hi])
                long long lo = 0, hi = count;
                while (hi - lo > 1) {
                    const long long span = hi - lo;
                    const long long pj = lo + (span <= 32 ? (long long)lane : span * lane / 32);
                    const bool le = lane > 0 && pj < hi && __ldcg(oi + pj) <= e0;
                    const unsigned int ball = __ballot_sync(0xffffffffu, le);
                    const int k = ball ? 31 - __clz(ball) : 0;
                    const long long plo = __shfl_sync(0xffffffffu, pj, k);
                    const long long phi = k < 31 ? __shfl_sync(0xffffffffu, pj, k + 1) : hi;
                    lo = plo;
                    hi = span <= 32 ? lo + 1 : max(phi, lo + 1);
                }
                long long s = lo;
                long long e = e0;
                while (e < e1) {  // a window of slots s .. s + 31 (warp-uniform)
                    const long long j = s + lane;
                    long long oj = 0x7fffffffffffffffLL, base = 0;  // base: row start - offset
                    T du = (T)0;
                    if (j < count) {
                        oj = __ldcg(oi + j);
                        const I uj = __ldcg(qi + j);
                        base = (long long)indptr[uj] - oj;
                        du = *reinterpret_cast<volatile T*>(&d[uj]);
                    }
                    // the window covers edges below the next window's first offset
                    long long wend = total;
                    if (lane == 0 && s + 32 < count) wend = __ldcg(oi + s + 32);
                    wend = min(e1, __shfl_sync(0xffffffffu, wend, 0));
                    for (; e < wend; e += 32) {
                        const long long my = e + lane;
                        int k = 0;  // the last lane whose offset is <= my
#pragma unroll
                        for (int st = 16; st > 0; st >>= 1) {
                            const long long ov = __shfl_sync(0xffffffffu, oj, k + st);
                            if (ov <= my) k += st;
                        }
                        const long long pe = __shfl_sync(0xffffffffu, base, k) + my;
                        const T dk = __shfl_sync(0xffffffffu, du, k);
                        bool near = false, farq = false;
                        I v = 0;
                        if (my < wend) {
                            v = indices[pe];
                            const T nd = dk + w[pe * wstride];
                            if (sr_relax_min_nonneg<T>(&d[v], nd)) {
                                if (nd < S) {
                                    near = __ldcg(stamp + v) != r1 && atomicExch(stamp + v, r1) != r1;
                                } else {
                                    const unsigned int bit = 1u << (v & 31);
                                    farq = !(__ldcg(farbits + (v >> 5)) & bit)
                                           && !(atomicOr(farbits + (v >> 5), bit) & bit);
                                    fmin = min(fmin, sr_key(nd));
                                }
                            }
                        }
                        sr_buf_add<I>(near, v, buf, nb, indptr, qo, oo, &ctr[nc], over, n);
#if SR_SSSP_FAR_BUF
                        sr_far_add<I>(farq, v, fbuf, fnb, fo, &fcnt[fc]);
#else
                        sr_pile_append<I>(farq, v, fo, &fcnt[fc]);
#endif
                    }
                    e = wend;  // the last step may pass it: the next window starts there
                    s += 32;
                }
            }
            sr_buf_flush<I>(buf, nb, indptr, qo, oo, &ctr[nc], over, n);
#if SR_SSSP_FAR_BUF
            sr_far_flush<I>(fbuf, fnb, fo, &fcnt[fc]);
#endif
            (void)fnb;
#if SR_SSSP_ONE_SCAN
            // the bucket's least far improvement: warp, block, then one atomic a block
#pragma unroll
            for (int off = 16; off > 0; off >>= 1) fmin = min(fmin, __shfl_xor_sync(0xffffffffu, fmin, off));
            if (lane == 0 && fmin != ~0ull) atomicMin(&s_rmin, fmin);
            __syncthreads();
            if (threadIdx.x == 0) {
                if (s_rmin != ~0ull) atomicMin(&mins[buckets % 3], s_rmin);
                s_rmin = ~0ull;  // (the barrier below orders it before the next round's minima)
            }
#endif
            (void)fmin;
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
#if SR_SSSP_ONE_SCAN
        // m ahead (a lower bound): the kept entries' least (last split) and the rounds' least
        const unsigned long long km = min(
            *reinterpret_cast<volatile unsigned long long*>(&mins[buckets % 3]),
            *reinterpret_cast<volatile unsigned long long*>(&kept[buckets % 3]));
        if (gtid == 0) {  // read at the last close; written next after the next close
            mins[(buckets + 2) % 3] = ~0ull;
            kept[(buckets + 2) % 3] = ~0ull;
        }
#else
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
#endif
        if (km == ~0ull) break;                       // no live entry: every distance is final
        const T m = sr_unkey<T>(km);
        if (m == sr_inf<T>()) break;                  // (cannot happen: far entries were reached)
        if (m > limit) break;                         // the caller wants no farther distances
#if SR_SSSP_ONE_SCAN
        // the split appends to the pile counter zeroed after the last close's barrier: a round
        // since (its barrier) orders that store first; right after a close (a stale m moved
        // nothing near) only a barrier here does
        if (rounds == rounds_at_close) sr_grid_sync(bar);
#endif
        // 2. split the pile: dropped (d < S: relaxed already), near (d < m + Δ, or d <= m), kept
        const T S0 = S;
        S = sr_add_sat<T>(m, delta, sr_inf<T>());
        I* fo = fc ? far0 : far1;
        I* qo = p ? q1 : q0;       // the (empty) current queue and counter take the near ones
        long long* oo = p ? o1 : o0;
        int nb = 0;
#if SR_SSSP_ONE_SCAN
        unsigned long long kmin = ~0ull;  // the least kept distance: the next close's m
        if (threadIdx.x == 0) s_min = ~0ull;
        __syncthreads();
#endif
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
#if SR_SSSP_ONE_SCAN
                    kmin = min(kmin, sr_key(dv));
#endif
                }
            }
            sr_buf_add<I>(near, v, buf, nb, indptr, qo, oo, &ctr[c], over, n);
            sr_pile_append<I>(keep, v, fo, &fcnt[fc ^ 1]);
        }
        sr_buf_flush<I>(buf, nb, indptr, qo, oo, &ctr[c], over, n);
#if SR_SSSP_ONE_SCAN
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) kmin = min(kmin, __shfl_xor_sync(0xffffffffu, kmin, off));
        if (lane == 0 && kmin != ~0ull) atomicMin(&s_min, kmin);
        __syncthreads();
        if (threadIdx.x == 0 && s_min != ~0ull) atomicMin(&kept[(buckets + 1) % 3], s_min);
#endif
        sr_grid_sync(bar);
        if (gtid == 0) fcnt[fc] = 0;  // every block read it before the barrier
        fc ^= 1;
        ++buckets;
        rounds_at_close = rounds;
        cur = *reinterpret_cast<volatile unsigned long long*>(&ctr[c]);
    }
    if (gtid == 0) {
        state[0] = rounds;
        state[1] = buckets;
        state[2] = edges;
        state[3] = status;
    }
}
