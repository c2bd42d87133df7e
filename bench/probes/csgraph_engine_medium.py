"""The csgraph facade's engine (GPU) path on medium graphs, run on NumPy
(``_validation.FORCE_ENGINE``), against SciPy (session 15, audit8): the random sweep
(``csgraph_conformance.py``) draws at most 10 vertices, below the size-dependent branches
(exact-sum all-pairs, thin-graph routing, batching). Here 30-400 vertices, degree 1-8,
path-like or uniform, integer / 3-decimal / [0, 1) weights, negative weights on forward
edges, canonical CSR, raw CSR with duplicates or dense input: shortest paths (distances exact,
predecessors valid where paths tie: ``tied_predecessors``), components, MST, Laplacian
(to 1e-12), traversals. SciPy's false NegativeCycleError of an undirected Bellman–Ford
(``_shortest._undirected_bf_false_cycle``) is compared with SciPy's Dijkstra instead.

Usage: PYTHONPATH=. python3 bench/probes/csgraph_engine_medium.py SEED N_GRAPHS"""
import os, sys, warnings, numpy as np, scipy.sparse as sp, scipy.sparse.csgraph as scg, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import csgraph_conformance as H
from algorithms import csgraph
from algorithms.csgraph import _validation
_validation.FORCE_ENGINE = True
warnings.simplefilter('ignore')
seed = int(sys.argv[1]); rng = np.random.default_rng(seed)
nd = 0; st = {}
for g in range(int(sys.argv[2])):
    n = int(rng.choice([30, 64, 150, 400])); deg = float(rng.choice([1.0, 3.0, 8.0]))
    m = int(n * deg)
    shape = rng.integers(0, 3)
    if shape == 0:  # path-like (thin)
        r = np.arange(n - 1); c = r + 1; r = np.r_[r, rng.integers(0, n, m // 10)]; c = np.r_[c, rng.integers(0, n, m // 10)]
    else:
        r, c = rng.integers(0, n, m), rng.integers(0, n, m)
    wk = rng.integers(0, 4)
    w = [lambda k: rng.integers(0, 10, k).astype(float), lambda k: np.round(rng.random(k) * 10, 3),
         lambda k: rng.random(k), lambda k: rng.integers(1, 5, k).astype(float)][wk](r.size)
    neg = rng.integers(0, 3) == 0
    if neg:  # negative weights on forward edges only (no cycle when r < c)
        w = np.where((r < c) & (rng.random(r.size) < 0.3), -w, w)
    fmt = rng.integers(0, 3)
    if fmt == 0:
        G = sp.csr_array((w, (r, c)), shape=(n, n))
    elif fmt == 1:  # raw CSR with duplicates
        o = np.argsort(r, kind='stable'); ptr = np.r_[0, np.cumsum(np.bincount(r, minlength=n))]
        G = sp.csr_matrix((w[o], c[o].astype(np.int32), ptr.astype(np.int32)), shape=(n, n))
    else:
        G = sp.csr_array((w, (r, c)), shape=(n, n)).toarray()
    directed = bool(rng.integers(2))
    calls = []
    idx = [None, 0, [0, n // 2, n - 1], int(rng.integers(0, n))][int(rng.integers(0, 4))]
    if not neg:
        calls.append(('dijkstra', dict(directed=directed, indices=idx, return_predecessors=True)))
        calls.append(('dijkstra', dict(directed=directed, indices=[0, 1, 2], min_only=True, return_predecessors=True, limit=float(rng.choice([np.inf, 5.0])))))
        calls.append(('shortest_path', dict(directed=directed, method='D', indices=idx, unweighted=bool(rng.integers(2)))))
    if neg and not directed:
        pass
    else:
        calls.append(('bellman_ford', dict(directed=directed, indices=idx, return_predecessors=True)))
        calls.append(('johnson', dict(directed=directed, indices=idx, return_predecessors=True)))
        if n <= 150:
            calls.append(('floyd_warshall', dict(directed=directed, return_predecessors=True)))
            calls.append(('shortest_path', dict(directed=directed)))
    calls.append(('connected_components', dict(directed=directed, connection=str(rng.choice(['weak', 'strong'])))))
    calls.append(('minimum_spanning_tree', {}))
    calls.append(('laplacian', dict(normed=bool(rng.integers(2)) and not neg, symmetrized=bool(rng.integers(2)))))
    s0 = int(rng.integers(0, n))
    for fn in ('breadth_first_order', 'depth_first_order', 'breadth_first_tree', 'depth_first_tree'):
        calls.append((fn, dict(i_start=s0, directed=directed)))
    for name, kw in calls:
        if name == 'connected_components' and fmt == 1 and kw['connection'] == 'strong' and directed: continue  # SciPy hang
        ref = H.outcome(getattr(scg, name), H.copy_input(G), **kw)
        if ref[0] == 'err' and isinstance(ref[1], scg.NegativeCycleError) and name == 'bellman_ford' and not kw['directed'] and not neg:
            # SciPy's false cycle (its undirected test's 1e-15 tolerance): Dijkstra's answer
            ref = H.outcome(scg.dijkstra, H.copy_input(G), directed=False, indices=kw['indices'], return_predecessors=True)
            st['scipy false cycle'] = st.get('scipy false cycle', 0) + 1
        t0 = time.time(); got = H.outcome(getattr(csgraph, name), H.copy_input(G), **kw); dt = time.time() - t0
        key = name
        st[key] = st.get(key, 0) + 1
        if ref[0] == got[0] == 'ok':
            d = H.same(got[1], ref[1])
            if d and name in H.PRED_FUNCS and kw.get('return_predecessors'):
                v = H.tied_predecessors(name, G, kw, got[1], ref[1])
                d = None if v is None else d + ' / ' + v
            if d and name == 'laplacian':
                a, b = got[1], ref[1]
                a = a.toarray() if sp.issparse(a) else a; b = b.toarray() if sp.issparse(b) else b
                if np.allclose(a, b, rtol=1e-12, atol=1e-12): d = None
            if d: nd += 1; print('DIFF', g, name, n, deg, wk, 'neg' if neg else '', ['csr', 'raw', 'dense'][fmt], kw, d[:250], flush=True)
        elif ref[0] != got[0] or not (isinstance(got[1], type(ref[1])) or isinstance(ref[1], ValueError) and isinstance(got[1], ValueError)):
            nd += 1; print('OUTCOME', g, name, n, kw, ref[0], repr(ref[1])[:80], got[0], repr(got[1])[:120], flush=True)
print(nd, 'diffs', st)
