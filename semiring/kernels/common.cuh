// Shared device helpers for semiring kernels. Included (textually) before every kernel file.
// Ops are generated from semiring.ops tables as structs `op_<name>` with a static `f`.
typedef long long sr_index;  // positional results and coordinates

template <typename T> __device__ __forceinline__ T sr_min(T x, T y) { return (y < x) ? y : x; }
template <typename T> __device__ __forceinline__ T sr_max(T x, T y) { return (x < y) ? y : x; }
// Floats follow fmin/fmax: a NaN operand is ignored, as numpy.fmin does on the CPU.
template <> __device__ __forceinline__ float sr_min<float>(float x, float y) { return fminf(x, y); }
template <> __device__ __forceinline__ float sr_max<float>(float x, float y) { return fmaxf(x, y); }
template <> __device__ __forceinline__ double sr_min<double>(double x, double y) { return fmin(x, y); }
template <> __device__ __forceinline__ double sr_max<double>(double x, double y) { return fmax(x, y); }

// Unary helpers that op expressions may call (sr_minv, sr_ainv, sr_abs).
// Multiplicative inverse with GraphBLAS's integer rules (SuiteSparse GB_IMINV): 1/0 is the
// type's maximum, 1/-1 is -1, any other |x| > 1 truncates to 0; bool minv is true.
__device__ __forceinline__ bool sr_minv(bool x) { (void)x; return true; }
__device__ __forceinline__ int sr_minv(int x) { return x == 0 ? 2147483647 : (x == -1 ? -1 : 1 / x); }
__device__ __forceinline__ long long sr_minv(long long x) {
    return x == 0 ? 9223372036854775807LL : (x == -1 ? -1LL : 1LL / x);
}
__device__ __forceinline__ float sr_minv(float x) { return 1.0f / x; }
__device__ __forceinline__ double sr_minv(double x) { return 1.0 / x; }

// Additive inverse; bool is its own (GraphBLAS AINV_BOOL is the identity).
template <typename T> __device__ __forceinline__ T sr_ainv(T x) { return -x; }
template <> __device__ __forceinline__ bool sr_ainv<bool>(bool x) { return x; }

template <typename T> __device__ __forceinline__ T sr_abs(T x) { return (x < 0) ? -x : x; }
template <> __device__ __forceinline__ bool sr_abs<bool>(bool x) { return x; }
template <> __device__ __forceinline__ float sr_abs<float>(float x) { return fabsf(x); }
template <> __device__ __forceinline__ double sr_abs<double>(double x) { return fabs(x); }

// The op structs `op_<name>` / `uop_<name>` of the program, generated from the op tables
// by semiring.kernels.source (an unspliced program does not compile).
@SR_FUNCTORS@

// Warp shuffles exist for 4- and 8-byte types; bool travels as int.
template <typename T> __device__ __forceinline__ T sr_shfl_down(unsigned mask, T v, int off, int width) {
    return __shfl_down_sync(mask, v, off, width);
}
template <> __device__ __forceinline__ bool sr_shfl_down<bool>(unsigned mask, bool v, int off, int width) {
    return (bool)__shfl_down_sync(mask, (int)v, off, width);
}

// Bit-exact equality (so that a CAS loop ends on NaN payloads too).
template <typename T> struct sr_bits;
template <> struct sr_bits<bool> { typedef unsigned char type; };
template <> struct sr_bits<int> { typedef unsigned int type; };
template <> struct sr_bits<float> { typedef unsigned int type; };
template <> struct sr_bits<long long> { typedef unsigned long long type; };
template <> struct sr_bits<double> { typedef unsigned long long type; };

template <typename T> __device__ __forceinline__ typename sr_bits<T>::type sr_as_bits(T v) {
    union { T v; typename sr_bits<T>::type b; } u;
    u.v = v;
    return u.b;
}
template <typename T> __device__ __forceinline__ T sr_from_bits(typename sr_bits<T>::type b) {
    union { T v; typename sr_bits<T>::type b; } u;
    u.b = b;
    return u.v;
}

// *addr = Add(*addr, val) atomically, for any commutative monoid op, by compare-and-swap.
// Returns without writing when the value would not change (the common case for min/max/lor
// relaxations, so most edges cost one load and no atomic).
template <class Add, typename R, int SIZE = sizeof(R)> struct sr_atomic;

