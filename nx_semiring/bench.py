"""Pure NetworkX against the ``"semiring"`` backend: ``python -m nx_semiring.bench``.

For each graph (Graph500 Kronecker, undirected, edge factor 16; a 2-D grid) and algorithm
(BFS levels, SSSP with integer weights in [1, 255], PageRank, connected components, sampled
betweenness, triangles) it times NetworkX's own function and the backend's on the same
NetworkX graph, and reports the conversion separately: ``convert`` (NetworkX graph → the
backend's graph, paid once per graph and cached by NetworkX), ``backend`` (the call on the
converted graph, results back as NetworkX's dicts: ``first`` is the first call on the
converted graph, which also builds what the engine caches on it, e.g. transposes; ``again``
a second call), and the speedups ``NetworkX / (convert + first)`` (a graph used once) and
``NetworkX / again``. Kernels are compiled beforehand on a small graph. Every backend result is checked against NetworkX's (equal, or close for the
floating-point ones).

    python -m nx_semiring.bench                       # kron-14 and a 200 x 200 grid
    python -m nx_semiring.bench --kron 18 --grid 1000 # the issue's sizes (NetworkX: minutes)
    python -m nx_semiring.bench --algorithms bfs,pagerank --no-check
    python -m nx_semiring.bench --kron 18 --grid 1000 --convert-once --nx-limit 5
        # one conversion per attribute through NetworkX's cache, as the dispatcher does;
        # NetworkX's own calls predicted above 5 s skipped

The engine runs on the default device (the GPU when one answers).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

import semiring as sr

from . import algorithms as nxa
from .graph import from_networkx

GRAPH500_ABC = (0.57, 0.19, 0.19)
EDGE_FACTOR = 16
BC_SOURCES = 64
ALGORITHMS = ("bfs", "sssp", "pagerank", "components", "bc", "triangles")


def kronecker_graph(scale: int, seed: int = 0):
    """An undirected Graph500 Kronecker graph (self-loops and duplicates dropped), its
    vertex labels randomly permuted, with integer weights in [1, 255]."""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    rng = np.random.default_rng(seed)
    n, m = 1 << scale, EDGE_FACTOR << scale
    a, b, c = GRAPH500_ABC
    src = np.zeros(m, dtype=np.int64)
    dst = np.zeros(m, dtype=np.int64)
    for level in range(scale):
        row = rng.random(m) > a + b
        col = np.where(row, rng.random(m) > c / (1 - a - b), rng.random(m) > a / (a + b))
        src |= row.astype(np.int64) << level
        dst |= col.astype(np.int64) << level
    perm = rng.permutation(n)
    src, dst = perm[src], perm[dst]
    keep = src != dst
    w = rng.integers(1, 256, size=int(keep.sum()))
    G = nx.Graph()
    G.add_nodes_from(range(n))
    G.add_weighted_edges_from(zip(src[keep].tolist(), dst[keep].tolist(), w.tolist()))
    return G


def grid_graph(side: int, seed: int = 0):
    """A side x side lattice (vertex r * side + c) with integer weights in [1, 255]."""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    rng = np.random.default_rng(seed)
    v = np.arange(side * side).reshape(side, side)
    src = np.concatenate([v[:, :-1].ravel(), v[:-1, :].ravel()])
    dst = np.concatenate([v[:, 1:].ravel(), v[1:, :].ravel()])
    w = rng.integers(1, 256, size=src.size)
    G = nx.Graph()
    G.add_nodes_from(range(side * side))
    G.add_weighted_edges_from(zip(src.tolist(), dst.tolist(), w.tolist()))
    return G


def _cases(G, source, bc_sources=None):
    """{algorithm: (edge attribute, NetworkX's call, the backend's call on a converted graph,
    "equal" | "close")}; ``bc_sources``: betweenness's sample k (default ``BC_SOURCES``).
    ``python -m bench``'s ``networkx`` case (bench/networkx_case.py) runs these too."""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    k = min(BC_SOURCES if bc_sources is None else bc_sources, len(G))
    return {
        "bfs": (None, lambda: nx.single_source_shortest_path_length(G, source),
                lambda g: nxa.single_source_shortest_path_length(g, source), "equal"),
        "sssp": ("weight", lambda: nx.single_source_dijkstra_path_length(G, source),
                 lambda g: nxa.single_source_dijkstra_path_length(g, source), "equal"),
        "pagerank": ("weight", lambda: nx.pagerank(G), lambda g: nxa.pagerank(g), "close"),
        "components": (None, lambda: list(nx.connected_components(G)),
                       lambda g: list(nxa.connected_components(g)), "equal"),
        "bc": (None, lambda: nx.betweenness_centrality(G, k=k, seed=0),
               lambda g: nxa.betweenness_centrality(g, k=k, seed=0), "close"),
        "triangles": (None, lambda: nx.triangles(G), lambda g: nxa.triangles(g), "equal"),
    }


def _clock(f):
    t = time.perf_counter()
    r = f()
    return r, time.perf_counter() - t


def _check(kind, expected, got):
    """Results agree: equal, or ("close") the same keys with values within 1e-6 relative, a
    NaN matching a NaN (betweenness on a 1000² grid: the shortest-path counts overflow
    float64, and NetworkX's own values are NaN)."""
    if kind == "equal":
        return expected == got

    def close(e, g):
        if e != e or g != g:
            return e != e and g != g
        return abs(e - g) <= 1e-6 * max(1.0, abs(e))

    return set(expected) == set(got) and all(close(expected[v], got[v]) for v in expected)


