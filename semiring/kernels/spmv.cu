// Pull-direction SpMV over the rows of a CSR matrix: out(o) = ⊕_k A(o,k) ⊗ x(k).
// Templated on (Add monoid op, Mul op, domain T, result R, index I, operand order XFIRST).
//
// Load balance for skewed degrees, in one launch: rows are binned once per matrix by degree.
// Rows longer than a threshold get a block each, and those blocks come first, longest row
// first, so that the longest rows overlap with everything else instead of forming a tail. The
// other rows go to bin b when their degree is at most SR_UNROLL * 2^b and are served by groups
// of 2^b threads, so a short row does not idle a warp and each thread keeps SR_UNROLL loads in
// flight. `bins` gives each bin's first slot in `rows`, its row count and its first block, then
// the number of long rows. A row stops early once its partial result reaches the monoid's
// terminal value (lor at true, any at its first value).
#define SR_NBINS 6
// SR_SEGS (a probe switch, off): the rows binned within chunks of consecutive rows, the
// blocks in (chunk, bin) order, so that rows of different bins that share a sector of the
// matrix are read close together in time (bench/probes/spmv_probe.py builds that schedule).
#ifndef SR_SEGS
#define SR_SEGS 0
#endif
// Chunks of a row each thread loads before it uses any: independent loads in flight hide the
// latency of the index -> x gather chain (one chunk at a time left SpMV latency-bound).
#define SR_UNROLL 4
#define SR_PULL_THREADS 256

// Cache hint of the pull kernels' loads of the matrix's indices and values: 1 (the default)
// evict-first, ld.global.cs, so that the matrix streaming through L2 does not push x out of it
// (binned kernel, H100, bench/probes/spmv_probe.py: kron-22 1.274 -> 1.224 ms, urand-22
// 1.429 -> 1.359, kron-20 0.300 -> 0.288, grid 2048² 0.090 -> 0.091); 0 plain loads; 2 L2 only
// (ld.global.cg, L1 left to x): slower on every graph. Plain loads for types other than 4 or
// 8 bytes.
#ifndef SR_STREAM_LOADS
#define SR_STREAM_LOADS 1
#endif
// 3 (a probe switch): read-only loads that skip L1 and are first to leave L2
// (ld.global.nc.L1::no_allocate.L2::evict_first), so that L1 holds x's values only.
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ < 800 && SR_STREAM_LOADS == 3
#undef SR_STREAM_LOADS
#define SR_STREAM_LOADS 1
#endif
// (the L2 hint as a policy: .L2::evict_first alone is for 32-byte loads)
#define SR_NA_LD(T) "{\n\t.reg .b64 pol;\n\t" \
    "createpolicy.fractional.L2::evict_first.b64 pol, 1.0;\n\t" \
    "ld.global.nc.L1::no_allocate.L2::cache_hint." T
__device__ __forceinline__ unsigned sr_ld_na(const unsigned* p) {
    unsigned v;
    asm(SR_NA_LD("u32") " %0, [%1], pol;\n}" : "=r"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ unsigned long long sr_ld_na(const unsigned long long* p) {
    unsigned long long v;
    asm(SR_NA_LD("u64") " %0, [%1], pol;\n}" : "=l"(v) : "l"(p));
    return v;
}
__device__ __forceinline__ uint4 sr_ld_na(const uint4* p) {
    uint4 v;
    asm(SR_NA_LD("v4.u32") " {%0, %1, %2, %3}, [%4], pol;\n}"
        : "=r"(v.x), "=r"(v.y), "=r"(v.z), "=r"(v.w) : "l"(p));
    return v;
}
// SR_X_HINT (a probe switch, off): the gathers of x with an evict-last L2 policy, so that the
// matrix streaming through L2 does not push x out of it.
#ifndef SR_X_HINT
#define SR_X_HINT 0
#endif
template <typename T>
__device__ __forceinline__ T sr_ldx(const T* p) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    if constexpr (SR_X_HINT && sizeof(T) == 4) {
        union { unsigned u; T t; } w;
        asm("{\n\t.reg .b64 pol;\n\tcreatepolicy.fractional.L2::evict_last.b64 pol, 1.0;\n\t"
            "ld.global.nc.L2::cache_hint.u32 %0, [%1], pol;\n}" : "=r"(w.u) : "l"(p));
        return w.t;
    }
#endif
    return *p;
}
template <int BYTES> struct sr_word { typedef unsigned type; };
template <> struct sr_word<8> { typedef unsigned long long type; };
template <int MODE, typename T>
__device__ __forceinline__ T sr_ld(const T* p) {
    if constexpr (MODE != 0 && (sizeof(T) == 4 || sizeof(T) == 8)) {
        typedef typename sr_word<(int)sizeof(T)>::type U;
        const U* q = reinterpret_cast<const U*>(p);
        union { U u; T t; } w;
        if constexpr (MODE == 3) {
            w.u = sr_ld_na(q);
        } else {
            w.u = MODE == 1 ? __ldcs(q) : __ldcg(q);
        }
        return w.t;
    }
    return *p;
}

// With SR_ALIGN (a probe switch, off), a group of w lanes starts its row's loads at the
// multiple of min(w, 32) entries at or below the row's first: every load of 8 or more lanes
// then covers whole 32-byte sectors, none of them read by two steps (at the cost of a partial
// first step). Measured without the cache hint only: kron-22 1.274 -> 1.214 ms, kron-20
// 0.300 -> 0.286, urand-22 1.429 -> 1.450 (H100); with the hint, not yet.
#ifndef SR_ALIGN
#define SR_ALIGN 0
#endif
template <typename I>
__device__ __forceinline__ I sr_align_down(I begin, int width) {
    if (!SR_ALIGN || width < 8) return begin;
    return begin & ~(I)((width < 32 ? width : 32) - 1);
}

// Folds of a partial result. With EMPTY the monoid has a value `empty` neutral for every value
// (Monoid.empty: NaN for fmin / fmax, the extremes for integer min / max, false / true for lor
// / land), acc starts there and every fold is one op, without the (acc, found) select and its
// branches; `found` then only records presence (the row had a product). Bit-identical to
// sr_fold: Add(empty, v) == v for every v, and the products meet in the same order. H200,
// min-plus float32, binned kernel with scalar loads, ten launches (bench/probes/spmv_probe.py
// --variants): kron-22 1.039 -> 1.023 ms, urand-22 1.164 -> 1.127, kron-20 0.247 -> 0.242.
template <class Add, typename R, bool EMPTY>
__device__ __forceinline__ void sr_fold_e(R& acc, bool& found, R v, bool ok) {
    if constexpr (EMPTY) {
        const R c = Add::template f<R, R>(acc, v, 0, 0, 0, 0);
        acc = ok ? c : acc;
        found = found || ok;
    } else {
        if (ok) sr_fold<Add, R>(acc, found, v);
    }
}

template <class Add, typename R, bool EMPTY>
__device__ __forceinline__ void sr_group_reduce_e(unsigned mask, int width, R& acc, bool& found) {
    if constexpr (EMPTY) {
        for (int off = width >> 1; off > 0; off >>= 1) {
            const R oacc = sr_shfl_down<R>(mask, acc, off, width);
            const bool ofound = sr_shfl_down<bool>(mask, found, off, width);
            acc = Add::template f<R, R>(acc, oacc, 0, 0, 0, 0);
            found = found || ofound;
        }
    } else {
        sr_group_reduce<Add, R>(mask, width, acc, found);
    }
}

// One step of a row's reduction: this thread's entries base + u*width + lane, u < SR_UNROLL.
// Offsets and indices use the index type I: 32-bit arithmetic whenever the matrix allows it
// (index_type() keeps int32 only with headroom, so base + width * SR_UNROLL cannot overflow).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_row_step(
    const I* __restrict__ indices, const T* __restrict__ avals, I astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    long long row, I base, I begin, I end, int lane, int width, R& acc, bool& found)
{
    I k[SR_UNROLL];
    T a[SR_UNROLL];
    bool ok[SR_UNROLL];
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) {
        const I p = base + (I)(u * width + lane);
        ok[u] = p >= begin && p < end;
        k[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(indices + p) : (I)0;
        a[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(avals + p * astride) : T();
    }
    if (xpres != nullptr) {
#pragma unroll
        for (int u = 0; u < SR_UNROLL; ++u) ok[u] = ok[u] && xpres[k[u]];
    }
    T xv[SR_UNROLL];
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) xv[u] = ok[u] ? sr_ldx(x + k[u]) : T();
#pragma unroll
    for (int u = 0; u < SR_UNROLL; ++u) {
        if (EMPTY || ok[u]) {  // without EMPTY, no product of an entry that is not there
            sr_fold_e<Add, R, EMPTY>(acc, found,
                sr_mult<Mul, T, R, XFIRST>(a[u], xv[u], row, (long long)k[u]), ok[u]);
        }
    }
}

