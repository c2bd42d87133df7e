"""The graph-analytics cases (issue 16): connected components, PageRank, betweenness centrality
(one source, as GAP times it, and a batch of sources), triangle counting.

Each case runs this engine (``algorithms.connected_components`` / ``pagerank`` /
``betweenness_centrality`` / ``triangle_count``, GPU and CPU backends; reported *unavailable*
where the checkout does not have the function yet), SciPy and NetworkX peers where they run in
the case's limits (NetworkX builds its graph in the untimed setup), and GAP when configured
(``bench/peers_gap.py`` adds its ``gap`` impl to every algorithm here). Every result is checked
against a host reference:

- ``cc``: SciPy's ``connected_components`` labels, compared *up to renaming* (the two label
  arrays must induce the same partition).
- ``pagerank``: a float64 power iteration with NetworkX's definition (damping 0.85, uniform
  teleport, dangling vertices' rank spread uniformly) run to an L1 change below
  :data:`PR_REF_TOL`; an impl passes when the L1 distance of its ranks is at most
  :data:`PR_L1_TOL`.
- ``bc`` / ``msbc``: Brandes' dependencies summed over the case's sources (exact, float64, a
  vectorized host Brandes), compared with a relative tolerance *after fitting one positive
  scale factor* (implementations differ in their normalization: NetworkX halves undirected
  scores and rescales by n/k for k sources; the fitted factor is printed in the check).
- ``tc``: the exact triangle count: SciPy's masked product ``sum((U @ U) .* U)`` of the graph
  oriented from lower to higher (degree, id) rank, up to :data:`TC_SCIPY_MAX_WEDGES` products;
  above it GAP's count (``tc -n 1``, untimed) when GAP is configured, else the case's impls are
  reported unavailable (no exact host reference in the time).
"""

from __future__ import annotations

import numpy as np

from . import cases as C

#: NetworkX peers only up to this many stored entries (× sources for BC): its graph is a dict
#: of dicts and its kernels pure Python.
NX_MAX_NNZ = 1 << 22
NX_BC_MAX_WORK = 1 << 22
NX_TC_MAX_NNZ = 1 << 21
#: PageRank: GAP's definition (damping 0.85); the reference is iterated to this L1 change;
#: results must be within this L1 distance of it (GAP's and NetworkX's default tolerances stop
#: at an L1 change of 1e-4 .. n·1e-6, an error up to about change · d/(1-d)).
PR_DAMPING = 0.85
PR_REF_TOL = 1e-7
PR_REF_MAX_ITER = 1000
PR_L1_TOL = 2e-3
#: The tolerance the timed PageRank impls stop at (L1 change, as GAP's ``-t``).
PR_TOL = 1e-4
PR_MAX_ITER = 100
#: BC: relative tolerance after fitting the scale.
BC_RTOL = 1e-4
#: TC: the SciPy reference (and the scipy-tc peer) only up to this many products of the
#: oriented masked product (kron-20: 4.4e9 products took 100 s on 2 cores; urand-22: ~7e8);
#: when GAP is configured, its count is the reference above TC_GAP_REFERENCE_WEDGES (GAP's
#: run then serves as its timed run too; its own verifier is off at that size).
TC_SCIPY_MAX_WEDGES = 2 * 10**9
TC_GAP_REFERENCE_WEDGES = 3 * 10**8
#: Batched BC: sources a case.
MSBC_SOURCES = [{"sources": 32}]


def _algorithms():
    import algorithms  # noqa: PLC0415  (lazy: algorithms (and SciPy's csgraph) adds 0.2 s to python -m bench --list's 0.2 s)

    return algorithms


def _engine_fn(name: str):
    fn = getattr(_algorithms(), name, None)
    if fn is None:
        raise C.Unavailable(f"algorithms.{name} is not in this checkout yet (issue 16)")
    return fn


def _networkx():
    try:
        import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)
    except ImportError as e:
        raise C.Unavailable("networkx is not installed") from e
    return nx


def _nx_graph(ctx: C.CaseContext, limit: int = NX_MAX_NNZ):
    if ctx.graph.nnz > limit:
        raise C.Unavailable(f"NetworkX is not timed above {limit} stored entries")
    nx = _networkx()
    create = nx.Graph if ctx.graph.spec.undirected else nx.DiGraph
    return ctx.graph.get(f"nx:{create.__name__}", lambda: nx.from_scipy_sparse_array(
        ctx.graph.host, create_using=create))


