"""Where the NetworkX backend starts to pay (issue 17): the constants of
``nx_semiring.interface.should_run``'s cost model.

For each function family of the model (``nx_semiring.interface.FAMILIES``: one representative
NetworkX call each) and each graph size (Kronecker ``nx_semiring.bench.kronecker_graph`` and
grids, small to medium), it times

- ``nx``: NetworkX's own function (best of ``--reps``);
- ``convert``: ``from_networkx`` afresh, with the engine's matrix on the default device;
- ``first``: the backend's call on that fresh conversion (what it also caches: transposes);
- ``warm``: the call again;

and prints, per row, the work units of the model (``interface._work``), the predicted times
of both sides (``interface.predict``) and whether the model's choice agrees with the clock,
for a graph used once (``fresh``: conversion + first call against NetworkX's call) and one
whose conversion is cached (``cached``: the first call on it against NetworkX's).
Then per family a least-squares fit of ``warm = fixed + per_unit × work`` and of NetworkX's
``nx = per_unit × work``, and the conversion's cost per stored entry: the numbers that go into
``NX_SECONDS_PER_UNIT``, ``ENGINE_COST`` and ``CONVERT_SECONDS_PER_ENTRY``.

Usage: PYTHONPATH=. python3 bench/probes/nx_should_run.py [--kron 8,10,12] [--grid 20,50,100]
       [--families bfs,sssp,...] [--reps 2] [--all-pairs-max-n 1500]

Session 23 (nx23, after session 22's ordered passes) ran it on the 2-core CPU host with Numba:
``--kron 7,9,11,13,15,17 --grid 10,32,100,316,447`` (10² to 2·10⁵ nodes), output in
bench/results/session23/nx23_should_run.md.
"""

import argparse
import time

import numpy as np

import semiring as sr
from nx_semiring import algorithms as nxa
from nx_semiring import analytics as nxan
from nx_semiring import centrality as nxc
from nx_semiring import interface
from nx_semiring import paths as nxp
from nx_semiring import structure as nxs
from nx_semiring.bench import grid_graph, kronecker_graph
from nx_semiring.graph import from_networkx


_PARTITIONS = {}


def _partition(G):
    """A partition of G for modularity (NetworkX's label propagation, made once per graph)."""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    if id(G) not in _PARTITIONS:
        _PARTITIONS[id(G)] = list(nx.community.label_propagation_communities(G))
    return _PARTITIONS[id(G)]


