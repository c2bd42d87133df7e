"""dist21: bad input, constructors and edge cases of semiring.dist / algorithms.dist."""
import numpy as np
import scipy.sparse as sp

import semiring as sr
import algorithms
import algorithms.dist as adist
from semiring import dist


def show(label, fn):
    try:
        out = fn()
        if isinstance(out, tuple):
            out = tuple(np.asarray(o).tolist() if hasattr(o, "shape") else o for o in out)
        elif hasattr(out, "shape") and not isinstance(out, dist.DistMatrix):
            out = (np.asarray(out).dtype, np.asarray(out).tolist())
        print(f"{label}: OK {out!r:.200}")
    except Exception as e:  # noqa: BLE001
        print(f"{label}: {type(e).__module__}.{type(e).__name__}: {str(e)[:200]}")


if __name__ == "__main__":
    c = dist.local_cluster(2, processes=False)
    S = sp.csr_matrix(np.array([[0, 1, 0, 0], [0, 0, 2, 0], [0, 0, 0, 0], [3, 0, 0, 0.0]]))
    DA = dist.DistMatrix.from_scipy(S, c, nparts=2)
    # sources
    for s in (-1, 4, np.int64(2), np.int32(1), True, np.bool_(True), 1.0, "1", None, np.array(2), np.array([2]), 2**70):
        show(f"bfs source={s!r}", lambda: adist.bfs(DA, s))
        show(f"sssp source={s!r}", lambda: adist.sssp(DA, s))
        show(f"ref bfs source={s!r}", lambda: algorithms.bfs(sr.Matrix.from_scipy(S, device='cpu'), s))
    # non-square
    R = sp.random(3, 5, density=0.5, format="csr", random_state=0)
    DR = dist.DistMatrix.from_scipy(R, c)
    for name in ("bfs", "sssp", "bellman_ford", "pagerank", "connected_components"):
        show(f"{name} nonsquare", lambda: getattr(adist, name)(DR, 0) if name not in ("pagerank", "connected_components") else getattr(adist, name)(DR))
        show(f"{name} dispatch nonsquare", lambda: getattr(algorithms, name)(DR, 0) if name not in ("pagerank", "connected_components") else getattr(algorithms, name)(DR))
    # constructors
    show("from_scipy csc", lambda: dist.DistMatrix.from_scipy(S.tocsc(), c).gather().to_dense(missing=0).tolist())
    show("from_scipy coo", lambda: dist.DistMatrix.from_scipy(S.tocoo(), c).gather().to_dense(missing=0).tolist())
    show("from_scipy csr_array", lambda: dist.DistMatrix.from_scipy(sp.csr_array(S), c).gather().to_dense(missing=0).tolist())
    show("from_scipy ndarray", lambda: dist.DistMatrix.from_scipy(S.toarray(), c))
    show("from_scipy list", lambda: dist.DistMatrix.from_scipy([[1]], c))
    show("from_scipy uint8", lambda: adist.bfs(dist.DistMatrix.from_scipy(S.astype(np.uint8), c), 0))
    show("from_scipy complex", lambda: adist.sssp(dist.DistMatrix.from_scipy(S.astype(complex), c), 0))
    show("from_scipy int64 idx", lambda: adist.bfs(dist.DistMatrix.from_scipy(sp.csr_matrix((S.data, S.indices.astype(np.int64), S.indptr.astype(np.int64)), shape=S.shape), c), 0))
    # duplicates in a COO
    D = sp.coo_matrix((np.array([1.0, 2.0]), (np.array([0, 0]), np.array([1, 1]))), shape=(3, 3))
    show("from_scipy coo dups", lambda: dist.DistMatrix.from_scipy(D, c).gather().to_dense(missing=0).tolist())
    show("ref from_scipy coo dups", lambda: sr.Matrix.from_scipy(D, device='cpu').to_dense(missing=0).tolist())
    # unsorted / duplicate csr
    U = sp.csr_matrix((np.array([5.0, 1.0, 2.0]), np.array([2, 0, 2]), np.array([0, 3, 3, 3])), shape=(3, 3))
    before = (U.data.copy(), U.indices.copy(), U.indptr.copy(), U.has_sorted_indices)
    show("from_scipy unsorted dup csr", lambda: dist.DistMatrix.from_scipy(U, c, nparts=2).gather().to_dense(missing=0).tolist())
    show("ref unsorted dup csr", lambda: sr.Matrix.from_scipy(U, device='cpu').to_dense(missing=0).tolist())
    print("mutated csr?", not (np.array_equal(before[0], U.data) and np.array_equal(before[1], U.indices) and np.array_equal(before[2], U.indptr)))
    # nparts, bounds
    for kw in (dict(nparts=0), dict(nparts=9), dict(nparts=True), dict(nparts=2.0), dict(bounds=[0, 5, 4]), dict(bounds=[0, 2]), dict(bounds=[0, 0, 0, 4]), dict(bounds=[0.0, 4.0])):
        show(f"from_scipy {kw}", lambda: adist.bfs(dist.DistMatrix.from_scipy(S, c, **kw), 3).tolist())
    show("n=0 bfs", lambda: adist.bfs(dist.DistMatrix.from_scipy(sp.csr_matrix((0, 0)), c), 0))
    for name in ("pagerank", "connected_components"):
        for np_ in (1, 2, 3):
            show(f"n=0 {name} nparts={np_}", lambda: getattr(adist, name)(dist.DistMatrix.from_scipy(sp.csr_matrix((0, 0)), c, nparts=np_)))
            show(f"n=0 {name} nparts={np_} gather=False", lambda: getattr(adist, name)(dist.DistMatrix.from_scipy(sp.csr_matrix((0, 0)), c, nparts=np_), gather=False).to_dense())
    show("ref n=0 cc", lambda: algorithms.connected_components(sr.Matrix.from_scipy(sp.csr_matrix((0, 0)), device='cpu')))
    show("ref n=0 pr", lambda: algorithms.pagerank(sr.Matrix.from_scipy(sp.csr_matrix((0, 0)), device='cpu')))
    for np_ in (1, 2, 3):
        one = dist.DistMatrix.from_scipy(sp.csr_matrix(np.array([[1.0]])), c, nparts=np_)
        for name in ("bfs", "sssp", "bellman_ford", "delta_stepping"):
            show(f"n=1 {name} nparts={np_}", lambda: getattr(adist, name)(one, 0))
        show(f"n=1 pagerank nparts={np_}", lambda: adist.pagerank(one))
        show(f"n=1 cc nparts={np_}", lambda: adist.connected_components(one))
    # algorithm args
    A1 = sr.Matrix.from_scipy(S, device='cpu')
    for kw in (dict(damping=1.0), dict(damping=-0.1), dict(damping=np.float32(0.5)), dict(damping="x"), dict(tol=0), dict(tol=np.nan), dict(tol=True), dict(tol=-1), dict(max_iter=0), dict(max_iter=1), dict(max_iter=2.0), dict(personalization=[1, 0, 0]), dict(personalization=[0, 0, 0, 0]), dict(personalization=[1, -1, 1, 1]), dict(personalization=[np.nan, 1, 1, 1]), dict(personalization=[0, 0, 0, 1]), dict(personalization={0: 1})):
        for np_ in (1, 2):
            DAp = dist.DistMatrix.from_scipy(S, c, nparts=np_)
            show(f"pagerank {kw} nparts={np_}", lambda: adist.pagerank(DAp, **kw))
        show(f"ref pagerank {kw}", lambda: algorithms.pagerank(A1, weighted=False, **kw))
    for kw in (dict(limit=-1), dict(limit=np.nan), dict(limit=True), dict(limit=np.inf), dict(limit=0), dict(delta=0), dict(delta=-1), dict(delta=np.inf), dict(delta=True), dict(direction="x"), dict(method="dijkstra"), dict(predecessors=True), dict(method="bellman_ford", limit=3)):
        for np_ in (1, 2):
            DAp = dist.DistMatrix.from_scipy(S, c, nparts=np_)
            show(f"sssp {kw} nparts={np_}", lambda: adist.sssp(DAp, 0, **kw))
        show(f"ref sssp {kw}", lambda: algorithms.sssp(A1, 0, **kw))
    for kw in (dict(connection="strong"), dict(connection="x"), dict(symmetric=True)):
        for np_ in (1, 2):
            DAp = dist.DistMatrix.from_scipy(S, c, nparts=np_)
            show(f"cc {kw} nparts={np_}", lambda: adist.connected_components(DAp, **kw))
    for kw in (dict(direction="x"), dict(sources=[0, 1]), dict(parents=True, deterministic=True), dict(symmetric=True)):
        for np_ in (1, 2):
            DAp = dist.DistMatrix.from_scipy(S, c, nparts=np_)
            show(f"bfs {kw} nparts={np_}", lambda: adist.bfs(DAp, 0, **kw))
        show(f"ref bfs {kw}", lambda: algorithms.bfs(A1, 0, **kw))
    # negative cycle
    NC = sp.csr_matrix(np.array([[0, 1.0, 0], [0, 0, -2.0], [0, 1.0, 0]]))
    for np_ in (1, 2, 3):
        DN = dist.DistMatrix.from_scipy(NC, c, nparts=np_)
        for name in ("sssp", "bellman_ford", "delta_stepping"):
            show(f"negcycle {name} nparts={np_}", lambda: getattr(adist, name)(DN, 0))
        show(f"negcycle unreachable bf nparts={np_}", lambda: adist.bellman_ford(dist.DistMatrix.from_scipy(NC[[0, 1, 2]][:, [0, 1, 2]], c, nparts=np_), 0))
    c.close(); c.cluster.close()