def _prepare_sources(k: int | None):
    def prepare(ctx: C.CaseContext) -> None:
        H = ctx.graph.host
        deg = np.diff(H.indptr)
        rng = np.random.default_rng(ctx.seed)
        cand = np.flatnonzero(deg > 0)
        if k is None:  # one source, as GAP's SourcePicker: random, nonzero degree
            src = int(rng.choice(cand)) if cand.size else 0
            ctx.inputs["source"] = src
            ctx.inputs["sources"] = np.array([src], dtype=np.int64)
        else:
            want = min(k, cand.size) if cand.size else 1
            srcs = (np.sort(rng.choice(cand, want, replace=False)) if cand.size
                    else np.zeros(1, np.int64)).astype(np.int64)
            ctx.inputs["sources"] = srcs
            ctx.inputs["source"] = int(srcs[0])
        ctx.case_metrics["sources"] = int(ctx.inputs["sources"].size)
        ctx.case_metrics["entries"] = ctx.graph.nnz

    return prepare


def _prepare_plain(ctx: C.CaseContext) -> None:
    ctx.case_metrics["entries"] = ctx.graph.nnz


def _rate(ctx: C.CaseContext, impl: C.Impl, seconds: float) -> dict:
    k = ctx.case_metrics.get("sources", 1)
    return {"geps": ctx.graph.nnz * k / seconds / 1e9 if seconds > 0 else float("nan")}


def _summary(engine=("semiring-gpu", "semiring-cpu"), peers=()):
    def summary(ctx, results):
        s = {}
        for fast in engine:
            for peer in peers:
                r = C._pair_ratio(results, fast, peer)
                if r is not None:
                    s[f"{fast.replace('-', '_')}_vs_{peer.replace('-', '_')}"] = r
        return s

    return summary


# --------------------------------------------------------------------------------------------
# cc


def canonical_labels(labels) -> np.ndarray:
    """Labels renumbered 0..k-1 in order of each component's smallest vertex."""
    labels = np.asarray(labels)
    _, first, inv = np.unique(labels, return_index=True, return_inverse=True)
    order = np.argsort(np.argsort(first))
    return order[inv.ravel()].astype(np.int64)


def compare_partition(got, ref) -> tuple[bool, str]:
    """Equal up to renaming: the same partition of the vertices."""
    got = np.asarray(got).ravel()
    ref = np.asarray(ref).ravel()
    if got.shape != ref.shape:
        return False, f"shape {got.shape} != reference shape {ref.shape}"
    if got.size == 0:
        return True, "empty"
    g = canonical_labels(got)
    bad = np.flatnonzero(g != ref)
    k = int(ref.max()) + 1
    if bad.size == 0:
        return True, f"the same {k} components (up to renaming)"
    i = bad[0]
    return False, (f"{bad.size} of {ref.size} vertices in another component; first: vertex {i}"
                   f" with label {got[i]} (reference component {ref[i]}); {int(g.max()) + 1} "
                   f"components against {k}")


def _cc_ref(ctx: C.CaseContext) -> np.ndarray:
    if "cc" not in ctx.memo:
        from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

        k, labels = connected_components(ctx.graph.host, directed=True, connection="weak")
        ctx.memo["cc"] = canonical_labels(labels)
        ctx.case_metrics["components"] = int(k)
    return ctx.memo["cc"]


def _cc_engine(device: str):
    def setup(ctx: C.CaseContext):
        fn = _engine_fn("connected_components")
        A = C.sr_matrix(ctx, device)
        # an undirected graph's pattern is symmetric: said, as the bfs / sssp cases say it
        # (GAP reads its graphs as undirected too); Afforest then skips the largest component
        symmetric = ctx.graph.spec.undirected
        return lambda: fn(A, symmetric=symmetric)

    return setup


def _cc_scipy(ctx: C.CaseContext):
    from scipy.sparse.csgraph import connected_components  # noqa: PLC0415  (lazy: scipy.sparse.csgraph adds 0.2 s to python -m bench --list's 0.2 s)

    H = ctx.graph.host
    return lambda: connected_components(H, directed=True, connection="weak")[1]


def _cc_networkx(ctx: C.CaseContext):
    nx = _networkx()
    G = _nx_graph(ctx)
    n = ctx.graph.n

    def run():
        labels = np.empty(n, dtype=np.int64)
        comps = (nx.weakly_connected_components(G) if G.is_directed()
                 else nx.connected_components(G))
        for c, comp in enumerate(comps):
            labels[list(comp)] = c
        return labels

    return run


