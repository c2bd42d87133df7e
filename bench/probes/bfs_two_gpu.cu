// A direction-optimizing BFS over two GPUs of one host with no host in the level loop: one
// persistent cooperative launch per GPU, the two grids exchanging frontier bits over NVLink
// (peer memory, peer access enabled by the host) and meeting at a cross-GPU barrier after
// every level. A probe (bench/probes/bfs_two_gpu.py launches it), not the library's kernel:
// the device helpers below are copies of semiring/kernels/traverse.cu's (bfs_grid's), adapted.
//
// Layout. Both GPUs hold the whole CSR (an undirected graph: A = Aᵀ, so a row is both the
// out- and the in-edges). The vertices are split at a word boundary: GPU g OWNS the vertices
// of the 32-vertex words [wlo, whi) of the bitmaps. Each GPU keeps FULL copies of
//   vis   the visited bitmap: its owned words are authoritative, its copy of the peer's words
//         is kept exact at every level's end (the owner's claims are mirrored into it), and is
//         otherwise only a filter in front of remote claims;
//   fb[3] the frontier bitmaps, rotating by level: fb[L % 3] is level L's frontier (the whole
//         graph's, both GPUs write every new bit into both copies), fb[(L + 1) % 3] the next
//         one (zero at the level's start), fb[(L + 2) % 3] the previous frontier, zeroed by its
//         GPU during level L (no one reads it any more, the peer writes into it only in level
//         L + 1, after the barrier that ends level L);
// and its own queue (q / o, as bfs_grid's) of the frontier vertices it expands in a push.
//
// A level (both GPUs take the same direction decision from the same global counts):
// - push (top-down): each GPU expands its queue. A head v not in the local vis copy is
//   claimed by an atomicOr on the OWNER's vis word (local, or the peer's over NVLink, with
//   the returned old value: the claims are exact, each vertex is claimed once in the whole
//   system). A remote claim is first deduplicated on the local copy (one remote atomic per
//   GPU and vertex at most). The claimer writes level[v] in the owner's level array, sets
//   v's bit in both copies of the next frontier bitmap, and appends v to ITS OWN next queue
//   (so the next push expands every vertex once, on the GPU that claimed it).
// - pull (bottom-up): each GPU scans its owned unvisited vertices' rows against its copy of
//   the frontier bitmap; a warp owns a word of 32 vertices and writes it whole (no atomics)
//   into both copies of vis and of the next frontier. Before a push that follows a pull, each
//   GPU appends its owned words' frontier bits to its queue (a local grid barrier).
// - level end: a grid barrier fused with the cross-GPU barrier (b2_level_sync): every block
//   fences (system scope) and arrives; block 0 waits for them, writes its GPU's packed counter
//   (frontier vertices << 36 | their out-edges) into the peer's slot of this phase's parity,
//   raises the peer's arrival stamp (atomicMax_system of (launch << 24) | phase, monotone
//   across launches: never reset), and spins (ld.acquire.sys) on its own stamp, with a
//   timeout on %globaltimer; then it releases its grid. The two counters summed are the
//   next frontier's global size and out-edges, the same on both GPUs: the same direction
//   decision and the same last level.
// On a timeout (or the peer's abort) block 0 sets state[7] and the peer's abort word; every
// block reads state[7] after the barrier and leaves: the kernel never hangs.
//
// With peer == nullptr (one GPU) the same kernel runs alone: it owns every word and the
// cross-GPU part of the barrier is skipped.

#define SR_GRID_THREADS 512
#define SR_GRID_EDGE_BITS 36
#ifndef SR_GRID_SAMPLES
#define SR_GRID_SAMPLES 2048
#endif
#ifndef SR_WARP_BUF
#define SR_WARP_BUF 128
#endif
#ifndef SR_PUSH_BATCH
#define SR_PUSH_BATCH 4
#endif
#ifndef SR_PULL_STEP
#define SR_PULL_STEP 4
#endif
#define SR_PULL_LANE 32
#ifndef SR_BFS_MINB
#define SR_BFS_MINB 2
#endif
// 1: the claims and bit sets that only ever meet this GPU's own threads (the owner's claim
// of its own vertex, the dedup of a remote claim on the local copy) are system-scope atomics
// too, as every atomic on a word the peer also writes must be for the two to be atomic with
// each other under the PTX memory model (the peer's claims of this GPU's vertices land on the
// same vis words). 0 would make them device-scope (a measurement switch, not a safe setting).
#ifndef B2_SYS_LOCAL
#define B2_SYS_LOCAL 1
#endif

