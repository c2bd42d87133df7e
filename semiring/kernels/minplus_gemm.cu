// Tuned dense (min|max) × plus products: Z = X ⊗ Y, or with accumulate Z = Z ⊕ (X ⊗ Y) in
// place (Z's old values start the accumulators, so Floyd–Warshall's phase 3 needs neither a
// temporary nor an extra pass). Self-contained: no functor structs, one policy struct per
// (monoid, domain) carries the relaxation, its start value and the edge padding.
//
// Structure (the classic register-blocked SGEMM): (BM/TM) × (BN/TN) threads compute a BM × BN
// tile of Z, each TM × TN results in registers in the "split" layout: rows
//   h·BM/2 + ty·TM/2 + r   (h = 0, 1; r < TM/2)
// and likewise columns, so that a thread's operands of one k are 2 + 2 runs of TM/2 and TN/2
// contiguous shared words: 16-byte shared loads (LDS.128) that a warp serves without bank
// conflicts (its threads read at most 16 distinct vectors of a row of Bs and 2 of As). X's
// tile is stored k-major (transposed on store, rows padded by one vector so that the
// transposing stores are conflict-free too). The shared tiles are double-buffered: the next
// tile is fetched into registers while the current one is computed, then stored to the other
// buffer: one barrier per BK. Global loads are 16-byte vectors when the leading dimension and
// the base allow (flags), scalar at the edges.
//
// Edges pad instead of branching in the inner loop: k beyond K relaxes with a pair of pads
// whose product is neutral (floats: NaN, which fmin/fmax ignore; int32 min: INT_MAX + 0, max:
// INT_MIN + 0); rows and columns beyond M, N compute garbage that is never stored.
//
// Floats start the accumulators at NaN, not at ±inf: fmin(NaN, p) = p, so the fold equals the
// generic kernel's fold from the first product (a result whose products are all NaN stays
// NaN, as numpy.fmin.reduce gives), and with accumulate it is Z ⊕ fold exactly.
//
// Blocks run in groups of MP_GROUP_M row tiles sweeping the column tiles, so that the blocks
// resident together share X's row panels and Y's column panels in L2.

#ifndef MP_GROUP_M
#define MP_GROUP_M 8
#endif

// MP_NO_DPX (bench/probes/gemm_tune.py): int32 relaxes with a plain add and min on sm_90 too.

#define MP_INT_MAX 0x7fffffff
#define MP_INT_MIN (-0x7fffffff - 1)
// Saturating int32 min-plus (APSP's min_plus_sat) on the DPX path: infinity (INT_MAX) is
// loaded as MP_SAT_BIG, whose sums with itself and with any value >= -MP_SAT_LOW never wrap
// and stay >= MP_SAT_INF; results at or above MP_SAT_INF are stored as INT_MAX again and
// results below -MP_SAT_LOW clamp there (only a negative cycle gets there; it stays
// negative). Exact when every finite input and result lies in [-2^28, 2^28] (the caller's
// promise).
#define MP_SAT_BIG ((1 << 30) - 1)
#define MP_SAT_INF (1 << 29)
#define MP_SAT_LOW ((1 << 29) - 1)

#define MP_ACCUMULATE 1
#define MP_X_VEC 2
#define MP_Y_VEC 4
#define MP_Z_VEC 8
// With MP_ACCUMULATE: Z's old values join at the end instead of starting the accumulators.
// The block asks L2 for its Z tile first (prefetch.global.L2), relaxes its k range from the
// start value, then folds Z in from L2 (combine) and stores. Phase 3 of Floyd–Warshall has a
// short k (one pivot block): Z's DRAM reads at the start of every block, in step across the
// blocks of a wave, otherwise stall the SMs for a sizeable share of each block's time.
#define MP_Z_LATE 16