CC = C.register_algorithm(C.Algorithm(
    name="cc",
    description="connected components (weak): labels checked against SciPy's up to renaming; "
                "rate: stored entries / time",
    prepare=_prepare_plain,
    references={"labels": C.Reference(
        "labels", "scipy.sparse.csgraph.connected_components (weak), compared up to renaming",
        _cc_ref, compare_partition)},
    impls=[
        C.Impl("semiring-gpu", "gpu", "labels", _cc_engine("gpu"), engine=True,
               description="algorithms.connected_components(A, symmetric=undirected) on the "
                           "GPU (Afforest)"),
        C.Impl("semiring-cpu", "cpu", "labels", _cc_engine("cpu"), engine=True,
               description="algorithms.connected_components(A, symmetric=undirected) on the "
                           "CPU backend"),
        C.Impl("scipy-cc", "cpu", "labels", _cc_scipy,
               description="scipy.sparse.csgraph.connected_components"),
        C.Impl("networkx-cc", "cpu", "labels", _cc_networkx,
               description=f"networkx.connected_components (nnz <= {NX_MAX_NNZ})"),
    ],
    impl_metrics=_rate, rate_key="geps", rate_label="G stored entries / s",
    param_label=lambda p: "labels",
    summary=_summary(peers=("scipy-cc", "networkx-cc")),
))


# --------------------------------------------------------------------------------------------
# pagerank


def pagerank_power(H, damping: float = PR_DAMPING, tol: float = PR_REF_TOL,
                   max_iter: int = PR_REF_MAX_ITER, *, dangling: str = "uniform"
                   ) -> tuple[np.ndarray, int]:
    """PageRank by float64 power iteration (SciPy): x ← d·(Pᵀx + s/n) + (1 - d)/n with P the
    row-normalized graph and s the rank on dangling vertices (``dangling="uniform"``:
    NetworkX's definition) or s = 0 (``"drop"``: GAP's, its ranks sum below 1), until the L1
    change is below ``tol``. Returns (ranks, iterations)."""
    n = H.shape[0]
    if n == 0:
        return np.zeros(0), 0
    xp = np if isinstance(H.data, np.ndarray) else C.gen.get_xp("gpu")
    A = H.astype(np.float64)
    A.data[:] = 1.0  # unweighted (as GAP; NetworkX would use the weights)
    out = xp.asarray(A.sum(axis=1)).ravel()
    isdangling = out == 0
    inv = xp.where(isdangling, 0.0, 1.0 / xp.where(isdangling, 1.0, out))
    AT = A.T.tocsr()
    x = xp.full(n, 1.0 / n)
    for it in range(1, max_iter + 1):
        s = float(x[isdangling].sum()) / n if dangling == "uniform" else 0.0
        y = damping * (AT @ (x * inv) + s) + (1.0 - damping) / n
        err = float(xp.abs(y - x).sum())
        x = y
        if err < tol:
            return C.gen.to_numpy(x), it
    return C.gen.to_numpy(x), max_iter


def compare_l1(tol: float):
    def cmp(got, ref) -> tuple[bool, str]:
        got = np.asarray(got, dtype=np.float64).ravel()
        ref = np.asarray(ref, dtype=np.float64).ravel()
        if got.shape != ref.shape:
            return False, f"shape {got.shape} != reference shape {ref.shape}"
        d = float(np.abs(got - ref).sum())
        ok = bool(np.isfinite(d) and d <= tol)
        return ok, f"L1 distance {d:.3g} {'<=' if ok else '>'} {tol:g} (sum {got.sum():.6g})"

    return cmp


def _pr_ref(dangling: str):
    def ref(ctx: C.CaseContext) -> np.ndarray:
        where = "SciPy"
        try:  # cuSPARSE float64 SpMV on a GPU run (the same iteration, seconds faster)
            if not ctx.env.get("gpu_name"):
                raise RuntimeError("CPU run")
            x, it = pagerank_power(ctx.graph.gpu(), dangling=dangling)
            where = "cupyx"
        except Exception:
            x, it = pagerank_power(ctx.graph.host, dangling=dangling)
        ctx.case_metrics[f"reference_{dangling}"] = f"{where}, {it} iterations"
        return x

    return ref