// 1: a pull writes each found word of vis into the peer's copy too (a remote store a word, as
// it does for the next frontier's word), keeping the copy exact. 0: it does not, and the
// level after a pull ORs the frontier's peer words (that pull's finds, in the local copy of
// the frontier) into the local copy of the peer's vis words, a local pass, before any push
// reads them (the copy is only a filter in front of remote claims: a missing bit costs a
// remote atomic that finds the bit set, never a wrong claim).
#ifndef B2_PULL_MIRROR
#define B2_PULL_MIRROR 1
#endif

// the state words (int64), [0, B2_PEER_WORDS) zeroed by the host before each launch (only
// this GPU touches them), [B2_PEER_WORDS, ...) written by the peer: zeroed once at allocation
#define B2_DEPTH 0      // out: the last non-empty level
#define B2_LEVELS 1     // out: the levels run (the last finding nothing)
#define B2_STATUS 2     // out: 0 ok, else B2_ERR_*
#define B2_PUSHES 3     // out
#define B2_PULLS 4      // out
#define B2_CTR 5        // [5..7] the rotating packed counters (this GPU's part)
#define B2_ERR 8        // the error flag every block reads after a level barrier
#define B2_BAR 9        // sr_grid_sync's word (local barriers)
#define B2_ARRIVE 10    // b2_level_sync's arrivals (monotone in a launch)
#define B2_RELEASE 11   // b2_level_sync's release (the phase released)
#define B2_SCRATCH 12   // the bitmap -> queue appends' counter
#define B2_GLOBAL 13    // [13..14] the global packed counter by phase parity
#define B2_OVER 15      // a queue overflow (never: the queues hold n)
#define B2_T0 16        // %globaltimer after the first barrier (ns)
#define B2_T1 17        // %globaltimer at the end
#define B2_PHASES 18    // out: the cross barriers made
#define B2_PEER_WORDS 32
#define B2_STAMP 32     // the peer's arrival stamp (atomicMax_system by the peer)
#define B2_ABORT 33     // the launch id of an abort (written by the peer, or by this GPU)
#define B2_SLOT 34      // [34..37] two slots {stamp, packed counter}, written by the peer
#define B2_STATE_WORDS 40

#define B2_ERR_TIMEOUT 1
#define B2_ERR_ABORT 2
#define B2_ERR_SLOT 3
#define B2_ERR_OVER 4

__device__ __forceinline__ long long sr_clock_ns()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long)t;
}

__device__ __forceinline__ unsigned long long b2_ld_acquire_sys(const long long* p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ unsigned int b2_or(unsigned int* p, unsigned int bit)
{
#if B2_SYS_LOCAL
    return atomicOr_system(p, bit);
#else
    return atomicOr(p, bit);
#endif
}

// Grid-wide barrier of a cooperative launch: traverse.cu's sr_grid_sync (cooperative_groups'
// grid.sync() algorithm; NVRTC cannot include cooperative_groups without the toolkit's
// headers). The word's low 31 bits must be zero before the first barrier.
__device__ __forceinline__ void sr_grid_sync(unsigned int* bar)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int inc = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
        __threadfence();
        const unsigned int old = atomicAdd(bar, inc);
        while (((old ^ *reinterpret_cast<volatile unsigned int*>(bar)) & 0x80000000u) == 0u) {
        }
        __threadfence();
    }
    __syncthreads();
}