// 16-byte loads (SR_VEC): for 4-byte indices and values stored contiguously (astride 1) at
// 16-byte aligned addresses, a thread loads 4 consecutive entries of the indices and of the
// values at once, base + 4 * (u * width + lane) + j (j < 4, u < SR_VEC_UNROLL, base a multiple
// of 4): a quarter of the load instructions, and every load of a group covers whole sectors.
// Taken by groups of at least SR_VEC_MIN_LANES lanes and by the long rows' blocks; 0 leaves
// the scalar loads everywhere.
#ifndef SR_VEC
#define SR_VEC 1
#endif
// 16 rather than 32 or 8 (H200, bench/probes/spmv_probe.py --variants, min-plus float32, ten
// launches; 32 / 16 / 8 with two quads in flight): urand-22 (its rows of 33 to 64 entries in
// groups of 16) 1.125 / 1.103 / 1.103 ms, kron-22 1.001 / 0.996 / 0.994, kron-20 0.237 /
// 0.236 / 0.232, grid 2048² 0.064 / 0.064 / 0.072 (two quads: more registers); the scalar
// kernel of session 8 1.164, 1.039, 0.247, 0.080.
#ifndef SR_VEC_MIN_LANES
#define SR_VEC_MIN_LANES 16
#endif
#ifndef SR_VEC_UNROLL
#define SR_VEC_UNROLL 1
#endif
template <typename U>
__device__ __forceinline__ uint4 sr_ld4(const U* p) {
    const uint4* q = reinterpret_cast<const uint4*>(p);
    if constexpr (SR_STREAM_LOADS == 1) return __ldcs(q);
    else if constexpr (SR_STREAM_LOADS == 2) return __ldcg(q);
    else if constexpr (SR_STREAM_LOADS == 3) return sr_ld_na(q);
    else return __ldg(q);
}
__device__ __forceinline__ unsigned sr_lane4(const uint4& v, int j) {
    return j == 0 ? v.x : j == 1 ? v.y : j == 2 ? v.z : v.w;
}
// A thread's U quads of indices and values, quad u at entries p = base + 4 * (u * width +
// lane) .. p + 3; a quad with no entry in [begin, end) is not loaded (zeros). The last quad of
// the arrays may reach up to 3 entries past their end (compute-sanitizer's memcheck reports it
// where an allocation's size is not a multiple of 16 bytes): the lanes past `end` are masked,
// and the 16-byte aligned load never leaves the aligned 16 bytes that hold the last entry,
// so never its page (sr_vec_ok requires 16-byte aligned arrays).
template <int U, typename I, typename T>
__device__ __forceinline__ void sr_ld_quads(
    const I* __restrict__ indices, const T* __restrict__ avals, I base, int width, int lane,
    I begin, I end, uint4 (&kq)[U], uint4 (&aq)[U])
{
#pragma unroll
    for (int u = 0; u < U; ++u) {
        const I p = base + (I)(4 * (u * width + lane));
        if (p < end && p + 4 > begin) {
            kq[u] = sr_ld4(indices + p);
            aq[u] = sr_ld4(avals + p);
        } else {
            kq[u] = make_uint4(0u, 0u, 0u, 0u);
            aq[u] = kq[u];
        }
    }
}
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_row_step_vec(
    const I* __restrict__ indices, const T* __restrict__ avals,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    long long row, I base, I begin, I end, int lane, int width, R& acc, bool& found)
{
    if constexpr (sizeof(I) == 4 && sizeof(T) == 4) {
        uint4 kq[SR_VEC_UNROLL], aq[SR_VEC_UNROLL];
        sr_ld_quads(indices, avals, base, width, lane, begin, end, kq, aq);
        bool ok[4 * SR_VEC_UNROLL];
        I k[4 * SR_VEC_UNROLL];
#pragma unroll
        for (int u = 0; u < SR_VEC_UNROLL; ++u) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                const I p = base + (I)(4 * (u * width + lane) + j);
                ok[4 * u + j] = p >= begin && p < end;
                k[4 * u + j] = (I)sr_lane4(kq[u], j);
            }
        }
        if (xpres != nullptr) {
#pragma unroll
            for (int e = 0; e < 4 * SR_VEC_UNROLL; ++e) ok[e] = ok[e] && xpres[k[e]];
        }
        T xv[4 * SR_VEC_UNROLL];