def _pr_engine(device: str, variant: str = "networkx"):
    def setup(ctx: C.CaseContext):
        fn = _engine_fn("pagerank")
        A = C.sr_matrix(ctx, device)
        # the same stopping rule for both: an L1 change below PR_TOL (NetworkX's tol is per
        # vertex, GAP's absolute)
        tol = PR_TOL / max(ctx.graph.n, 1) if variant == "networkx" else PR_TOL
        return lambda: fn(A, PR_DAMPING, tol=tol, max_iter=PR_MAX_ITER, weighted=False,
                          variant=variant)

    return setup


def _pr_scipy(ctx: C.CaseContext):
    H = ctx.graph.host
    return lambda: pagerank_power(H, tol=PR_TOL, max_iter=PR_MAX_ITER)[0]


def _pr_networkx(ctx: C.CaseContext):
    nx = _networkx()
    G = _nx_graph(ctx)
    n = ctx.graph.n

    def run():
        # NetworkX's tol is per vertex: it stops when the L1 change < n·tol
        pr = nx.pagerank(G, alpha=PR_DAMPING, tol=PR_TOL / max(n, 1), max_iter=PR_MAX_ITER,
                         weight=None)
        out = np.zeros(n)
        out[np.fromiter(pr.keys(), dtype=np.int64, count=len(pr))] = np.fromiter(
            pr.values(), dtype=np.float64, count=len(pr))
        return out

    return run


PAGERANK = C.register_algorithm(C.Algorithm(
    name="pagerank",
    description=f"PageRank, damping {PR_DAMPING}, unweighted, dangling rank spread uniformly "
                f"(NetworkX; GAP drops it: semiring-gpu-gapdef computes that); impls stop at "
                f"an L1 change of {PR_TOL:g} (GAP's -t); checked against a float64 power iteration to {PR_REF_TOL:g} within L1 {PR_L1_TOL:g}; "
                f"rate: stored entries / time",
    prepare=_prepare_plain,
    references={
        "ranks": C.Reference(
            "ranks", f"float64 power iteration (cupyx on a GPU run, else SciPy), NetworkX's "
                     f"definition, to an L1 change < {PR_REF_TOL:g}", _pr_ref("uniform"),
            compare_l1(PR_L1_TOL)),
        "ranks-gap": C.Reference(
            "ranks-gap", f"float64 power iteration (cupyx / SciPy), GAP's definition (dangling "
                         f"rank dropped), to an L1 change < {PR_REF_TOL:g}", _pr_ref("drop"),
            compare_l1(PR_L1_TOL))},
    impls=[
        C.Impl("semiring-gpu", "gpu", "ranks", _pr_engine("gpu"), engine=True,
               description="algorithms.pagerank(A, variant='networkx') on the GPU"),
        C.Impl("semiring-gpu-gapdef", "gpu", "ranks-gap", _pr_engine("gpu", "gap"),
               engine=True, description="algorithms.pagerank(A, variant='gap') on the GPU: "
                                        "GAP's definition (dangling rank dropped)"),
        C.Impl("semiring-cpu", "cpu", "ranks", _pr_engine("cpu"), engine=True,
               description="algorithms.pagerank(A) on the CPU backend"),
        C.Impl("scipy-pagerank", "cpu", "ranks", _pr_scipy,
               description=f"float64 power iteration with SciPy SpMV to an L1 change "
                           f"< {PR_TOL:g}"),
        C.Impl("networkx-pagerank", "cpu", "ranks", _pr_networkx,
               description=f"networkx.pagerank (nnz <= {NX_MAX_NNZ})"),
    ],
    impl_metrics=_rate, rate_key="geps", rate_label="G stored entries / s",
    param_label=lambda p: "ranks",
    summary=_summary(engine=("semiring-gpu", "semiring-gpu-gapdef", "semiring-cpu"),
                     peers=("scipy-pagerank", "networkx-pagerank")),
))


# --------------------------------------------------------------------------------------------
# bc (one source) and msbc (a batch of sources)


def _scatter_add(y: np.ndarray, idx: np.ndarray, vals: np.ndarray) -> None:
    """y[idx] += vals with repeated indices: a bincount over y when the batch is large (one
    O(n) pass), ``np.add.at`` when it is small (levels of a long path)."""
    if idx.size * 16 >= y.size:
        y += np.bincount(idx, weights=vals, minlength=y.size)
    else:
        np.add.at(y, idx, vals)