template <class Add, typename R> struct sr_atomic<Add, R, 4> {
    static __device__ __forceinline__ void combine(R* addr, R val) {
        unsigned int* a = reinterpret_cast<unsigned int*>(addr);
        unsigned int old = *reinterpret_cast<volatile unsigned int*>(a);
        while (true) {
            R nv = Add::template f<R, R>(sr_from_bits<R>(old), val, 0, 0, 0, 0);
            unsigned int nb = sr_as_bits<R>(nv);
            if (nb == old) return;
            unsigned int seen = atomicCAS(a, old, nb);
            if (seen == old) return;
            old = seen;
        }
    }
};

template <class Add, typename R> struct sr_atomic<Add, R, 8> {
    static __device__ __forceinline__ void combine(R* addr, R val) {
        unsigned long long* a = reinterpret_cast<unsigned long long*>(addr);
        unsigned long long old = *reinterpret_cast<volatile unsigned long long*>(a);
        while (true) {
            R nv = Add::template f<R, R>(sr_from_bits<R>(old), val, 0, 0, 0, 0);
            unsigned long long nb = sr_as_bits<R>(nv);
            if (nb == old) return;
            unsigned long long seen = atomicCAS(a, old, nb);
            if (seen == old) return;
            old = seen;
        }
    }
};

// 1-byte values (bool): CAS on the aligned 32-bit word that holds the byte.
template <class Add, typename R> struct sr_atomic<Add, R, 1> {
    static __device__ __forceinline__ void combine(R* addr, R val) {
        size_t p = reinterpret_cast<size_t>(addr);
        unsigned int* word = reinterpret_cast<unsigned int*>(p & ~(size_t)3);
        unsigned int shift = (unsigned int)(p & 3) * 8u;
        unsigned int old = *reinterpret_cast<volatile unsigned int*>(word);
        while (true) {
            unsigned char ob = (unsigned char)((old >> shift) & 0xffu);
            R nv = Add::template f<R, R>(sr_from_bits<R>(ob), val, 0, 0, 0, 0);
            unsigned char nb = sr_as_bits<R>(nv);
            if (nb == ob) return;
            unsigned int nw = (old & ~(0xffu << shift)) | ((unsigned int)nb << shift);
            unsigned int seen = atomicCAS(word, old, nw);
            if (seen == old) return;
            old = seen;
        }
    }
};

// Terminal modes of a monoid: none, a value, or any value at all (the `any` monoid).
#define SR_TERM_NONE 0
#define SR_TERM_VALUE 1
#define SR_TERM_ANY 2

template <typename R> __device__ __forceinline__ bool sr_is_terminal(int mode, R acc, R terminal) {
    return mode == SR_TERM_ANY || (mode == SR_TERM_VALUE && acc == terminal);
}

// Partial reductions carry (acc, found): `found` says whether acc holds any value yet, so no
// identity is needed (the `any` monoid has none that is neutral, and fmin's inf would swallow a
// lone NaN).
template <class Add, typename R>
__device__ __forceinline__ void sr_fold(R& acc, bool& found, R v) {
    acc = found ? Add::template f<R, R>(acc, v, 0, 0, 0, 0) : v;
    found = true;
}

// Reduce (acc, found) over groups of `width` lanes (a power of two <= 32) of the threads in
// `mask`; lane 0 of each group ends with the group's result.
template <class Add, typename R>
__device__ __forceinline__ void sr_group_reduce(unsigned mask, int width, R& acc, bool& found) {
    for (int off = width >> 1; off > 0; off >>= 1) {
        const R oacc = sr_shfl_down<R>(mask, acc, off, width);
        const bool ofound = sr_shfl_down<bool>(mask, found, off, width);
        if (ofound) sr_fold<Add, R>(acc, found, oacc);
    }
}

// The multiply of a semiring, with the operand order of the product: for A*x (mxv) the matrix
// entry A(o, k) comes first; for x*A (vxm) the vector entry x(k) comes first. o is the output
// index, k the inner index.
template <class Mul, typename T, typename R, bool XFIRST>
__device__ __forceinline__ R sr_mult(T a, T x, sr_index o, sr_index k) {
    if (XFIRST) return Mul::template f<R, T>(x, a, 0, k, k, o);
    return Mul::template f<R, T>(a, x, o, k, k, 0);
}
