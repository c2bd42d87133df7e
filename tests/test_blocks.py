"""semiring.blocks: BFS levels on a rank's vertex block (kernels/blocks.cu on the GPU, the
NumPy twins on the CPU) against a plain reference of the level, on random digraphs with
isolated vertices, self-loops, heavy rows (a warp's scan), blocks of any cut (empty blocks,
blocks of a few vertices straddling bitmap words, a block owning no edge); the frontier
bitmap's exchange (send buffers joined) and the component roots."""

from __future__ import annotations

import os

import numpy as np
import pytest
import scipy.sparse as sp
from hypothesis import given, settings, strategies as st

import semiring as sr
from semiring import blocks
from conftest import to_host

few = settings(max_examples=max(5, int(os.environ.get("SEMIRING_TEST_EXAMPLES", 40)) * 5 // 8),
               deadline=None)


@st.composite
def cases(draw, max_n=300):
    """(S, lo, hi, frontier, level, depth): a random digraph (self-loops, isolated vertices,
    a few heavy columns: more than a warp's 32 in-edges), a block lo:hi (possibly empty), a
    frontier (any vertex set) and the block's levels (some reached before)."""
    n = draw(st.integers(1, max_n))
    rng = np.random.default_rng(draw(st.integers(0, 2**31 - 1)))
    m = draw(st.integers(0, 6 * n))
    r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    if draw(st.booleans()):  # heavy columns: vertices with many in-edges
        hub = rng.integers(0, n, 3)
        k = draw(st.integers(0, 200))
        r = np.r_[r, rng.integers(0, n, 3 * k)]
        c = np.r_[c, np.repeat(hub, k)]
    if draw(st.booleans()):  # self-loops
        s = rng.integers(0, n, max(1, n // 5))
        r, c = np.r_[r, s], np.r_[c, s]
    if draw(st.booleans()):  # the upper half isolated
        keep = (r < n // 2) & (c < n // 2)
        r, c = r[keep], c[keep]
    S = sp.csr_matrix((np.ones(r.size), (r, c)), shape=(n, n))
    S.sum_duplicates()
    lo = draw(st.integers(0, n))
    hi = draw(st.integers(lo, min(n, lo + draw(st.sampled_from([3, 40, n])))))
    F = np.flatnonzero(rng.random(n) < draw(st.sampled_from([0.0, 0.02, 0.3, 1.0])))
    depth = int(draw(st.integers(1, 5)))
    # vertices reached before lie on levels < depth, as in a search (a vertex already on
    # level `depth` would take a parent from the push's same-level atomic min)
    level = np.where(rng.random(hi - lo) < draw(st.sampled_from([0.0, 0.3])),
                     rng.integers(0, depth, hi - lo), -1).astype(np.int64)
    return S, lo, hi, F, level, depth


def reference(S, lo, hi, F, level, depth):
    """(new vertices of lo:hi (local ids), their smallest in-neighbour on F)."""
    C = S.tocsc()
    inF = np.zeros(S.shape[0], dtype=bool)
    inF[F] = True
    new, par = [], []
    for j in range(lo, hi):
        if level[j - lo] >= 0:
            continue
        ins = C.indices[C.indptr[j]:C.indptr[j + 1]]
        ins = ins[inF[ins]]
        if ins.size:
            new.append(j - lo)
            par.append(int(ins.min()))
    return np.array(new, dtype=np.int64), np.array(par, dtype=np.int64)


def _bits(S, lo, hi, words, out):
    """The block's local vertices whose bits are set in a send buffer."""
    w = to_host(out)[blocks.HEAD:blocks.HEAD + words]
    b = np.unpackbits(w.view(np.uint8), bitorder="little").astype(bool)
    shift = lo & 31
    idx = np.flatnonzero(b) - shift
    return idx


def _fbits(n, F, xp):
    f = np.zeros((n + 31) // 32 * 32, dtype=np.uint8)
    f[F] = 1
    return xp.asarray(np.packbits(f, bitorder="little").view(np.uint32))


@few
@given(c=cases())
@pytest.mark.parametrize("how", ["pull", "push"])
@pytest.mark.parametrize("parents", [None, "any", "min"])
def test_level_matches_reference(device, how, parents, c):
    S, lo, hi, F, level0, depth = c
    n = S.shape[0]
    xp = sr.array_module(device)
    B = sr.Matrix.from_scipy(S[:, lo:hi].tocsr(), device=device)
    deg = np.diff(S.indptr).astype(np.int64)
    new, par = reference(S, lo, hi, F, level0, depth)
    level = xp.asarray(level0.copy())
    parent = xp.full(hi - lo, -1, dtype=xp.int64) if parents else None
    out = blocks.send_buffer(lo, hi, device, blocks.word_range(lo, hi)[1] + 2)  # padded
    kw = dict(deg=xp.asarray(deg[lo:hi]), out=out, lo=lo, parent=parent,
              deterministic=parents == "min")
    if how == "pull":
        blocks.bfs_pull(B.T, _fbits(n, F, xp), level, depth, **kw)
    else:
        blocks.bfs_push(B, xp.asarray(F.astype(np.int64)), level, depth, **kw)
    want = level0.copy()
    want[new] = depth
    np.testing.assert_array_equal(to_host(level), want)
    words = blocks.word_range(lo, hi)[1]
    np.testing.assert_array_equal(_bits(S, lo, hi, words, out), new)
    assert not to_host(out)[blocks.HEAD + words:].any()      # the padding untouched
    h = blocks.heads(out[None])
    assert h.tolist() == [[new.size, int(deg[lo + new].sum())]]
    if parents:
        got = to_host(parent)
        if parents == "min" or how == "pull":
            np.testing.assert_array_equal(got[new], par)
        else:  # any in-neighbour on the frontier
            C = S.tocsc()
            for j in new:
                ins = C.indices[C.indptr[lo + j]:C.indptr[lo + j + 1]]
                assert got[j] in set(ins) & set(F.tolist())
        rest = np.setdiff1d(np.arange(hi - lo), new)
        assert (got[rest] == -1).all()


@few
@given(n=st.integers(0, 200), data=st.data())
def test_join_bits_and_list(device, n, data):
    """Send buffers of any cut (empty ranks, ranks of a few vertices inside one word) joined
    into the global bitmap; its vertex list and their rows' lengths."""
    xp = sr.array_module(device)
    P = data.draw(st.integers(1, 5))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), min_size=P - 1, max_size=P - 1)))
    b = [0] + cuts + [n]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    on = rng.random(n) < data.draw(st.sampled_from([0.0, 0.1, 0.9]))
    words = max(blocks.word_range(b[p], b[p + 1])[1] for p in range(P))
    bufs = []
    for p in range(P):
        lo, hi = b[p], b[p + 1]
        out = np.zeros(blocks.HEAD + words, dtype=np.uint32)
        for j in np.flatnonzero(on[lo:hi]):
            bit = j + (lo & 31)
            out[blocks.HEAD + (bit >> 5)] |= np.uint32(1 << (bit & 31))
        bufs.append(out)
    got = xp.asarray(np.stack(bufs))
    fbits = blocks.join_bits(got, b, n)
    np.testing.assert_array_equal(to_host(fbits), to_host(_fbits(n, np.flatnonzero(on), np)))
    S = sp.random(n, n, density=0.1, format="csr", random_state=1) if n else sp.csr_matrix((0, 0))
    A = sr.Matrix.from_scipy(S, device=device)
    lst, lens = blocks.bits_list(A, fbits, int(on.sum()))
    order = np.argsort(to_host(lst))
    np.testing.assert_array_equal(to_host(lst)[order], np.flatnonzero(on))
    np.testing.assert_array_equal(to_host(lens)[order], np.diff(S.indptr)[np.flatnonzero(on)])


@few
@given(n=st.integers(1, 300), k=st.integers(1, 300), seed=st.integers(0, 2**31 - 1))
def test_component_roots(device, n, k, seed):
    xp = sr.array_module(device)
    labels = np.random.default_rng(seed).integers(0, min(n, k), n)
    for dt in (np.int32, np.int64):
        got = to_host(blocks.component_roots(xp.asarray(labels.astype(dt))))
        want = np.array([np.flatnonzero(labels == labels[v])[0] for v in range(n)])
        np.testing.assert_array_equal(got, want)


@few
@given(c=cases(max_n=80))
def test_mirrored_edges(device, c):
    """A rank's edges both ways: the pattern E_p ∪ E_pᵀ of the column block lo:hi (every
    entry of a row from B's row or from Bᵀ's; repeats allowed)."""
    S, lo, hi, _, _, _ = c
    n = S.shape[0]
    B = sr.Matrix.from_scipy(S[:, lo:hi].tocsr(), device=device)
    G = blocks.mirrored_edges(B, lo)
    E = sp.csr_matrix((np.ones(S.nnz), S.nonzero()), shape=(n, n))
    E = E[:, lo:hi]
    E = sp.hstack([sp.csr_matrix((n, lo)), E, sp.csr_matrix((n, n - hi))]).tocsr()
    want = ((E + E.T) > 0).toarray()
    ip, ix = to_host(G.indptr), to_host(G.indices)
    assert G.shape == (n, n) and ip[-1] == 2 * B.nvals
    got = np.zeros((n, n), dtype=bool)
    got[np.repeat(np.arange(n), np.diff(ip)), ix] = True
    np.testing.assert_array_equal(got, want)
    with pytest.raises(sr.InvalidValue, match="lo:hi"):
        blocks.mirrored_edges(B, n - hi + lo + 1)


def test_a_level_whose_block_owns_no_edge(device):
    xp = sr.array_module(device)
    S = sp.csr_matrix((np.ones(2), ([0, 1], [1, 0])), shape=(70, 70))
    B = sr.Matrix.from_scipy(S[:, 40:70].tocsr(), device=device)
    level = xp.full(30, -1, dtype=xp.int64)
    out = blocks.send_buffer(40, 70, device)
    kw = dict(deg=xp.ones(30, dtype=xp.int64), out=out, lo=40)
    blocks.bfs_push(B, xp.asarray([0, 1], dtype=xp.int64), level, 1, **kw)
    blocks.bfs_pull(B.T, _fbits(70, np.arange(70), xp), level, 1, **kw)
    assert (to_host(level) == -1).all() and not to_host(out).any()


def test_validation(device):
    xp = sr.array_module(device)
    B = sr.Matrix.from_scipy(sp.csr_matrix((4, 2)), device=device)
    level = xp.full(2, -1, dtype=xp.int64)
    ok = dict(deg=xp.zeros(2, dtype=xp.int64), out=blocks.send_buffer(2, 4, device), lo=2)
    f = xp.zeros(1, dtype=xp.int64)
    with pytest.raises(sr.DomainMismatch, match="level"):
        blocks.bfs_push(B, f, level.astype(xp.int32), 1, **ok)
    with pytest.raises(sr.DomainMismatch, match="out"):
        blocks.bfs_push(B, f, level, 1, **{**ok, "out": xp.zeros(2, dtype=xp.uint32)})
    with pytest.raises(sr.DomainMismatch, match="frontier"):
        blocks.bfs_push(B, f.astype(xp.int32), level, 1, **ok)
    with pytest.raises(sr.DomainMismatch, match="fbits"):
        blocks.bfs_pull(B.T, xp.zeros(3, dtype=xp.uint32), level, 1, **ok)
    with pytest.raises(sr.InvalidValue, match="words"):
        blocks.send_buffer(0, 100, device, 1)
    with pytest.raises(sr.InvalidValue, match="labels"):
        blocks.component_roots(xp.asarray([0, 5], dtype=xp.int32))


def _relax_ref(S, F, d, lo, hi):
    """One Jacobi round over F's out-edges into lo:hi (reads d as it was)."""
    C = S.tocsc()
    inF = np.zeros(S.shape[0], dtype=bool)
    inF[F] = True
    new = d.copy()
    for j in range(lo, hi):
        a, b = C.indptr[j], C.indptr[j + 1]
        u, w = C.indices[a:b], C.data[a:b].astype(d.dtype)
        k = inF[u]
        if k.any():
            t = (d[u[k]] + w[k]).min()
            if t < new[j]:
                new[j] = t
    return new


@few
@given(c=cases(max_n=120), data=st.data())
@pytest.mark.parametrize("how", ["pull", "push"])
@pytest.mark.parametrize("dt", [np.int64, np.float32, np.float64])
def test_relax_round_against_reference(device, how, dt, c, data):
    """A round's distances lie between one Jacobi round over the frontier's edges (what it
    is when no frontier vertex is lowered in the same round: exactly that) and the fixed point
    of relaxing the frontier's edges; the bits and count are the vertices lowered."""
    _relax_round(device, how, dt, c, data)


@few
@given(c=cases(max_n=120), data=st.data())
@pytest.mark.parametrize("dt", [np.int64, np.float32, np.float64])
def test_relax_pull_heavy_rows(device, dt, c, data, monkeypatch):
    """The GPU pull's rows past HEAVY_ROW in-edges (a block a tile, min-combined): made
    short here so that the cases' hubs (up to 600 in-edges) cross it, in tiles of 16 edges
    (rows of many tiles, rows of one, a tile's last edges). GPU only: the CPU has one path."""
    if device != "gpu":
        pytest.skip("the heavy rows' kernels are the GPU's")
    from semiring.backend.gpu import blocks as gpu_blocks  # noqa: PLC0415 (GPU only)

    monkeypatch.setattr(gpu_blocks, "HEAVY_ROW", 20)
    monkeypatch.setattr(gpu_blocks, "HEAVY_TILE", 16)
    _relax_round(device, "pull", dt, c, data)


@few
@given(c=cases(max_n=120), data=st.data())
@pytest.mark.parametrize("dt", [np.int64, np.float32, np.float64])
def test_relax_push_chunks(device, dt, c, data, monkeypatch):
    """The GPU push's chunks (a warp's run of the round's edges, sized by the round: 32 to
    256, a multiple of 32) on a grid of one warp, so that the cases' rounds (up to ~1300
    edges) take every chunk size, and those past 256 edges several chunks in turn; the round
    as in test_relax_round_against_reference. GPU only: the CPU has no chunks."""
    if device != "gpu":
        pytest.skip("the push's chunks are the GPU's")
    from semiring.backend.gpu import blocks as gpu_blocks  # noqa: PLC0415 (GPU only)

    monkeypatch.setattr(gpu_blocks, "_full_grid", lambda: 1)
    monkeypatch.setattr(gpu_blocks, "THREADS", 32)   # (the round's other kernels: grid-stride)
    _relax_round(device, "push", dt, c, data)


def _relax_round(device, how, dt, c, data):
    S, lo, hi, F, _, _ = c
    n = S.shape[0]
    xp = sr.array_module(device)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    S = S.copy()
    disjoint = data.draw(st.booleans())
    if disjoint:
        F = F[(F < lo) | (F >= hi)]      # no frontier vertex in the block: exactly Jacobi
    # negative weights where the round is one Jacobi round (else the bound below is a fixed
    # point, which a negative cycle through the block's frontier vertices would not have)
    low = -2 if disjoint else 0
    S.data = (rng.integers(low, 9, S.nnz).astype(dt) if dt == np.int64
              else (rng.random(S.nnz) + low / 4).astype(dt))
    inf = np.inf if dt != np.int64 else np.iinfo(np.int64).max
    d0 = np.where(rng.random(n) < 0.5, rng.integers(0, 20, n), inf).astype(dt)
    d0[F] = rng.integers(0, 10, F.size).astype(dt)  # the frontier is reached
    d = xp.asarray(d0.copy())
    cuts = [0, lo, hi, n]
    wmax = max(blocks.word_range(cuts[p], cuts[p + 1])[1] for p in range(3))
    out = blocks.send_buffer(lo, hi, device, wmax)
    B = sr.Matrix.from_scipy(S[:, lo:hi].tocsr(), device=device)
    if how == "pull":
        blocks.relax_pull(B.T, _fbits(n, F, xp), d, lo=lo, out=out)
    else:
        blocks.relax_push(B, xp.asarray(F.astype(np.int64)), d, lo=lo, out=out)
    got = to_host(d)
    upper = _relax_ref(S, F, d0, lo, hi)
    lower = upper
    while True:   # the fixed point, the frontier's lowered values read again
        nxt = _relax_ref(S, F, lower, lo, hi)
        if np.array_equal(nxt, lower):
            break
        lower = nxt
    np.testing.assert_array_equal(np.r_[got[:lo], got[hi:]], np.r_[d0[:lo], d0[hi:]])
    assert (got <= upper).all() and (got >= lower).all()
    if not np.isin(F, np.arange(lo, hi)).any():
        np.testing.assert_array_equal(got, upper)
    lowered = np.flatnonzero(got[lo:hi] < d0[lo:hi])
    words = blocks.word_range(lo, hi)[1]
    np.testing.assert_array_equal(_bits(S, lo, hi, words, out), lowered)
    assert blocks.heads(out[None])[0, 0] == lowered.size
    # the changed distances packed in bitmap order, and unpacked into another copy of d
    vals = blocks.pack_changed(out, d, lo, hi, lowered.size + 3)
    np.testing.assert_array_equal(to_host(vals)[:lowered.size], got[lo + lowered])
    # the block as rank 1 of 3 (either of the others possibly empty), they changing nothing
    other = xp.asarray(d0.copy())
    got_b = xp.stack([blocks.send_buffer(0, lo, device, wmax), out,
                      blocks.send_buffer(hi, n, device, wmax)])
    V = xp.stack([xp.zeros_like(vals), vals, xp.zeros_like(vals)])
    blocks.unpack_changed(got_b, V, cuts, other)
    np.testing.assert_array_equal(to_host(other), got)


@few
@given(n=st.integers(1, 200), data=st.data())
@pytest.mark.parametrize("dt", [np.int64, np.float32, np.float64])
def test_near_split_against_reference(device, dt, n, data):
    """The near–far piles of a block of any cut (inside one word, across words, at the
    graph's end): pending ∪ lowered split at τ, the near bits, size and out-edges, the least
    pending distance (none: inf / the type's maximum), the lowered bits cleared."""
    xp = sr.array_module(device)
    lo = data.draw(st.integers(0, n - 1))
    hi = data.draw(st.integers(lo, n))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    np_, (w0, nw) = hi - lo, blocks.word_range(lo, hi)
    inf = np.inf if dt != np.int64 else np.iinfo(np.int64).max
    d0 = rng.integers(0, 50, n).astype(dt)
    if dt != np.int64:
        d0 = (d0 + rng.random(n)).astype(dt)
    pend_v = rng.random(np_) < data.draw(st.sampled_from([0.0, 0.3, 1.0]))
    chg_v = rng.random(np_) < 0.3
    tau = data.draw(st.sampled_from([0, 0.5, 10, 25.5, 1e9]))
    deg = rng.integers(0, 9, np_).astype(np.int64)
    shift = lo & 31

    def words_of(v):
        bits = np.zeros(nw * 32, dtype=np.uint8)
        bits[np.flatnonzero(v) + shift] = 1
        return np.packbits(bits, bitorder="little").view(np.uint32)

    pending = xp.asarray(words_of(pend_v))
    chg = blocks.send_buffer(lo, hi, device, nw + 1)
    chg[blocks.HEAD:blocks.HEAD + nw] = xp.asarray(words_of(chg_v))
    pairs = data.draw(st.sampled_from([0, 1, 5, 64]))
    out = blocks.split_buffer(lo, hi, device, nw + 1, pairs=pairs, dtype=dt)
    ahead = data.draw(st.sampled_from([None, 0.5, 7, 1e9]))
    blocks.near_split(chg, pending, xp.asarray(d0), tau, deg=xp.asarray(deg), lo=lo, out=out,
                      pairs=pairs, ahead=ahead)
    both = pend_v | chg_v
    x = d0[lo:hi]
    near = both & (x < (np.ceil(tau) if dt == np.int64 else dt(tau)))
    rest = both & ~near
    want = x[rest].min() if rest.any() else inf
    below = int(near.sum())
    if ahead is not None and not near.any() and rest.any():
        # the block's own next bucket: [f_p, f_p + Δ)
        step = np.ceil(ahead) if dt == np.int64 else dt(ahead)
        top = min(float(want) + float(step), float(np.iinfo(np.int64).max)) \
            if dt == np.int64 else dt(want) + dt(step)
        near = rest & (x < top)
    np.testing.assert_array_equal(_bits(None, lo, hi, nw, out), np.flatnonzero(near))
    np.testing.assert_array_equal(to_host(pending), words_of(both & ~near))
    assert not to_host(chg)[blocks.HEAD:].any()
    sizes, edges, far, under = blocks.split_heads(out[None], dt, pairs=pairs)
    assert sizes.tolist() == [int(near.sum())] and edges.tolist() == [int(deg[near].sum())]
    assert far.dtype == np.dtype(dt) and far.tolist() == [want] and under.tolist() == [below]
    # the pairs: the near pile's first vertices (any order) with their distances
    at, ids_at, vals_at = blocks.split_layout(out.size, pairs, dt)
    h = to_host(out)
    slots = int(h[at:at + 2 * blocks.TAIL].view(np.uint64)[2])
    assert slots == (int(near.sum()) if pairs else 0)   # counted where there is room
    k = min(slots, pairs)
    ids = h[ids_at:ids_at + k].astype(np.int64)
    vals = h[vals_at:vals_at + pairs * np.dtype(dt).itemsize // 4].view(dt)[:k]
    assert len(set(ids.tolist())) == k and set(ids.tolist()) <= set(np.flatnonzero(near).tolist())
    np.testing.assert_array_equal(vals, x[ids])


@few
@given(n=st.integers(1, 300), data=st.data())
@pytest.mark.parametrize("dt", [np.int64, np.float32])
def test_pairs_unpacked_and_listed(device, dt, n, data):
    """Every rank's near pile sent as pairs (ranks of any cut, empty ones too): unpacked into
    another rank's distances, and listed (global ids, rows' lengths) as the push's frontier."""
    xp = sr.array_module(device)
    P = data.draw(st.integers(1, 4))
    cuts = sorted(data.draw(st.lists(st.integers(0, n), min_size=P - 1, max_size=P - 1)))
    b = [0] + cuts + [n]
    rng = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1)))
    d0 = rng.integers(0, 30, n).astype(dt)
    lowered = rng.random(n) < data.draw(st.sampled_from([0.05, 0.5, 1.0]))
    tau = 15
    words = max(blocks.word_range(b[p], b[p + 1])[1] for p in range(P))
    near = lowered & (d0 < tau)
    pairs = max(1, int(max(near[b[p]:b[p + 1]].sum() for p in range(P))))
    S = sp.random(n, n, density=min(1.0, 4 / n), format="csr", random_state=rng)
    deg = np.diff(S.indptr).astype(np.int64)
    bufs = []
    for p in range(P):
        lo, hi = b[p], b[p + 1]
        chg = blocks.send_buffer(lo, hi, device, words)
        bits = np.zeros(words * 32, dtype=np.uint8)
        bits[np.flatnonzero(lowered[lo:hi]) + (lo & 31)] = 1
        chg[blocks.HEAD:] = xp.asarray(np.packbits(bits, bitorder="little").view(np.uint32))
        pend = xp.zeros(blocks.word_range(lo, hi)[1], dtype=xp.uint32)
        out = blocks.split_buffer(lo, hi, device, words, pairs=pairs, dtype=dt)
        blocks.near_split(chg, pend, xp.asarray(d0), tau, deg=xp.asarray(deg[lo:hi]), lo=lo,
                          out=out, pairs=pairs)
        bufs.append(out)
    got = xp.stack(bufs)
    sizes = blocks.split_heads(got, dt, pairs=pairs)[0]
    assert sizes.sum() == near.sum() and sizes.max() <= pairs
    inf = np.iinfo(np.int64).max if dt == np.int64 else np.inf
    other = xp.full(n, inf, dtype=dt)
    blocks.unpack_pairs(got, b, other, pairs)
    np.testing.assert_array_equal(to_host(other), np.where(near, d0, inf))
    B = sr.Matrix.from_scipy(S, device=device)
    lst, lens = blocks.pairs_list(B, got, b, pairs, int(near.sum()), dt)
    lst, lens = to_host(lst), to_host(lens)
    order = np.argsort(lst)
    np.testing.assert_array_equal(lst[order], np.flatnonzero(near))
    np.testing.assert_array_equal(lens[order], deg[np.flatnonzero(near)])