def _calls(G, s):
    """family -> (edge attribute, NetworkX's call, the backend's call, dispatch name, kwargs)"""
    import networkx as nx  # noqa: PLC0415  (networkx is an optional extra)

    t = min((v for v in G if v != s), key=G.degree)  # flow: to the quietest other vertex
    return {
        "k_truss": (None, lambda: nx.k_truss(G, 4), lambda g: nxan.k_truss(g, 4), "k_truss",
                    {}),
        "label_propagation": (None, lambda: list(nx.community.label_propagation_communities(G)),
                              lambda g: list(nxan.label_propagation_communities(g)),
                              "label_propagation_communities", {}),
        "modularity": ("weight", lambda: nx.community.modularity(G, _partition(G)),
                       lambda g: nxan.modularity(g, _partition(G)), "modularity", {}),
        "flow": ("weight", lambda: nx.maximum_flow_value(G, s, t, capacity="weight"),
                 lambda g: nxp.maximum_flow_value(g, s, t, capacity="weight"),
                 "maximum_flow_value", {}),
        "degree": (None, lambda: nx.degree_centrality(G), lambda g: nxs.degree_centrality(g),
                   "degree_centrality", {}),
        "bfs": (None, lambda: nx.single_source_shortest_path_length(G, s),
                lambda g: nxa.single_source_shortest_path_length(g, s),
                "single_source_shortest_path_length", {}),
        "bfs_order": (None, lambda: list(nx.bfs_edges(G, s)), lambda g: list(nxa.bfs_edges(g, s)),
                      "bfs_edges", {}),
        "components": (None, lambda: list(nx.connected_components(G)),
                       lambda g: list(nxa.connected_components(g)), "connected_components", {}),
        "sssp": ("weight", lambda: nx.single_source_dijkstra_path_length(G, s),
                 lambda g: nxa.single_source_dijkstra_path_length(g, s),
                 "single_source_dijkstra_path_length", {}),
        "bellman_ford": ("weight", lambda: nx.single_source_bellman_ford_path_length(G, s),
                         lambda g: nxa.single_source_bellman_ford_path_length(g, s),
                         "single_source_bellman_ford_path_length", {}),
        "pagerank": ("weight", lambda: nx.pagerank(G), lambda g: nxa.pagerank(g), "pagerank", {}),
        "bc": (None, lambda: nx.betweenness_centrality(G, k=min(8, len(G)), seed=0),
               lambda g: nxa.betweenness_centrality(g, k=min(8, len(G)), seed=0),
               "betweenness_centrality", {"k": min(8, len(G))}),
        "edge_bc": (None, lambda: nx.edge_betweenness_centrality(G, k=min(8, len(G)), seed=0),
                    lambda g: nxc.edge_betweenness_centrality(g, k=min(8, len(G)), seed=0),
                    "edge_betweenness_centrality", {"k": min(8, len(G))}),
        "triangles": (None, lambda: nx.triangles(G), lambda g: nxa.triangles(g), "triangles", {}),
        "core": (None, lambda: nx.core_number(G), lambda g: nxa.core_number(g), "core_number", {}),
        "louvain": ("weight", lambda: nx.community.louvain_communities(G, seed=0),
                    lambda g: nxa.louvain_communities(g, seed=0), "louvain_communities", {}),
        "mst": ("weight", lambda: nx.minimum_spanning_tree(G),
                lambda g: nxa.minimum_spanning_tree(g), "minimum_spanning_tree", {}),
        "apsp_bfs": (None, lambda: dict(nx.all_pairs_shortest_path_length(G)),
                     lambda g: dict(nxa.all_pairs_shortest_path_length(g)),
                     "all_pairs_shortest_path_length", {}),
        "fw": ("weight", lambda: nx.floyd_warshall_numpy(G), lambda g: nxa.floyd_warshall_numpy(g),
               "floyd_warshall_numpy", {}),
    }


def _attrs(attr, fam):
    """The conversion's edge_attrs: a flow's capacity has no default (NetworkX's is inf)."""
    return None if attr is None else {attr: float("inf") if fam == "flow" else 1}


def _sync():
    if sr.default_device() == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        cupy.cuda.get_current_stream().synchronize()


def _refusable(f):
    """f, whose NotImplementedError (the backend's refusal: NetworkX then runs the call after
    the backend's work) is recorded in ``refused`` instead of raised."""
    def call(g):
        try:
            return f(g)
        except NotImplementedError:
            call.refused = True
            return None

    call.refused = False
    return call


def _clock(f, reps=1):
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        f()
        _sync()
        best = min(best, time.perf_counter() - t)
    return best