__device__ __forceinline__ float mp_fmin(float a, float b) { return fminf(a, b); }
// float min/max are one FMNMX; double ones have no instruction and fmin()'s full emulation
// (signed zeros ordered too) costs about twice these two compares and a select, which
// ignore a NaN operand just as well (a NaN accumulator takes the product).
__device__ __forceinline__ double mp_fmin(double a, double b) { return (b < a || a != a) ? b : a; }
__device__ __forceinline__ float mp_fmax(float a, float b) { return fmaxf(a, b); }
__device__ __forceinline__ double mp_fmax(double a, double b) { return (b > a || a != a) ? b : a; }
template <typename T> __device__ __forceinline__ T mp_nan();
template <> __device__ __forceinline__ float mp_nan<float>() { return __int_as_float(0x7fffffff); }
template <> __device__ __forceinline__ double mp_nan<double>() {
    return __longlong_as_double(0x7fffffffffffffffLL);
}

// The wrapping int32 add of the generic kernel (and of NumPy), without signed overflow.
__device__ __forceinline__ int mp_wrap_add(int a, int b) { return (int)((unsigned)a + (unsigned)b); }

// Policies: value type, accumulator start, neutral pads of X and Y along k, load/store maps
// and the relaxation acc ⊕= a + b.
template <typename T> struct mp_fmin_plus {
    typedef T value;
    static constexpr bool raw = true;  // load() is the identity: tiles may be copied as they are
    static constexpr bool clamp = false;
    static __device__ __forceinline__ T start() { return mp_nan<T>(); }
    static __device__ __forceinline__ T pad_x() { return mp_nan<T>(); }
    static __device__ __forceinline__ T pad_y() { return mp_nan<T>(); }
    static __device__ __forceinline__ T load(T x) { return x; }
    static __device__ __forceinline__ T store(T x) { return x; }
    static __device__ __forceinline__ T relax(T acc, T a, T b) { return mp_fmin(acc, a + b); }
    static __device__ __forceinline__ T combine(T acc, T z) { return mp_fmin(acc, z); }
};

template <typename T> struct mp_fmax_plus {
    typedef T value;
    static constexpr bool raw = true;  // load() is the identity: tiles may be copied as they are
    static constexpr bool clamp = false;
    static __device__ __forceinline__ T start() { return mp_nan<T>(); }
    static __device__ __forceinline__ T pad_x() { return mp_nan<T>(); }
    static __device__ __forceinline__ T pad_y() { return mp_nan<T>(); }
    static __device__ __forceinline__ T load(T x) { return x; }
    static __device__ __forceinline__ T store(T x) { return x; }
    static __device__ __forceinline__ T relax(T acc, T a, T b) { return mp_fmax(acc, a + b); }
    static __device__ __forceinline__ T combine(T acc, T z) { return mp_fmax(acc, z); }
};

struct mp_imin_plus {
    typedef int value;
    static constexpr bool raw = true;  // load() is the identity: tiles may be copied as they are
    static constexpr bool clamp = false;
    static __device__ __forceinline__ int start() { return MP_INT_MAX; }
    static __device__ __forceinline__ int pad_x() { return MP_INT_MAX; }
    static __device__ __forceinline__ int pad_y() { return 0; }
    static __device__ __forceinline__ int load(int x) { return x; }
    static __device__ __forceinline__ int store(int x) { return x; }
    static __device__ __forceinline__ int combine(int acc, int z) { return min(acc, z); }
    static __device__ __forceinline__ int relax(int acc, int a, int b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(MP_NO_DPX)
        return __viaddmin_s32(a, b, acc);  // one VIADDMNMX: min(a + b, acc), the add wrapping
#else
        return min(mp_wrap_add(a, b), acc);
#endif
    }
};

struct mp_imax_plus {
    typedef int value;
    static constexpr bool raw = true;  // load() is the identity: tiles may be copied as they are
    static constexpr bool clamp = false;
    static __device__ __forceinline__ int start() { return MP_INT_MIN; }
    static __device__ __forceinline__ int pad_x() { return MP_INT_MIN; }
    static __device__ __forceinline__ int pad_y() { return 0; }
    static __device__ __forceinline__ int load(int x) { return x; }
    static __device__ __forceinline__ int store(int x) { return x; }
    static __device__ __forceinline__ int combine(int acc, int z) { return max(acc, z); }
    static __device__ __forceinline__ int relax(int acc, int a, int b) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900 && !defined(MP_NO_DPX)
        return __viaddmax_s32(a, b, acc);
#else
        return max(mp_wrap_add(a, b), acc);
#endif
    }
};

