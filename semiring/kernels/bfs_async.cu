// Barrier-free breadth-first search for high-diameter graphs (grids, meshes, road networks).
//
// The level-synchronous search (bfs_grid in traverse.cu) pays a grid-wide barrier and a chain
// of dependent global loads for each of thousands of narrow levels. Here no level is shared by
// the grid: the depths are the fixed point of the label-correcting relaxation
//     d(v) = min(d(v), d(u) + 1)   for every edge u → v
// (Bellman–Ford's, with every edge weighing 1), reached asynchronously. Each block owns a
// contiguous range of `span` vertices (graphs numbered with locality, a grid row-major or a
// road network by area, keep most edges inside a range) and runs its own loop of local
// levels: its frontier in shared memory, the owned vertices' depths in shared memory (when
// they fit), __syncthreads() between local levels and nothing between blocks. An edge u → v
// to a vertex another block owns lowers dist[v] (global) by an atomic min and, where that
// improves it, sends v to its owner through the owner's inbox (a ring of `cap` slots, one per
// owned vertex: at most one message per vertex is outstanding, inq[v]). The owner takes its
// messages between local levels and relaxes on from them. Groute's asynchronous model (Ben-Nun
// et al., PPoPP 2017) and Atos' persistent kernels with queues (Chen et al., ICPP 2022), with a
// partition by vertex range instead of one global queue.
//
// Termination: work (ctl[0]) counts messages sent and not yet released; the seed counts one.
// A sender adds before it publishes; a block releases the messages it took only when its local
// frontier is empty (its relaxations from them are done and their own messages counted). So
// work == 0 means no message in flight and no block with local work: every block leaves.
//
// Depths are exact at the end (every improvement is propagated, whatever the order); the order
// (each block's levels in rising depth, messages taken between them) keeps repeated work small
// on graphs with locality.
//
// Buffers (the kernel initializes them): dist (n ints), inq (n ints), box (n words: block b's
// ring at box[lo, lo + cap)), spill (2n ints: block b's two local queues beyond their shared
// SR_ASYNC_QUEUE slots, at spill[2 lo, 2 lo + 2 cap)), gbits (blocks × ceil(span / 32) words:
// the queued-bits when not in shared memory), tails (one word a block). ctl (int64[8], zero on
// entry): [0] work, [1] grid barrier, [2] status out (0 done, 1 timed out), [3] local levels
// run (summed over blocks), [4] messages sent, [5] vertex visits (queue items expanded).
// ell, ellw: bfs_async_cw's padded rows (bfs_async_ell, ellw columns a vertex) where ellw > 0,
// else its CSR rows (bfs_async ignores them).
// Dynamic shared memory, when use_smem: span ints (depths) then ceil(span / 32) words (bits).
//
// A ring slot is one 64-bit word: high half a tag, low half the message (the owner-local
// vertex). Position p (round r = p / cap) is free for its sender when the tag is 2r, full when
// 2r + 1; taking it writes 2r + 2 (free for round r + 1).

#ifndef SR_ASYNC_THREADS
#define SR_ASYNC_THREADS 512
#endif
// Slots of each of a block's two local frontier queues in shared memory (beyond: spill).
#ifndef SR_ASYNC_QUEUE
#define SR_ASYNC_QUEUE 2048
#endif
// A row of more out-edges than this is relaxed by its whole warp (else by its own thread).
#define SR_ASYNC_LANE 32
#define SR_ASYNC_INF 0x7fffffff
#define SR_ASYNC_DONE 0
#define SR_ASYNC_TIMEOUT 1
#define SR_ASYNC_CTL 8

// The host-side emulation (tests/emu/async_emu.h) defines these for its blocks of threads.
#ifndef SR_ASYNC_SHARED
#define SR_ASYNC_SHARED(T, name) __shared__ T name
#endif
#ifndef SR_ASYNC_DYNAMIC
#define SR_ASYNC_DYNAMIC(name) extern __shared__ int name[]
#endif
#ifndef SR_ASYNC_PAUSE
#define SR_ASYNC_PAUSE() __nanosleep(64)
#endif
#ifndef SR_ASYNC_PREFETCH
#define SR_ASYNC_PREFETCH(p) asm volatile("prefetch.global.L1 [%0];" :: "l"(p))
#endif
#ifndef SR_ASYNC_PREFETCH_L2
#define SR_ASYNC_PREFETCH_L2(p) asm volatile("prefetch.global.L2 [%0];" :: "l"(p))
#endif
#ifndef SR_ASYNC_CLOCK
__device__ __forceinline__ long long sr_async_clock()
{
    unsigned long long t;
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
    return (long long)t;
}
#define SR_ASYNC_CLOCK() sr_async_clock()
#endif

// Grid-wide barrier of the cooperative launch (sr_grid_sync's algorithm, traverse.cu): used
// once, after the buffers are initialized.
__device__ __forceinline__ void sr_async_grid_sync(unsigned int* bar)
{
    __syncthreads();
    if (threadIdx.x == 0) {
        const unsigned int inc = blockIdx.x == 0 ? 0x80000000u - (gridDim.x - 1u) : 1u;
        __threadfence();
        const unsigned int old = atomicAdd(bar, inc);
        while (((old ^ *reinterpret_cast<volatile unsigned int*>(bar)) & 0x80000000u) == 0u) {
            SR_ASYNC_PAUSE();
        }
        __threadfence();
    }
    __syncthreads();
}

// A block's shared state. The level loop has one block barrier a level: what thread 0
// decides for the next level (messages to take, go on or not) is double-buffered by the
// level's parity, and the queues' fill counters rotate over three (level L reads cnt[L % 3],
// appends to cnt[(L + 1) % 3] and clears cnt[(L + 2) % 3], last read in level L - 1), so no
// word is rewritten before every thread has read it.
struct SrAsyncBlock {
    int q[2][SR_ASYNC_QUEUE];      // the local frontier queues (owner-local vertices)
    int cnt[3];                    // the fill counters
    int go[2];                     // 1 while the search runs (thread 0's decision)
    int idle_go;                   // the same, decided when idle
    long long take[2];             // messages to take before the level
    unsigned long long head[2];    // from this inbox position
};