// The level barrier (see the top): phase k of launch `launch` (k = 1, 2, ... in the
// launch). Every block: its writes (local and remote) fenced at system scope, then one
// arrival; block 0 waits for the grid's arrivals, reads this GPU's packed counter *ctr,
// exchanges it with the peer (when there is one) and writes the sum into
// state[B2_GLOBAL + (k & 1)] before releasing the grid. After it every thread may read
// that word, *ctr and state[B2_ERR]. The slots alternate by phase parity: the peer writes
// slot (k & 1) of phase k only after this GPU arrived at phase k - 1, i.e. after block 0
// read the slot of phase k - 2 (the same parity).
__device__ __forceinline__ void b2_level_sync(long long* state, long long* peer_state,
                                              unsigned int k, unsigned long long launch,
                                              const unsigned long long* ctr, long long timeout_ns)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int* arrive = reinterpret_cast<unsigned int*>(state + B2_ARRIVE);
        volatile unsigned int* release = reinterpret_cast<volatile unsigned int*>(state + B2_RELEASE);
        if (peer_state != nullptr) __threadfence_system(); else __threadfence();
        atomicAdd(arrive, 1u);
        if (blockIdx.x == 0) {
            const unsigned int want = k * gridDim.x;
            while (*reinterpret_cast<volatile unsigned int*>(arrive) < want) {
            }
            __threadfence();
            const unsigned long long mine = *reinterpret_cast<const volatile unsigned long long*>(ctr);
            unsigned long long sum = mine;
            long long err = 0;
            if (peer_state != nullptr) {
                const unsigned long long stamp = (launch << 24) | (unsigned long long)k;
                volatile long long* slot = peer_state + B2_SLOT + 2 * (k & 1u);
                slot[1] = (long long)mine;
                slot[0] = (long long)stamp;
                __threadfence_system();  // the slot (and every block's writes) before the stamp
                atomicMax_system(reinterpret_cast<unsigned long long*>(peer_state + B2_STAMP), stamp);
                const long long t0 = sr_clock_ns();
                const volatile long long* abort = state + B2_ABORT;
                for (;;) {
                    if (b2_ld_acquire_sys(state + B2_STAMP) >= stamp) break;
                    if ((unsigned long long)*abort == launch) { err = B2_ERR_ABORT; break; }
                    if (sr_clock_ns() - t0 > timeout_ns) { err = B2_ERR_TIMEOUT; break; }
                }
                if (err == 0) {
                    const volatile long long* my = state + B2_SLOT + 2 * (k & 1u);
                    if ((unsigned long long)my[0] != stamp) err = B2_ERR_SLOT;
                    else sum += (unsigned long long)my[1];
                }
                if (err != 0) {  // the peer stops waiting for this GPU too
                    *reinterpret_cast<volatile long long*>(peer_state + B2_ABORT) = (long long)launch;
                    __threadfence_system();
                }
            }
            if (err == 0 && *reinterpret_cast<volatile long long*>(state + B2_OVER) != 0)
                err = B2_ERR_OVER;
            *reinterpret_cast<volatile long long*>(state + B2_GLOBAL + (k & 1u)) = (long long)sum;
            if (err != 0) *reinterpret_cast<volatile long long*>(state + B2_ERR) = err;
            state[B2_PHASES] = k;
            __threadfence();
            *release = k;
        } else {
            while (*release < k) {
            }
        }
        __threadfence();
    }
    __syncthreads();
}