struct mp_imin_plus_sat {
    typedef int value;
    static constexpr bool raw = false;  // load() maps INT_MAX: tiles go through registers
    static constexpr bool clamp = false;
    static __device__ __forceinline__ int start() { return MP_INT_MAX; }
    static __device__ __forceinline__ int pad_x() { return MP_SAT_BIG; }
    static __device__ __forceinline__ int pad_y() { return MP_SAT_BIG; }
    static __device__ __forceinline__ int load(int x) { return x == MP_INT_MAX ? MP_SAT_BIG : x; }
    static __device__ __forceinline__ int store(int r) {
        return r >= MP_SAT_INF ? MP_INT_MAX : max(r, -MP_SAT_LOW);
    }
    static __device__ __forceinline__ int combine(int acc, int z) { return min(acc, z); }
    static __device__ __forceinline__ int relax(int acc, int a, int b) {
        return mp_imin_plus::relax(acc, a, b);  // no sum of loaded values wraps
    }
};

// Packed 16-bit min-plus (APSP's int16x2 DPX path): every 32-bit word holds two unsigned
// 16-bit lanes, relaxed independently, acc = min(acc, a + b) per lane, two relaxations per
// instruction (sm_90: one VIADDMNMX.U16x2, __viaddmin_u16x2, whose add WRAPS modulo 2^16:
// PTX add.u16x2, no saturation). Values are in [0, MP_U16_INF]; MP_U16_INF = 0x7FFF is
// infinity: every loaded value is clamped to it first (load: min per lane, one VIMNMX), so
// a sum of two loaded values is at most 0xFFFE and never wraps, and the accumulators start
// at it, so every result is min(MP_U16_INF, Z, min_k X + Y): the min-plus semiring over the
// integers truncated at 0x7FFF, exact for every input. X(i, k) is usually the same value in
// both lanes (semiring/backend/gpu/dense.py duplicates it), Y and Z two adjacent columns.
// Tiles are copied raw (cp.async) and clamped in shared memory by the thread that copied
// them (``clamp``).
#define MP_U16_INF 0x7fffu
#define MP_U16X2_INF 0x7fff7fffu
__device__ __forceinline__ unsigned mp_vminu2(unsigned a, unsigned b) {
#if defined(__CUDA_ARCH__)
    return __vminu2(a, b);
#else
    const unsigned lo = min(a & 0xffffu, b & 0xffffu), hi = min(a >> 16, b >> 16);
    return lo | (hi << 16);
#endif
}
__device__ __forceinline__ unsigned mp_vaddmin_u16x2(unsigned a, unsigned b, unsigned c) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
    return __viaddmin_u16x2(a, b, c);
#else
    const unsigned lo = (a + b) & 0xffffu, hi = ((a >> 16) + (b >> 16)) & 0xffffu;  // wrapping
    return mp_vminu2(lo | (hi << 16), c);
#endif
}

struct mp_u16x2_min_plus {
    typedef unsigned int value;
    static constexpr bool raw = true;   // copied as they are (cp.async) ...
    static constexpr bool clamp = true; // ... then clamped in shared memory
    static __device__ __forceinline__ unsigned start() { return MP_U16X2_INF; }
    static __device__ __forceinline__ unsigned pad_x() { return MP_U16X2_INF; }
    static __device__ __forceinline__ unsigned pad_y() { return MP_U16X2_INF; }
    static __device__ __forceinline__ unsigned load(unsigned x) { return mp_vminu2(x, MP_U16X2_INF); }
    static __device__ __forceinline__ unsigned store(unsigned x) { return x; }
    static __device__ __forceinline__ unsigned combine(unsigned acc, unsigned z) { return mp_vminu2(acc, z); }
    static __device__ __forceinline__ unsigned relax(unsigned acc, unsigned a, unsigned b) {
        return mp_vaddmin_u16x2(a, b, acc);
    }
};