template <class S>
__device__ __forceinline__ int sr_async_qget(const S& s, const int* sp, long long cap, int c, int i)
{
    return i < SR_ASYNC_QUEUE ? s.q[c][i] : sp[c * cap + i - SR_ASYNC_QUEUE];
}

// Put owner-local vertex v on queue c (fill counter k) unless it is queued already (its bit).
template <class S>
__device__ __forceinline__ void sr_async_push(S& s, int* sp, long long cap, unsigned int* bits,
                                              int c, int k, int v)
{
    const unsigned int bit = 1u << (v & 31);
    if (atomicOr(&bits[v >> 5], bit) & bit) return;
    const int pos = atomicAdd(&s.cnt[k], 1);
    if (pos < SR_ASYNC_QUEUE) s.q[c][pos] = v;
    else sp[c * cap + pos - SR_ASYNC_QUEUE] = v;
}

// Send v (another block's) with depth nd: lower dist[v] and, where that improves it and no
// message for v is outstanding, put v in its owner's inbox ring (counted in work first).
template <typename I>
__device__ __forceinline__ void sr_async_send(
    I v, int nd, long long span, long long n, int* dist, int* inq, unsigned long long* box,
    unsigned long long* tails, unsigned long long* work, long long* sent)
{
    const volatile long long* abort = reinterpret_cast<const volatile long long*>(work) + 2;
    if (*reinterpret_cast<volatile int*>(&dist[v]) <= nd) return;  // cheap filter
    const int old = atomicMin(&dist[v], nd);
    if (nd >= old) return;
    __threadfence();  // the new depth before the message flag (the owner reads it after)
    if (atomicExch(&inq[v], 1) != 0) return;  // a message for v is outstanding: it reads dist
    // counted before it is published (termination), then a slot of the owner's ring
    atomicAdd(work, 1ull);
    __threadfence();
    const long long owner = (long long)v / span;
    const long long olo = owner * span;
    const long long ocap = min(span, n - olo);
    const unsigned long long p = atomicAdd(&tails[owner], 1ull);
    const unsigned long long r = p / (unsigned long long)ocap;
    unsigned long long* slot = box + olo + (long long)(p % (unsigned long long)ocap);
    while (r > 0 && (*reinterpret_cast<volatile unsigned long long*>(slot) >> 32) != 2ull * r) {
        if (*abort) return;  // timed out: the owner may have left
        SR_ASYNC_PAUSE();  // the owner is taking the slot's previous message (round 0: free)
    }
    *reinterpret_cast<volatile unsigned long long*>(slot) =
        ((2ull * r + 1ull) << 32) | (unsigned long long)(unsigned int)((long long)v - olo);
    ++*sent;
}

// Relax edge → v with depth nd, from the block owning [lo, lo + cap): an owned v lowers its
// local depth and is queued on c; another block's lowers dist[v] and, where that improves it
// and no message for v is outstanding, is sent to its owner.
template <typename I>
__device__ __forceinline__ void sr_async_relax(
    SrAsyncBlock& s, int* sp, long long cap, unsigned int* bits, int c, int k, int* ld,
    const I* __restrict__ indptr, int use_smem,
    long long lo, long long span, long long n, I v, int nd, int* dist, int* inq,
    unsigned long long* box, unsigned long long* tails, unsigned long long* work,
    long long* sent)
{
    const long long vl = (long long)v - lo;
    if (vl >= 0 && vl < cap) {
        const int old = atomicMin(&ld[vl], nd);
        if (nd < old) {
            if (use_smem) atomicMin(&dist[v], nd);  // for other blocks' filters; result unused
            SR_ASYNC_PREFETCH(indptr + v);  // its row's bounds, for the next level
            sr_async_push(s, sp, cap, bits, c, k, (int)vl);
        }
        return;
    }
    sr_async_send<I>(v, nd, span, n, dist, inq, box, tails, work, sent);
}