// traverse.cu's sr_buf_flush / sr_buf_add (UNROLL on, SR_FLUSH_UNROLL 1): a warp's appends
// buffered in shared memory, flushed to the queue q / offsets o with one atomic on the packed
// counter for the whole buffer. Warp-uniform calls.
template <typename I>
__device__ __forceinline__ void sr_buf_flush(I* buf, int& nb, const I* __restrict__ indptr,
                                             I* q, long long* o, unsigned long long* ctr,
                                             long long* over, long long cap)
{
    if (nb == 0) return;
    const int lane = threadIdx.x & 31;
    __syncwarp();
    long long sum = 0;
#pragma unroll
    for (int j = 0; j < SR_WARP_BUF / 32; ++j) {
        const int i = lane + 32 * j;
        if (i < nb) {
            const I v = buf[i];
            sum += (long long)indptr[v + 1] - (long long)indptr[v];
        }
    }
#pragma unroll
    for (int off = 16; off > 0; off >>= 1) sum += __shfl_xor_sync(0xffffffffu, sum, off);
    unsigned long long old = 0;
    if (lane == 0) {
        old = atomicAdd(ctr, ((unsigned long long)nb << SR_GRID_EDGE_BITS) + (unsigned long long)sum);
        if ((long long)(old >> SR_GRID_EDGE_BITS) + nb > cap) *reinterpret_cast<volatile long long*>(over) = 1;
    }
    old = __shfl_sync(0xffffffffu, old, 0);
    const long long base = (long long)(old >> SR_GRID_EDGE_BITS);
    long long run = (long long)(old & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
    for (int i0 = 0; i0 < nb; i0 += 32) {
        const int i = i0 + lane;
        I v = 0;
        long long d = 0;
        if (i < nb) {
            v = buf[i];
            d = (long long)indptr[v + 1] - (long long)indptr[v];
        }
        long long incl = d;
#pragma unroll
        for (int off = 1; off < 32; off <<= 1) {
            const long long x = __shfl_up_sync(0xffffffffu, incl, off);
            if (lane >= off) incl += x;
        }
        if (i < nb && base + i < cap) {
            q[base + i] = v;
            o[base + i] = run + incl - d;
        }
        run += __shfl_sync(0xffffffffu, incl, 31);
    }
    __syncwarp();
    nb = 0;
}

template <typename I>
__device__ __forceinline__ void sr_buf_add(bool take, I v, I* buf, int& nb,
                                           const I* __restrict__ indptr, I* q, long long* o,
                                           unsigned long long* ctr, long long* over, long long cap)
{
    const unsigned int want = __ballot_sync(0xffffffffu, take);
    if (want == 0u) return;
    if (nb + __popc(want) > SR_WARP_BUF) sr_buf_flush<I>(buf, nb, indptr, q, o, ctr, over, cap);
    if (take) buf[nb + __popc(want & ((1u << (threadIdx.x & 31)) - 1u))] = v;
    nb += __popc(want);
}

// One push level (traverse.cu's sr_grid_push, its SR_PUSH_BATCH path, levels only), over
// this GPU's queue qi / oi (count vertices, total edges). Claims are made on the owner's vis
// word (see the top); the claimer writes the level into the owner's array, the bit into both
// copies of the next frontier fn, and appends the vertex to its own queue qo / oo.
// peer_* are nullptr with one GPU. The frontier's queue and offsets were written before the
// last barrier (whose fences invalidate L1): read through L1 (__ldca); vis changes during the
// level, so its pre-check may read a stale word, which only sends the claim to the atomic.
template <typename I>
__device__ __forceinline__ void b2_push(
    const I* __restrict__ indptr, const I* __restrict__ indices, int* level, int* peer_level,
    unsigned int* vis, unsigned int* peer_vis, unsigned int* fn, unsigned int* peer_fn,
    long long wlo, long long whi, const I* qi, const long long* oi, long long count,
    long long total, I* qo, long long* oo, unsigned long long* ctr, long long* over,
    long long cap, int d1, long long* s_samp, I* s_buf)
{
    I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
    int nb = 0;
    const int lane = threadIdx.x & 31;
    const int step = (int)max(1LL, (count + SR_GRID_SAMPLES - 1) / SR_GRID_SAMPLES);
    const int ns = (int)((count + step - 1) / step);
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    if ((long long)blockIdx.x * blockDim.x < total)
        for (int j = threadIdx.x; j < ns; j += blockDim.x) s_samp[j] = __ldca(oi + (long long)j * step);
    __syncthreads();
    const int top_s = ns > 1 ? 1 << (31 - __clz(ns - 1)) : 0;      // < ns
    const int top_o = step > 1 ? 1 << (31 - __clz(step - 1)) : 0;  // < step
    for (long long e0 = gtid; e0 - lane < total; e0 += SR_PUSH_BATCH * stride) {
        long long e[SR_PUSH_BATCH];
        int f[SR_PUSH_BATCH];
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) {
            e[k] = min(e0 + k * stride, total - 1);  // past the end: a repeat, not claimed
            f[k] = 0;
        }
        for (int s = top_s; s > 0; s >>= 1) {
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k)
                if (f[k] + s < ns && s_samp[f[k] + s] <= e[k]) f[k] += s;
        }
        if (top_o) {
            int hi[SR_PUSH_BATCH];
#pragma unroll
            for (int k = 0; k < SR_PUSH_BATCH; ++k) {
                f[k] *= step;
                hi[k] = (int)min((long long)f[k] + step, count);
            }
            for (int s = top_o; s > 0; s >>= 1) {
#pragma unroll
                for (int k = 0; k < SR_PUSH_BATCH; ++k)
                    if (f[k] + s < hi[k] && __ldca(oi + f[k] + s) <= e[k]) f[k] += s;
            }
        }
        I v[SR_PUSH_BATCH];
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) {
            const I u = __ldca(qi + f[k]);
            e[k] += (long long)indptr[u] - __ldca(oi + f[k]);  // the edge in its tail's row
        }
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) v[k] = indices[e[k]];
        unsigned int w[SR_PUSH_BATCH];
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) w[k] = __ldca(vis + (v[k] >> 5));
        bool claimed[SR_PUSH_BATCH];
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) {
            const unsigned int bit = 1u << (v[k] & 31);
            const long long wd = (long long)(v[k] >> 5);
            bool c = false;
            if (e0 + k * stride < total && !(w[k] & bit)) {
                if (peer_vis == nullptr || (wd >= wlo && wd < whi)) {
                    c = !(b2_or(vis + wd, bit) & bit);
                } else if (!(b2_or(vis + wd, bit) & bit)) {
                    // first from this GPU: the claim proper on the owner's word
                    c = !(atomicOr_system(peer_vis + wd, bit) & bit);
                }
            }
            claimed[k] = c;
        }