// cp.async (sm_80 on): a global → shared copy of BYTES (4, 8 or 16) that bypasses registers;
// before sm_80 (and in host-side emulation) a plain copy.
template <int BYTES> struct mp_bytes { struct __align__(BYTES) type { char b[BYTES]; }; };
template <int BYTES> __device__ __forceinline__ void mp_cp_async(void* smem, const void* gmem) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    const unsigned dst = (unsigned)__cvta_generic_to_shared(smem);
    if (BYTES == 16)  // .cg: into L2 only, the tiles are streamed
        asm volatile("cp.async.cg.shared.global [%0], [%1], 16;\n" :: "r"(dst), "l"(gmem));
    else
        asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" :: "r"(dst), "l"(gmem), "n"(BYTES));
#else
    typedef typename mp_bytes<BYTES>::type B;
    *reinterpret_cast<B*>(smem) = *reinterpret_cast<const B*>(gmem);
#endif
}
__device__ __forceinline__ void mp_prefetch_l2(const void* p) {
#if defined(__CUDA_ARCH__)
    asm volatile("prefetch.global.L2 [%0];\n" :: "l"(p));
#else
    (void)p;
#endif
}
__device__ __forceinline__ void mp_cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.commit_group;\n" ::);
#endif
}
__device__ __forceinline__ void mp_cp_async_wait_all() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    asm volatile("cp.async.wait_all;\n" ::);
#endif
}

// 16 bytes of T, aligned: loads and stores of it are single vector instructions.
template <typename T> struct mp_vec {
    static constexpr int N = 16 / sizeof(T);
    struct __align__(16) type { T e[16 / sizeof(T)]; };
};