template <typename I>
__global__ void __launch_bounds__(SR_ASYNC_THREADS) bfs_async(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long n, long long source,
    long long span, int* dist, int* inq, unsigned long long* box, int* spill,
    unsigned int* gbits, unsigned long long* tails, long long* ctl, long long* level,
    int use_smem, long long timeout_ns, const int* __restrict__ ell, int ellw)
{
    SR_ASYNC_SHARED(SrAsyncBlock, s);
    SR_ASYNC_DYNAMIC(sr_async_smem);
    unsigned long long* work = reinterpret_cast<unsigned long long*>(ctl);
    const int tid = threadIdx.x, lane = tid & 31;
    const long long lo = (long long)blockIdx.x * span;
    const long long cap = max(0LL, min(span, n - lo));
    const long long words = (span + 31) >> 5;
    int* ld = use_smem ? sr_async_smem : dist + lo;
    unsigned int* bits = use_smem ? reinterpret_cast<unsigned int*>(sr_async_smem + span)
                                  : gbits + (long long)blockIdx.x * words;
    int* sp = spill + 2 * lo;
    unsigned long long* mybox = box + lo;
    const long long t0 = SR_ASYNC_CLOCK();

    // every block initializes what it owns; block 0 the counters
    for (long long i = tid; i < cap; i += blockDim.x) {
        dist[lo + i] = SR_ASYNC_INF;
        inq[lo + i] = 0;
        mybox[i] = 0ull;
        if (use_smem) ld[i] = SR_ASYNC_INF;
    }
    for (long long w = tid; w < words; w += blockDim.x) bits[w] = 0u;
    if (tid == 0) {
        tails[blockIdx.x] = 0ull;
        s.cnt[0] = s.cnt[1] = 0;
        if (blockIdx.x == 0) *work = 1ull;  // the seed
    }
    sr_async_grid_sync(reinterpret_cast<unsigned int*>(ctl + 1));

    long long taken = 0;  // thread 0: messages taken and not yet released (the seed included)
    unsigned long long head = 0;  // thread 0: the inbox position taken up to
    long long sent = 0, visits = 0;
    long long L = 0;  // local levels run (the same in every thread of the block)
    if (tid == 0) {
        s.cnt[0] = s.cnt[1] = s.cnt[2] = 0;
        s.take[0] = 0;
        s.head[0] = 0ull;
        s.go[0] = 1;
        if (source >= lo && source < lo + cap) {
            ld[source - lo] = 0;
            if (use_smem) atomicMin(&dist[source], 0);
            sr_async_push(s, sp, cap, bits, 0, 0, (int)(source - lo));
            taken = 1;
        }
    }
    __syncthreads();
    while (true) {
        const int par = (int)(L & 1);
        const int ci = (int)(L % 3), cn = ci == 2 ? 0 : ci + 1, cz = cn == 2 ? 0 : cn + 1;
        if (!s.go[par]) break;
        // take the inbox's messages (at most cap: one round of the ring) onto queue par
        const long long k = s.take[par];
        if (k > 0) {
            const unsigned long long base = s.head[par];
            for (long long j = tid; j < k; j += blockDim.x) {
                const unsigned long long p = base + (unsigned long long)j;
                const unsigned long long r = p / (unsigned long long)cap;
                unsigned long long* slot = mybox + (long long)(p % (unsigned long long)cap);
                unsigned long long word;
                while (((word = *reinterpret_cast<volatile unsigned long long*>(slot)) >> 32)
                       != 2ull * r + 1ull) {
                    if (*reinterpret_cast<volatile long long*>(&ctl[2])) break;  // timed out
                    SR_ASYNC_PAUSE();  // reserved, not yet written
                }
                if ((word >> 32) != 2ull * r + 1ull) continue;  // timed out
                const int vl = (int)(unsigned int)word;
                *reinterpret_cast<volatile unsigned long long*>(slot) = (2ull * r + 2ull) << 32;
                atomicExch(&inq[lo + vl], 0);
                __threadfence();  // the flag cleared before the depth is read
                const int g = *reinterpret_cast<volatile int*>(&dist[lo + vl]);
                bool take = true;
                if (use_smem) take = g < atomicMin(&ld[vl], g);
                if (take) sr_async_push(s, sp, cap, bits, par, ci, vl);
            }
            if (tid == 0) {
                head += (unsigned long long)k;
                taken += k;
            }
            __syncthreads();
        }
        const int cnt = s.cnt[ci];
        if (cnt == 0) {  // idle: release what was taken, then wait for mail or the end
            __syncthreads();  // every thread has read this round's words
            if (tid == 0) {
                if (taken) {
                    atomicAdd(work, (unsigned long long)(-taken));
                    taken = 0;
                }
                int go = 1;
                const unsigned long long tail = *reinterpret_cast<volatile unsigned long long*>(&tails[blockIdx.x]);
                if (tail == head) {
                    if (*reinterpret_cast<volatile unsigned long long*>(work) == 0ull) go = 0;
                    else if (*reinterpret_cast<volatile long long*>(&ctl[2]) != 0) go = 0;
                    else if (SR_ASYNC_CLOCK() - t0 > timeout_ns) {
                        *reinterpret_cast<volatile long long*>(&ctl[2]) = SR_ASYNC_TIMEOUT;
                        go = 0;
                    } else {
                        SR_ASYNC_PAUSE();
                    }
                }
                s.idle_go = go;
                s.take[par] = (long long)min(tail - head, (unsigned long long)cap);
                s.head[par] = head;
            }
            __syncthreads();
            if (!s.idle_go) break;
            continue;
        }
        // one local level: relax the out-edges of queue par onto queue par ^ 1
        unsigned long long tail = 0;
        if (tid == 0) {
            s.cnt[cz] = 0;  // last read in level L - 1; appended to in level L + 1
            // the next level's tail, loaded now and used after this level's work
            tail = *reinterpret_cast<volatile unsigned long long*>(&tails[blockIdx.x]);
        }
        for (int i0 = 0; i0 < cnt; i0 += blockDim.x) {
            const int i = i0 + tid;
            long long beg = 0, end = 0;
            int nd = 0;
            if (i < cnt) {
                const int u = sr_async_qget(s, sp, cap, par, i);
                // unqueued before its depth is read: a later improvement queues it again
                atomicAnd(&bits[u >> 5], ~(1u << (u & 31)));
                __threadfence_block();
                nd = *reinterpret_cast<volatile int*>(&ld[u]) + 1;
                beg = (long long)indptr[lo + u];
                end = (long long)indptr[lo + u + 1];
                ++visits;
                const long long lim = end - beg > SR_ASYNC_LANE ? beg : end;
                for (long long e = beg; e < lim; ++e)
                    sr_async_relax<I>(s, sp, cap, bits, par ^ 1, cn, ld, indptr, use_smem, lo,
                                      span, n, indices[e], nd, dist, inq, box, tails, work, &sent);
            }
            // rows of more than SR_ASYNC_LANE edges: the warp relaxes them one at a time
            unsigned int longer = __ballot_sync(0xffffffffu, end - beg > SR_ASYNC_LANE);
            while (longer) {
                const int l = __ffs(longer) - 1;
                longer &= longer - 1u;
                const long long lb = __shfl_sync(0xffffffffu, beg, l);
                const long long le = __shfl_sync(0xffffffffu, end, l);
                const int ln = __shfl_sync(0xffffffffu, nd, l);
                for (long long e = lb + lane; e < le; e += 32)
                    sr_async_relax<I>(s, sp, cap, bits, par ^ 1, cn, ld, indptr, use_smem, lo,
                                      span, n, indices[e], ln, dist, inq, box, tails, work, &sent);
                __syncwarp();
            }
        }
        if (tid == 0) {  // the next level's words (its parity's, read after the barrier)
            const int np = par ^ 1;
            s.take[np] = (long long)min(tail - head, (unsigned long long)cap);
            s.head[np] = head;
            int go = 1;
            if ((L & 255) == 255) {  // now and then: the time limit, another block's abort
                if (SR_ASYNC_CLOCK() - t0 > timeout_ns)
                    *reinterpret_cast<volatile long long*>(&ctl[2]) = SR_ASYNC_TIMEOUT;
                if (*reinterpret_cast<volatile long long*>(&ctl[2]) != 0) go = 0;
            }
            s.go[np] = go;
        }
        ++L;
        __syncthreads();
    }
    const long long levels = L;

    // the levels of the owned vertices
    for (long long i = tid; i < cap; i += blockDim.x) {
        const int d = use_smem ? ld[i] : *reinterpret_cast<volatile int*>(&dist[lo + i]);
        level[lo + i] = d == SR_ASYNC_INF ? -1 : (long long)d;
    }
    if (tid == 0) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[3]), (unsigned long long)levels);
    // per-thread counters summed (statistics only)
    if (sent) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[4]), (unsigned long long)sent);
    if (visits) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[5]), (unsigned long long)visits);
}