def main():
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--kron", default="8,10,12")
    p.add_argument("--grid", default="20,50,100")
    # core_subgraph costs core_number's units (interface.py): measured as "core"
    p.add_argument("--families", default=",".join(f for f in interface.FAMILIES
                                                  if f != "core_subgraph"))
    p.add_argument("--reps", type=int, default=2)
    p.add_argument("--all-pairs-max-n", type=int, default=1500,
                   help="largest graph for floyd_warshall_numpy and all-pairs BFS (n³, n·m)")
    p.add_argument("--max-nx-seconds", type=float, default=3.0,
                   help="skip larger graphs of a family once NetworkX took this long")
    a = p.parse_args()
    dev = sr.default_device()
    print(f"engine device: {dev}", flush=True)
    if dev == "gpu":
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        print(cupy.cuda.runtime.getDeviceProperties(0)["name"].decode(), flush=True)
    families = [f for f in a.families.split(",") if f]
    graphs = [(f"kron-{s}", kronecker_graph(int(s))) for s in a.kron.split(",") if s]
    graphs += [(f"grid-{s}", grid_graph(int(s))) for s in a.grid.split(",") if s]
    small = kronecker_graph(6)  # compile the kernels first
    for fam in families:
        attr, _, f_sr, _, _ = _calls(small, 0)[fam]
        _refusable(f_sr)(from_networkx(small, edge_attrs=_attrs(attr, fam),
                           use_cache=False, preserve_edge_attrs=fam in ("mst", "k_truss")))
    _sync()
    rows = {f: [] for f in families}
    conv = []
    slow = set()
    print("| graph | family | n | stored | work | nx ms | convert ms | first ms | warm ms | "
          "model nx ms | model backend ms fresh / cached | model runs fresh / cached | "
          "clock says run fresh / cached |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|---|")
    for gname, G in graphs:
        s = max(G, key=G.degree)
        kind = gname.split("-")[0]
        for fam in families:
            if (kind, fam) in slow:
                continue
            attr, f_nx, f_sr, name, kw = _calls(G, s)[fam]
            f_sr = _refusable(f_sr)
            if fam in ("fw", "apsp_bfs") and len(G) > a.all_pairs_max_n:  # n³, n·m
                continue
            t_nx = _clock(f_nx, a.reps)
            holder = {}

            def convert(attr=attr, holder=holder, fam=fam):
                holder["g"] = g = from_networkx(
                    G, edge_attrs=_attrs(attr, fam), use_cache=False,
                    **({"preserve_edge_attrs": True, "preserve_node_attrs": True,
                        "preserve_graph_attrs": True} if fam in ("mst", "k_truss") else {}))
                g.matrix(attr)

            t_conv = _clock(convert)
            g = holder["g"]
            t_first = _clock(lambda g=g, f_sr=f_sr: f_sr(g))
            t_warm = _clock(lambda g=g, f_sr=f_sr: f_sr(g), a.reps)
            n, stored = len(G), int(g.adj.size)
            work = interface._work(interface.FAMILIES[fam], n, stored, kw)
            pred_nx, pred_sr = interface.predict(name, n, stored, kw, cached=False, device=dev)
            _, pred_c = interface.predict(name, n, stored, kw, cached=True, has_weights=True,
                                          device=dev)
            runs, runs_c = pred_sr < pred_nx, pred_c < pred_nx
            # a refused call costs the backend's work and then NetworkX's
            clock = t_conv + t_first + t_nx * f_sr.refused < t_nx
            clock_c = t_first + t_nx * f_sr.refused < t_nx
            if f_sr.refused:
                gname_row = f"{gname} (refused)"
            else:
                gname_row = gname
                rows[fam].append((work, t_nx, t_warm, t_first))
            conv.append((n + stored, t_conv))
            print(f"| {gname_row} | {fam} | {n} | {stored} | {work:.3g} | {t_nx * 1e3:.2f} | "
                  f"{t_conv * 1e3:.2f} | {t_first * 1e3:.2f} | {t_warm * 1e3:.2f} | "
                  f"{pred_nx * 1e3:.2f} | {pred_sr * 1e3:.2f} / {pred_c * 1e3:.2f} | "
                  f"{runs} / {runs_c} | {clock} / {clock_c} |", flush=True)
            if t_nx > a.max_nx_seconds:
                slow.add((kind, fam))
    print("\nfits (seconds): NetworkX per unit; engine warm fixed + per unit; first call fixed")
    for fam, r in rows.items():
        if len(r) < 2:
            continue
        w, tn, tw, tf = (np.array(x, dtype=float) for x in zip(*r))
        nx_unit = float((w @ tn) / (w @ w))
        A = np.stack([np.ones_like(w), w], axis=1)
        (fixed, unit), *_ = np.linalg.lstsq(A, tw, rcond=None)
        (ffixed, funit), *_ = np.linalg.lstsq(A, tf, rcond=None)
        print(f"  {fam:12s} nx {nx_unit:.3e}/unit (per row {np.min(tn / w):.2e}.."
              f"{np.max(tn / w):.2e})   engine warm {fixed:.3e} + {unit:.3e}/unit   "
              f"first call {ffixed:.3e} + {funit:.3e}/unit (per row {np.min(tf / w):.2e}.."
              f"{np.max(tf / w):.2e})")
    e, t = (np.array(x, dtype=float) for x in zip(*conv))
    print(f"  convert      {float((e @ t) / (e @ e)):.3e} s per (n + stored entry), "
          f"median {float(np.median(t / e)):.3e}")


if __name__ == "__main__":
    main()