_DISPATCH_NAMES = {"bfs": "single_source_shortest_path_length",
                   "sssp": "single_source_dijkstra_path_length", "pagerank": "pagerank",
                   "components": "connected_components", "bc": "betweenness_centrality",
                   "triangles": "triangles"}


def run(graphs, algorithms, check=True, out=print, convert_once=False, nx_limit=None):
    """Time every (graph, algorithm); see the module docstring. ``convert_once``: one
    conversion per edge attribute, through NetworkX's cache on the graph as the dispatcher
    does (the weighted one reuses the structure of the unweighted one), instead of a fresh
    conversion per algorithm. ``nx_limit``: skip NetworkX's own call where
    :func:`nx_semiring.interface.predict` expects it to take longer (seconds)."""
    from .interface import predict  # noqa: PLC0415  (the cost model; imports the backend object)

    rows = []
    # compile the kernels (and warm NumPy/CuPy) on a small graph first
    small = kronecker_graph(8)
    for name in algorithms:
        attr, _, f_sr, _ = _cases(small, 0)[name]
        f_sr(from_networkx(small, edge_attrs=None if attr is None else {attr: 1},
                           use_cache=False))
    out("| graph | algorithm | NetworkX s | convert s | first s | again s | "
        "speedup (convert + first) | speedup (again) | agrees |")
    out("|---|---|---:|---:|---:|---:|---:|---:|---|")
    for gname, G in graphs:
        source = max(G, key=G.degree)
        cases = _cases(G, source)
        n, stored = len(G), sum(map(len, G._adj.values()))
        converted = {}
        G.__networkx_cache__.clear()
        for name in algorithms:
            attr, f_nx, f_sr, kind = cases[name]
            # a fresh conversion per algorithm, so that "first" pays what the engine caches
            def convert(attr=attr):
                g = from_networkx(G, edge_attrs=None if attr is None else {attr: 1},
                                  use_cache=convert_once)
                g.matrix(attr)  # the engine's CSR on its device: part of the conversion
                _sync()
                return g

            if convert_once and attr in converted:
                g, t_conv = converted[attr]
            else:
                g, t_conv = _clock(convert)
                converted[attr] = g, t_conv
            got, t_first = _clock(lambda: (f_sr(g), _sync())[0])
            _, t_again = _clock(lambda: (f_sr(g), _sync())[0])
            k = min(BC_SOURCES, n)
            t_pred = predict(_DISPATCH_NAMES[name], n, stored, {"k": k}, device="cpu")[0]
            if nx_limit is not None and t_pred > nx_limit:
                t_nx, ok = None, None
                nx_cell = f"skipped (~{t_pred:.0f} s predicted)"
            else:
                expected, t_nx = _clock(f_nx)
                ok = _check(kind, expected, got) if check else None
                nx_cell = f"{t_nx:.3f}"
            once = None if t_nx is None else t_nx / (t_conv + t_first)
            again = None if t_nx is None else t_nx / t_again
            row = (gname, name, t_nx, t_conv, t_first, t_again, once, again, ok)
            rows.append(row)

            def x(v):
                return "-" if v is None else f"{v:.1f}x"

            out(f"| {gname} | {name} | {nx_cell} | {t_conv:.3f} | {t_first:.4f} | "
                f"{t_again:.4f} | {x(once)} | {x(again)} | {'-' if ok is None else ok} |")
    return rows


def _sync():
    if sr.default_device() == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.get_current_stream().synchronize()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python -m nx_semiring.bench", description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kron", type=int, default=14, help="Kronecker scale (0: none)")
    p.add_argument("--grid", type=int, default=200, help="grid side (0: none)")
    p.add_argument("--algorithms", default=",".join(ALGORITHMS))
    p.add_argument("--bc-sources", type=int, default=None,
                   help="sampled sources of betweenness (k, seed 0)")
    p.add_argument("--no-check", action="store_true")
    p.add_argument("--convert-once", action="store_true",
                   help="one conversion per edge attribute through NetworkX's cache (as the "
                        "dispatcher converts), not a fresh one per algorithm")
    p.add_argument("--nx-limit", type=float, default=None,
                   help="skip NetworkX's own call where it is predicted to take longer than "
                        "this many seconds (nx_semiring.interface.predict)")
    a = p.parse_args(argv)
    global BC_SOURCES
    if a.bc_sources is not None:
        BC_SOURCES = a.bc_sources

    dev = sr.default_device()
    if dev == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        dev = f"gpu ({cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()})"
    print(f"engine device: {dev}")
    graphs = []
    if a.kron:
        G, t = _clock(lambda: kronecker_graph(a.kron))
        print(f"kron-{a.kron}: {len(G)} nodes, {G.number_of_edges()} edges ({t:.1f} s to build)")
        graphs.append((f"kron-{a.kron}", G))
    if a.grid:
        G, t = _clock(lambda: grid_graph(a.grid))
        print(f"grid-{a.grid}: {len(G)} nodes, {G.number_of_edges()} edges ({t:.1f} s to build)")
        graphs.append((f"grid-{a.grid}", G))
    algorithms = [x for x in a.algorithms.split(",") if x]
    bad = set(algorithms) - set(ALGORITHMS)
    if bad:
        p.error(f"unknown algorithms {sorted(bad)}; choose from {ALGORITHMS}")
    rows = run(graphs, algorithms, check=not a.no_check, convert_once=a.convert_once,
               nx_limit=a.nx_limit)
    return 0 if all(r[-1] in (True, None) for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