#pragma unroll
        for (int e = 0; e < 4 * SR_VEC_UNROLL; ++e) xv[e] = ok[e] ? sr_ldx(x + k[e]) : T();
#pragma unroll
        for (int u = 0; u < SR_VEC_UNROLL; ++u) {
#pragma unroll
            for (int j = 0; j < 4; ++j) {
                union { unsigned w; T t; } a;
                a.w = sr_lane4(aq[u], j);
                if (EMPTY || ok[4 * u + j]) {
                    sr_fold_e<Add, R, EMPTY>(acc, found, sr_mult<Mul, T, R, XFIRST>(
                        a.t, xv[4 * u + j], row, (long long)k[4 * u + j]), ok[4 * u + j]);
                }
            }
        }
    }
}

// Whether the 16-byte loads apply (uniform across the launch).
template <typename T, typename I>
__device__ __forceinline__ bool sr_vec_ok(const I* indices, const T* avals, long long astride) {
    if constexpr (SR_VEC && sizeof(I) == 4 && sizeof(T) == 4) {
        return astride == 1 &&
               ((reinterpret_cast<unsigned long long>(indices) |
                 reinterpret_cast<unsigned long long>(avals)) & 15ull) == 0;
    }
    return false;
}

// A row reduced by a group of `width` lanes (all of a warp's lanes in `gmask`, or the whole
// block when BLOCK), stopping early at the terminal (a group vote, or a block-wide one).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY,
          bool VEC, bool BLOCK>
__device__ __forceinline__ void sr_row_loop(
    const I* __restrict__ indices, const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres, long long row,
    I begin, I end, int lane, int width, unsigned gmask, int term_mode, R terminal,
    R& acc, bool& found)
{
    if constexpr (VEC) {
        for (I base = begin & ~(I)3; base < end; base += (I)(4 * width * SR_VEC_UNROLL)) {
            sr_row_step_vec<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, x, xpres, row,
                base, begin, end, lane, width, acc, found);
            if (term_mode != SR_TERM_NONE) {
                const bool t = found && sr_is_terminal<R>(term_mode, acc, terminal);
                if (BLOCK ? __syncthreads_or(t) : __any_sync(gmask, t)) break;
            }
        }
    } else {
        for (I base = sr_align_down(begin, width); base < end; base += (I)(width * SR_UNROLL)) {
            sr_row_step<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, (I)astride, x, xpres,
                row, base, begin, end, lane, width, acc, found);
            if (term_mode != SR_TERM_NONE) {
                const bool t = found && sr_is_terminal<R>(term_mode, acc, terminal);
                if (BLOCK ? __syncthreads_or(t) : __any_sync(gmask, t)) break;
            }
        }
    }
}

// A long row reduced by the whole block (a block-wide vote for the early exit).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_pull_long_row(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed, long long row,
    R* __restrict__ out, bool* __restrict__ opres, int term_mode, R terminal, R empty)
{
    __shared__ R s_acc[SR_PULL_THREADS / 32];
    __shared__ bool s_found[SR_PULL_THREADS / 32];
    if (allowed != nullptr && !allowed[row]) {  // uniform across the block
        if (threadIdx.x == 0) opres[row] = false;
        return;
    }
    const I begin = indptr[row], end = indptr[row + 1];
    R acc = EMPTY ? empty : R();
    bool found = false;
    if (sr_vec_ok<T, I>(indices, avals, astride)) {
        sr_row_loop<Add, Mul, T, R, I, XFIRST, EMPTY, true, true>(indices, avals, astride, x,
            xpres, row, begin, end, threadIdx.x, SR_PULL_THREADS, 0xffffffffu, term_mode,
            terminal, acc, found);
    } else {
        sr_row_loop<Add, Mul, T, R, I, XFIRST, EMPTY, false, true>(indices, avals, astride, x,
            xpres, row, begin, end, threadIdx.x, SR_PULL_THREADS, 0xffffffffu, term_mode,
            terminal, acc, found);
    }
    sr_group_reduce_e<Add, R, EMPTY>(0xffffffffu, 32, acc, found);
    const int warp = threadIdx.x >> 5;
    if ((threadIdx.x & 31) == 0) { s_acc[warp] = acc; s_found[warp] = found; }
    __syncthreads();
    if (threadIdx.x == 0) {
        acc = EMPTY ? empty : R();
        found = false;
        for (int w = 0; w < SR_PULL_THREADS / 32; ++w) {
            sr_fold_e<Add, R, EMPTY>(acc, found, s_acc[w], s_found[w]);
        }
        opres[row] = found;
        if (found) out[row] = acc;
    }
}

// One row reduced by a group of `lanes` lanes (gmask), its result stored by the first.
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_pull_row(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed, long long row, int lane, int lanes, unsigned gmask,
    R* __restrict__ out, bool* __restrict__ opres, int term_mode, R terminal, R empty)
{
    if (allowed != nullptr && !allowed[row]) {
        if (lane == 0) opres[row] = false;
        return;
    }
    const I begin = indptr[row], end = indptr[row + 1];
    R acc = EMPTY ? empty : R();
    bool found = false;
    if (lanes >= SR_VEC_MIN_LANES && sr_vec_ok<T, I>(indices, avals, astride)) {
        sr_row_loop<Add, Mul, T, R, I, XFIRST, EMPTY, true, false>(indices, avals, astride, x,
            xpres, row, begin, end, lane, lanes, gmask, term_mode, terminal, acc, found);
    } else {
        sr_row_loop<Add, Mul, T, R, I, XFIRST, EMPTY, false, false>(indices, avals, astride, x,
            xpres, row, begin, end, lane, lanes, gmask, term_mode, terminal, acc, found);
    }
    sr_group_reduce_e<Add, R, EMPTY>(gmask, lanes, acc, found);
    if (lane == 0) {
        opres[row] = found;
        if (found) out[row] = acc;
    }
}