// ---------------------------------------------------------------------------------------------
// bfs_async_cw: the same search with the messages off the levels' path. A block's last warp is
// its communication warp; the others (the compute warps) run the local levels, with a named
// barrier of their own (barrier 1) between levels. An edge to another block's vertex is put
// in the block's outbox (shared memory) and the communication warp sends it (the global
// atomics of sr_async_send, a few round trips to L2 each); the same warp takes the inbox's
// messages, merges their depths into the block's and puts the improved vertices in the
// mailbox (shared memory), which the compute warps drain onto their queue before a level. So a
// local level costs its own loads and one barrier, whatever the block sends or receives.
//
// The block releases the messages it took (work) only when the compute warps are idle (their
// queue empty: compute_idle, written by their thread 0 after its barrier, so after every
// outbox entry of their last level), the mailbox is empty and the outbox is sent. The
// communication warp reads mb_head before compute_idle and compute_idle before ob_res, the
// compute thread 0 writes compute_idle = 0 (on mail) before advancing mb_head: a drain in
// flight or an unsent entry is always seen.
// 1: the compute warps publish the owned depths they lower to dist (a global atomic min whose
// result is unused), so that a neighbour's filter drops a relaxation that would not improve;
// 0: they do not, and the communication warp drops such messages on arrival. On an H100
// (bench/probes/bfs_async_probe.py --ab, the 2048² grid) 9.89 ms with against 9.84 ms
// without, but 188 000 messages and 1.05 n vertex visits against 704 000 and 1.32 n; on an
// H200 with padded rows and groups (road_ratio_probe.py) 5.46 against 5.33 ms (254 000 and
// 543 000 messages), in a build since changed: not clearly faster, so 1 stays.
#ifndef SR_ASYNC_PUBLISH
#define SR_ASYNC_PUBLISH 1
#endif
#ifndef SR_ASYNC_OUTBOX
#define SR_ASYNC_OUTBOX 1024
#endif
#ifndef SR_ASYNC_MAILBOX
#define SR_ASYNC_MAILBOX 2048
#endif
// Threads of the compute warps that expand one queued vertex together (1, 2, 4, 8, ... 32):
// its leader unqueues it and reads its depth (and row bounds), then each thread relaxes every
// G-th edge of the row, so a level's chain holds one edge's shared-memory atomics instead of
// a row's (a grid's rows have 4 edges). On an H200 (bench/probes/road_ratio_probe.py, the
// 2048² grid, CSR rows) 6.17 ms with 4 against 10.03 ms with 1; with padded rows of width 4,
// 4.83 against 6.92 ms.
#ifndef SR_ASYNC_GROUP
#define SR_ASYNC_GROUP 4
#endif
// 1: the mail that arrived during a local level is put on the next level's queue at the
// level's end (by the first compute warp) instead of by every compute thread before the next
// level (a second barrier). On an H200 (the 2048² grid, 0.14 drains a level) 5.49 against
// 5.46 ms: no gain there, so 0.
#ifndef SR_ASYNC_MAIL_AT_END
#define SR_ASYNC_MAIL_AT_END 0
#endif
// 1: a level's group is the largest power of two up to SR_ASYNC_GROUP whose groups cover its
// queue in one pass (for wide fronts; the grid's, 18 vertices a level, never narrow it).
// Not measured on a GPU; 0.
#ifndef SR_ASYNC_GROUP_ADAPT
#define SR_ASYNC_GROUP_ADAPT 0
#endif
// 1: the compute warps' thread 0 records where a block's time goes (a probe's build): words
// ctl[SR_ASYNC_CTL + SR_ASYNC_TRACE_WORDS * block + j], see the kernel's trace points.
#ifndef SR_ASYNC_TRACE
#define SR_ASYNC_TRACE 0
#endif
#define SR_ASYNC_TRACE_WORDS 16
#if SR_ASYNC_TRACE
// Per block (compute thread 0, summed over its non-empty local levels; cycles of its SM's
// clock, times of %globaltimer): [0] first level's start (ns), [1] last level's end (ns),
// [2] levels, [3] mailbox drains' cycles, [4] drains, [5] head cycles (queue slot to row
// bounds), [6] edge cycles (its row's relaxations), [7] barrier cycles (waiting for the
// level's slowest thread), [8] level cycles in all, [9] clock at [0], [10] clock at [1],
// [11] the rest (long rows, further passes, the next level's words), [12] queue items.
#define SR_ASYNC_TRACE_DECL long long tr[SR_ASYNC_TRACE_WORDS] = {0}, tr_top = 0, tr_h0 = 0, tr_h = 0, tr_e = 0, tr_t = 0, tr_sink = 0
#define SR_ASYNC_TRACE_TOP() do { if (tid == 0) tr_top = clock64(); } while (0)
#define SR_ASYNC_TRACE_DRAIN() do { if (tid == 0) { tr[3] += clock64() - tr_top; ++tr[4]; } } while (0)
#define SR_ASYNC_TRACE_POINT(x) do { if (tid == 0) { tr_h0 = clock64(); if (tr[2] == 0) { tr[0] = SR_ASYNC_CLOCK(); tr[9] = tr_h0; } tr[12] += cnt; } } while (0)
#define SR_ASYNC_TRACE_HEAD(b, e) do { if (tid == 0 && i0 == 0) { asm volatile("add.s64 %0, %1, %2;" : "=l"(tr_sink) : "l"((long long)(b)), "l"((long long)(e))); tr_h = clock64(); } } while (0)
#define SR_ASYNC_TRACE_EDGES() do { if (tid == 0 && i0 == 0) tr_e = clock64(); } while (0)
#define SR_ASYNC_TRACE_TAIL() do { if (tid == 0) tr_t = clock64(); } while (0)
#define SR_ASYNC_TRACE_BAR() do { if (tid == 0) { const long long c = clock64(); tr[5] += tr_h - tr_h0; tr[6] += tr_e - tr_h; tr[7] += c - tr_t; tr[8] += c - tr_top; tr[11] += tr_t - tr_e; ++tr[2]; tr[1] = SR_ASYNC_CLOCK(); tr[10] = c; } } while (0)
#define SR_ASYNC_TRACE_STORE() do { if (tid == 0) for (int j = 0; j < SR_ASYNC_TRACE_WORDS; ++j) ctl[SR_ASYNC_CTL + SR_ASYNC_TRACE_WORDS * (long long)blockIdx.x + j] = tr[j]; } while (0)
#else
#define SR_ASYNC_TRACE_DECL
#define SR_ASYNC_TRACE_TOP() ((void)0)
#define SR_ASYNC_TRACE_DRAIN() ((void)0)
#define SR_ASYNC_TRACE_POINT(x) ((void)0)
#define SR_ASYNC_TRACE_HEAD(b, e) ((void)0)
#define SR_ASYNC_TRACE_EDGES() ((void)0)
#define SR_ASYNC_TRACE_TAIL() ((void)0)
#define SR_ASYNC_TRACE_BAR() ((void)0)
#define SR_ASYNC_TRACE_STORE() ((void)0)
#endif