def brandes_dependencies(H, sources) -> np.ndarray:
    """Σ over ``sources`` of Brandes' dependency δ_s(v) (unweighted shortest paths), float64,
    vectorized per BFS level (host reference)."""
    n = H.shape[0]
    indptr = np.asarray(H.indptr, dtype=np.int64)
    indices = np.asarray(H.indices, dtype=np.int64)
    rows = np.repeat(np.arange(n, dtype=np.int64), np.diff(indptr))
    total = np.zeros(n)
    for s in np.asarray(sources, dtype=np.int64):
        level = np.full(n, -1, dtype=np.int64)
        owner = np.empty(n, dtype=np.int64)
        level[s] = 0
        frontier = np.array([s])
        depth = 0
        while frontier.size:
            depth += 1
            starts, ends = indptr[frontier], indptr[frontier + 1]
            lens = ends - starts
            if lens.sum() == 0:
                break
            pos = np.repeat(starts - np.cumsum(lens) + lens, lens) + np.arange(lens.sum())
            nb = indices[pos]
            nb = nb[level[nb] < 0]
            # one copy of each vertex, without sorting: the last writer of owner[v] keeps it
            owner[nb] = np.arange(nb.size)
            nb = nb[owner[nb] == np.arange(nb.size)]
            level[nb] = depth
            frontier = nb
        # the shortest-path DAG: u -> v with level[v] = level[u] + 1
        lu = level[rows]
        dag = (lu >= 0) & (level[indices] == lu + 1)
        u, v = rows[dag], indices[dag]
        order = np.argsort(level[u], kind="stable")
        u, v = u[order], v[order]
        bounds = np.searchsorted(level[u], np.arange(depth + 1))
        sigma = np.zeros(n)
        sigma[s] = 1.0
        for d in range(depth):
            a, b = bounds[d], bounds[d + 1]
            if a < b:
                _scatter_add(sigma, v[a:b], sigma[u[a:b]])
        delta = np.zeros(n)
        for d in range(depth - 1, -1, -1):
            a, b = bounds[d], bounds[d + 1]
            if a < b:
                uu, vv = u[a:b], v[a:b]
                _scatter_add(delta, uu, sigma[uu] / sigma[vv] * (1.0 + delta[vv]))
        delta[s] = 0.0
        total += delta
    return total


def compare_scaled(rtol: float):
    """Equal after fitting one positive scale factor per group of vertices (least squares):
    the sources and the other vertices (NetworkX 3.6 rescales a sample of k sources by
    N/(k-1) on the sources, N/k elsewhere; others halve undirected scores or normalize):
    |got - c·ref| ≤ rtol·|c·ref| + rtol·1e-3·max|c·ref| in each group. ``ref`` is a dict
    {"bc": dependencies, "sources": source vertices} (or a bare array: one group)."""
    def cmp(got, ref) -> tuple[bool, str]:
        if isinstance(ref, dict):
            ref, srcs = ref["bc"], ref["sources"]
        else:
            srcs = np.zeros(0, dtype=np.int64)
        got = np.asarray(got, dtype=np.float64).ravel()
        ref = np.asarray(ref, dtype=np.float64).ravel()
        if got.shape != ref.shape:
            return False, f"shape {got.shape} != reference shape {ref.shape}"
        in_src = np.zeros(ref.size, dtype=bool)
        in_src[np.asarray(srcs, dtype=np.int64)] = True
        want = np.zeros_like(ref)
        scales = []
        for name, g in (("others", ~in_src), ("sources", in_src)):
            if not g.any():
                continue
            rr = float(ref[g] @ ref[g])
            if rr == 0.0:
                continue  # want 0 there
            c = float(np.nan_to_num(got[g]) @ ref[g]) / rr
            if not c > 0:
                return False, f"fitted scale on the {name} {c:g} is not positive"
            want[g] = c * ref[g]
            scales.append(f"{name} x{c:.6g}")
        ok_v = np.abs(got - want) <= rtol * np.abs(want) + rtol * 1e-3 * np.abs(want).max()
        return C._verdict(ok_v, got, want, f"close (rtol={rtol:g}) after scaling "
                                           f"{', '.join(scales) or 'nothing'}")

    return cmp


def _bc_ref(ctx: C.CaseContext) -> dict:
    srcs = ctx.inputs["sources"]
    return {"bc": brandes_dependencies(ctx.graph.host, srcs), "sources": srcs}


def _bc_engine(device: str):
    def setup(ctx: C.CaseContext):
        fn = _engine_fn("betweenness_centrality")
        A = C.sr_matrix(ctx, device)
        srcs = ctx.inputs["sources"]
        sources = [int(s) for s in srcs]
        return lambda: (fn(A, sources=sources, normalized=False), srcs)

    return setup