// SR_ROWS rows a group (a probe switch; 1, one row a group, is the launcher's PULL_ROWS): a
// block serves SR_ROWS * (threads >> b) rows of bin b, a group rows slot, slot + groups, ...
// Their row numbers and offsets are loaded at once (one latency for all instead of one a
// row), and with SR_FUSE the first step of every row is taken together (SR_ROWS rows' loads
// and gathers in flight at once), the rest row by row.
#ifndef SR_ROWS
#define SR_ROWS 1
#endif
#ifndef SR_FUSE
#define SR_FUSE 0
#endif
#if SR_SEGS && SR_ROWS != 1
#error "SR_SEGS takes one row a group"
#endif
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY,
          bool VEC>
__device__ __forceinline__ void sr_rows_steps(
    const I* __restrict__ indices, const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres, const long long (&row)[SR_ROWS],
    const I (&begin)[SR_ROWS], const I (&end)[SR_ROWS], int lane, int lanes, unsigned gmask,
    int term_mode, R terminal, R (&acc)[SR_ROWS], bool (&found)[SR_ROWS])
{
    const I step = (I)(lanes * (VEC ? 4 * SR_VEC_UNROLL : SR_UNROLL));
    I base[SR_ROWS];
#pragma unroll
    for (int j = 0; j < SR_ROWS; ++j) {
        base[j] = VEC ? (begin[j] & ~(I)3) : sr_align_down(begin[j], lanes);
    }
    if (SR_FUSE) {
#pragma unroll
        for (int j = 0; j < SR_ROWS; ++j) {
            if constexpr (VEC) {
                sr_row_step_vec<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, x, xpres,
                    row[j], base[j], begin[j], end[j], lane, lanes, acc[j], found[j]);
            } else {
                sr_row_step<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, (I)astride, x,
                    xpres, row[j], base[j], begin[j], end[j], lane, lanes, acc[j], found[j]);
            }
            base[j] += step;
        }
    }
#pragma unroll
    for (int j = 0; j < SR_ROWS; ++j) {
        for (I bs = base[j]; bs < end[j]; bs += step) {
            if (term_mode != SR_TERM_NONE && (SR_FUSE || bs != base[j])) {
                const bool t = found[j] && sr_is_terminal<R>(term_mode, acc[j], terminal);
                if (__any_sync(gmask, t)) break;
            }
            if constexpr (VEC) {
                sr_row_step_vec<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, x, xpres,
                    row[j], bs, begin[j], end[j], lane, lanes, acc[j], found[j]);
            } else {
                sr_row_step<Add, Mul, T, R, I, XFIRST, EMPTY>(indices, avals, (I)astride, x,
                    xpres, row[j], bs, begin[j], end[j], lane, lanes, acc[j], found[j]);
            }
        }
    }
}

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_pull_binned(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ rows, const I* __restrict__ long_rows,
    const long long* __restrict__ bins,
    R* __restrict__ out, bool* __restrict__ opres,
    int term_mode, R terminal, R empty)
{
#if SR_SEGS
    // bins = [nlong, nseg, row_start[nseg], count[nseg], block_start[nseg], seg of each block]
    const long long nlong = bins[0];
#else
    const long long nlong = bins[3 * SR_NBINS];
#endif
    if ((long long)blockIdx.x < nlong) {
        sr_pull_long_row<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x,
            xpres, allowed, (long long)long_rows[blockIdx.x], out, opres, term_mode, terminal,
            empty);
        return;
    }
    const long long block = (long long)blockIdx.x - nlong;
#if SR_SEGS
    const long long nseg = bins[1];
    const long long seg = bins[2 + 3 * nseg + block];
    const int b = (int)(seg % SR_NBINS);
    const long long slot = (block - bins[2 + 2 * nseg + seg]) * (SR_PULL_THREADS >> b)
                           + (threadIdx.x >> b);
    const int lanes = 1 << b;
    const int lane = threadIdx.x & (lanes - 1);
    if (slot >= bins[2 + nseg + seg]) return;
    const unsigned gmask = (lanes == 32) ? 0xffffffffu
        : (((1u << lanes) - 1u) << ((threadIdx.x & 31) & ~(lanes - 1)));
    sr_pull_row<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x, xpres,
        allowed, (long long)rows[bins[2 + seg] + slot], lane, lanes, gmask, out, opres,
        term_mode, terminal, empty);
#else
    int b = 0;
#pragma unroll
    for (int j = 1; j < SR_NBINS; ++j) if (block >= bins[2 * SR_NBINS + j]) b = j;
    const int lanes = 1 << b;
    const long long groups = SR_PULL_THREADS >> b;  // row groups of a block
    const long long slot = (block - bins[2 * SR_NBINS + b]) * groups * SR_ROWS
                           + (threadIdx.x >> b);
    const long long count = bins[SR_NBINS + b];
    const I* __restrict__ brows = rows + bins[b];
    const int lane = threadIdx.x & (lanes - 1);
    // Every lane of a group shares `slot`, so groups leave (or stay) together.
    if (slot >= count) return;
    const unsigned gmask = (lanes == 32) ? 0xffffffffu
        : (((1u << lanes) - 1u) << ((threadIdx.x & 31) & ~(lanes - 1)));
    if constexpr (SR_ROWS == 1) {
        sr_pull_row<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x,
            xpres, allowed, (long long)brows[slot], lane, lanes, gmask, out, opres, term_mode,
            terminal, empty);
    } else {
        long long row[SR_ROWS];
        I begin[SR_ROWS], end[SR_ROWS];
#pragma unroll
        for (int j = 0; j < SR_ROWS; ++j) {
            const long long s = slot + j * groups;
            row[j] = s < count ? (long long)brows[s] : -1;
        }
#pragma unroll
        for (int j = 0; j < SR_ROWS; ++j) {
            begin[j] = row[j] >= 0 ? indptr[row[j]] : (I)0;
            end[j] = row[j] >= 0 ? indptr[row[j] + 1] : (I)0;
        }
        if (allowed != nullptr) {  // a row the mask drops: no entries (its result absent)
#pragma unroll
            for (int j = 0; j < SR_ROWS; ++j) {
                if (row[j] >= 0 && !allowed[row[j]]) end[j] = begin[j];
            }
        }
        R acc[SR_ROWS];
        bool found[SR_ROWS];
#pragma unroll
        for (int j = 0; j < SR_ROWS; ++j) {
            acc[j] = EMPTY ? empty : R();
            found[j] = false;
        }
        if (lanes >= SR_VEC_MIN_LANES && sr_vec_ok<T, I>(indices, avals, astride)) {
            sr_rows_steps<Add, Mul, T, R, I, XFIRST, EMPTY, true>(indices, avals, astride, x,
                xpres, row, begin, end, lane, lanes, gmask, term_mode, terminal, acc, found);
        } else {
            sr_rows_steps<Add, Mul, T, R, I, XFIRST, EMPTY, false>(indices, avals, astride, x,
                xpres, row, begin, end, lane, lanes, gmask, term_mode, terminal, acc, found);
        }
#pragma unroll
        for (int j = 0; j < SR_ROWS; ++j) {
            sr_group_reduce_e<Add, R, EMPTY>(gmask, lanes, acc[j], found[j]);
            if (lane == 0 && row[j] >= 0) {
                opres[row[j]] = found[j];
                if (found[j]) out[row[j]] = acc[j];
            }
        }
    }
