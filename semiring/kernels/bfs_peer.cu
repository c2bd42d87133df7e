// A direction-optimizing BFS over two GPUs of one host with no host in the level loop
// (issue 18; session 22's probe, bench/results/session22/bfs_two_gpu_h200x2.md): one
// persistent cooperative launch per GPU, the two grids exchanging frontier bits and vertex
// claims over peer memory (NVLink; CUDA IPC between Dask's worker processes, opened by
// semiring/dist/_mesh.py) and meeting at a cross-GPU barrier after every level. Levels only.
// The program is traverse.cu, then this file: sr_grid_sync, sr_buf_add / sr_buf_flush,
// sr_bit, sr_clock_ns and the SR_GRID_* / SR_PULL_* / SR_PUSH_* settings come from there
// (bfs_grid's). Launcher: semiring/backend/gpu/bfs_peer.py.
//
// Exactly two GPUs: each GPU's peer is "the other one" (one peer pointer a buffer, one
// arrival stamp, one count slot a phase). More GPUs would need a stamp and a slot per peer
// and the claims routed to the owner among several: not this kernel.
//
// Layout. Both GPUs hold the whole graph: A's CSR (indptr / indices: the out-edges, which a
// push expands and whose row lengths are the frontier's out-edges) and Aᵀ's (tindptr /
// tindices: the in-edges, which a pull scans; the same pointers when A is symmetric). The
// vertices are split at a word boundary: GPU g OWNS the vertices of the 32-vertex words
// [wlo, whi) of the bitmaps. Each GPU keeps FULL copies of
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
// - push (top-down): each GPU expands its queue along A's rows. A head v not in the local vis
//   copy is claimed by an atomicOr on the OWNER's vis word (local, or the peer's, with the
//   returned old value: the claims are exact, each vertex is claimed once in the whole
//   system). A remote claim is first deduplicated on the local copy (one remote atomic per
//   GPU and vertex at most). The claimer writes level[v] in the owner's level array, sets
//   v's bit in both copies of the next frontier bitmap, and appends v to ITS OWN next queue
//   (so the next push expands every vertex once, on the GPU that claimed it).
// - pull (bottom-up): each GPU scans its owned unvisited vertices' rows of Aᵀ against its
//   copy of the frontier bitmap; a warp owns a word of 32 vertices and writes it whole (no
//   atomics) into both copies of vis and of the next frontier. Before a push that follows a
//   pull, each GPU appends its owned words' frontier bits to its queue (a local grid barrier).
// - level end: a grid barrier fused with the cross-GPU barrier (bp_level_sync): every block
//   fences (system scope) and arrives; block 0 waits for them, writes its GPU's packed counter
//   (frontier vertices << 36 | their out-edges) into the peer's slot of this phase's parity,
//   raises the peer's arrival stamp (atomicMax_system of (launch << 24) | phase, monotone
//   across launches: never reset), and spins (ld.acquire.sys) on its own stamp, with a
//   timeout on %globaltimer; then it releases its grid. The two counters summed are the
//   next frontier's global size and out-edges, the same on both GPUs: the same direction
//   decision and the same last level.
// On a timeout (or the peer's abort) block 0 sets the error word and the peer's abort word;
// every block reads the error word after the barrier and leaves: the kernel never hangs, and
// its status says why (the host raises; no level is returned).
//
// With peer == nullptr (one GPU) the same kernel runs alone: it owns every word and the
// cross-GPU part of the barrier is skipped (the tests' baseline).

// 1: the claims and bit sets that only ever meet this GPU's own threads (the owner's claim
// of its own vertex, the dedup of a remote claim on the local copy) are system-scope atomics
// too, as every atomic on a word the peer also writes must be for the two to be atomic with
// each other under the PTX memory model (the peer's claims of this GPU's vertices land on the
// same vis words). 0 would make them device-scope (a measurement switch, not a safe setting).
#ifndef SR_PEER_SYS_LOCAL
#define SR_PEER_SYS_LOCAL 1
#endif