def _bc_engine_fetch(result) -> np.ndarray:
    """The scores on the host; a lone source's own score, NaN by NetworkX's 0/0 rescaling
    (documented), is its dependency 0."""
    bc, srcs = result
    out = C.to_host(bc).astype(np.float64)
    if len(srcs) == 1 and np.isnan(out[srcs[0]]):
        out[srcs[0]] = 0.0
    return out


def _bc_networkx(ctx: C.CaseContext):
    nx = _networkx()
    k = int(ctx.inputs["sources"].size)
    if ctx.graph.nnz * k > NX_BC_MAX_WORK:
        raise C.Unavailable(f"NetworkX BC is not timed above {NX_BC_MAX_WORK} stored entries "
                            f"× sources")
    G = _nx_graph(ctx)
    n = ctx.graph.n
    sources = [int(s) for s in ctx.inputs["sources"]]
    targets = list(range(n))

    def run():
        bc = nx.betweenness_centrality_subset(G, sources, targets, normalized=False)
        out = np.zeros(n)
        out[np.fromiter(bc.keys(), dtype=np.int64, count=len(bc))] = np.fromiter(
            bc.values(), dtype=np.float64, count=len(bc))
        return out

    return run


def _bc_algorithm(name: str, k: int | None) -> C.Algorithm:
    what = "one source (as GAP: one Brandes a trial)" if k is None else "a batch of sources"
    return C.register_algorithm(C.Algorithm(
        name=name,
        description=f"betweenness centrality from {what}: Brandes' dependencies summed over "
                    f"the sources, checked against a float64 host Brandes up to one fitted "
                    f"scale factor (normalizations differ), rtol {BC_RTOL:g}; rate: stored "
                    f"entries × sources / time",
        prepare=_prepare_sources(k),
        references={"bc": C.Reference(
            "bc", "host Brandes (NumPy, float64), dependencies summed over the sources",
            _bc_ref, compare_scaled(BC_RTOL))},
        impls=[
            C.Impl("semiring-gpu", "gpu", "bc", _bc_engine("gpu"), fetch=_bc_engine_fetch,
                   engine=True,
                   description="algorithms.betweenness_centrality(A, sources=...) on the GPU"),
            C.Impl("semiring-cpu", "cpu", "bc", _bc_engine("cpu"), fetch=_bc_engine_fetch,
                   engine=True,
                   description="algorithms.betweenness_centrality(A, sources=...) on the CPU "
                               "backend"),
            C.Impl("networkx-bc", "cpu", "bc", _bc_networkx,
                   description="networkx.betweenness_centrality_subset(G, sources, all "
                               f"vertices) (nnz × sources <= {NX_BC_MAX_WORK})"),
        ],
        impl_metrics=_rate, rate_key="geps", rate_label="G stored entries × sources / s",
        param_label=(lambda p: "1 source") if k is None
        else (lambda p: f"{p.get('sources')} sources"),
        summary=_summary(peers=("networkx-bc",)),
    ))


BC = _bc_algorithm("bc", None)


def _msbc_prepare(ctx: C.CaseContext) -> None:
    _prepare_sources(int(ctx.params.get("sources", 32)))(ctx)


MSBC = _bc_algorithm("msbc", 32)
MSBC.prepare = _msbc_prepare


# --------------------------------------------------------------------------------------------
# tc


def degree_oriented(H):
    """The graph's upper part by (degree, id) rank: U(u, v) = 1 where rank(u) < rank(v)."""
    import scipy.sparse as sp  # noqa: PLC0415  (lazy: scipy.sparse adds 0.1 s to python -m bench --list's 0.2 s)

    n = H.shape[0]
    deg, rank = _degree_rank(H)
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    cols = np.asarray(H.indices, dtype=np.int64)
    keep = rank[rows] < rank[cols]
    return sp.csr_matrix((np.ones(int(keep.sum()), dtype=np.int64), (rows[keep], cols[keep])),
                         shape=H.shape)


def _degree_rank(H):
    n = H.shape[0]
    deg = np.diff(np.asarray(H.indptr, dtype=np.int64))
    rank = np.empty(n, dtype=np.int64)
    rank[np.lexsort((np.arange(n), deg))] = np.arange(n)
    return deg, rank


