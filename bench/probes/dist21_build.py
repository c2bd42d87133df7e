"""dist21: the edge-list constructors against sr.Matrix.from_coo on the same lists."""
import os
import tempfile

import numpy as np

import semiring as sr
from semiring import dist


def show(label, fn):
    try:
        out = fn()
        print(f"{label}: OK {out!r:.220}")
    except Exception as e:  # noqa: BLE001
        print(f"{label}: {type(e).__module__}.{type(e).__name__}: {str(e)[:220]}")


def ref(s, d, w, n, dup_op=None, dtype=None):
    return sr.Matrix.from_coo(s, d, w, nrows=n, ncols=n, dup_op=dup_op, dtype=dtype, device="cpu")


def eq(M, R):
    a, b = M.gather(), R
    return (a.dtype, b.dtype, a.nvals, b.nvals,
            bool(np.array_equal(a.to_dense(missing=-7), b.to_dense(missing=-7))))


if __name__ == "__main__":
    c = dist.local_cluster(2, processes=False)
    n = 7
    s = np.array([0, 1, 1, 3, 6, 6, 2], dtype=np.int64)
    d = np.array([1, 2, 2, 3, 0, 5, 2], dtype=np.int64)
    w = np.array([1.5, 0.0, 2.0, -1.0, np.inf, 3.0, 0.0])
    keep = (s.copy(), d.copy(), w.copy())

    def chunk(i, k, s=s, d=d, w=w):
        lo, hi = len(s) * i // k, len(s) * (i + 1) // k
        return s[lo:hi], d[lo:hi], w[lo:hi]
    show("edge_fn dups no dup_op", lambda: eq(dist.DistMatrix.from_edge_function(chunk, (n, n), c, nchunks=3), ref(s, d, w, n)))
    show("edge_fn dups min", lambda: eq(dist.DistMatrix.from_edge_function(chunk, (n, n), c, nchunks=3, dup_op="min", nparts=3), ref(s, d, w, n, "min")))
    show("edge_fn dups plus replicate", lambda: eq(dist.DistMatrix.from_edge_function(chunk, (n, n), c, nchunks=3, dup_op="plus", nparts=3, replicate=True), ref(s, d, w, n, "plus")))
    show("edge_fn kinds cols", lambda: eq(dist.DistMatrix.from_edge_function(chunk, (n, n), c, nchunks=2, dup_op="plus", nparts=3, kinds=("cols",)), ref(s, d, w, n, "plus")))
    for dt in (np.float32, np.int32, np.bool_, np.uint8, np.int8, np.float16):
        show(f"edge_fn dtype={np.dtype(dt)}", lambda: eq(dist.DistMatrix.from_edge_function(chunk, (n, n), c, nchunks=2, dup_op="max", nparts=2, dtype=dt), ref(s, d, w, n, "max", dt)))
        ww = np.where(np.isfinite(w), w, 9).astype(dt)
        show(f"edge_fn weight dtype={np.dtype(dt)}", lambda: eq(dist.DistMatrix.from_edge_function(lambda i, k: chunk(i, k, w=ww), (n, n), c, nchunks=2, dup_op="max", nparts=2), ref(s, d, ww, n, "max")))
    for it in (np.int32, np.uint32, np.uint64, np.int16):
        show(f"edge_fn idx {np.dtype(it)}", lambda: eq(dist.DistMatrix.from_edge_function(lambda i, k: chunk(i, k, s=s.astype(it), d=d.astype(it)), (n, n), c, nchunks=2, dup_op="min"), ref(s, d, w, n, "min")))
    show("edge_fn no weights", lambda: eq(dist.DistMatrix.from_edge_function(lambda i, k: chunk(i, k)[:2], (n, n), c, nchunks=2, dup_op="any"), ref(s, d, None, n, "any")))
    show("edge_fn neg idx", lambda: dist.DistMatrix.from_edge_function(lambda i, k: (np.array([-1]), np.array([0])), (n, n), c))
    show("edge_fn float idx", lambda: dist.DistMatrix.from_edge_function(lambda i, k: (np.array([1.0]), np.array([0])), (n, n), c))
    show("edge_fn shape (0,0)", lambda: dist.DistMatrix.from_edge_function(lambda i, k: (np.zeros(0, int), np.zeros(0, int)), (0, 0), c).nvals)
    print("caller arrays mutated:", not all(np.array_equal(a, b) for a, b in zip(keep, (s, d, w))))
    # files
    tmp = tempfile.mkdtemp()
    np.save(os.path.join(tmp, "a.npy"), np.stack([s[:4], d[:4], w[:4]], 1))
    np.savez(os.path.join(tmp, "b.npz"), src=s[4:], dst=d[4:], weight=w[4:])
    show("files dup min", lambda: eq(dist.DistMatrix.from_files([os.path.join(tmp, "a.npy"), os.path.join(tmp, "b.npz")], c, shape=(n, n), dup_op="min", nparts=3), ref(s, d, w, n, "min")))
    show("files default shape", lambda: dist.DistMatrix.from_files([os.path.join(tmp, "a.npy"), os.path.join(tmp, "b.npz")], c, dup_op="min").shape)
    show("files missing", lambda: dist.DistMatrix.from_files([os.path.join(tmp, "zz.npy")], c))
    show("files wrong shape arg", lambda: dist.DistMatrix.from_files([os.path.join(tmp, "a.npy")], c, shape=(2, 2)))
    import scipy.io, scipy.sparse as sp
    scipy.io.mmwrite(os.path.join(tmp, "m.mtx"), sp.coo_matrix((w[:4], (s[:4], d[:4])), shape=(n, n)))
    show("files mtx (file dups summed by mmread?)", lambda: eq(dist.DistMatrix.from_files([os.path.join(tmp, "m.mtx")], c, shape=(n, n), dup_op="plus"), ref(s[:4], d[:4], w[:4], n, "plus")))
    show("files mtx no shape", lambda: dist.DistMatrix.from_files([os.path.join(tmp, "m.mtx")], c, dup_op="plus").shape)
    # dataframe
    import pandas as pd
    import dask.dataframe as dd
    df = dd.from_pandas(pd.DataFrame({"src": s, "dst": d, "weight": w}), npartitions=3)
    show("ddf dup min", lambda: eq(dist.DistMatrix.from_dask_dataframe(df, c, weight="weight", shape=(n, n), dup_op="min", nparts=2), ref(s, d, w, n, "min")))
    show("ddf no weight", lambda: eq(dist.DistMatrix.from_dask_dataframe(df, c, shape=(n, n), dup_op="any", nparts=2), ref(s, d, None, n, "any")))
    show("ddf default shape", lambda: dist.DistMatrix.from_dask_dataframe(df, c, dup_op="min").shape)
    show("ddf bad col", lambda: dist.DistMatrix.from_dask_dataframe(df, c, src="x"))
    show("ddf float idx", lambda: dist.DistMatrix.from_dask_dataframe(dd.from_pandas(pd.DataFrame({"src": [0.5], "dst": [1]}), npartitions=1), c))
    show("ddf neg idx", lambda: dist.DistMatrix.from_dask_dataframe(dd.from_pandas(pd.DataFrame({"src": [-1], "dst": [1]}), npartitions=1), c, shape=(3, 3)))
    show("ddf neg idx noshape", lambda: dist.DistMatrix.from_dask_dataframe(dd.from_pandas(pd.DataFrame({"src": [-1], "dst": [1]}), npartitions=1), c).shape)
    show("ddf empty", lambda: dist.DistMatrix.from_dask_dataframe(dd.from_pandas(pd.DataFrame({"src": np.zeros(0, int), "dst": np.zeros(0, int)}), npartitions=1), c).shape)
    show("ddf bad shape", lambda: dist.DistMatrix.from_dask_dataframe(df, c, shape=5))
    show("files bad shape", lambda: dist.DistMatrix.from_files([os.path.join(tmp, "a.npy")], c, shape=(-1, 3)))
    c.close(); c.cluster.close()