#ifndef SR_ASYNC_COMPUTE_SYNC
#define SR_ASYNC_COMPUTE_SYNC(nthreads) asm volatile("bar.sync 1, %0;" :: "r"(nthreads) : "memory")
#endif

struct SrAsyncCw {
    int q[2][SR_ASYNC_QUEUE];          // the local frontier queues
    int cnt[3];                        // their fill counters (rotating, as in SrAsyncBlock)
    int go[2];                         // compute: 1 while the search runs (by parity)
    int idle_go;                       // compute: the same, decided when idle
    int take[2];                       // compute: mailbox entries to drain before the level
    unsigned int mhead[2];             // compute: from this mailbox position
    long long ob_v[SR_ASYNC_OUTBOX];   // outbox: (vertex, depth) for other blocks
    int ob_d[SR_ASYNC_OUTBOX];
    unsigned int ob_seq[SR_ASYNC_OUTBOX];  // p + 1 once entry p is written
    unsigned int ob_res;               // outbox entries reserved (compute)
    unsigned int ob_cons;              // outbox entries consumed (communication warp)
    int mb[SR_ASYNC_MAILBOX];          // mailbox: owner-local vertices improved by messages
    unsigned int mb_tail;              // written by the communication warp
    unsigned int mb_head;              // written by compute thread 0
    int compute_idle;                  // compute thread 0: its queue and the mailbox were empty
    int stop;                          // communication warp: the search is over
};

// Relax edge → v with depth nd in the compute warps of bfs_async_cw: an owned v as in
// sr_async_relax, another block's into the outbox (waiting while it is full: the
// communication warp empties it).
template <typename I>
__device__ __forceinline__ void sr_cw_relax(
    SrAsyncCw& s, int* sp, long long cap, unsigned int* bits, int c, int k, int* ld,
    const I* __restrict__ indptr, const I* __restrict__ indices, const int* __restrict__ ell,
    int ellw, int use_smem, long long lo, I v, int nd, int* dist)
{
    const long long vl = (long long)v - lo;
    if (vl >= 0 && vl < cap) {
        const int old = atomicMin(&ld[vl], nd);
        if (nd < old) {
            if (SR_ASYNC_PUBLISH && use_smem) atomicMin(&dist[v], nd);  // for the filters
            // its row (padded: no row pointer to wait for; else its bounds) for the next level.
            // Prefetching the padded rows 8 or 16 vertices on either side into L2 as well did
            // not help on an H200 (the 2048² grid: 4.92 / 4.90 against 4.83 ms).
            SR_ASYNC_PREFETCH(ellw ? static_cast<const void*>(ell + (long long)v * ellw)
                                   : static_cast<const void*>(indptr + v));
            sr_async_push(s, sp, cap, bits, c, k, (int)vl);
        }
        return;
    }
    const unsigned int p = atomicAdd(&s.ob_res, 1u);
    while (p - *reinterpret_cast<volatile unsigned int*>(&s.ob_cons) >= (unsigned int)SR_ASYNC_OUTBOX) {
        if (*reinterpret_cast<volatile int*>(&s.stop)) return;  // timed out: nobody sends it
        SR_ASYNC_PAUSE();
    }
    const int slot = (int)(p % SR_ASYNC_OUTBOX);
    s.ob_v[slot] = (long long)v;
    s.ob_d[slot] = nd;
    __threadfence_block();
    *reinterpret_cast<volatile unsigned int*>(&s.ob_seq[slot]) = p + 1u;
}

