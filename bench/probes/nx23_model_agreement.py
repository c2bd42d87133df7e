"""Agreement of ``should_run``'s cost model with the clock on the rows of a table that
bench/probes/nx_should_run.py printed (nx23, session 23): for each row, the model's choice
(``interface.predict``; the calls ``should_run`` leaves to NetworkX as refused on most graphs,
``interface._rarely_answered``, count as NetworkX) for a graph used once (``fresh``: the
conversion included) and one whose conversion is cached, against the clock's (conversion +
first call, or the first call, against NetworkX's call; a refused call costs NetworkX's call
after the backend's work). Prints the counts and the rows where they differ.

Usage: PYTHONPATH=. python bench/probes/nx23_model_agreement.py TABLE.md
"""
import sys
from nx_semiring import interface
NAMES = {"k_truss": ("k_truss", {}), "label_propagation": ("label_propagation_communities", {}),
         "modularity": ("modularity", {}), "flow": ("maximum_flow_value", {}),
         "degree": ("degree_centrality", {}), "bfs": ("single_source_shortest_path_length", {}),
         "bfs_order": ("bfs_edges", {}), "components": ("connected_components", {}),
         "sssp": ("single_source_dijkstra_path_length", {}),
         "bellman_ford": ("single_source_bellman_ford_path_length", {}),
         "pagerank": ("pagerank", {}), "bc": ("betweenness_centrality", {"k": 8}),
         "edge_bc": ("edge_betweenness_centrality", {"k": 8}), "triangles": ("triangles", {}),
         "core": ("core_number", {}), "louvain": ("louvain_communities", {}),
         "mst": ("minimum_spanning_tree", {}), "apsp_bfs": ("all_pairs_shortest_path_length", {}),
         "fw": ("floyd_warshall_numpy", {})}
tot = {"fresh": [0, 0], "cached": [0, 0]}
bad = []
for line in open(sys.argv[1]):
    if not (line.startswith("| kron") or line.startswith("| grid")):
        continue
    c = [x.strip() for x in line.strip().strip("|").split("|")]
    g, fam, n, st = c[0], c[1], int(c[2]), int(c[3])
    tnx, tconv, tfirst = (float(x) / 1e3 for x in c[5:8])
    refused = "refused" in g
    name, kw = NAMES[fam]
    a = dict(kw)
    rare = interface._rarely_answered(name, {"weight": "weight", **a}) if fam in ("sssp", "bellman_ford") else None
    for mode, cached in (("fresh", False), ("cached", True)):
        if rare:
            model = False
        else:
            p_nx, p_sr = interface.predict(name, n, st, a, cached=cached, has_weights=cached, device="cpu")
            model = p_sr < p_nx
        clock = (0 if cached else tconv) + tfirst + tnx * refused < tnx
        tot[mode][0] += model == clock
        tot[mode][1] += 1
        if model != clock:
            bad.append(f"{g} {fam} {mode}: model {'engine' if model else 'nx'}, clock {'engine' if clock else 'nx'} (nx {tnx*1e3:.1f} ms, conv {tconv*1e3:.1f}, first {tfirst*1e3:.1f})")
for m, (ok, n) in tot.items():
    print(f"{m}: the model agrees with the clock on {ok} of {n} rows")
print("\n".join(bad))