// 1: a pull writes each found word of vis into the peer's copy too (a remote store a word, as
// it does for the next frontier's word), keeping the copy exact. 0: it does not, and the
// level after a pull ORs the frontier's peer words (that pull's finds, in the local copy of
// the frontier) into the local copy of the peer's vis words, a local pass, before any push
// reads them (the copy is only a filter in front of remote claims: a missing bit costs a
// remote atomic that finds the bit set, never a wrong claim). Session 22 (kron-24, 2 H200):
// 0.528 ms with 0, 0.539 with 1.
#ifndef SR_PEER_PULL_MIRROR
#define SR_PEER_PULL_MIRROR 0
#endif

// the state words (int64), [0, BP_PEER_WORDS) zeroed by the host before each launch (only
// this GPU touches them), [BP_PEER_WORDS, ...) written by the peer: zeroed once at allocation
#define BP_DEPTH 0      // out: the last non-empty level
#define BP_LEVELS 1     // out: the levels run (the last finding nothing)
#define BP_STATUS 2     // out: 0 ok, else BP_ERR_*
#define BP_PUSHES 3     // out
#define BP_PULLS 4      // out
#define BP_CTR 5        // [5..7] the rotating packed counters (this GPU's part)
#define BP_ERR 8        // the error flag every block reads after a level barrier
#define BP_BAR 9        // sr_grid_sync's word (local barriers)
#define BP_ARRIVE 10    // bp_level_sync's arrivals (monotone in a launch)
#define BP_RELEASE 11   // bp_level_sync's release (the phase released)
#define BP_SCRATCH 12   // the bitmap -> queue appends' counter
#define BP_GLOBAL 13    // [13..14] the global packed counter by phase parity
#define BP_OVER 15      // a queue overflow (never: the queues hold n)
#define BP_T0 16        // %globaltimer after the first barrier (ns)
#define BP_T1 17        // %globaltimer at the end
#define BP_PHASES 18    // out: the cross barriers made
#define BP_PEER_WORDS 32
#define BP_STAMP 32     // the peer's arrival stamp (atomicMax_system by the peer)
#define BP_ABORT 33     // the launch id of an abort (written by the peer, or by this GPU)
#define BP_SLOT 34      // [34..37] two slots {stamp, packed counter}, written by the peer
#define BP_STATE_WORDS 40

#define BP_ERR_TIMEOUT 1
#define BP_ERR_ABORT 2
#define BP_ERR_SLOT 3
#define BP_ERR_OVER 4

__device__ __forceinline__ unsigned long long bp_ld_acquire_sys(const long long* p)
{
    unsigned long long v;
    asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
    return v;
}

__device__ __forceinline__ unsigned int bp_or(unsigned int* p, unsigned int bit)
{
#if SR_PEER_SYS_LOCAL
    return atomicOr_system(p, bit);
#else
    return atomicOr(p, bit);
#endif
}