def graph_oriented_wedges(H) -> int:
    """:func:`oriented_wedges` of :func:`degree_oriented` (H) without building it."""
    n = H.shape[0]
    deg, rank = _degree_rank(H)
    rows = np.repeat(np.arange(n, dtype=np.int64), deg)
    cols = np.asarray(H.indices, dtype=np.int64)
    keep = rank[rows] < rank[cols]
    outd = np.bincount(rows[keep], minlength=n).astype(np.int64)
    ind = np.bincount(cols[keep], minlength=n).astype(np.int64)
    return int((ind * outd).sum())


def oriented_wedges(U) -> int:
    """Products of the masked product U @ U: Σ_k indeg_U(k) · outdeg_U(k)."""
    outd = np.diff(U.indptr).astype(np.int64)
    ind = np.bincount(U.indices, minlength=U.shape[0]).astype(np.int64)
    return int((ind * outd).sum())


def scipy_triangles(U, block_products: int = 1 << 27) -> int:
    """Σ ((U @ U) .* U) in row blocks of about ``block_products`` products."""
    n = U.shape[0]
    outd = np.diff(U.indptr).astype(np.int64)
    work = np.zeros(n, dtype=np.int64)
    if U.nnz:
        rows = np.repeat(np.arange(n), outd)
        np.add.at(work, rows, outd[U.indices])
    cum = np.cumsum(work)
    total = 0
    start = 0
    while start < n:
        stop = int(np.searchsorted(cum, (cum[start - 1] if start else 0) + block_products,
                                   side="right"))
        stop = max(stop, start + 1)
        B = U[start:stop]
        total += int((B @ U).multiply(B).sum())
        start = stop
    return total


def _tc_oriented(ctx: C.CaseContext):
    return ctx.graph.get("tc:U", lambda: degree_oriented(ctx.graph.host))


def _tc_scipy_possible(ctx: C.CaseContext) -> tuple[bool, int]:
    w = ctx.graph.get("tc:wedges", lambda: graph_oriented_wedges(ctx.graph.host))
    return w <= TC_SCIPY_MAX_WEDGES, w


def _tc_ref(ctx: C.CaseContext) -> np.ndarray:
    """The count as a one-element int64 array (the form of every impl's fetched result)."""
    if "tc" in ctx.memo:
        return np.array([ctx.memo["tc"]], dtype=np.int64)

    ok, w = _tc_scipy_possible(ctx)
    ctx.case_metrics["oriented_wedges"] = w
    gap = peers_gap.configured() is not None
    if ok and not (gap and w > TC_GAP_REFERENCE_WEDGES):
        ctx.memo["tc"] = scipy_triangles(_tc_oriented(ctx))
        ctx.case_metrics["reference"] = "scipy"
    else:
        run = peers_gap.run_kernel("tc", peers_gap._graph_files(ctx)["sg"], [], 1,
                                   verify=False)
        ctx.memo["tc"] = run.facts["triangles"]
        ctx.memo["gap:tc_run"] = run
        ctx.case_metrics["reference"] = (f"GAP tc -n 1 (not SciPy: {w:.3g} oriented wedges "
                                         f"> {TC_GAP_REFERENCE_WEDGES:.0e})")
    ctx.case_metrics["triangles"] = int(ctx.memo["tc"])
    return np.array([ctx.memo["tc"]], dtype=np.int64)


def _tc_check_reference(ctx: C.CaseContext) -> None:
    """Unavailable (before timing) when no exact reference can be had for this graph."""
    ok, w = _tc_scipy_possible(ctx)
    if ok:
        return

    try:
        peers_gap.build()
    except peers_gap.GapUnavailable as e:
        raise C.Unavailable(f"no exact triangle count to check against: {w:.3g} oriented "
                            f"wedges > {TC_SCIPY_MAX_WEDGES:.0e} for SciPy, and {e}") from None


def _tc_engine(device: str):
    def setup(ctx: C.CaseContext):
        fn = _engine_fn("triangle_count")
        _tc_check_reference(ctx)
        A = C.sr_matrix(ctx, device)
        return lambda: fn(A)

    return setup


def _tc_scipy(ctx: C.CaseContext):
    ok, w = _tc_scipy_possible(ctx)
    if not ok:
        raise C.Unavailable(f"SciPy's masked product is not timed above "
                            f"{TC_SCIPY_MAX_WEDGES:.0e} products ({w:.3g} here)")
    H = ctx.graph.host
    return lambda: scipy_triangles(degree_oriented(H))


def _tc_networkx(ctx: C.CaseContext):
    nx = _networkx()
    G = _nx_graph(ctx, NX_TC_MAX_NNZ)
    return lambda: sum(nx.triangles(G).values()) // 3