#endif
}

// EMPTY: fold from `empty` (sr_fold_e); the launcher instantiates it for idempotent monoids,
// whose Monoid.empty is neutral for every value (kernel_name in backend/gpu/spmv.py).
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__global__ void __launch_bounds__(SR_PULL_THREADS) spmv_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ rows, const I* __restrict__ long_rows,
    const long long* __restrict__ bins,
    R* __restrict__ out, bool* __restrict__ opres,
    int term_mode, R terminal, R empty)
{
    sr_pull_binned<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x, xpres,
        allowed, rows, long_rows, bins, out, opres, term_mode, terminal, empty);
}

// ---------------------------------------------------------------------------------------------
// The tiled pull (CSR-Stream, Greathouse & Daga, SC 2014): equal nnz per block instead of
// rows binned by degree. Rows of at most SR_TILE entries are grouped by where they start:
// tile t holds the rows whose first entry lies in [t * SR_TILE, (t+1) * SR_TILE), a run of
// consecutive rows whose entries are contiguous and fewer than 2 * SR_TILE. A block streams
// its tile's indices and values with aligned, coalesced loads (each 32-byte sector by one load;
// a narrow group of the binned kernel may ask for a sector once per step), gathers x, keeps
// the products in shared memory and then reduces each row from there with a group of lanes
// sized by the tile's mean degree (the row offsets staged in shared memory when the tile has
// fewer than 512 rows). Rows longer than SR_TILE get a block each, first, longest first (as in
// spmv_pull). No early exit and no use of the mask while loading (the launcher takes this
// kernel when there is no mask), and the multiply must not be positional: the row of a
// product is not known while it is loaded.
#ifndef SR_TILE
#define SR_TILE 2048  // = TILE of backend/gpu/spmv.py (tests/test_spmv_schedule.py checks)
#endif
// Loads in flight per thread while a tile streams in.
#ifndef SR_TILE_UNROLL
#define SR_TILE_UNROLL 4
#endif

// With SR_TILE_VEC (4-byte indices, values and results, sr_vec_ok): the tile streams in with
// 16-byte loads, a thread's 4 consecutive entries at a time (SR_TILE_VEC_UNROLL quads in
// flight), their products stored with one 16-byte shared store where all 4 are in the tile.
#ifndef SR_TILE_VEC
#define SR_TILE_VEC 0
#endif
#ifndef SR_TILE_VEC_UNROLL
#define SR_TILE_VEC_UNROLL 1
#endif
template <class Mul, typename T, typename R, typename I, bool XFIRST>
__device__ __forceinline__ void sr_tile_stream_vec(
    const I* __restrict__ indices, const T* __restrict__ avals,
    const T* __restrict__ x, const bool* __restrict__ xpres, I nb, I ne, I sh,
    R* __restrict__ s_prod, bool* __restrict__ s_pres)
{
    if constexpr (sizeof(I) == 4 && sizeof(T) == 4 && sizeof(R) == 4) {
        const I off = sh - nb;  // entry p's slot: p + off
        for (I base = nb & ~(I)127; base < ne;
             base += (I)(4 * SR_TILE_VEC_UNROLL * SR_PULL_THREADS)) {
            uint4 kq[SR_TILE_VEC_UNROLL], aq[SR_TILE_VEC_UNROLL];
            sr_ld_quads(indices, avals, base, SR_PULL_THREADS, (int)threadIdx.x, nb, ne, kq, aq);
            bool ok[4 * SR_TILE_VEC_UNROLL];
            T xv[4 * SR_TILE_VEC_UNROLL];
#pragma unroll
            for (int u = 0; u < SR_TILE_VEC_UNROLL; ++u) {
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    const I p = base + (I)(4 * (u * SR_PULL_THREADS + threadIdx.x) + j);
                    const I k = (I)sr_lane4(kq[u], j);
                    const bool in = p >= nb && p < ne;
                    ok[4 * u + j] = in && (xpres == nullptr || xpres[k]);
                    if (xpres != nullptr && in) s_pres[p + off] = ok[4 * u + j];
                    xv[4 * u + j] = ok[4 * u + j] ? x[k] : T();
                }
            }
#pragma unroll
            for (int u = 0; u < SR_TILE_VEC_UNROLL; ++u) {
                const I p = base + (I)(4 * (u * SR_PULL_THREADS + threadIdx.x));
                union { R r[4]; uint4 v; } pr;
#pragma unroll
                for (int j = 0; j < 4; ++j) {
                    union { unsigned w; T t; } a;
                    a.w = sr_lane4(aq[u], j);
                    pr.r[j] = sr_mult<Mul, T, R, XFIRST>(a.t, xv[4 * u + j], -1,
                                                         (long long)sr_lane4(kq[u], j));
                }
                if (p >= nb && p + 4 <= ne) {  // p + off is a multiple of 4
                    *reinterpret_cast<uint4*>(s_prod + (p + off)) = pr.v;
                } else {
#pragma unroll
                    for (int j = 0; j < 4; ++j) {
                        if (p + j >= nb && p + j < ne) s_prod[p + j + off] = pr.r[j];
                    }
                }
            }
        }
    }
}