// The level barrier (see the top): phase k of launch `launch` (k = 1, 2, ... in the
// launch). Every block: its writes (local and remote) fenced at system scope, then one
// arrival; block 0 waits for the grid's arrivals, reads this GPU's packed counter *ctr,
// exchanges it with the peer (when there is one) and writes the sum into
// state[BP_GLOBAL + (k & 1)] before releasing the grid. After it every thread may read
// that word, *ctr and state[BP_ERR]. The slots alternate by phase parity: the peer writes
// slot (k & 1) of phase k only after this GPU arrived at phase k - 1, i.e. after block 0
// read the slot of phase k - 2 (the same parity). `timeout_ns`: the wait for the peer's
// arrival (the first phase's covers the two launches' skew: two host processes).
__device__ __forceinline__ void bp_level_sync(long long* state, long long* peer_state,
                                              unsigned int k, unsigned long long launch,
                                              const unsigned long long* ctr, long long timeout_ns)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        unsigned int* arrive = reinterpret_cast<unsigned int*>(state + BP_ARRIVE);
        volatile unsigned int* release = reinterpret_cast<volatile unsigned int*>(state + BP_RELEASE);
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
                volatile long long* slot = peer_state + BP_SLOT + 2 * (k & 1u);
                slot[1] = (long long)mine;
                slot[0] = (long long)stamp;
                __threadfence_system();  // the slot (and every block's writes) before the stamp
                atomicMax_system(reinterpret_cast<unsigned long long*>(peer_state + BP_STAMP), stamp);
                const long long t0 = sr_clock_ns();
                const volatile long long* abort = state + BP_ABORT;
                for (;;) {
                    if (bp_ld_acquire_sys(state + BP_STAMP) >= stamp) break;
                    if ((unsigned long long)*abort == launch) { err = BP_ERR_ABORT; break; }
                    if (sr_clock_ns() - t0 > timeout_ns) { err = BP_ERR_TIMEOUT; break; }
                }
                if (err == 0) {
                    const volatile long long* my = state + BP_SLOT + 2 * (k & 1u);
                    if ((unsigned long long)my[0] != stamp) err = BP_ERR_SLOT;
                    else sum += (unsigned long long)my[1];
                }
                if (err != 0) {  // the peer stops waiting for this GPU too
                    *reinterpret_cast<volatile long long*>(peer_state + BP_ABORT) = (long long)launch;
                    __threadfence_system();
                }
            }
            if (err == 0 && *reinterpret_cast<volatile long long*>(state + BP_OVER) != 0)
                err = BP_ERR_OVER;
            *reinterpret_cast<volatile long long*>(state + BP_GLOBAL + (k & 1u)) = (long long)sum;
            if (err != 0) *reinterpret_cast<volatile long long*>(state + BP_ERR) = err;
            state[BP_PHASES] = k;
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

// One push level (traverse.cu's sr_grid_push, its SR_PUSH_BATCH path, levels only), over
// this GPU's queue qi / oi (count vertices, total edges) along A's rows. Claims are made on
// the owner's vis word (see the top); the claimer writes the level into the owner's array,
// the bit into both copies of the next frontier fn, and appends the vertex to its own queue
// qo / oo. peer_* are nullptr with one GPU. The frontier's queue and offsets were written
// before the last barrier (whose fences invalidate L1): read through L1 (__ldca); vis changes
// during the level, so its pre-check may read a stale word, which only sends the claim to the
// atomic.
template <typename I>
__device__ __forceinline__ void bp_push(
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
        for (int k = 0; k < SR_PUSH_BATCH; ++k)
            e[k] = min(e0 + k * stride, total - 1);  // past the end: a repeat, not claimed
        sr_push_slots<SR_PUSH_BATCH>(oi, count, s_samp, ns, step, top_s, top_o, e, f);
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
                    c = !(bp_or(vis + wd, bit) & bit);
                } else if (!(bp_or(vis + wd, bit) & bit)) {
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
                bp_or(fn + wd, bit);
                if (peer_fn != nullptr) atomicOr_system(peer_fn + wd, bit);
            }
            sr_buf_add<I, true>(claimed[k], v[k], buf, nb, indptr, qo, oo, ctr, over, cap);
        }
    }
    sr_buf_flush<I, true>(buf, nb, indptr, qo, oo, ctr, over, cap);
}

// One pull level over this GPU's owned words [wlo, whi) (bfs_grid's pull with SR_PULL_SKIP,
// SR_PULL_PREFETCH, SR_PULL_DEG_EARLY and SR_PULL_AHEAD on, levels only): each unvisited
// vertex scans its row of Aᵀ (tindptr / tindices: its in-neighbours) for one in the frontier
// fb; the warp's words wlo + gwarp + i * nwarps, 32 at a time (a lane each), only those with
// an unvisited vertex scanned, the next one's bits, bounds (in-row and out-row) and first
// in-neighbours loaded before this one's scan. A found word is written whole into both copies
// of fn (zero at the level's start) and vis (no one else writes an owned word during a pull).
// The found vertices' count and out-edges (A's row lengths) are summed per block into *ctr.
template <typename I>
__device__ __forceinline__ void bp_pull(
    const I* __restrict__ indptr, const I* __restrict__ tindptr, const I* __restrict__ tindices,
    long long n, int* level, unsigned int* vis, unsigned int* peer_vis, const unsigned int* fb,
    unsigned int* fn, unsigned int* peer_fn, long long wlo, long long whi,
    unsigned long long* ctr, int d1, unsigned long long* s_found)
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
                for (int k = 0; k < SR_PULL_STEP; ++k) u[k] = beg + k < lim ? tindices[beg + k] : (I)0;
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
                const bool hit = e < le && sr_bit(fb, tindices[e]);
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
            deg = (long long)oe - (long long)ob;  // v's out-edges: the next frontier's work
        }
