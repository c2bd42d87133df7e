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
// Buffers, state and the bucket close are sssp_grid's (the far pile scanned for its least live
// distance m, then split with S = m + Δ); the exactness argument is the same.

template <typename I, typename T>
__global__ void __launch_bounds__(SR_GRID_THREADS) sssp_ranges(
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
    I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
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
                                }
                            }
                        }
                        sr_buf_add<I>(near, v, buf, nb, indptr, qo, oo, &ctr[nc], over, n);
                        sr_pile_append<I>(farq, v, fo, &fcnt[fc]);
                    }
                    s += 32;
                }
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