template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__device__ __forceinline__ void sr_pull_tile(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ tiles, long long ntiles,
    const I* __restrict__ long_rows, long long nlong,
    R* __restrict__ out, bool* __restrict__ opres, R empty,
    R* __restrict__ s_prod, bool* __restrict__ s_pres, I* __restrict__ s_ptr)
{
    if ((long long)blockIdx.x < nlong) {
        sr_pull_long_row<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x,
            xpres, allowed, (long long)long_rows[blockIdx.x], out, opres, SR_TERM_NONE, R(),
            empty);
        return;
    }
    const long long t = (long long)blockIdx.x - nlong;
    const I rb = tiles[t];
    I re = tiles[t + 1];
    const I nb = indptr[rb];
    // only the tile's last row can be long (it then starts the next tile's range): not ours
    if (re > rb && indptr[re] - indptr[re - 1] > (I)SR_TILE) --re;
    const I ne = indptr[re];
    const I as = (I)astride;
    const I nrows = re - rb;
    const I len = ne - nb;
    // row offsets loaded now, stored after the stream (a load stalls only where it is used)
    const bool stage = nrows < (I)(2 * SR_PULL_THREADS);
    const I r0 = (I)threadIdx.x, r1 = (I)(threadIdx.x + SR_PULL_THREADS);
    const I ptr0 = (stage && r0 <= nrows) ? indptr[rb + r0] : (I)0;
    const I ptr1 = (stage && r1 <= nrows) ? indptr[rb + r1] : (I)0;
    // s_prod[p - nb + sh] (and s_pres) hold entry p's product: sh = nb mod 4 with the 16-byte
    // loads, so that a thread's 4 consecutive products are one aligned 16-byte store
    I sh = 0;
    bool vec = false;
    if constexpr (SR_TILE_VEC && sizeof(R) == 4) vec = sr_vec_ok<T, I>(indices, avals, astride);
    if (vec) {
        sh = nb & (I)3;
        sr_tile_stream_vec<Mul, T, R, I, XFIRST>(indices, avals, x, xpres, nb, ne, sh, s_prod,
                                                  s_pres);
    } else
    // warp loads aligned to 128 bytes, SR_TILE_UNROLL of them in flight per thread
    for (I base = nb & ~(I)31; base < ne; base += (I)(SR_TILE_UNROLL * SR_PULL_THREADS)) {
        I k[SR_TILE_UNROLL];
        T a[SR_TILE_UNROLL];
        bool ok[SR_TILE_UNROLL];
#pragma unroll
        for (int u = 0; u < SR_TILE_UNROLL; ++u) {
            const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
            ok[u] = p >= nb && p < ne;
            k[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(indices + p) : (I)0;
            a[u] = ok[u] ? sr_ld<SR_STREAM_LOADS>(avals + p * as) : T();
        }
        if (xpres != nullptr) {
#pragma unroll
            for (int u = 0; u < SR_TILE_UNROLL; ++u) {
                const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
                const bool in = ok[u];
                ok[u] = in && xpres[k[u]];
                if (in) s_pres[p - nb] = ok[u];
            }
        }
#pragma unroll
        for (int u = 0; u < SR_TILE_UNROLL; ++u) {
            if (ok[u]) {
                const I p = base + (I)(u * SR_PULL_THREADS + threadIdx.x);
                s_prod[p - nb] = sr_mult<Mul, T, R, XFIRST>(a[u], x[k[u]], -1, (long long)k[u]);
            }
        }
    }
    if (stage) {
        if (r0 <= nrows) s_ptr[r0] = ptr0;
        if (r1 <= nrows && r1 < (I)(2 * SR_PULL_THREADS)) s_ptr[r1] = ptr1;
    }
    __syncthreads();
    // lanes per row: the power of two at or above the tile's mean degree, at most 32
    int lanes = 1;
    while (lanes < 32 && (I)lanes * nrows < len) lanes <<= 1;
    const int lane = threadIdx.x & (lanes - 1);
    const unsigned gmask = (lanes == 32) ? 0xffffffffu
        : (((1u << lanes) - 1u) << ((threadIdx.x & 31) & ~(lanes - 1)));
    for (I s = (I)(threadIdx.x / lanes); s < nrows; s += (I)(SR_PULL_THREADS / lanes)) {
        const I row = rb + s;
        const I qb = (stage ? s_ptr[s] : indptr[row]) - nb + sh;
        const I qe = (stage ? s_ptr[s + 1] : indptr[row + 1]) - nb + sh;
        R acc = EMPTY ? empty : R();
        bool found = false;
        for (I q = qb + (I)lane; q < qe; q += (I)lanes) {
            sr_fold_e<Add, R, EMPTY>(acc, found, s_prod[q], xpres == nullptr || s_pres[q]);
        }
        sr_group_reduce_e<Add, R, EMPTY>(gmask, lanes, acc, found);
        if (lane == 0) {
            if (allowed != nullptr && !allowed[row]) found = false;
            opres[row] = found;
            if (found) out[row] = acc;
        }
    }
}

// SR_TILE_MIN_BLOCKS (a probe switch): blocks of the tiled pull a multiprocessor must hold
// (the register cap). Unset, the bounds name the threads only: ptxas then keeps the kernel
// at 32 registers (int32 indices); an explicit minimum of 1 gave it 40 (int64: 56).
#ifdef SR_TILE_MIN_BLOCKS
#define SR_TILE_BOUNDS __launch_bounds__(SR_PULL_THREADS, SR_TILE_MIN_BLOCKS)
#else
#define SR_TILE_BOUNDS __launch_bounds__(SR_PULL_THREADS)
#endif
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__global__ void SR_TILE_BOUNDS spmv_tile(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride,
    const T* __restrict__ x, const bool* __restrict__ xpres,
    const bool* __restrict__ allowed,
    const I* __restrict__ tiles, long long ntiles,
    const I* __restrict__ long_rows, long long nlong,
    R* __restrict__ out, bool* __restrict__ opres, R empty)
{
    __shared__ __align__(16) R s_prod[2 * SR_TILE + 4];
    __shared__ bool s_pres[2 * SR_TILE + 4];
    __shared__ I s_ptr[2 * SR_PULL_THREADS];  // the tile's row offsets, when it has few rows
    sr_pull_tile<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x, xpres,
        allowed, tiles, ntiles, long_rows, nlong, out, opres, empty, s_prod, s_pres, s_ptr);
}