#pragma unroll
        for (int off = 16; off > 0; off >>= 1) deg += __shfl_xor_sync(0xffffffffu, deg, off);
        if (lane == 0 && hits) {
            fn[w] = hits;
            vis[w] = seen | hits;
            if (peer_fn != nullptr) {
                peer_fn[w] = hits;
                if (SR_PEER_PULL_MIRROR) peer_vis[w] = seen | hits;
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
        I beg_n = 0, end_n = 0, ob_n = 0, oe_n = 0;
        I pre_n[SR_PULL_STEP];
#pragma unroll
        for (int k = 0; k < SR_PULL_STEP; ++k) pre_n[k] = 0;
        auto bounds = [&](int j) {  // word j's bits, its unvisited lanes' bounds and first in-neighbours
            seen_n = __shfl_sync(0xffffffffu, mine, j);
            const long long vn = ((wlo + gwarp + (i0 + j) * nwarps) << 5) + lane;
            if (vn < n && !((seen_n >> lane) & 1u)) {
                beg_n = tindptr[vn];
                end_n = tindptr[vn + 1];
                ob_n = indptr[vn];
                oe_n = indptr[vn + 1];
#pragma unroll
                for (int k = 0; k < SR_PULL_STEP; ++k)
                    pre_n[k] = beg_n + k < end_n ? tindices[beg_n + k] : (I)0;
            }
        };
        if (todo) bounds(__ffs(todo) - 1);
        while (todo) {
            const int j = __ffs(todo) - 1;
            todo &= todo - 1u;
            const unsigned int seen = seen_n;
            const I beg = beg_n, end = end_n, ob = ob_n, oe = oe_n;
            I pre[SR_PULL_STEP];
#pragma unroll
            for (int k = 0; k < SR_PULL_STEP; ++k) pre[k] = pre_n[k];
            if (todo) bounds(__ffs(todo) - 1);
            pull_word(wlo + gwarp + (i0 + j) * nwarps, seen, beg, end, ob, oe, pre);
        }
    }
    __syncthreads();
    if (threadIdx.x == 0 && *s_found) atomicAdd(ctr, *s_found);
}