#pragma unroll
        for (int k = 0; k < SR_PUSH_BATCH; ++k) {
            if (claimed[k]) {
                const unsigned int bit = 1u << (v[k] & 31);
                const long long wd = (long long)(v[k] >> 5);
                if (peer_vis == nullptr || (wd >= wlo && wd < whi)) {
                    level[v[k]] = d1;
                    // the peer's copy of this word kept exact (its push filter)
                    if (peer_vis != nullptr) atomicOr_system(peer_vis + wd, bit);
                } else {
                    peer_level[v[k]] = d1;
                }
                b2_or(fn + wd, bit);
                if (peer_fn != nullptr) atomicOr_system(peer_fn + wd, bit);
            }
            sr_buf_add<I>(claimed[k], v[k], buf, nb, indptr, qo, oo, ctr, over, cap);
        }
    }
    sr_buf_flush<I>(buf, nb, indptr, qo, oo, ctr, over, cap);
}

// The frontier bitmap's bits of L1-read (see traverse.cu's SR_PULL_L1): written before the
// last barrier, whose fences invalidate L1.
template <typename I>
__device__ __forceinline__ bool sr_bit(const unsigned int* bits, I u)
{
    return (__ldca(bits + (u >> 5)) >> (u & 31)) & 1u;
}

// One pull level over this GPU's owned words [wlo, whi) (bfs_grid's pull with SR_PULL_SKIP,
// SR_PULL_PREFETCH, SR_PULL_DEG_EARLY and SR_PULL_AHEAD on, levels only): the warp's words
// wlo + gwarp + i * nwarps, 32 at a time (a lane each), only those with an unvisited vertex
// scanned, the next one's bits, bounds and first in-neighbours loaded before this one's scan.
// A found word is written whole into both copies of fn (zero at the level's start) and vis
// (no one else writes an owned word during a pull). The found vertices' count and out-edges
// are summed per block into *ctr.
template <typename I>
__device__ __forceinline__ void b2_pull(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long n, int* level,
    unsigned int* vis, unsigned int* peer_vis, const unsigned int* fb, unsigned int* fn,
    unsigned int* peer_fn, long long wlo, long long whi, unsigned long long* ctr, int d1,
    unsigned long long* s_found)
{
    const int lane = threadIdx.x & 31;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long gwarp = gtid >> 5, nwarps = stride >> 5;
    const long long nown = whi - wlo;
    if (threadIdx.x == 0) *s_found = 0ull;
    __syncthreads();
    auto pull_word = [&](long long w, unsigned int seen, long long beg, long long end,
                         I ob, I oe, const I (&pre)[SR_PULL_STEP]) {
        const long long v = (w << 5) + lane;
        const bool mine = v < n && !((seen >> lane) & 1u);
        bool found = false;
        if (mine) {
            const long long lim = min(end, beg + SR_PULL_LANE);
            if (beg < lim) {  // the first step's in-neighbours were loaded ahead
                bool hit[SR_PULL_STEP];
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k) hit[k] = beg + k < lim && sr_bit(fb, pre[k]);
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k) found = found || hit[k];
                beg += SR_PULL_STEP;
            }
            for (; beg < lim && !found; beg += SR_PULL_STEP) {
                I u[SR_PULL_STEP];
                bool hit[SR_PULL_STEP];
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k) u[k] = beg + k < lim ? indices[beg + k] : (I)0;
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k) hit[k] = beg + k < lim && sr_bit(fb, u[k]);
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k) found = found || hit[k];
            }
            if (beg > lim) beg = lim;  // not found: [beg, lim) all scanned (steps overshoot)
        }
        unsigned int longer = __ballot_sync(0xffffffffu, mine && !found && beg < end);
        while (longer) {  // the longer rows, one at a time, 32 in-neighbours a step
            const int l = __ffs(longer) - 1;
            longer &= longer - 1u;
            const long long lb = __shfl_sync(0xffffffffu, beg, l);
            const long long le = __shfl_sync(0xffffffffu, end, l);
            for (long long e0 = lb; e0 < le; e0 += 32) {
                const long long e = e0 + lane;
                const bool hit = e < le && sr_bit(fb, indices[e]);
                if (__ballot_sync(0xffffffffu, hit)) {
                    if (lane == l) found = true;
                    break;
                }
            }
        }
        const unsigned int hits = __ballot_sync(0xffffffffu, found);
        long long deg = 0;
        if (found) {
            level[v] = d1;
            deg = (long long)oe - (long long)ob;
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) deg += __shfl_xor_sync(0xffffffffu, deg, off);
        if (lane == 0 && hits) {
            fn[w] = hits;
            vis[w] = seen | hits;
            if (peer_fn != nullptr) {
                peer_fn[w] = hits;
                if (B2_PULL_MIRROR) peer_vis[w] = seen | hits;
            }
            atomicAdd(s_found, ((unsigned long long)__popc(hits) << SR_GRID_EDGE_BITS)
                                   + (unsigned long long)deg);
        }
    };
    for (long long i0 = 0; gwarp + i0 * nwarps < nown; i0 += 32) {
        const long long rl = gwarp + (i0 + lane) * nwarps;  // this lane's word, from wlo
        const unsigned int mine = rl < nown ? __ldcg(vis + wlo + rl) : ~0u;
        unsigned int todo = __ballot_sync(0xffffffffu, mine != ~0u);
        unsigned int seen_n = 0u;
        I beg_n = 0, end_n = 0;
        I pre_n[SR_PULL_STEP];
#pragma unroll
        for (int k = 0; k < SR_PULL_STEP; ++k) pre_n[k] = 0;
        auto bounds = [&](int j) {  // word j's bits, its unvisited lanes' bounds and first in-neighbours
            seen_n = __shfl_sync(0xffffffffu, mine, j);
            const long long vn = ((wlo + gwarp + (i0 + j) * nwarps) << 5) + lane;
            if (vn < n && !((seen_n >> lane) & 1u)) {
                beg_n = indptr[vn];
                end_n = indptr[vn + 1];
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k)
                    pre_n[k] = beg_n + k < end_n ? indices[beg_n + k] : (I)0;
            }
        };
        if (todo) bounds(__ffs(todo) - 1);
        while (todo) {
            const int j = __ffs(todo) - 1;
            todo &= todo - 1u;
            const unsigned int seen = seen_n;
            const I beg = beg_n, end = end_n;
            I pre[SR_PULL_STEP];
#pragma unroll
            for (int k = 0; k < SR_PULL_STEP; ++k) pre[k] = pre_n[k];
            if (todo) bounds(__ffs(todo) - 1);
            // undirected: the out-row is the in-row (the found vertex's out-degree)
            pull_word(wlo + gwarp + (i0 + j) * nwarps, seen, beg, end, beg, end, pre);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && *s_found) atomicAdd(ctr, *s_found);
}

