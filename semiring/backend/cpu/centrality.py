"""CPU Brandes dependencies: the GPU kernel's passes (``kernels/brandes.cu``) as one compiled
loop a source (Numba, the ``cpu`` extra: the sources spread over the cores, the GPU's sums in
the GPU's order, so the same bits), else a level at a time, each level a few NumPy passes over
its own vertices' rows: O(n + m) a source plus a few NumPy calls a level (not O(n) a level;
NumPy sums a row of more than 8 entries pairwise: the GPU's bits up to that rounding). The
compiled pass (``_source_pass``) also gives edge betweenness its terms, a source a thread
(:func:`edge_terms`). Called by :mod:`semiring.centrality`, which validates."""

from __future__ import annotations

import numpy as np

from . import compiled
from .traversal import _depths, _structure


def _source_pass(ap, ai, tp, ti, s, lev, dl, sigma, queue, start):
    """One source's search and both sweeps (kernels/brandes.cu's block loop): fills ``lev``
    (-1 where unreached), ``dl`` (δ) and ``sigma`` (σ), each of n; the deepest level.
    ``queue`` (n) and ``start`` (n + 2): scratch."""
    lev[:] = -1
    dl[:] = 0.0
    sigma[:] = 0.0
    lev[s] = 0
    sigma[s] = 1.0
    queue[0] = s
    start[0] = 0
    start[1] = 1
    tail = 1
    d = 0
    while start[d] < start[d + 1]:
        for i in range(start[d], start[d + 1]):
            v = queue[i]
            for e in range(ap[v], ap[v + 1]):
                w = ai[e]
                if lev[w] == -1:
                    lev[w] = d + 1
                    queue[tail] = w
                    tail += 1
        start[d + 2] = tail
        for i in range(start[d + 1], tail):
            w = queue[i]
            acc = 0.0
            for e in range(tp[w], tp[w + 1]):
                u = ti[e]
                if lev[u] == d:
                    acc += sigma[u]
            sigma[w] = acc
        d += 1
    for dd in range(d - 1, 0, -1):
        for i in range(start[dd - 1], start[dd]):
            v = queue[i]
            q = 0.0
            successor = False
            for e in range(ap[v], ap[v + 1]):
                w = ai[e]
                if lev[w] == dd:
                    q += (1.0 + dl[w]) / sigma[w]
                    successor = True
            sv = sigma[v]
            if np.isinf(sv):
                dl[v] = np.nan if successor else 0.0
            else:
                dl[v] = sv * q
    return d - 1


def _brandes_sources(ap, ai, tp, ti, n, sources, delta, level, depth):
    """The compiled form: kernels/brandes.cu's block loop, a source a thread of ``prange``."""
    for j in _prange(sources.size):
        queue = np.empty(n, dtype=np.int64)
        start = np.empty(n + 2, dtype=np.int64)
        sigma = np.empty(n, dtype=np.float64)
        depth[j] = _pass(ap, ai, tp, ti, sources[j], level[j], delta[j], sigma, queue, start)


def _brandes_edge_sources(ap, ai, tp, ti, n, sources, out):
    """Each source's pass (:func:`_source_pass`), then its term of every stored entry (v, w)
    of G on a shortest path (level(w) = level(v) + 1): ``out[e, j] = σ(v) · ((1 + δ(w)) /
    σ(w))``, the algebra form's two float operations (``algorithms.edge_betweenness``);
    ``out`` (m × s) holds zeros elsewhere."""
    for j in _prange(sources.size):
        lev = np.empty(n, dtype=np.int32)
        dl = np.empty(n, dtype=np.float64)
        sigma = np.empty(n, dtype=np.float64)
        queue = np.empty(n, dtype=np.int64)
        start = np.empty(n + 2, dtype=np.int64)
        _pass(ap, ai, tp, ti, sources[j], lev, dl, sigma, queue, start)
        for v in range(n):
            lv = lev[v]
            if lv < 0:
                continue
            sv = sigma[v]
            for e in range(ap[v], ap[v + 1]):
                w = ai[e]
                if lev[w] == lv + 1:
                    out[e, j] = sv * ((1.0 + dl[w]) / sigma[w])


_prange = range
_pass = None  # the jitted _source_pass: a global of the two loops, set before they compile
_kernels = {}  # loop function -> its compiled kernel
_NO_PRES = np.zeros(0, dtype=np.bool_)


def _compiled(loop):
    """``loop`` (:func:`_brandes_sources` or :func:`_brandes_edge_sources`) compiled over
    threads, through :func:`compiled._jit` (its own cache name, the inter-process lock around
    a compile), with the per-source pass they share."""
    global _prange, _pass
    kernel = _kernels.get(loop)
    if kernel is None:
        _prange = compiled._numba().prange
        if _pass is None:
            _pass = compiled._jit(_source_pass)
        kernel = _kernels[loop] = compiled._jit(loop, parallel=True)
    return kernel


def edge_terms(G, GT, sources):
    """Σ over ``sources`` of each stored entry's Brandes term (:func:`_brandes_edge_sources`),
    a float64 array of G's nvals: the terms of a batch as an m × s array summed along its
    sources (NumPy's pairwise sum, as the algebra form sums its gathers); None where Numba
    is off (the caller runs the algebra form)."""
    if not compiled.ENABLED:
        return None
    out = np.zeros((G.nvals, int(sources.size)), dtype=np.float64)
    _compiled(_brandes_edge_sources)(G.indptr, G.indices, GT.indptr, GT.indices, G.nrows,
                                     sources, out)
    return out.sum(axis=1)