template <class P, int BM, int BN, int BK, int TM, int TN>
__global__ void __launch_bounds__((BM / TM) * (BN / TN), 2) minplus_gemm(
    const typename P::value* __restrict__ X, const typename P::value* __restrict__ Y,
    typename P::value* __restrict__ Z, int M, int N, int K, long long ldx, long long ldy,
    long long ldz, int flags, int gap_m, int gap_mlen, int gap_n, int gap_nlen)
{
    typedef typename P::value T;
    typedef typename mp_vec<T>::type V;
    constexpr int VEC = mp_vec<T>::N;
    constexpr int TX = BN / TN, TY = BM / TM, NT = TX * TY;
    constexpr int HM = TM / 2, HN = TN / 2;           // a thread's run in each half
    constexpr int KV = BK / VEC, NV = BN / VEC;       // vectors per row of the X / Y tile
    constexpr int LX = BM * KV / NT, LY = BK * NV / NT; // vectors each thread fetches
    static_assert(TM % 2 == 0 && TN % 2 == 0 && HM % VEC == 0 && HN % VEC == 0,
                  "a thread's runs must be whole 16-byte vectors");
    static_assert(BK % VEC == 0 && BN % VEC == 0 && LX * NT == BM * KV && LY * NT == BK * NV
                  && LX >= 1 && LY >= 1, "the tiles must split evenly into vectors per thread");
    // The two buffers of X's and Y's tiles: static shared memory up to 48 KiB, beyond it
    // (BK = 32) dynamic, which the launcher sizes (minplus_smem_bytes in dense.py).
    constexpr int SMEM = 2 * BK * ((BM + VEC) + BN) * (int)sizeof(T);
    constexpr bool DYN = SMEM > 48 * 1024;
    __shared__ __align__(16) unsigned char smem_static[DYN ? 16 : SMEM];
#if defined(__CUDACC__)
    extern __shared__ __align__(16) unsigned char smem_dynamic[];
#else  // the host-side emulation (tests/emu): no dynamic shared memory, a static block
    __shared__ __align__(16) unsigned char smem_dynamic[DYN ? SMEM : 16];
#endif
    unsigned char* const smem = DYN ? smem_dynamic : smem_static;
    T (*const As)[BK][BM + VEC] = reinterpret_cast<T (*)[BK][BM + VEC]>(smem);
    T (*const Bs)[BK][BN] = reinterpret_cast<T (*)[BK][BN]>(smem + 2 * BK * (BM + VEC) * sizeof(T));

    const int tid = threadIdx.x, tx = tid % TX, ty = tid / TX;
    // grouped block order (MP_GROUP_M row tiles per sweep of the column tiles)
    const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
    if (tiles_m <= 0 || tiles_n <= 0) return;  // (the launcher never sends an empty Z)
    const int per_group = MP_GROUP_M * tiles_n, bid = blockIdx.x;
    const int first_m = (bid / per_group) * MP_GROUP_M;
    const int gsize = min(tiles_m - first_m, MP_GROUP_M);
    const int cm0 = (first_m + (bid % per_group) % gsize) * BM;
    const int cn0 = ((bid % per_group) / gsize) * BN;
    // Gaps (Floyd–Warshall's lookahead: everything outside the next pivots' cross in one
    // launch): M × N index a compacted Z whose rows from gap_m on lie gap_mlen rows further
    // in X and Z, and whose columns from gap_n on lie gap_nlen columns further in Y and Z.
    // The caller puts gap_m (gap_n) on a multiple of BM (BN): a tile lies on one side. From
    // here on m0, n0 are the tile's rows and columns in X, Y, Z and Me, Ne their ends there.
    const int m0 = cm0 + (gap_mlen && cm0 >= gap_m ? gap_mlen : 0);
    const int n0 = cn0 + (gap_nlen && cn0 >= gap_n ? gap_nlen : 0);
    const int Me = M + (m0 - cm0), Ne = N + (n0 - cn0);

    const bool xvec = flags & MP_X_VEC, yvec = flags & MP_Y_VEC;
    // A block inside Me × Ne takes the fast fetch for its full k tiles (with async copies any
    // alignment; through registers, vector-aligned operands only); edge blocks take the
    // checked one. The partial k tile (K % BK) comes first (tiles start at
    // kstart = K - ntiles·BK <= 0), so every later tile is full.
    constexpr bool ASYNC = P::raw;
    const bool interior = (ASYNC || (xvec && yvec)) && m0 + BM <= Me && n0 + BN <= Ne;
    const int ntiles = (K + BK - 1) / BK, kstart = K - ntiles * BK;

    V xr[LX], yr[LY];  // a tile fetched into registers
    // checked fetch: pads outside X and Y (rows >= Me, columns >= Ne, k < 0)
    auto fetch_checked = [&](int k0) {
#pragma unroll
        for (int i = 0; i < LX; ++i) {
            const int v = tid + i * NT, gm = m0 + v / KV, gk = k0 + (v % KV) * VEC;
            const T* src = X + (long long)min(gm, Me - 1) * ldx + gk;
            if (xvec && gm < Me && gk >= 0) {  // K % VEC == 0 here: the vector is inside
                xr[i] = *reinterpret_cast<const V*>(src);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    xr[i].e[e] = (gm < Me && gk + e >= 0) ? src[e] : P::pad_x();
            }
        }
#pragma unroll
        for (int i = 0; i < LY; ++i) {
            const int v = tid + i * NT, gk = k0 + v / NV, gn = n0 + (v % NV) * VEC;
            const T* src = Y + (long long)max(gk, 0) * ldy + gn;
            if (yvec && gk >= 0 && gn + VEC <= Ne) {
                yr[i] = *reinterpret_cast<const V*>(src);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    yr[i].e[e] = (gk >= 0 && gn + e < Ne) ? src[e] : P::pad_y();
            }
        }
    };
    // fast fetch into registers: a full tile of an interior block
    auto fetch_fast = [&](int k0) {
#pragma unroll
        for (int i = 0; i < LX; ++i) {
            const int v = tid + i * NT;
            xr[i] = *reinterpret_cast<const V*>(X + (long long)(m0 + v / KV) * ldx + k0 + (v % KV) * VEC);
        }
#pragma unroll
        for (int i = 0; i < LY; ++i) {
            const int v = tid + i * NT;
            yr[i] = *reinterpret_cast<const V*>(Y + (long long)(k0 + v / NV) * ldy + n0 + (v % NV) * VEC);
        }
    };
    auto stash = [&](int buf) {
#pragma unroll
        for (int i = 0; i < LX; ++i) {
            const int v = tid + i * NT, xm = v / KV, xk = (v % KV) * VEC;
#pragma unroll
            for (int e = 0; e < VEC; ++e) As[buf][xk + e][xm] = P::load(xr[i].e[e]);
        }
#pragma unroll
        for (int i = 0; i < LY; ++i) {
            const int v = tid + i * NT, yk = v / NV, yn = (v % NV) * VEC;
#pragma unroll
            for (int e = 0; e < VEC; ++e) yr[i].e[e] = P::load(yr[i].e[e]);
            *reinterpret_cast<V*>(&Bs[buf][yk][yn]) = yr[i];
        }
    };
    // fast fetch straight into shared memory (cp.async: no registers held across the
    // compute; X's elements one by one, transposed, Y's as 16-byte vectors)
    auto fetch_async = [&](int buf, int k0) {
#pragma unroll
        for (int i = 0; i < LX; ++i) {
            const int v = tid + i * NT, xm = v / KV, xk = (v % KV) * VEC;
            const T* src = X + (long long)(m0 + xm) * ldx + k0 + xk;
#pragma unroll
            for (int e = 0; e < VEC; ++e) mp_cp_async<sizeof(T)>(&As[buf][xk + e][xm], src + e);
        }
#pragma unroll
        for (int i = 0; i < LY; ++i) {
            const int v = tid + i * NT, yk = v / NV, yn = (v % NV) * VEC;
            const T* src = Y + (long long)(k0 + yk) * ldy + n0 + yn;
            if (yvec) {
                mp_cp_async<16>(&Bs[buf][yk][yn], src);
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e) mp_cp_async<sizeof(T)>(&Bs[buf][yk][yn + e], src + e);
            }
        }
        mp_cp_async_commit();
    };

    // P::clamp: the tile just copied raw by this thread (fetch_async's elements) through
    // load() in place; its own async copies are visible to it after the wait
    auto clamp_own = [&](int buf) {
#pragma unroll
        for (int i = 0; i < LX; ++i) {
            const int v = tid + i * NT, xm = v / KV, xk = (v % KV) * VEC;
#pragma unroll
            for (int e = 0; e < VEC; ++e) As[buf][xk + e][xm] = P::load(As[buf][xk + e][xm]);
        }
#pragma unroll
        for (int i = 0; i < LY; ++i) {
            const int v = tid + i * NT, yk = v / NV, yn = (v % NV) * VEC;
            V w = *reinterpret_cast<const V*>(&Bs[buf][yk][yn]);
#pragma unroll
            for (int e = 0; e < VEC; ++e) w.e[e] = P::load(w.e[e]);
            *reinterpret_cast<V*>(&Bs[buf][yk][yn]) = w;
        }
    };

    // accumulators: Z's old values (accumulate) or the start value
    T acc[TM][TN];
