"""CPU BFS levels on a rank's vertex block: NumPy twins of ``kernels/blocks.cu`` (the same
send buffer, bitmap words and results), the reference the GPU's kernels are tested against.
Called by :mod:`semiring.blocks`, which validates the operands."""

from __future__ import annotations

import numpy as np

HEAD = 4


def read_spans(got, spans):
    """The column spans ``[(start, count), ...]`` of every row of ``got``, side by side."""
    return np.concatenate([got[:, a:a + k] for a, k in spans], axis=1)


def _bits_of(fbits, u):
    return ((fbits[u >> 5] >> (u & 31).astype(np.uint32)) & np.uint32(1)).astype(bool)


def _commit(js, src, level, depth, deg, out, shift, parent):
    """level⟨q⟩ = depth ; parent⟨q⟩ = src ; the bits and counts of q = js (distinct)."""
    level[js] = depth
    if parent is not None:
        parent[js] = src
    bit = js + shift
    words = out[HEAD:]
    np.bitwise_or.at(words, bit >> 5, (np.uint32(1) << (bit & 31).astype(np.uint32)))
    head = out[:HEAD].view(np.uint64)
    head[0] += np.uint64(js.size)
    head[1] += np.uint64(int(deg[js].sum()) if js.size else 0)


def bfs_pull(BT, fbits, level, depth, deg, out, shift, parent, mode):
    indptr, indices = BT.indptr.astype(np.int64), BT.indices.astype(np.int64)
    cand = np.flatnonzero((level < 0) & (np.diff(indptr) > 0))
    if cand.size == 0:
        return
    starts, ends = indptr[cand], indptr[cand + 1]
    lens = ends - starts
    rows = np.repeat(np.arange(cand.size), lens)
    pos = np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(starts, lens)
    u = indices[pos]
    hit = _bits_of(fbits, u)
    # each row's first hit (rows ascending: its smallest in-neighbour on the frontier)
    big = np.iinfo(np.int64).max
    first = np.full(cand.size, big, dtype=np.int64)
    np.minimum.at(first, rows[hit], u[hit])
    got = first != big
    _commit(cand[got], first[got], level, depth, deg, out, shift, parent)


def bfs_push(B, frontier, lens, level, depth, deg, out, shift, parent, mode):
    if frontier.size == 0 or B.ncols == 0:
        return
    indptr, indices = B.indptr.astype(np.int64), B.indices.astype(np.int64)
    starts = indptr[frontier]
    lens = indptr[frontier + 1] - starts
    src = np.repeat(frontier, lens)
    pos = np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(starts, lens)
    v = indices[pos]
    new = level[v] < 0
    v, src = v[new], src[new]
    if v.size == 0:
        return
    # the smallest frontier in-neighbour of each new vertex (any in-neighbour: this one too)
    order = np.lexsort((src, v))
    v, src = v[order], src[order]
    keep = np.r_[True, v[1:] != v[:-1]]
    _commit(v[keep], src[keep], level, depth, deg, out, shift, parent)


def join_bits(got, wlo, wn, nwords):
    fbits = np.zeros(nwords, dtype=np.uint32)
    for p in range(got.shape[0]):
        a, k = int(wlo[p]), int(wn[p])
        fbits[a:a + k] |= got[p, HEAD:HEAD + k]
    return fbits


def bits_list(B, fbits, size):
    bits = np.unpackbits(fbits.view(np.uint8), bitorder="little")
    lst = np.flatnonzero(bits).astype(np.int64)
    indptr = B.indptr.astype(np.int64)
    return lst, indptr[lst + 1] - indptr[lst]


def component_roots(labels):
    n = labels.size
    first = np.full(n, n, dtype=np.int64)
    np.minimum.at(first, labels.astype(np.int64), np.arange(n, dtype=np.int64))
    return first[labels]


def _edges(indptr, rows):
    starts = indptr[rows]
    lens = indptr[rows + 1] - starts
    pos = np.arange(lens.sum()) - np.repeat(np.cumsum(lens) - lens, lens) + np.repeat(starts, lens)
    return np.repeat(np.arange(rows.size), lens), pos