def test_near_split_validation(device):
    xp = sr.array_module(device)
    d = xp.zeros(40, dtype=xp.float64)
    ok = dict(deg=xp.zeros(30, dtype=xp.int64), lo=10, out=blocks.split_buffer(10, 40, device))
    chg, pend = blocks.send_buffer(10, 40, device), xp.zeros(2, dtype=xp.uint32)
    blocks.near_split(chg, pend, d, 1.0, **ok)
    with pytest.raises(sr.DomainMismatch, match="pending"):
        blocks.near_split(chg, xp.zeros(1, dtype=xp.uint32), d, 1.0, **ok)
    with pytest.raises(sr.DomainMismatch, match="out"):
        blocks.near_split(chg, pend, d, 1.0, **{**ok, "out": blocks.send_buffer(10, 40, device)})
    with pytest.raises(sr.DomainMismatch, match="deg"):
        blocks.near_split(chg, pend, d, 1.0, **{**ok, "deg": xp.zeros(31, dtype=xp.int64)})
    with pytest.raises(sr.DomainMismatch, match="tau"):
        blocks.near_split(chg, pend, d, "1", **ok)
    with pytest.raises(sr.InvalidValue, match="NaN"):
        blocks.near_split(chg, pend, d, float("nan"), **ok)
    with pytest.raises(sr.DomainMismatch, match="d must"):
        blocks.near_split(chg, pend, d.astype(xp.int32), 1.0, **ok)
    with pytest.raises(sr.InvalidValue, match="ahead"):
        blocks.near_split(chg, pend, d, 1.0, ahead=0, **ok)
    with pytest.raises(sr.DomainMismatch, match="out"):      # made without room for pairs
        blocks.near_split(chg, pend, d, 1.0, pairs=8, **ok)
    got = blocks.split_buffer(10, 40, device, pairs=4)[None]
    with pytest.raises(sr.DomainMismatch, match="got"):
        blocks.unpack_pairs(got, (0, 10, 40), d, 4)
    with pytest.raises(sr.InvalidValue, match="pairs"):
        blocks.unpack_pairs(got, (0, 40), d, 10**6)
    B = sr.Matrix.from_scipy(sp.csr_matrix((40, 30)), device=device)
    with pytest.raises(sr.InvalidValue, match="size"):
        blocks.pairs_list(B, got, (0, 40), 4, 5, np.float64)