#pragma unroll
    for (int r = 0; r < TM; ++r)
#pragma unroll
        for (int c = 0; c < TN; ++c) acc[r][c] = P::start();
    const bool zlate = (flags & MP_ACCUMULATE) && (flags & MP_Z_LATE);
    if (zlate) {  // the 128-byte lines of this block's Z tile, into L2
        constexpr int LINE = 128 / (int)sizeof(T), LPR = (BN + LINE - 1) / LINE;
        for (int l = tid; l < BM * LPR; l += NT) {
            const int i = m0 + l / LPR, j = n0 + (l % LPR) * LINE;
            if (i < Me && j < Ne) mp_prefetch_l2(Z + (long long)i * ldz + j);
        }
    } else if (flags & MP_ACCUMULATE) {
        const bool zvec = flags & MP_Z_VEC;
#pragma unroll
        for (int r = 0; r < TM; ++r) {
            const int i = m0 + (r / HM) * (BM / 2) + ty * HM + r % HM;
            if (i >= Me) continue;
            const T* zrow = Z + (long long)i * ldz;
#pragma unroll
            for (int c0 = 0; c0 < TN; c0 += VEC) {
                const int j = n0 + (c0 / HN) * (BN / 2) + tx * HN + c0 % HN;
                if (zvec && j + VEC <= Ne) {
                    const V v = *reinterpret_cast<const V*>(zrow + j);
#pragma unroll
                    for (int e = 0; e < VEC; ++e) acc[r][c0 + e] = P::load(v.e[e]);
                } else {
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        if (j + e < Ne) acc[r][c0 + e] = P::load(zrow[j + e]);
                }
            }
        }
    }

    // One k tile of this thread's TM × TN relaxations, from shared buffer `cur`.
    auto compute = [&](int cur) {
#pragma unroll
        for (int kk = 0; kk < BK; ++kk) {
            T a[TM], b[TN];
#pragma unroll
            for (int h = 0; h < 2; ++h) {
#pragma unroll
                for (int q = 0; q < HM / VEC; ++q) {
                    const V v = *reinterpret_cast<const V*>(&As[cur][kk][h * (BM / 2) + ty * HM + q * VEC]);
#pragma unroll
                    for (int e = 0; e < VEC; ++e) a[h * HM + q * VEC + e] = v.e[e];
                }
#pragma unroll
                for (int q = 0; q < HN / VEC; ++q) {
                    const V v = *reinterpret_cast<const V*>(&Bs[cur][kk][h * (BN / 2) + tx * HN + q * VEC]);
#pragma unroll
                    for (int e = 0; e < VEC; ++e) b[h * HN + q * VEC + e] = v.e[e];
                }
            }
#pragma unroll
            for (int r = 0; r < TM; ++r)
#pragma unroll
                for (int c = 0; c < TN; ++c) acc[r][c] = P::relax(acc[r][c], a[r], b[c]);
        }
    };

    fetch_checked(kstart);
    stash(0);
    __syncthreads();
    if (interior) {
        // the next tile is in flight while this one is computed: async copies straight to
        // the other buffer, or registers stored there after the compute
        for (int t = 0; t < ntiles; ++t) {
            const int cur = t & 1, knext = kstart + (t + 1) * BK;
            const bool more = t + 1 < ntiles;
            if (more) {
                if (ASYNC) fetch_async(cur ^ 1, knext);
                else fetch_fast(knext);
            }
            compute(cur);
            if (more) {
                if (ASYNC) {
                    mp_cp_async_wait_all();
                    if (P::clamp) clamp_own(cur ^ 1);
                }
                if (!ASYNC) stash(cur ^ 1);  // the other buffer: last read before the last barrier
            }
            __syncthreads();
        }
    } else {
        // edge blocks (or unaligned operands): the next tile after the compute, so that no
        // fetched registers live across it (no overlap; these blocks are few)
        for (int t = 0; t < ntiles; ++t) {
            const int cur = t & 1;
            compute(cur);
            if (t + 1 < ntiles) {
                fetch_checked(kstart + (t + 1) * BK);
                stash(cur ^ 1);
            }
            __syncthreads();
        }
    }

    const bool zvec = flags & MP_Z_VEC;
    if (zlate) {  // Z ⊕ the fold: every load first, then the stores below
#pragma unroll
        for (int r = 0; r < TM; ++r) {
            const int i = m0 + (r / HM) * (BM / 2) + ty * HM + r % HM;
            if (i >= Me) continue;
            const T* zrow = Z + (long long)i * ldz;
#pragma unroll
            for (int c0 = 0; c0 < TN; c0 += VEC) {
                const int j = n0 + (c0 / HN) * (BN / 2) + tx * HN + c0 % HN;
                if (zvec && j + VEC <= Ne) {
                    const V v = *reinterpret_cast<const V*>(zrow + j);
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        acc[r][c0 + e] = P::combine(acc[r][c0 + e], P::load(v.e[e]));
                } else {
#pragma unroll
                    for (int e = 0; e < VEC; ++e)
                        if (j + e < Ne)
                            acc[r][c0 + e] = P::combine(acc[r][c0 + e], P::load(zrow[j + e]));
                }
            }
        }
    }
#pragma unroll
    for (int r = 0; r < TM; ++r) {
        const int i = m0 + (r / HM) * (BM / 2) + ty * HM + r % HM;
        if (i >= Me) continue;
        T* zrow = Z + (long long)i * ldz;
#pragma unroll
        for (int c0 = 0; c0 < TN; c0 += VEC) {
            const int j = n0 + (c0 / HN) * (BN / 2) + tx * HN + c0 % HN;
            V v;
#pragma unroll
            for (int e = 0; e < VEC; ++e) v.e[e] = P::store(acc[r][c0 + e]);
            if (zvec && j + VEC <= Ne) {
                *reinterpret_cast<V*>(zrow + j) = v;
            } else {
#pragma unroll
                for (int e = 0; e < VEC; ++e)
                    if (j + e < Ne) zrow[j + e] = v.e[e];
            }
        }
    }
}