// ---------------------------------------------------------------------------------------------
// The warp-streamed pull (spmv_warp): rows in their natural order, a warp a run of consecutive
// rows, its entries streamed a window of 128 * SR_WARP_QUADS at a time (a lane's quads of 4
// consecutive entries, 16-byte loads of indices and values: every sector of the matrix read
// once, by one warp, in order), the rows' results by a segmented reduction in registers:
// heads of rows as bits of a mask over the window (shared memory, a warp's own), each lane
// folding its entries up to and after its first head, a segmented scan across the lanes
// (shuffles), the open row's partial carried to the next window. Tasks: the rows whose first
// entry falls in one WARP_TILE-sized range of entries (warp_schedule in backend/gpu/spmv.py;
// rows longer than `long_row` a block each, first, as in spmv_pull). Only for monoids that
// fold from `empty` (EMPTY: an identity for the scan), without a mask, every x(k) present and
// a multiply that is not positional (the launcher checks); a nonempty row is present.
template <typename T> __device__ __forceinline__ T sr_shfl_up_w(T v, int off) {
    return __shfl_up_sync(0xffffffffu, v, off);
}
template <> __device__ __forceinline__ bool sr_shfl_up_w<bool>(bool v, int off) {
    return __shfl_up_sync(0xffffffffu, (int)v, off) != 0;
}
template <typename T> __device__ __forceinline__ T sr_shfl_w(T v, int src) {
    return __shfl_sync(0xffffffffu, v, src);
}
template <> __device__ __forceinline__ bool sr_shfl_w<bool>(bool v, int src) {
    return __shfl_sync(0xffffffffu, (int)v, src) != 0;
}
// Windows a step, their loads and gathers in flight at once: 2 (H200, min-plus float32, ten
// launches, bench/probes/spmv_probe.py --set 13b, rows over 1024 entries a block each; 1 / 2
// windows): kron-22 0.926 / 0.915 ms, kron-21 0.454 / 0.447, kron-20 0.223 / 0.219,
// urand-22 1.007 / 1.006, urand-20 0.259 / 0.260.
#ifndef SR_WARP_UNROLL
#define SR_WARP_UNROLL 2
#endif
// Quads (4 consecutive entries) a lane holds in a window: SR_WARP_QUADS * 128 entries a
// window, fewer heads' passes and scans an entry with more.
#ifndef SR_WARP_QUADS
#define SR_WARP_QUADS 1
#endif
#define SR_WARP_WIN (128 * SR_WARP_QUADS)
// The offsets of 32 rows kept in registers across windows (one load a row), rather than
// loaded again for every window (0: two loads a lane a window).
#ifndef SR_WARP_BATCH
#define SR_WARP_BATCH 1
#endif
// SR_WARP_MIN_BLOCKS (a probe switch): blocks a multiprocessor must hold (a register cap).
#ifdef SR_WARP_MIN_BLOCKS
#define SR_WARP_BOUNDS __launch_bounds__(SR_PULL_THREADS, SR_WARP_MIN_BLOCKS)
#else
#define SR_WARP_BOUNDS __launch_bounds__(SR_PULL_THREADS)
#endif
template <class Add, class Mul, typename T, typename R, typename I, bool XFIRST, bool EMPTY>
__global__ void SR_WARP_BOUNDS spmv_warp(
    const I* __restrict__ indptr, const I* __restrict__ indices,
    const T* __restrict__ avals, long long astride, const T* __restrict__ x,
    const I* __restrict__ tasks, long long ntasks,
    const I* __restrict__ long_rows, long long nlong, long long long_row,
    R* __restrict__ out, bool* __restrict__ opres, R empty)
{
    if constexpr (EMPTY) {
    constexpr int Q = SR_WARP_QUADS, W = SR_WARP_WIN, E = 4 * SR_WARP_QUADS;
    static_assert(E <= 32, "a lane's entries are bits of one mask word");
    __shared__ unsigned s_mask[SR_PULL_THREADS / 32][W / 32];
    __shared__ I s_row[SR_PULL_THREADS / 32][W];
    if ((long long)blockIdx.x < nlong) {
        sr_pull_long_row<Add, Mul, T, R, I, XFIRST, EMPTY>(indptr, indices, avals, astride, x,
            nullptr, nullptr, (long long)long_rows[blockIdx.x], out, opres, SR_TERM_NONE, R(),
            empty);
        return;
    }
    const int warp = threadIdx.x >> 5, lane = threadIdx.x & 31;
    const unsigned FULL = 0xffffffffu;
    const long long t = ((long long)blockIdx.x - nlong) * (SR_PULL_THREADS / 32) + warp;
    if (t >= ntasks) return;  // (uniform across the warp)
    const I rb = tasks[t];
    I re = tasks[t + 1];
    // a long row is the last of its task (the next row starts in a later range): not ours
    if (re > rb && (long long)(indptr[re] - indptr[re - 1]) > long_row) --re;
    const I nb = indptr[rb], ne = indptr[re];
    unsigned* mask = s_mask[warp];
    I* srow = s_row[warp];
    const bool vec = sr_vec_ok<T, I>(indices, avals, astride);
    const I as = (I)astride;
    R carry = empty;         // the open row's partial (every lane)
    I orow = (I)-1;          // the open row: its head seen, its end not yet
    I nxt = rb;              // the first row whose head is not yet placed
#if SR_WARP_BATCH
    // rows bat .. bat + 31 in registers: lane l holds row bat + l's offsets
    I bat = rb;
    I rend = rb + (I)lane < re ? indptr[rb + (I)lane + 1] : ne;
    I rbeg = sr_shfl_up_w<I>(rend, 1);
    if (lane == 0) rbeg = nb;
#endif
    for (I base = nb & ~(I)3; base < ne; base += (I)(W * SR_WARP_UNROLL)) {
        R v[SR_WARP_UNROLL][E];
#pragma unroll
        for (int u = 0; u < SR_WARP_UNROLL; ++u) {
            const I q = base + (I)(W * u + E * lane);
            I k[E];
            T a[E];
            bool ok[E];
#pragma unroll
            for (int j = 0; j < E; ++j) ok[j] = q + (I)j >= nb && q + (I)j < ne;
            if constexpr (sizeof(I) == 4 && sizeof(T) == 4) {
                if (vec) {
#pragma unroll
                    for (int c = 0; c < Q; ++c) {
                        const I qc = q + (I)(4 * c);
                        uint4 kq = make_uint4(0u, 0u, 0u, 0u), aq = kq;
                        if (qc < ne && qc + 4 > nb) {
                            kq = sr_ld4(indices + qc);
                            aq = sr_ld4(avals + qc);
                        }
#pragma unroll
                        for (int j = 0; j < 4; ++j) {
                            k[4 * c + j] = (I)sr_lane4(kq, j);
                            union { unsigned w; T t; } cv;
                            cv.w = sr_lane4(aq, j);
                            a[4 * c + j] = cv.t;
                        }
                    }
                }
            }
            if (!vec) {
#pragma unroll
                for (int j = 0; j < E; ++j) {
                    k[j] = ok[j] ? sr_ld<SR_STREAM_LOADS>(indices + q + j) : (I)0;
                    a[j] = ok[j] ? sr_ld<SR_STREAM_LOADS>(avals + (q + j) * as) : T();
                }
            }
#pragma unroll
            for (int j = 0; j < E; ++j) {
                const T xv = ok[j] ? sr_ldx(x + k[j]) : T();
                v[u][j] = ok[j] ? sr_mult<Mul, T, R, XFIRST>(a[j], xv, -1, (long long)k[j])
                                : empty;
            }
        }
#pragma unroll
        for (int u = 0; u < SR_WARP_UNROLL; ++u) {
            const I w0 = base + (I)(W * u);
            if (w0 >= ne) break;
            // the heads of the rows that start in [w0, w0 + W), 32 rows at a time
            if (lane < W / 32) mask[lane] = 0u;
            __syncwarp();
            int nh = 0;
            for (;;) {
#if SR_WARP_BATCH
                const I r = bat + (I)lane;
                const bool in = r >= nxt && r < re;
                const I b = rbeg, e = rend;
#else
                const I r = nxt + (I)lane;
                const bool in = r < re;
                const I b = in ? indptr[r] : (I)0;
                const I e = in ? indptr[r + 1] : (I)0;
#endif
                const bool take = in && b < w0 + (I)W;
                const bool head = take && e > b;
                const unsigned tk = __ballot_sync(FULL, take);
                const unsigned hb = __ballot_sync(FULL, head);
                if (take) opres[r] = e > b;
                if (head) {
                    const int pos = (int)(b - w0);
                    atomicOr(&mask[pos >> 5], 1u << (pos & 31));
                    srow[nh + __popc(hb & ((1u << lane) - 1u))] = r;
                }
                nh += __popc(hb);
                nxt += (I)__popc(tk);
#if SR_WARP_BATCH
                // a row of the batch starts past the window, or no rows are left: done; else
                // the batch is used up: the next 32 rows
                if (nxt < bat + (I)32 || nxt >= re) break;
                const I last = sr_shfl_w<I>(rend, 31);
                bat += (I)32;
                rend = bat + (I)lane < re ? indptr[bat + (I)lane + 1] : ne;
                rbeg = sr_shfl_up_w<I>(rend, 1);
                if (lane == 0) rbeg = last;
#else
                if (tk != FULL) break;
#endif
            }
            __syncwarp();
            const int word = (E * lane) >> 5, sh = (E * lane) & 31;
            const unsigned mw = mask[word];
            const unsigned h = (mw >> sh) & (E == 32 ? 0xffffffffu : (1u << E) - 1u);
            int before = __popc(mw & ((1u << sh) - 1u));
#pragma unroll
            for (int w = 0; w < W / 32 - 1; ++w) before += (w < word) ? __popc(mask[w]) : 0;
            // this lane's entries: `lead` up to its first head, `seg` from its last head on;
            // a row that starts and ends within them is stored here
            R lead = empty, seg = empty;
            int rank = before - 1;  // the head of `seg`'s row (its rank in the window)
#pragma unroll
            for (int j = 0; j < E; ++j) {
                if (h >> j & 1u) {
                    if (rank >= before) out[srow[rank]] = seg;
                    ++rank;
                    seg = v[u][j];
                } else if (rank >= before) {
                    seg = Add::template f<R, R>(seg, v[u][j], 0, 0, 0, 0);
                } else {
                    lead = Add::template f<R, R>(lead, v[u][j], 0, 0, 0, 0);
                }
            }
            // segmented inclusive scan of (has a head, seg or lead) across the lanes
            bool f = h != 0u;
            R s = f ? seg : lead;
#pragma unroll
            for (int off = 1; off < 32; off <<= 1) {
                const R so = sr_shfl_up_w<R>(s, off);
                const bool fo = sr_shfl_up_w<bool>(f, off);
                if (lane >= off) {
                    if (!f) s = Add::template f<R, R>(so, s, 0, 0, 0, 0);
                    f = f || fo;
                }
            }
            if (!f) s = Add::template f<R, R>(carry, s, 0, 0, 0, 0);  // no head up to here
            R xs = sr_shfl_up_w<R>(s, 1);
            if (lane == 0) xs = carry;
            if (h != 0u) {  // the row before this lane's first head ends here
                const I prev = before > 0 ? srow[before - 1] : orow;
                if (prev >= 0) out[prev] = Add::template f<R, R>(xs, lead, 0, 0, 0, 0);
            }
            carry = sr_shfl_w<R>(s, 31);
            if (nh > 0) orow = srow[nh - 1];
            __syncwarp();  // (srow and mask are rewritten by the next window)
        }
    }
    if (orow >= 0 && lane == 0) out[orow] = carry;
    // rows after the last entry (empty): absent
    for (I r = nxt + (I)lane; r < re; r += 32) opres[r] = false;
    }
}