def _tc_fetch(x) -> np.ndarray:
    return np.array([int(x)], dtype=np.int64)


TC = C.register_algorithm(C.Algorithm(
    name="tc",
    description="triangle count (undirected), exact; rate: stored entries / time",
    prepare=_prepare_plain,
    references={"triangles": C.Reference(
        "triangles", f"SciPy sum((U @ U) .* U), U oriented by degree (up to "
                     f"{TC_SCIPY_MAX_WEDGES:.0e} products; GAP's count above)",
        _tc_ref, C.compare_exact)},
    impls=[
        C.Impl("semiring-gpu", "gpu", "triangles", _tc_engine("gpu"), fetch=_tc_fetch,
               engine=True, description="algorithms.triangle_count(A) on the GPU"),
        C.Impl("semiring-cpu", "cpu", "triangles", _tc_engine("cpu"), fetch=_tc_fetch,
               engine=True, description="algorithms.triangle_count(A) on the CPU backend"),
        C.Impl("scipy-tc", "cpu", "triangles", _tc_scipy, fetch=_tc_fetch,
               description="SciPy sum((U @ U) .* U) with U oriented by degree, row blocks"),
        C.Impl("networkx-tc", "cpu", "triangles", _tc_networkx, fetch=_tc_fetch,
               description=f"sum(networkx.triangles(G).values()) / 3 (nnz <= {NX_TC_MAX_NNZ})"),
    ],
    impl_metrics=_rate, rate_key="geps", rate_label="G stored entries / s",
    param_label=lambda p: "count",
    summary=_summary(peers=("scipy-tc", "networkx-tc")),
))


# --------------------------------------------------------------------------------------------
# suites (the graphs: kron-22 and urand-22 on the GPU, plus the quick suite's); not
# in the tiny suites, the harness's own end-to-end test (tests/test_bench.py)

_SUITE = {
    ("quick", "cpu"): {"cc": ["kron-14", "urand-14", "grid-128x128"],
                       "pagerank": ["kron-14", "urand-14", "grid-128x128"],
                       "bc": ["kron-14", "urand-14", "grid-128x128"], "msbc": ["kron-12"],
                       "tc": ["kron-14", "urand-14"]},
    ("quick", "gpu"): {"cc": ["kron-20", "kron-22", "urand-22", "grid-2048x2048"],
                       "pagerank": ["kron-20", "kron-22", "urand-22", "grid-2048x2048"],
                       "bc": ["kron-20", "kron-22", "urand-22", "grid-2048x2048"],
                       "msbc": ["kron-20"],
                       "tc": ["kron-18", "kron-22", "urand-22"]},
    ("full", "cpu"): {"cc": ["kron-16", "kron-18", "urand-18", "grid-512x512"],
                      "pagerank": ["kron-16", "kron-18", "urand-18", "grid-512x512"],
                      "bc": ["kron-16", "kron-18", "urand-18", "grid-512x512"],
                      "msbc": ["kron-16"], "tc": ["kron-16", "urand-18"]},
    ("full", "gpu"): {"cc": ["kron-20", "kron-22", "kron-24", "urand-22", "grid-2048x2048"],
                      "pagerank": ["kron-20", "kron-22", "kron-24", "urand-22",
                                   "grid-2048x2048"],
                      "bc": ["kron-20", "kron-22", "kron-24", "urand-22", "grid-2048x2048"],
                      "msbc": ["kron-20", "kron-22"],
                      "tc": ["kron-18", "kron-20", "kron-22", "urand-22"]},
    # issue 21 item 2: warm calls on small graphs against SciPy on the same machine
    ("small", "cpu"): {a: ["urand-10-ef4", "urand-13-ef4"] for a in ("cc", "pagerank", "tc")},
    ("small", "gpu"): {a: ["urand-10-ef4", "urand-13-ef4"] for a in ("cc", "pagerank", "tc")},
}
for (_name, _dev), _entries in _SUITE.items():
    _suite = C.get_suite(_name, _dev)
    _have = {e.algorithm for e in _suite.entries}
    for _alg, _graphs in _entries.items():
        if _alg not in _have:
            _suite.entries.append(C.SuiteEntry(
                _alg, _graphs, MSBC_SOURCES if _alg == "msbc" else [{}]))

# GAP's peer (its graph kinds; its ``gap`` impl for the algorithms above and bfs / sssp once
# a checkout is configured)
from . import peers_gap  # noqa: E402, F401