def _weights(w, wstride, pos):
    return w[pos * wstride] if wstride else np.broadcast_to(w[0], pos.shape)


def _lower(d, lo, js, cand, out, shift, count_new):
    """d[lo + js] = min(d[lo + js], cand) per vertex; the lowered ones' bits and count."""
    if js.size == 0:
        return
    best = np.full(d.size, np.inf if d.dtype.kind == "f" else np.iinfo(d.dtype).max, d.dtype)
    np.minimum.at(best, lo + js, cand.astype(d.dtype, copy=False))
    tgt = np.unique(lo + js)
    low = tgt[best[tgt] < d[tgt]]
    d[low] = best[low]
    bit = low - lo + shift
    words = out[HEAD:]
    m = np.uint32(1) << (bit & 31).astype(np.uint32)
    fresh = (words[bit >> 5] & m) == 0
    np.bitwise_or.at(words, bit >> 5, m)
    out[:HEAD].view(np.uint64)[0] += np.uint64(int(fresh.sum()) if count_new else low.size)


def mirrored(B, BT, lo, hi):
    n = B.nrows
    bl = np.diff(B.indptr.astype(np.int64))
    tl = np.zeros(n, dtype=np.int64)
    tl[lo:hi] = np.diff(BT.indptr.astype(np.int64))
    ptr = np.zeros(n + 1, dtype=np.int64)
    np.cumsum(bl + tl, out=ptr[1:])
    idx = np.empty(B.nvals + BT.nvals, dtype=B.itype)
    # B's entries first in each row, then Bᵀ's
    pb = np.arange(B.nvals) - np.repeat(B.indptr[:-1].astype(np.int64), bl) + np.repeat(ptr[:-1], bl)
    idx[pb] = B.indices.astype(np.int64) + lo
    tlen = tl[lo:hi]
    pt = (np.arange(BT.nvals) - np.repeat(BT.indptr[:-1].astype(np.int64), tlen)
          + np.repeat(ptr[lo:hi] + bl[lo:hi], tlen))
    idx[pt] = BT.indices
    return ptr, idx


def relax_pull(BT, w, wstride, fbits, d, lo, out, shift):
    indptr, indices = BT.indptr.astype(np.int64), BT.indices.astype(np.int64)
    rows, pos = _edges(indptr, np.arange(BT.nrows))
    u = indices[pos]
    hit = _bits_of(fbits, u)
    rows, pos, u = rows[hit], pos[hit], u[hit]
    _lower(d, lo, rows, d[u] + _weights(w, wstride, pos), out, shift, False)


def relax_push(B, w, wstride, frontier, lens, d, lo, out, shift):
    if frontier.size == 0 or B.ncols == 0:
        return
    indptr, indices = B.indptr.astype(np.int64), B.indices.astype(np.int64)
    slot, pos = _edges(indptr, frontier)
    _lower(d, lo, indices[pos], d[frontier[slot]] + _weights(w, wstride, pos), out, shift, True)


def _set_bits(words, shift, np_):
    bits = np.unpackbits(words.view(np.uint8), bitorder="little").astype(bool)
    return np.flatnonzero(bits) - shift


def pack(out, nw, d, lo, shift, kmax):
    vals = np.zeros(kmax, dtype=d.dtype)
    js = _set_bits(out[HEAD:HEAD + nw].copy(), shift, None)
    vals[:js.size] = d[lo + js]
    return vals


def unpack(got, nw, vals, bounds, d):
    for p in range(got.shape[0]):
        lo = int(bounds[p])
        js = _set_bits(got[p, HEAD:HEAD + nw].copy(), lo & 31, None)
        d[lo + js] = vals[p, :js.size]


def far_key(x):
    """The order-preserving unsigned key of the distances ``x`` (``kernels/blocks.cu``'s
    ``sr_bb_key``): uint64, the key's order that of the values."""
    x = np.asarray(x)
    if x.dtype.kind == "f":
        bits = 32 if x.dtype.itemsize == 4 else 64
        u = x.view(np.uint32 if bits == 32 else np.uint64).astype(np.uint64)
        sign = np.uint64(1 << (bits - 1))
        full = np.uint64((1 << bits) - 1)
        return np.where(u & sign, ~u & full, u | sign)
    return x.astype(np.int64).view(np.uint64) ^ np.uint64(1 << 63)


