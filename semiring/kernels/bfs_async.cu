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

__device__ __forceinline__ int sr_async_qget(const SrAsyncBlock& s, const int* sp, long long cap,
                                             int c, int i)
{
    return i < SR_ASYNC_QUEUE ? s.q[c][i] : sp[c * cap + i - SR_ASYNC_QUEUE];
}

// Put owner-local vertex v on queue c (fill counter k) unless it is queued already (its bit).
__device__ __forceinline__ void sr_async_push(SrAsyncBlock& s, int* sp, long long cap,
                                              unsigned int* bits, int c, int k, int v)
{
    const unsigned int bit = 1u << (v & 31);
    if (atomicOr(&bits[v >> 5], bit) & bit) return;
    const int pos = atomicAdd(&s.cnt[k], 1);
    if (pos < SR_ASYNC_QUEUE) s.q[c][pos] = v;
    else sp[c * cap + pos - SR_ASYNC_QUEUE] = v;
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
    while ((*reinterpret_cast<volatile unsigned long long*>(slot) >> 32) != 2ull * r) {
        SR_ASYNC_PAUSE();  // the owner is taking the slot's previous message
    }
    *reinterpret_cast<volatile unsigned long long*>(slot) =
        ((2ull * r + 1ull) << 32) | (unsigned long long)(unsigned int)((long long)v - olo);
    ++*sent;
}

template <typename I>
__global__ void __launch_bounds__(SR_ASYNC_THREADS) bfs_async(
    const I* __restrict__ indptr, const I* __restrict__ indices, long long n, long long source,
    long long span, int* dist, int* inq, unsigned long long* box, int* spill,
    unsigned int* gbits, unsigned long long* tails, long long* ctl, long long* level,
    int use_smem, long long timeout_ns)
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
                    SR_ASYNC_PAUSE();  // reserved, not yet written
                }
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