template <typename I>
__global__ void __launch_bounds__(SR_ASYNC_THREADS) bfs_async_cw(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long n, long long source,
    long long span, int* dist, int* inq, unsigned long long* box, int* spill,
    unsigned int* gbits, unsigned long long* tails, long long* ctl, long long* level,
    int use_smem, long long timeout_ns, const int* __restrict__ ell, int ellw)
{
    SR_ASYNC_SHARED(SrAsyncCw, s);
    SR_ASYNC_DYNAMIC(sr_async_smem);
    unsigned long long* work = reinterpret_cast<unsigned long long*>(ctl);
    const int tid = threadIdx.x, lane = tid & 31;
    const int nc = (int)blockDim.x - 32;  // compute threads; the last warp communicates
    const long long lo = (long long)blockIdx.x * span;
    const long long cap = max(0LL, min(span, n - lo));
    const long long words = (span + 31) >> 5;
    int* ld = use_smem ? sr_async_smem : dist + lo;
    unsigned int* bits = use_smem ? reinterpret_cast<unsigned int*>(sr_async_smem + span)
                                  : gbits + (long long)blockIdx.x * words;
    int* sp = spill + 2 * lo;
    unsigned long long* mybox = box + lo;
    const long long t0 = SR_ASYNC_CLOCK();
    const bool owns_source = source >= lo && source < lo + cap;

    for (long long i = tid; i < cap; i += blockDim.x) {
        dist[lo + i] = SR_ASYNC_INF;
        inq[lo + i] = 0;
        mybox[i] = 0ull;
        if (use_smem) ld[i] = SR_ASYNC_INF;
    }
    for (long long w = tid; w < words; w += blockDim.x) bits[w] = 0u;
    for (int i = tid; i < SR_ASYNC_OUTBOX; i += blockDim.x) s.ob_seq[i] = 0u;
    // the range's row bounds into L2 (a line a thread): each level's first load then hits
    for (long long i = (long long)tid * (128 / sizeof(I)); i <= cap; i += (long long)blockDim.x * (128 / sizeof(I)))
        SR_ASYNC_PREFETCH_L2(indptr + lo + i);
    if (tid == 0) {
        tails[blockIdx.x] = 0ull;
        s.cnt[0] = s.cnt[1] = s.cnt[2] = 0;
        s.go[0] = 1;
        s.take[0] = 0;
        s.mhead[0] = 0u;
        s.ob_res = s.ob_cons = 0u;
        s.mb_tail = s.mb_head = 0u;
        s.compute_idle = 0;
        s.stop = 0;
        if (blockIdx.x == 0) *work = 1ull;  // the seed
    }
    sr_async_grid_sync(reinterpret_cast<unsigned int*>(ctl + 1));
    if (tid == 0 && owns_source) {
        ld[source - lo] = 0;
        if (use_smem) atomicMin(&dist[source], 0);
        sr_async_push(s, sp, cap, bits, 0, 0, (int)(source - lo));
    }
    __syncthreads();

    long long L = 0, sent = 0, visits = 0;
    if (tid >= nc) {
        // ---- the communication warp
        unsigned int cons = 0u, mbt = 0u;
        unsigned long long head = 0ull;
        long long taken = owns_source ? 1 : 0;  // the seed is this block's to release
        unsigned int spins = 0u;
        while (true) {
            bool did = false;
            // the outbox: up to 32 entries, one a lane
            // the warp's decisions are taken on words lane 0 reads (the same in every lane)
            unsigned int res = 0u, mbh = 0u;
            if (lane == 0) {
                res = *reinterpret_cast<volatile unsigned int*>(&s.ob_res);
                mbh = *reinterpret_cast<volatile unsigned int*>(&s.mb_head);
            }
            res = __shfl_sync(0xffffffffu, res, 0);
            mbh = __shfl_sync(0xffffffffu, mbh, 0);
            const unsigned int no = min(res - cons, 32u);
            if (no > 0u) {
                if ((unsigned int)lane < no) {
                    const unsigned int p = cons + (unsigned int)lane;
                    const int slot = (int)(p % SR_ASYNC_OUTBOX);
                    while (*reinterpret_cast<volatile unsigned int*>(&s.ob_seq[slot]) != p + 1u) {
                        SR_ASYNC_PAUSE();  // reserved, not yet written (by a compute thread)
                    }
                    __threadfence_block();
                    const I v = (I)*reinterpret_cast<volatile long long*>(&s.ob_v[slot]);
                    const int nd = *reinterpret_cast<volatile int*>(&s.ob_d[slot]);
                    sr_async_send<I>(v, nd, span, n, dist, inq, box, tails, work, &sent);
                }
                __syncwarp();
                cons += no;
                if (lane == 0) *reinterpret_cast<volatile unsigned int*>(&s.ob_cons) = cons;
                did = true;
            }
            // the inbox: up to 32 messages, while the mailbox has room for them
            if (cap > 0 && SR_ASYNC_MAILBOX - (mbt - mbh) >= 32u) {
                unsigned long long t = 0ull;
                if (lane == 0) t = *reinterpret_cast<volatile unsigned long long*>(&tails[blockIdx.x]);
                t = __shfl_sync(0xffffffffu, t, 0);
                const long long k = (long long)min(min(t - head, 32ull), (unsigned long long)cap);
                if (k > 0) {
                    bool improved = false;
                    int vl = 0;
                    if (lane < k) {
                        const unsigned long long p = head + (unsigned long long)lane;
                        const unsigned long long r = p / (unsigned long long)cap;
                        unsigned long long* slot = mybox + (long long)(p % (unsigned long long)cap);
                        unsigned long long word;
                        while (((word = *reinterpret_cast<volatile unsigned long long*>(slot)) >> 32)
                               != 2ull * r + 1ull) {
                            if (*reinterpret_cast<volatile long long*>(&ctl[2])) break;  // timed out
                            SR_ASYNC_PAUSE();  // reserved, not yet written
                        }
                        if ((word >> 32) == 2ull * r + 1ull) {
                            vl = (int)(unsigned int)word;
                            *reinterpret_cast<volatile unsigned long long*>(slot) = (2ull * r + 2ull) << 32;
                            atomicExch(&inq[lo + vl], 0);
                            __threadfence();  // the flag cleared before the depth is read
                            const int g = *reinterpret_cast<volatile int*>(&dist[lo + vl]);
                            improved = use_smem ? g < atomicMin(&ld[vl], g) : true;
                        }
                    }
                    const unsigned int want = __ballot_sync(0xffffffffu, improved);
                    if (improved)
                        s.mb[(mbt + (unsigned int)__popc(want & ((1u << lane) - 1u))) % SR_ASYNC_MAILBOX] = vl;
                    __threadfence_block();
                    __syncwarp();
                    mbt += (unsigned int)__popc(want);
                    if (lane == 0) *reinterpret_cast<volatile unsigned int*>(&s.mb_tail) = mbt;
                    head += (unsigned long long)k;
                    taken += k;
                    did = true;
                }
            }
            int stop = 0;
            if (!did) {
                if (lane == 0) {
                    // idle everywhere in the block? (read in the order the writers write)
                    const unsigned int h1 = *reinterpret_cast<volatile unsigned int*>(&s.mb_head);
                    __threadfence_block();
                    const int ci = *reinterpret_cast<volatile int*>(&s.compute_idle);
                    __threadfence_block();
                    const unsigned int r2 = *reinterpret_cast<volatile unsigned int*>(&s.ob_res);
                    if (ci && h1 == mbt && r2 == cons) {
                        if (taken) {
                            atomicAdd(work, (unsigned long long)(-taken));
                            taken = 0;
                        }
                        const unsigned long long t = *reinterpret_cast<volatile unsigned long long*>(&tails[blockIdx.x]);
                        if (t == head && *reinterpret_cast<volatile unsigned long long*>(work) == 0ull)
                            stop = 1;
                    }
                }
                SR_ASYNC_PAUSE();
            }
            if (lane == 0 && (++spins & 1023u) == 0u) {  // now and then: the time limit
                if (SR_ASYNC_CLOCK() - t0 > timeout_ns)
                    *reinterpret_cast<volatile long long*>(&ctl[2]) = SR_ASYNC_TIMEOUT;
                if (*reinterpret_cast<volatile long long*>(&ctl[2]) != 0) stop = 1;
            }
            stop = __shfl_sync(0xffffffffu, stop, 0);
            taken = __shfl_sync(0xffffffffu, taken, 0);
            if (stop) {
                if (lane == 0) *reinterpret_cast<volatile int*>(&s.stop) = 1;
                break;
            }
        }
    } else {
        // ---- the compute warps: local levels, a named barrier between them
        unsigned int mhl = 0u;  // thread 0: the mailbox position drained up to
        SR_ASYNC_TRACE_DECL;
        while (true) {
            const int par = (int)(L & 1);
            const int ci = (int)(L % 3), cn = ci == 2 ? 0 : ci + 1, cz = cn == 2 ? 0 : cn + 1;
            if (!s.go[par]) break;
            SR_ASYNC_TRACE_TOP();
            const int k = s.take[par];
            if (k > 0) {  // the mailbox onto queue par
                const unsigned int base = s.mhead[par];
                for (int j = tid; j < k; j += nc)
                    sr_async_push(s, sp, cap, bits, par, ci,
                                  *reinterpret_cast<volatile int*>(&s.mb[(base + (unsigned int)j) % SR_ASYNC_MAILBOX]));
                SR_ASYNC_COMPUTE_SYNC(nc);
                if (tid == 0) {
                    mhl = base + (unsigned int)k;
                    __threadfence_block();
                    *reinterpret_cast<volatile unsigned int*>(&s.mb_head) = mhl;
                }
                SR_ASYNC_TRACE_DRAIN();
            }
            const int cnt = s.cnt[ci];
            if (cnt == 0) {  // idle: say so, then wait for mail or the end
                SR_ASYNC_COMPUTE_SYNC(nc);  // every compute thread has read this round's words
                if (tid == 0) {
                    __threadfence_block();
                    *reinterpret_cast<volatile int*>(&s.compute_idle) = 1;
                    __threadfence_block();
                    const unsigned int t = *reinterpret_cast<volatile unsigned int*>(&s.mb_tail);
                    if (t != mhl) {  // mail: busy again before the drain moves mb_head
                        *reinterpret_cast<volatile int*>(&s.compute_idle) = 0;
                        __threadfence_block();
                    }
                    const int go = *reinterpret_cast<volatile int*>(&s.stop) == 0;
                    s.idle_go = go;
                    s.take[par] = (int)(t - mhl);
                    s.mhead[par] = mhl;
                    if (go && t == mhl) SR_ASYNC_PAUSE();
                }
                SR_ASYNC_COMPUTE_SYNC(nc);
                if (!s.idle_go) break;
                continue;
            }
            if (tid == 0) s.cnt[cz] = 0;  // last read in level L - 1
            // the level's group size: SR_ASYNC_GROUP, or with SR_ASYNC_GROUP_ADAPT the largest
            // power of two up to it whose groups cover the queue in one pass (a wide level
            // is better served a thread a vertex than in several passes)
            int G = SR_ASYNC_GROUP;
            if (SR_ASYNC_GROUP_ADAPT)
                while (G > 1 && (long long)cnt * G > nc) G >>= 1;
            const int g = tid & (G - 1), leader = lane & ~(G - 1), gs = __ffs(G) - 1;
            SR_ASYNC_TRACE_POINT(head0);
            for (int i0 = 0; i0 < cnt; i0 += nc >> gs) {
                const int i = i0 + (tid >> gs);
                long long beg = 0, end = 0;
                int nd = 0, u = 0;
                if (g == 0 && i < cnt) {
                    u = sr_async_qget(s, sp, cap, par, i);
                    atomicAnd(&bits[u >> 5], ~(1u << (u & 31)));
                    __threadfence_block();
                    nd = *reinterpret_cast<volatile int*>(&ld[u]) + 1;
                    if (!ellw) {
                        beg = (long long)indptr[lo + u];
                        end = (long long)indptr[lo + u + 1];
                    }
                    ++visits;
                }
                if (G > 1) {  // the leader's vertex to its group
                    u = __shfl_sync(0xffffffffu, u, leader);
                    beg = __shfl_sync(0xffffffffu, beg, leader);
                    end = __shfl_sync(0xffffffffu, end, leader);
                    nd = __shfl_sync(0xffffffffu, nd, leader);
                }
                unsigned int longer;
                if (ellw) {
                    // the padded row: its columns, -1 past its end, -2 in its last slot where
                    // the row goes on (the rest from its CSR row, by the warp below)
                    SR_ASYNC_TRACE_HEAD(nd, u);
                    if (i < cnt) {
                        const int* row = ell + (lo + u) * (long long)ellw;
                        for (int j = g; j < ellw; j += G) {
                            const int c = row[j];
                            if (c >= 0) {
                                sr_cw_relax<I>(s, sp, cap, bits, par ^ 1, cn, ld, indptr, indices,
                                               ell, ellw, use_smem, lo, (I)c, nd, dist);
                            } else if (c == -2) {
                                beg = (long long)indptr[lo + u] + ellw - 1;
                                end = (long long)indptr[lo + u + 1];
                            }
                        }
                    }
                    longer = __ballot_sync(0xffffffffu, end > beg);  // the lane that met -2
                } else {
                    SR_ASYNC_TRACE_HEAD(beg, end);
                    const long long lim = end - beg > SR_ASYNC_LANE ? beg : end;
                    // rows up to SR_ASYNC_LANE edges by their group, longer ones by the warp
                    longer = __ballot_sync(0xffffffffu, g == 0 && end - beg > SR_ASYNC_LANE);
                    for (long long e = beg + g; e < lim; e += G)
                        sr_cw_relax<I>(s, sp, cap, bits, par ^ 1, cn, ld, indptr, indices, ell,
                                       ellw, use_smem, lo, indices[e], nd, dist);
                }
                SR_ASYNC_TRACE_EDGES();
                while (longer) {
                    const int l = __ffs(longer) - 1;
                    longer &= longer - 1u;
                    const long long lb = __shfl_sync(0xffffffffu, beg, l);
                    const long long le = __shfl_sync(0xffffffffu, end, l);
                    const int ln = __shfl_sync(0xffffffffu, nd, l);
                    for (long long e = lb + lane; e < le; e += 32)
                        sr_cw_relax<I>(s, sp, cap, bits, par ^ 1, cn, ld, indptr, indices, ell,
                                       ellw, use_smem, lo, indices[e], ln, dist);
                    __syncwarp();
                }
            }
            if (SR_ASYNC_MAIL_AT_END && tid < 32) {
                // the mail that came during the level straight onto the next level's queue
                // (the first warp, after its own relaxations; the others push there too, by
                // the same atomics), so the next level needs no drain of its own and no
                // second barrier; the block is busy (compute_idle 0) while it does
                unsigned int t = 0u;
                if (lane == 0) t = *reinterpret_cast<volatile unsigned int*>(&s.mb_tail);
                t = __shfl_sync(0xffffffffu, t, 0);
                const unsigned int h = __shfl_sync(0xffffffffu, mhl, 0);
                for (unsigned int j = h + (unsigned int)lane; j < t; j += 32u)
                    sr_async_push(s, sp, cap, bits, par ^ 1, cn,
                                  *reinterpret_cast<volatile int*>(&s.mb[j % SR_ASYNC_MAILBOX]));
                __syncwarp();
                if (lane == 0 && t != h) {
                    mhl = t;
                    __threadfence_block();  // the entries read before their slots are freed
                    *reinterpret_cast<volatile unsigned int*>(&s.mb_head) = mhl;
                }
            }
            if (tid == 0) {  // the next level's words (its parity's, read after the barrier)
                const int np = par ^ 1;
                const unsigned int t = *reinterpret_cast<volatile unsigned int*>(&s.mb_tail);
                s.take[np] = (int)(t - mhl);
                s.mhead[np] = mhl;
                s.go[np] = *reinterpret_cast<volatile int*>(&s.stop) == 0;
            }
            SR_ASYNC_TRACE_TAIL();
            ++L;
            SR_ASYNC_COMPUTE_SYNC(nc);
            SR_ASYNC_TRACE_BAR();
        }
        SR_ASYNC_TRACE_STORE();
    }
    __syncthreads();
    for (long long i = tid; i < cap; i += blockDim.x) {
        const int d = use_smem ? ld[i] : *reinterpret_cast<volatile int*>(&dist[lo + i]);
        level[lo + i] = d == SR_ASYNC_INF ? -1 : (long long)d;
    }
    if (tid == 0) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[3]), (unsigned long long)L);
    if (sent) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[4]), (unsigned long long)sent);
    if (visits) atomicAdd(reinterpret_cast<unsigned long long*>(&ctl[5]), (unsigned long long)visits);
}