// The whole search (see the top). Arguments: A's CSR (indptr / indices) and Aᵀ's (tindptr /
// tindices; the same pointers for a symmetric A), n, source; [wlo, whi) this GPU's words;
// level (int32 n: this GPU's owned entries written, with -1 where unreached; the peer writes
// the levels of this GPU's vertices that it claims); q0 / q1 (n vertices), o0 / o1 (n int64);
// vis and fb (three bitmaps of `fstride` words each, fstride >= ceil(n / 32)); noin (the
// vertices without in-edges, marked visited from the start so that a pull skips their words:
// no level can find them); state (int64 [BP_STATE_WORDS], see BP_*); the peer's level, vis,
// fb and state (nullptr: one GPU); alpha, beta (Beamer's thresholds), mode (0 auto, 1 push
// only, 2 pull only); launch (a launch id, the same on both GPUs, larger than every earlier
// launch's on these buffers); timeout0_ns (the first cross barrier's wait: the two launches'
// skew) and timeout_ns (a later barrier's); trace (nullable): the start time, then per level
// its end time, global frontier size, out-edges and direction, for the first trace_levels.
template <typename I>
__global__ void __launch_bounds__(SR_GRID_THREADS, SR_BFS_MINB) bfs_peer(
    const I* __restrict__ indptr, const I* __restrict__ indices, const I* __restrict__ tindptr,
    const I* __restrict__ tindices, long long n, long long source, long long wlo,
    long long whi, int* level, I* q0, I* q1, long long* o0, long long* o1, unsigned int* vis,
    unsigned int* fb, long long fstride, const unsigned int* __restrict__ noin,
    long long* state, int* peer_level, unsigned int* peer_vis, unsigned int* peer_fb,
    long long* peer_state, long long alpha, long long beta, int mode,
    unsigned long long launch, long long timeout0_ns, long long timeout_ns, long long* trace,
    long long trace_levels)
{
    unsigned long long* ctr = reinterpret_cast<unsigned long long*>(state + BP_CTR);
    long long* over = state + BP_OVER;
    unsigned int* bar = reinterpret_cast<unsigned int*>(state + BP_BAR);
    unsigned long long* scratch = reinterpret_cast<unsigned long long*>(state + BP_SCRATCH);
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
    bp_level_sync(state, peer_state, k, launch, &ctr[0], timeout0_ns);
    if (*reinterpret_cast<volatile long long*>(state + BP_ERR) != 0) {
        if (gtid == 0) state[BP_STATUS] = state[BP_ERR];
        return;
    }
    if (gtid == 0) state[BP_T0] = sr_clock_ns();
    if (trace != nullptr && gtid == 0) trace[0] = sr_clock_ns();
    // global: both GPUs' frontier (size << 36 | out-edges); local: this GPU's queue's part
    unsigned long long glob = *reinterpret_cast<volatile unsigned long long*>(state + BP_GLOBAL + (k & 1u));
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
        // Beamer's rule (algorithms.bfs.pull_next): pull once the frontier's out-edges pass
        // the unexplored edges / alpha, push again once it holds fewer than n / beta vertices
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
           // without SR_PEER_PULL_MIRROR, its finds in the peer's words folded into the local
           // copy of vis (before the bitmap -> queue step's barrier, so before any push reads it)
            unsigned int* fz = fb + f2 * fstride;
            const bool refresh = !SR_PEER_PULL_MIRROR && peer_vis != nullptr && !queued;
            for (long long w = gtid; w < nwords; w += stride) {
                fz[w] = 0u;
                if (refresh && (w < wlo || w >= whi)) {
                    const unsigned int x = __ldcg(fcur + w);
                    if (x) bp_or(vis + w, x);
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
                        sr_buf_add<I, true>((word >> lane) & 1u, (I)(((w0 + j) << 5) + lane), buf,
                                            nb, indptr, qi, oi, scratch, over, n);
                    }
                }
                sr_buf_flush<I, true>(buf, nb, indptr, qi, oi, scratch, over, n);
                sr_grid_sync(bar);
                // (its value is loc: the pull counted the same vertices and edges)
                if (gtid == 0) *scratch = 0ull;
            }
            const long long lcount = (long long)(loc >> SR_GRID_EDGE_BITS);
            const long long ltotal = (long long)(loc & ((1ull << SR_GRID_EDGE_BITS) - 1ull));
            bp_push<I>(indptr, indices, level, peer_level, vis, peer_vis, fn, pfn, wlo, whi, qi,
                       oi, lcount, ltotal, qo, oo, &ctr[nc], over, n, d1, s_samp, s_buf);
            queued = true;
            if (threadIdx.x == 0) ++s_pushes;
        } else {
            bp_pull<I>(indptr, tindptr, tindices, n, level, vis, peer_vis, fcur, fn, pfn, wlo,
                       whi, &ctr[nc], d1, &s_found);
            queued = false;
            if (threadIdx.x == 0) ++s_pulls;
        }
        ++k;
        bp_level_sync(state, peer_state, k, launch, &ctr[nc], timeout_ns);
        if (*reinterpret_cast<volatile long long*>(state + BP_ERR) != 0) break;
        const unsigned long long next =
            *reinterpret_cast<volatile unsigned long long*>(state + BP_GLOBAL + (k & 1u));
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
        state[BP_DEPTH] = depth;
        state[BP_LEVELS] = levels;
        state[BP_STATUS] = *reinterpret_cast<volatile long long*>(state + BP_ERR);
        state[BP_PUSHES] = s_pushes;
        state[BP_PULLS] = s_pulls;
        state[BP_T1] = sr_clock_ns();
    }
}