def _rows(indptr, indices, idx):
    """(the column of every entry of the rows ``idx``, in stored order; each row's first
    position in that list; which rows are not empty)."""
    first = indptr[idx].astype(np.int64)
    lens = indptr[idx + 1].astype(np.int64) - first
    seg = np.zeros(idx.size, dtype=np.int64)
    np.cumsum(lens[:-1], out=seg[1:])
    pos = np.repeat(first - seg, lens) + np.arange(int(lens.sum()), dtype=np.int64)
    return indices[pos], seg, lens > 0


def _one(G, GT, s, S, delta, level_out):
    from scipy.sparse.csgraph import breadth_first_order  # noqa: PLC0415  (scipy: on use)

    n = G.nrows
    order, pred = breadth_first_order(S, int(s), directed=True, return_predecessors=True)
    level = _depths(order, pred, n)  # order is by level: FIFO
    level_out[:] = level
    depth = int(level[order[-1]])
    start = np.searchsorted(level[order], np.arange(depth + 2))
    sigma = np.zeros(n, dtype=np.float64)
    sigma[s] = 1.0
    np_err = np.seterr(over="ignore", invalid="ignore")  # σ past float64: inf, as on the GPU
    try:
        _sweeps(G, GT, order, level, start, depth, sigma, delta)
    finally:
        np.seterr(**np_err)
    return depth


def _sweeps(G, GT, order, level, start, depth, sigma, delta):
    for d in range(1, depth + 1):
        # σ(w) = Σ σ(u) over w's in-neighbours u on level d − 1
        w = order[start[d]:start[d + 1]]
        u, seg, _ = _rows(GT.indptr, GT.indices, w)  # every w on level d has one
        sigma[w] = np.add.reduceat(np.where(level[u] == d - 1, sigma[u], 0.0), seg)
    for d in range(depth, 0, -1):
        # δ(v) = σ(v) · Σ (1 + δ(w)) / σ(w) over v's out-neighbours w on level d
        v = order[start[d - 1]:start[d]]
        w, seg, full = _rows(G.indptr, G.indices, v)
        on = level[w] == d
        term = np.zeros(w.size, dtype=np.float64)
        np.divide(1.0 + delta[w], sigma[w], out=term, where=on)
        q = np.zeros(v.size, dtype=np.float64)
        has = np.zeros(v.size, dtype=bool)
        if w.size:
            q[full] = np.add.reduceat(term, seg[full])
            has[full] = np.add.reduceat(on.astype(np.int64), seg[full]) > 0
        sv = sigma[v]
        delta[v] = np.where(np.isinf(sv), np.where(has, np.nan, 0.0), sv * q)


def dependencies(G, GT, sources):
    """(delta (s × n float64), level (s × n int32), depth (s,) int32): one pass a source."""
    n, s = G.nrows, int(sources.size)
    delta = np.zeros((s, n), dtype=np.float64)
    level = np.empty((s, n), dtype=np.int32)
    depth = np.empty(s, dtype=np.int32)
    if compiled.ENABLED:
        _compiled(_brandes_sources)(G.indptr, G.indices, GT.indptr, GT.indices, n, sources,
                                    delta, level, depth)
        return delta, level, depth
    S = _structure(G)
    for j, src in enumerate(sources.tolist()):
        depth[j] = _one(G, GT, src, S, delta[j], level[j])
    return delta, level, depth


def _power_loop(t, pres, masked, x, u, p, inv, d, s, xn, w):
    """The step's one pass: each element's arithmetic as NumPy's operations one by one below
    (the same bits), the two sums left to right."""
    change = 0.0
    held = 0.0
    for i in range(x.size):
        v = np.float64(t[i]) if not masked or pres[i] else 0.0
        if s != 0.0:
            v += s * u[i]
        v *= d
        v += p[i]
        xn[i] = v
        w[i] = v * inv[i]
        change += abs(v - x[i])
        if inv[i] == 0.0:
            held += v
    return change, held


_power = None
#: The compiled step runs on vectors of at most this many entries: above it the pass is
#: memory-bound either way and NumPy's pairwise sums are the more accurate. (urand-10-ef4,
#: n = 1024: 1.5 µs against NumPy's ~10, a tenth of a PageRank iteration; session 21.)
POWER_COMPILED_MAX = 1 << 16


def power_update(t_vals, t_pres, x, u, p, inv, d, s, dangling):
    """(x', w', change, s') of one power-iteration step, NumPy's operations one by one (the
    GPU kernel's arithmetic: ``kernels/power.cu``); on small vectors (POWER_COMPILED_MAX) one
    compiled pass where Numba is installed, the same x' and w', the sums in sequence
    (``change`` and ``s'`` within rounding of NumPy's pairwise sums, as the GPU's)."""
    global _power
    n = x.size
    if compiled.ENABLED and n <= POWER_COMPILED_MAX and t_vals.dtype == np.float64:
        if _power is None:
            _power = compiled._jit(_power_loop)
        xn = np.empty(n, dtype=np.float64)
        w = np.empty(n, dtype=np.float64)
        masked = t_pres is not None
        change, held = _power(t_vals, t_pres if masked else _NO_PRES, masked, x, u, p, inv,
                              float(d), float(s), xn, w)
        return xn, w, float(change), float(held) if dangling.size else 0.0
    xn = t_vals.astype(np.float64, copy=True) if t_pres is None else np.where(
        t_pres, t_vals.astype(np.float64, copy=False), 0.0)
    if s:
        xn += s * u
    xn *= d
    xn += p
    change = float(np.abs(xn - x).sum())
    return xn, xn * inv, change, float(xn[dangling].sum()) if dangling.size else 0.0