// The padded rows of bfs_async_cw (its ellw > 0): ell[v * w + j] is v's j-th column for j
// below its out-degree, -1 past it; a row of more than w columns keeps its first w - 1 and -2
// in its last slot (the kernel reads the rest from the CSR row). A level then loads a row
// without waiting for its row pointer, and a queued vertex's row can be prefetched at once.
// Column ids fit an int (the launcher's condition).
template <typename I>
__global__ void bfs_async_ell(const I* __restrict__ indptr, const I* __restrict__ indices,
                              long long n, int w, int* ell)
{
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long t = (long long)blockIdx.x * blockDim.x + threadIdx.x; t < n * w; t += stride) {
        const long long v = t / w;
        const int j = (int)(t - v * w);
        const long long beg = (long long)indptr[v], deg = (long long)indptr[v + 1] - beg;
        int c = -1;
        if (j < deg) c = deg > w && j == w - 1 ? -2 : (int)indices[beg + j];
        ell[t] = c;
    }
}

// A BFS tree from final levels (a second pass): parent[v] = the first in-neighbour u of v (in
// row order of Aᵀ, sorted: the smallest) with level[u] = level[v] - 1; parent[source] =
// source; -1 where unreached. One thread a vertex for short rows, the warp for long ones.
template <typename I>
__global__ void bfs_parents_of_levels(const I* __restrict__ tindptr,
                                      const I* __restrict__ tindices,
                                      const long long* __restrict__ level, long long n,
                                      long long* parent)
{
    const int lane = threadIdx.x & 31;
    const long long stride = (long long)gridDim.x * blockDim.x;
    for (long long v0 = (long long)blockIdx.x * blockDim.x; v0 < n; v0 += stride) {
        const long long v = v0 + threadIdx.x;
        long long lv = -1, beg = 0, end = 0, par = -1;
        if (v < n) {
            lv = level[v];
            if (lv == 0) par = v;
            if (lv > 0) {
                beg = (long long)tindptr[v];
                end = (long long)tindptr[v + 1];
                const long long lim = min(end, beg + SR_ASYNC_LANE);
                for (; beg < lim; ++beg) {
                    const long long u = (long long)tindices[beg];
                    if (level[u] == lv - 1) { par = u; break; }
                }
            }
        }
        unsigned int longer = __ballot_sync(0xffffffffu, lv > 0 && par < 0 && beg < end);
        while (longer) {
            const int l = __ffs(longer) - 1;
            longer &= longer - 1u;
            const long long lb = __shfl_sync(0xffffffffu, beg, l);
            const long long le = __shfl_sync(0xffffffffu, end, l);
            const long long want = __shfl_sync(0xffffffffu, lv, l) - 1;
            for (long long e0 = lb; e0 < le; e0 += 32) {
                const long long e = e0 + lane;
                long long u = 0;
                bool hit = false;
                if (e < le) {
                    u = (long long)tindices[e];
                    hit = level[u] == want;
                }
                const unsigned int h = __ballot_sync(0xffffffffu, hit);
                if (h) {
                    const long long pu = __shfl_sync(0xffffffffu, u, __ffs(h) - 1);
                    if (lane == l) par = pu;
                    break;
                }
            }
        }
        if (v < n) parent[v] = par;
    }
}