// The whole search (see the top). Arguments: the local CSR (indptr / indices, the whole
// graph, symmetric), n, source; [wlo, whi) this GPU's words; level (int32 n: this GPU's
// owned entries written, with -1 where unreached; the peer writes the levels of this GPU's
// vertices that it claims); q0 / q1 (n vertices), o0 / o1 (n int64); vis and fb (three
// bitmaps of `fstride` words each, fstride >= ceil(n / 32)); noin (the vertices of degree
// zero, marked visited from the start so that a pull skips their words); state (int64
// [B2_STATE_WORDS], see B2_*); the peer's level, vis, fb and state (nullptr: one GPU);
// alpha, beta, mode (0 auto, 1 push only, 2 pull only); launch (a launch id, the same on
// both GPUs, larger than every earlier launch's); timeout_ns (a cross barrier's wait);
// trace (nullable): the start time, then per level its end time, global frontier size,
// out-edges and direction, for the first trace_levels levels.
extern "C" __global__ void __launch_bounds__(SR_GRID_THREADS, SR_BFS_MINB) bfs2_grid(
    const int* __restrict__ indptr, const int* __restrict__ indices, long long n,
    long long source, long long wlo, long long whi, int* level, int* q0, int* q1,
    long long* o0, long long* o1, unsigned int* vis, unsigned int* fb, long long fstride,
    const unsigned int* __restrict__ noin, long long* state, int* peer_level,
    unsigned int* peer_vis, unsigned int* peer_fb, long long* peer_state, long long alpha,
    long long beta, int mode, unsigned long long launch, long long timeout_ns,
    long long* trace, long long trace_levels)
{
    typedef int I;
    unsigned long long* ctr = reinterpret_cast<unsigned long long*>(state + B2_CTR);
    long long* over = state + B2_OVER;
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + B2_BAR);
    unsigned long long* scratch = reinterpret_cast<unsigned long long*>(state + B2_SCRATCH);
    const int lane = threadIdx.x & 31;
    const long long gtid = (long long)blockIdx.x * blockDim.x + threadIdx.x;
    const long long stride = (long long)gridDim.x * blockDim.x;
    const long long gwarp = gtid >> 5, nwarps = stride >> 5;
    const long long nwords = (n + 31) >> 5;
    __shared__ long long s_samp[SR_GRID_SAMPLES];
    __shared__ I s_buf[SR_GRID_THREADS / 32 * SR_WARP_BUF];
    __shared__ unsigned long long s_found;
    const long long m = (long long)indptr[n];
    const long long deg0 = (long long)indptr[source + 1] - (long long)indptr[source];
    const long long sw = source >> 5;
    const bool own_source = sw >= wlo && sw < whi;

    // the owned levels' -1, the bitmaps (every word of this GPU's copies: the same on both
    // GPUs), the source in the queue of its owner; the peer writes into none of them before
    // the first cross barrier below
    for (long long i = (wlo << 5) + gtid; i < min(n, whi << 5); i += stride) level[i] = i == source ? 0 : -1;
    for (long long w = gtid; w < nwords; w += stride) {
        unsigned int x = __ldcg(noin + w);
        if (w == sw) x |= 1u << (source & 31);
        if (w == nwords - 1 && (n & 31)) x |= ~0u << (n & 31);
        vis[w] = x;
        fb[w] = w == sw ? 1u << (source & 31) : 0u;
        fb[fstride + w] = 0u;
        fb[2 * fstride + w] = 0u;
    }
    if (gtid == 0) {
        if (own_source) {
            q0[0] = (I)source;
            o0[0] = 0;
            ctr[0] = (1ull << SR_GRID_EDGE_BITS) + (unsigned long long)deg0;
        }
    }
    unsigned int k = 1;  // the cross barriers' phase
    b2_level_sync(state, peer_state, k, launch, &ctr[0], timeout_ns);
    if (*reinterpret_cast<volatile long long*>(state + B2_ERR) != 0) {
        if (gtid == 0) state[B2_STATUS] = state[B2_ERR];
        return;
    }
    if (gtid == 0) state[B2_T0] = sr_clock_ns();
    if (trace != nullptr && gtid == 0) trace[0] = sr_clock_ns();
    // global: both GPUs' frontier (size << 36 | out-edges); local: this GPU's queue's part
    unsigned long long glob = *reinterpret_cast<volatile unsigned long long*>(state + B2_GLOBAL + (k & 1u));
    unsigned long long loc = *reinterpret_cast<volatile unsigned long long*>(&ctr[0]);
    long long depth = 0, levels = 0, left = m;
    bool pushing = mode != 2;
    bool queued = true;  // the frontier is in this GPU's queue (after a push)
    int c = 0, p = 0, f3 = 0;  // the counter, queue and frontier bitmap of this level
    __shared__ int s_pushes, s_pulls;
    if (threadIdx.x == 0) s_pushes = s_pulls = 0;
    while (depth < n) {
        const long long count = (long long)(glob >> SR_GRID_EDGE_BITS);
        const long long total = (long long)(glob & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
        if (mode == 0) {
            if (pushing && total * alpha > left) pushing = false;
            else if (!pushing && count * beta < n) pushing = true;
        }
        if (pushing) left -= total;
        const int nc = c == 2 ? 0 : c + 1;
        const int zc = nc == 2 ? 0 : nc + 1;
        // ctr[zc] was the counter of two levels ago: every block read it before the last barrier
        if (gtid == 0) ctr[zc] = 0;
        I* qi = p ? q1 : q0;
        long long* oi = p ? o1 : o0;
        I* qo = p ? q0 : q1;
        long long* oo = p ? o0 : o1;
        const int f1 = f3 == 2 ? 0 : f3 + 1, f2 = f1 == 2 ? 0 : f1 + 1;
        const unsigned int* fcur = fb + f3 * fstride;
        unsigned int* fn = fb + f1 * fstride;
        unsigned int* pfn = peer_fb != nullptr ? peer_fb + f1 * fstride : nullptr;
        {  // the previous level's frontier, zeroed for level + 1 (see the top); after a pull
           // without B2_PULL_MIRROR, its finds in the peer's words folded into the local copy
           // of vis (before the bitmap -> queue step's barrier, so before any push reads it)
            unsigned int* fz = fb + f2 * fstride;
            const bool refresh = !B2_PULL_MIRROR && peer_vis != nullptr && !queued;
            for (long long w = gtid; w < nwords; w += stride) {
                fz[w] = 0u;
                if (refresh && (w < wlo || w >= whi)) {
                    const unsigned int x = __ldcg(fcur + w);
                    if (x) b2_or(vis + w, x);
                }
            }
        }
        const int d1 = (int)(depth + 1);
        if (pushing) {
            if (!queued) {  // this GPU's owned frontier bits into its queue (after pulls)
                I* buf = s_buf + (threadIdx.x >> 5) * SR_WARP_BUF;
                int nb = 0;
                for (long long w0 = wlo + (gwarp << 5); w0 < whi; w0 += nwarps << 5) {
                    const unsigned int mine = w0 + lane < whi ? __ldcg(fcur + w0 + lane) : 0u;
                    for (unsigned int nz = __ballot_sync(0xffffffffu, mine != 0u); nz; nz &= nz - 1u) {
                        const int j = __ffs(nz) - 1;
                        const unsigned int word = __shfl_sync(0xffffffffu, mine, j);
                        sr_buf_add<I>((word >> lane) & 1u, (I)(((w0 + j) << 5) + lane), buf, nb,
                                      indptr, qi, oi, scratch, over, n);
                    }
                }
                sr_buf_flush<I>(buf, nb, indptr, qi, oi, scratch, over, n);
                sr_grid_sync(bar);
                // (its value is loc: the pull counted the same vertices and edges)
                if (gtid == 0) *scratch = 0ull;
            }
            const long long lcount = (long long)(loc >> SR_GRID_EDGE_BITS);
            const long long ltotal = (long long)(loc & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
            b2_push<I>(indptr, indices, level, peer_level, vis, peer_vis, fn, pfn, wlo, whi, qi,
                       oi, lcount, ltotal, qo, oo, &ctr[nc], over, n, d1, s_samp, s_buf);
            queued = true;
            if (threadIdx.x == 0) ++s_pushes;
        } else {
            b2_pull<I>(indptr, indices, n, level, vis, peer_vis, fcur, fn, pfn, wlo, whi,
                       &ctr[nc], d1, &s_found);
            queued = false;
            if (threadIdx.x == 0) ++s_pulls;
        }
        ++k;
        b2_level_sync(state, peer_state, k, launch, &ctr[nc], timeout_ns);
        if (*reinterpret_cast<volatile long long*>(state + B2_ERR) != 0) break;
        const unsigned long long next =
            *reinterpret_cast<volatile unsigned long long*>(state + B2_GLOBAL + (k & 1u));
        if (trace != nullptr && gtid == 0 && levels < trace_levels) {
            long long* t = trace + 1 + 4 * levels;
            t[0] = sr_clock_ns();
            t[1] = count;
            t[2] = total;
            t[3] = pushing;
        }
        ++levels;
        if (next == 0ull) break;
        depth = d1;
        glob = next;
        loc = *reinterpret_cast<volatile unsigned long long*>(&ctr[nc]);
        c = nc;
        p ^= 1;
        f3 = f1;
    }
    if (gtid == 0) {
        state[B2_DEPTH] = depth;
        state[B2_LEVELS] = levels;
        state[B2_STATUS] = *reinterpret_cast<volatile long long*>(state + B2_ERR);
        state[B2_PUSHES] = s_pushes;
        state[B2_PULLS] = s_pulls;
        state[B2_T1] = sr_clock_ns();
    }
}
