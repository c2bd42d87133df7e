// Peak relaxation rate probes for APSP (bench/apsp_case.py): register-only loops of the
// min-plus relaxation acc = min(acc, a + b), with no memory traffic, so the measured rate is
// the ceiling any min-plus GEMM or Floyd-Warshall kernel can approach on this device.
//
// Each thread keeps PROBE_TM x PROBE_TN accumulators and PROBE_TM + PROBE_TN operands (the
// register tile of a GEMM thread) and relaxes every pair once per iteration; the b operands
// move by `step` each iteration (PROBE_TN extra adds per PROBE_TM * PROBE_TN relaxations) so
// that the compiler cannot hoist a + b out of the loop. Results go to out[] so that nothing
// is dead code; the operands start from `init` (PROBE_TM + PROBE_TN values read from memory)
// so that the compiler cannot relate the accumulators to each other. Relaxations counted: grid * block * iters * PROBE_TM * PROBE_TN.
#ifndef PROBE_TM
#define PROBE_TM 8
#endif
#ifndef PROBE_TN
#define PROBE_TN 8
#endif

// The loop of every probe: R(acc, a, b) is one relaxation, `top` the accumulators' start.
template <typename T, typename R>
__device__ __forceinline__ void sr_probe(const T* __restrict__ init, T step, int iters,
                                         T* __restrict__ out, T top, R relax)
{
    T a[PROBE_TM], b[PROBE_TN], acc[PROBE_TM][PROBE_TN];
    const T t = (T)(threadIdx.x + blockIdx.x * blockDim.x);
#pragma unroll
    for (int r = 0; r < PROBE_TM; ++r) a[r] = init[r] + t;
#pragma unroll
    for (int c = 0; c < PROBE_TN; ++c) b[c] = init[PROBE_TM + c] - t;
#pragma unroll
    for (int r = 0; r < PROBE_TM; ++r)
#pragma unroll
        for (int c = 0; c < PROBE_TN; ++c) acc[r][c] = top;
    for (int it = 0; it < iters; ++it) {
#pragma unroll
        for (int r = 0; r < PROBE_TM; ++r)
#pragma unroll
            for (int c = 0; c < PROBE_TN; ++c) acc[r][c] = relax(acc[r][c], a[r], b[c]);
#pragma unroll
        for (int c = 0; c < PROBE_TN; ++c) b[c] += step;
    }
    T m = acc[0][0];
#pragma unroll
    for (int r = 0; r < PROBE_TM; ++r)
#pragma unroll
        for (int c = 0; c < PROBE_TN; ++c) m = m < acc[r][c] ? m : acc[r][c];
    out[threadIdx.x + blockIdx.x * blockDim.x] = m;
}

struct SrProbeFmin {
    __device__ float operator()(float acc, float a, float b) const { return fminf(acc, a + b); }
};
struct SrProbeDpx {
    __device__ int operator()(int acc, int a, int b) const { return __viaddmin_s32(a, b, acc); }
};
struct SrProbeMin {
    __device__ int operator()(int acc, int a, int b) const { return min(acc, a + b); }
};

// float: FADD + FMNMX per relaxation
extern "C" __global__ void probe_fmin_f32(const float* __restrict__ init, float step, int iters,
                                          float* __restrict__ out)
{
    sr_probe<float>(init, step, iters, out, 1e30f, SrProbeFmin());
}

// int32 with the DPX instruction (sm_90: one VIADDMNMX per relaxation; emulated before)
extern "C" __global__ void probe_viaddmin_s32(const int* __restrict__ init, int step, int iters,
                                              int* __restrict__ out)
{
    sr_probe<int>(init, step, iters, out, 0x3fffffff, SrProbeDpx());
}

// int32 without DPX: IADD + IMNMX per relaxation (what the generic GEMM does for int32)
extern "C" __global__ void probe_min_s32(const int* __restrict__ init, int step, int iters,
                                         int* __restrict__ out)
{
    sr_probe<int>(init, step, iters, out, 0x3fffffff, SrProbeMin());
}

// Packed unsigned 16-bit lanes with the DPX instruction (sm_90: one VIADDMNMX.U16x2 per
// word, two relaxations: the probe's rate counts both). Lanes start below 0x4000 and
// the accumulators at 0x7fff: no lane sum wraps (the kernels' MP_U16_INF scheme).
struct SrProbeDpxU16x2 {
    __device__ unsigned operator()(unsigned acc, unsigned a, unsigned b) const {
        return __viaddmin_u16x2(a, b, acc);
    }
};
extern "C" __global__ void probe_viaddmin_u16x2(const unsigned* __restrict__ init, unsigned step,
                                                int iters, unsigned* __restrict__ out)
{
    sr_probe<unsigned>(init, step, iters, out, 0x7fff7fffu, SrProbeDpxU16x2());
}