def split(chg, pend, nw, d, deg, lo, shift, tau, out, tail, ids, vals):
    if nw == 0:
        return
    p = pend[:nw] | chg[HEAD:HEAD + nw]
    chg[HEAD:HEAD + nw] = 0
    js = _set_bits(p.copy(), shift, None)
    x = d[lo + js]
    near = x < tau
    _take(pend, p, js[near], shift, deg, out, lo, d, tail, ids, vals)
    tail[1] += np.uint64(int(near.sum()))
    if (~near).any():
        tail[0] = max(int(tail[0]), int(~far_key(x[~near].min()[None])[0]))


def _take(pend, p, js, shift, deg, out, lo, d, tail, ids, vals):
    """The near pile js (local ids) out of the pending words p into pend, out (bits, counts)
    and the pairs (in bitmap order, up to their room)."""
    nw = p.size
    nb = js + shift
    nwords = np.zeros(nw, dtype=np.uint32)
    np.bitwise_or.at(nwords, nb >> 5, np.uint32(1) << (nb & 31).astype(np.uint32))
    pend[:nw] = p & ~nwords
    out[HEAD:HEAD + nw] |= nwords
    head = out[:HEAD].view(np.uint64)
    head[0] += np.uint64(nb.size)
    head[1] += np.uint64(int(deg[js].sum()) if nb.size else 0)
    if ids.size:   # the slots are counted where there is room for pairs (as the GPU's)
        at = int(tail[2])
        k = max(0, min(js.size, ids.size - at))
        ids[at:at + k] = js[:k]
        vals[at:at + k] = d[lo + js[:k]]
        tail[2] += np.uint64(js.size)


def _unkey(k, dtype):
    """The inverse of :func:`far_key` (k a uint64 key)."""
    k = np.uint64(k)
    if dtype.kind == "f":
        bits = 8 * dtype.itemsize
        full, sign = np.uint64((1 << bits) - 1), np.uint64(1 << (bits - 1))
        k &= full
        u = k ^ sign if k & sign else ~k & full
        return np.array([u], dtype=np.uint64).astype(
            np.uint32 if bits == 32 else np.uint64).view(dtype)[0]
    return np.array([k ^ np.uint64(1 << 63)], dtype=np.uint64).view(np.int64)[0]


def split_ahead(pend, nw, d, deg, lo, shift, delta, out, tail, ids, vals):
    if nw == 0 or int(tail[1]) or not int(tail[0]):
        return
    f = _unkey(~tail[0], d.dtype)
    if d.dtype.kind == "f":
        tau = f + delta
        if not tau > f:
            tau = np.nextafter(f, d.dtype.type(np.inf))
    else:
        top = np.iinfo(d.dtype).max
        tau = top if int(f) > top - int(delta) else int(f) + int(delta)
    p = pend[:nw].copy()
    js = _set_bits(p.copy(), shift, None)
    _take(pend, p, js[d[lo + js] < tau], shift, deg, out, lo, d, tail, ids, vals)


def _pairs(got, lay, pairs, p, dtype):
    at, ids_at, vals_at = lay
    row = got[p]
    slots = min(int(row[at:at + 6].view(np.uint64)[2]), pairs)
    w = np.dtype(dtype).itemsize // 4
    return (row[ids_at:ids_at + slots].astype(np.int64),
            row[vals_at:vals_at + pairs * w].view(dtype)[:slots])


def unpack_pairs(got, lay, pairs, bounds, d):
    for p in range(got.shape[0]):
        js, x = _pairs(got, lay, pairs, p, d.dtype)
        d[bounds[p] + js] = x


def pairs_list(B, got, lay, pairs, bounds, size):
    lst = np.concatenate([bounds[p] + _pairs(got, lay, pairs, p, np.uint32)[0]
                          for p in range(got.shape[0])] or [np.zeros(0, np.int64)])
    indptr = B.indptr.astype(np.int64)
    return lst, indptr[lst + 1] - indptr[lst]
