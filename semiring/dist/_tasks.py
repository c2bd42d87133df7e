"""Functions that run on the workers: each takes and returns the engine's own objects (a
partition is an ``sr.Matrix`` block or an ``sr.Vector`` slice) and calls the engine on them.

Module-level functions, so that Dask pickles them by reference (the workers import this
module: see ``_client._worker_environment``).
"""

from __future__ import annotations

import collections

import numpy as np

import semiring as sr

#: The positional multiplies whose result is the *output* index of the product (vxm: j, mxv:
#: i): a local block numbers its outputs from 0, so the partition's offset is added back.
OUTPUT_INDEX_OPS = {"vxm": ("secondj",), "mxv": ("firsti",)}


def _xp(device):
    return sr.array_module(device)


# ------------------------------------------------------------------ matrix blocks

def as_engine_matrix(M, device=None):
    """An ``sr.Matrix`` from a Matrix, a SciPy or a cupyx sparse matrix."""
    if isinstance(M, sr.Matrix):
        if device is None or M.device == device:
            return M
        return M.to_gpu() if device == "gpu" else M.to_cpu()
    if hasattr(M, "tocsr") and type(M).__module__.startswith("cupyx"):
        A = sr.Matrix.from_cupyx(M.tocsr())
        return A if device in (None, "gpu") else A.to_cpu()
    return sr.Matrix.from_scipy(M.tocsr(), device=device)


def row_block(M, lo: int, hi: int):
    """Rows [lo, hi) of M as a (hi - lo) × ncols Matrix (no copy of the column indices'
    order: CSR rows are contiguous)."""
    xp = M.xp
    ip = M.indptr
    a, b = int(ip[lo]), int(ip[hi])
    indptr = ip[lo:hi + 1] - ip[lo]
    indices = M.indices[a:b]
    if M.is_iso:
        return sr.Matrix.from_csr(indptr, indices, None, (hi - lo, M.ncols),
                                  iso_value=M.iso_value, dtype=M.dtype, check=False)
    return sr.Matrix.from_csr(indptr, indices, xp.asarray(M.values[a:b]), (hi - lo, M.ncols),
                              check=False)


def col_block(M, lo: int, hi: int):
    """Columns [lo, hi) of M as an nrows × (hi - lo) Matrix, renumbered from 0."""
    xp = M.xp
    ip = M.indptr.astype(xp.int64)
    keep = (M.indices >= lo) & (M.indices < hi)
    # entries kept per row: a prefix sum of keep read at the row pointers
    csum = xp.concatenate([xp.zeros(1, dtype=xp.int64), xp.cumsum(keep, dtype=xp.int64)])
    indptr = csum[ip]
    if M.indptr.dtype == xp.int32 and int(indptr[-1]) < 2**31:
        indptr = indptr.astype(xp.int32)  # the matrix's own index type, as its kernels expect
    indices = (M.indices[keep] - lo)
    if M.is_iso:
        return sr.Matrix.from_csr(indptr, indices, None, (M.nrows, hi - lo),
                                  iso_value=M.iso_value, dtype=M.dtype, check=False)
    return sr.Matrix.from_csr(indptr, indices, M.values[keep], (M.nrows, hi - lo), check=False)


def block_from_source(source, kind: str, lo: int, hi: int, device):
    """The block of ``source`` (a matrix, or a callable returning one) for partition [lo, hi)."""
    M = source() if callable(source) else source
    M = as_engine_matrix(M, device)
    if lo == 0 and hi == (M.nrows if kind == "rows" else M.ncols):
        return M  # the whole matrix (one partition): itself, its index types kept
    return row_block(M, lo, hi) if kind == "rows" else col_block(M, lo, hi)


def block_meta(B):
    """(device, dtype, nvals) of a block."""
    return B.device, np.dtype(B.dtype), int(B.nvals)


# ------------------------------------------------------------------ edge lists

def _index_column(a, name, op):
    """Vertex indices as int64: integers, or floats that are whole numbers (an m × 3 ``.npy``
    array stores its indices in the weights' float type; a dataframe column with missing
    values turns float). ``astype`` alone truncated 0.5 to vertex 0 and NaN to a huge one."""
    a = np.asarray(a)
    if a.dtype.kind in "iu":
        return a.astype(np.int64)
    if a.dtype.kind == "f":
        with np.errstate(invalid="ignore"):
            whole = bool(np.isfinite(a).all()) and bool((a == np.floor(a)).all())
        if whole:
            return a.astype(np.int64)
        bad = a[~(np.isfinite(a) & (a == np.floor(a)))][0]
        raise sr.DomainMismatch(f"{op}: {name} must hold vertex indices (whole numbers), got "
                                f"{bad!r}")
    raise sr.DomainMismatch(f"{op}: {name} must hold vertex indices (integers), got dtype "
                            f"{a.dtype}")


def edges_of_frame(df, src, dst, weight, op="DistMatrix.from_dask_dataframe"):
    """(src, dst, weights or None) host arrays of one pandas/cudf partition."""
    def host(col):
        a = df[col]
        a = a.to_numpy() if hasattr(a, "to_numpy") else np.asarray(a)
        return np.asarray(a.get() if hasattr(a, "get") else a)
    return _index_column(host(src), f"df[{src!r}]", op), \
        _index_column(host(dst), f"df[{dst!r}]", op), (None if weight is None else host(weight))


def edges_of_file(path, fmt):
    """(src, dst, weights or None) of a Matrix Market file or a NumPy edge file."""
    if fmt == "mtx":
        import scipy.io  # noqa: PLC0415 (Matrix Market files only)
        C = scipy.io.mmread(path)
        C = C.tocoo() if hasattr(C, "tocoo") else __import__("scipy.sparse").sparse.coo_matrix(C)
        vals = None if C.dtype == np.bool_ or getattr(C, "_pattern", False) else C.data
        return C.row.astype(np.int64), C.col.astype(np.int64), vals
    op = "DistMatrix.from_files"
    if fmt == "npz":
        with np.load(path) as z:
            return (_index_column(z["src"], f"{path}: src", op),
                    _index_column(z["dst"], f"{path}: dst", op),
                    z["weight"] if "weight" in z.files else None)
    a = np.load(path)  # .npy: an m × 2 (or m × 3: weights in the last column) array
    if a.ndim != 2 or a.shape[1] not in (2, 3):
        raise sr.DimensionMismatch(f"{op}: {path}: an edge array must have "
                                   f"shape (m, 2) or (m, 3), got {a.shape}")
    return (_index_column(a[:, 0], f"{path}: column 0 (src)", op),
            _index_column(a[:, 1], f"{path}: column 1 (dst)", op),
            (a[:, 2] if a.shape[1] == 3 else None))


def edge_extent(edges, path, fmt):
    """The least shape that holds a file's edges: a Matrix Market file's header says it
    (its trailing vertices may have no edge), other files (k, k), k one more than their
    largest vertex."""
    if fmt == "mtx":
        import scipy.io  # noqa: PLC0415 (Matrix Market files only)
        rows, cols = scipy.io.mminfo(path)[:2]
        return int(rows), int(cols)
    k = edge_max(edges) + 1
    return k, k


def edge_max(edges):
    s, d, _ = edges
    return int(max(s.max(initial=-1), d.max(initial=-1)))


def edge_check(edges, n, nrows, ncols, op):
    s, d, _ = edges
    if s.size:
        if int(s.min()) < 0 or int(d.min()) < 0 or int(s.max()) >= nrows or int(d.max()) >= ncols:
            raise sr.InvalidIndex(f"{op}: vertex indices must lie in [0, {nrows}) × [0, {ncols}), "
                                  f"got rows [{int(s.min())}, {int(s.max())}], "
                                  f"cols [{int(d.min())}, {int(d.max())}]")
    return True


def split_edges(edges, bounds, kind):
    """The edges cut by partition: one (src, dst, w) piece per partition of rows or cols,
    each in the edges' order, on the edges' device (NumPy or CuPy arrays). One pass of
    comparisons per partition (few: one per worker) rather than a sort of the whole list;
    together the pieces are one copy of the edges."""
    s, d, w = edges
    key = s if kind == "rows" else d
    out = []
    for lo, hi in zip(bounds[:-1], bounds[1:]):
        sel = (key >= int(lo)) & (key < int(hi))
        out.append((s[sel], d[sel], None if w is None else w[sel]))
        del sel
    return tuple(out)


#: Edge chunks made on this worker by :func:`edge_chunk_pieces`: (chunk, nchunks, entries),
#: the last few thousand (tests and the bench read it with ``client.run``: each chunk made
#: once, on the worker it was placed on, and no larger than its share).
CHUNK_LOG: collections.deque = collections.deque(maxlen=4096)


def _check_chunk(out, i, nchunks, nrows, ncols, op):
    """fn(i, nchunks)'s result checked: (src, dst[, weight]) 1-D arrays of one length, integer
    indices inside the shape; returned as such (NumPy or CuPy, as fn made them)."""
    call = f"{op}: fn({i}, {nchunks})"
    if not isinstance(out, (tuple, list)) or len(out) not in (2, 3):
        got = f"a {type(out).__name__}" + (f" of {len(out)}" if isinstance(out, (tuple, list))
                                            else "")
        raise sr.DomainMismatch(f"{call} must return (src, dst) or (src, dst, weight) arrays, "
                                f"got {got}")
    arrs = []
    for name, a in zip(("src", "dst", "weight"), out):
        if a is None and name == "weight":
            arrs.append(None)
            continue
        if isinstance(a, np.ma.MaskedArray):  # its mask would be dropped silently
            raise sr.DomainMismatch(f"{call}: {name} must be a plain array, got a masked "
                                    f"array (fill or compress it first)")
        if not (isinstance(a, np.ndarray) or sr.is_gpu_array(a)):
            a = np.asarray(a)
        if a.ndim != 1:
            raise sr.DimensionMismatch(f"{call}: {name} must be 1-D, got shape {a.shape}")
        if name != "weight" and a.size and a.dtype.kind not in "iu":
            raise sr.DomainMismatch(f"{call}: {name} must hold integers, got {a.dtype}")
        if name == "weight" and a.dtype.kind not in "biuf":
            raise sr.DomainMismatch(f"{call}: weight must be numbers, got {a.dtype}")
        arrs.append(a)
    s, d = arrs[0], arrs[1]
    w = arrs[2] if len(arrs) == 3 else None
    on_gpu = [sr.is_gpu_array(a) for a in (s, d, w) if a is not None]
    if any(on_gpu) and not all(on_gpu):
        raise sr.DomainMismatch(f"{call}: src, dst and weight must be on one device, got "
                                f"GPU arrays: {on_gpu}")
    for name, a in (("dst", d), ("weight", w)):
        if a is not None and a.shape != s.shape:
            raise sr.DimensionMismatch(f"{call}: {name} must have the length of src "
                                       f"(={s.size}), got {a.size}")
    for name, a, n in (("src", s, nrows), ("dst", d, ncols)):
        if a.size:
            lo, hi = int(a.min()), int(a.max())
            if lo < 0 or hi >= n:
                raise sr.InvalidIndex(f"{call}: {name} must lie in [0, {n}), got values in "
                                      f"[{lo}, {hi}]")
    return s, d, w


def edge_chunk_pieces(fn, i, nchunks, nrows, ncols, cuts, op):
    """Chunk i of an edge list made here by ``fn(i, nchunks)``, checked and cut by the
    partitions of each kind in ``cuts`` ({kind: bounds}): ``{kind: (piece per partition)}``,
    host arrays. The chunk itself is not kept: only its pieces, one copy per kind."""
    s, d, w = _check_chunk(fn(i, nchunks), i, nchunks, nrows, ncols, op)
    CHUNK_LOG.append((int(i), int(nchunks), int(s.size)))
    out = {}
    for kind, bounds in cuts.items():
        out[kind] = tuple((_host(_narrow_index(ps, nrows)), _host(_narrow_index(pd, ncols)),
                           None if pw is None else _host(pw))
                          for ps, pd, pw in split_edges((s, d, w), bounds, kind))
    return out


def block_of_chunks(fn, nchunks, kind, lo, hi, nrows, ncols, dup_op, dtype, device, op):
    """A block made by its own worker from every chunk of an edge list: chunk i by
    ``fn(i, nchunks)``, checked, the entries of this block kept (on the chunk's device) and
    the rest dropped; then assembled as :func:`block_of_pieces` assembles pieces (no edge
    crosses between workers: ``DistMatrix.from_edge_function(..., replicate=True)``)."""
    ss, dd, ww = [], [], []
    for i in range(nchunks):
        s, d, w = _check_chunk(fn(i, nchunks), i, nchunks, nrows, ncols, op)
        CHUNK_LOG.append((int(i), int(nchunks), int(s.size)))
        ((ps, pd, pw),) = split_edges((s, d, w), (lo, hi), kind)
        del s, d, w
        ss.append(_narrow_index(ps, nrows))
        dd.append(_narrow_index(pd, ncols))
        ww.append(pw)
        del ps, pd, pw
    return _assemble(kind, lo, hi, nrows, ncols, dup_op, dtype, device, ss, dd, ww)


def kind_piece(pieces, kind, q):
    return pieces[kind][q]


def piece(pieces, q):
    return pieces[q]


def _narrow_index(a, n):
    """Indices below ``n`` as int32 when n fits it (half the bytes to hold and send)."""
    return a.astype(np.int32) if n <= np.iinfo(np.int32).max and a.dtype.itemsize > 4 else a


def _widen(xp, a, n):
    """``a`` as int64 when indices up to ``n`` do not fit its type (a block's local indices
    are int32 while its offset may take them past 2**31)."""
    return a.astype(xp.int64) if n > np.iinfo(a.dtype).max else a


def _concat_on(xp, arrays, dtype=None):
    """One array on ``xp``'s device of the host (or device) arrays, each copied into its
    place: a GPU block's pieces go to the device one at a time, with no host copy of the
    whole (the host then holds the pieces alone, which Dask keeps until the task ends)."""
    dtype = np.result_type(*[a.dtype for a in arrays]) if dtype is None else np.dtype(dtype)
    if xp is np:
        arrays = [_host(a) for a in arrays]
        return np.concatenate(arrays).astype(dtype, copy=False) if arrays else \
            np.zeros(0, dtype)
    out = xp.empty(sum(int(a.size) for a in arrays), dtype=dtype)
    at = 0
    for a in arrays:
        if a.size:
            if isinstance(a, np.ndarray):
                out[at:at + a.size].set(np.ascontiguousarray(a, dtype=dtype))
            else:
                out[at:at + a.size] = a
        at += int(a.size)
    return out


#: The most entries one ``Matrix.from_coo`` call assembles when a block is made from its
#: pieces; a larger block is made in stripes of rows of about this many entries each (the
#: stripes' CSRs joined: the same matrix, duplicates folded in the same order, as they share
#: their row). from_coo's peak is estimated at ~70 bytes an entry on the GPU (int64 copies of
#: both index lists, the composite key, its argsort and the sort's buffers, the sorted
#: copies): 2**28 entries ~ 19 GB, against ~150 GB for the 2.1e9 entries of a kron-28 column
#: block on four GPUs in one call (an H200 holds 139 GiB).
ASSEMBLY_STRIPE = 1 << 28


def block_of_pieces(kind, lo, hi, nrows, ncols, dup_op, dtype, device, *pieces):
    """One block from the edge pieces of every source: rows (or cols) renumbered from lo,
    assembled on the block's device (in stripes of rows past :data:`ASSEMBLY_STRIPE`
    entries)."""
    pieces = [p for p in pieces if p is not None]
    return _assemble(kind, lo, hi, nrows, ncols, dup_op, dtype, device,
                     [p[0] for p in pieces], [p[1] for p in pieces], [p[2] for p in pieces])


def _assemble(kind, lo, hi, nrows, ncols, dup_op, dtype, device, ss, dd, ww):
    """The block of the pieces' (src, dst, weight) lists ``ss``, ``dd``, ``ww`` (emptied as
    they are joined: pieces that only this task holds are freed on the way)."""
    weighted = any(w is not None for w in ww)
    if weighted and not all(w is not None for w in ww):
        raise sr.InvalidValue("DistMatrix: some edge pieces have weights and others not")
    xp = _xp(device)
    idt = np.int64 if not ss else None
    s = _concat_on(xp, ss, idt)
    ss.clear()
    d = _concat_on(xp, dd, idt)
    dd.clear()
    if kind == "rows":
        if s.size:
            s -= s.dtype.type(lo)  # in place: s is this task's own array
        shape = (hi - lo, ncols)
    else:
        if d.size:
            d -= d.dtype.type(lo)
        shape = (nrows, hi - lo)
    if weighted and dtype is not None:
        # the engine's typecast (a float past an integer type's range saturates, NaN is 0:
        # Matrix.from_coo's), not astype's, piece by piece before they are joined
        ww[:] = [sr.types.cast(a, dtype) for a in ww]
    w = _concat_on(xp, ww, dtype) if weighted else None
    ww.clear()
    vtype = None if weighted else dtype
    if s.size <= ASSEMBLY_STRIPE:
        return sr.Matrix.from_coo(s, d, w, nrows=shape[0], ncols=shape[1], dup_op=dup_op,
                                  dtype=vtype, device=device)
    return _striped_from_coo(xp, s, d, w, shape, dup_op, vtype, device)


def _striped_from_coo(xp, s, d, w, shape, dup_op, dtype, device):
    """``Matrix.from_coo(s, d, w, ...)`` made in stripes of rows of about
    :data:`ASSEMBLY_STRIPE` entries (cut where the running count of entries by row crosses
    each multiple of total / stripes), the stripes' CSR arrays joined."""
    total = int(s.size)
    k = -(-total // ASSEMBLY_STRIPE)
    counts = xp.bincount(s, minlength=shape[0]) if shape[0] else xp.zeros(0, xp.int64)
    running = xp.cumsum(counts)
    del counts
    targets = xp.asarray([total * j // k for j in range(1, k)], dtype=running.dtype)
    cuts = [0, *sorted({int(c) for c in _host(xp.searchsorted(running, targets, side="left"))
                        if 0 < int(c) < shape[0]}), shape[0]]
    del running
    indptrs, indices, values, at = [], [], [], 0
    for r0, r1 in zip(cuts[:-1], cuts[1:]):
        # the stripe's positions, once (a boolean index scans its whole mask each time)
        at_ = xp.flatnonzero((s >= r0) & (s < r1))
        S = sr.Matrix.from_coo(s[at_] - r0, d[at_], None if w is None else w[at_],
                               nrows=r1 - r0, ncols=shape[1], dup_op=dup_op, dtype=dtype,
                               device=device)
        del at_
        indptrs.append(S.indptr[:-1].astype(xp.int64) + at)
        indices.append(S.indices)
        at += int(S.nvals)
        # a stripe stays iso unless a scalar's duplicates folded to other values (plus of two
        # 1s is 2): then the iso stripes are filled (below)
        values.append((S.iso_value, int(S.nvals)) if S.is_iso else S.values)
        del S
    del s, d, w
    indptrs.append(xp.asarray([at], dtype=xp.int64))
    indptr = xp.concatenate(indptrs)
    del indptrs
    idx = xp.concatenate([a.astype(xp.int64, copy=False) for a in indices]) \
        if any(a.dtype != indices[0].dtype for a in indices) else xp.concatenate(indices)
    del indices
    arrays = [v for v in values if not isinstance(v, tuple)]
    if not arrays:
        iso = values[-1][0] if values else None
        return sr.Matrix.from_csr(indptr, idx, None, shape, iso_value=iso, dtype=dtype,
                                  check=False)
    vt = arrays[0].dtype
    vals = xp.concatenate([xp.full(v[1], v[0], dtype=vt) if isinstance(v, tuple) else v
                           for v in values])
    del values, arrays
    return sr.Matrix.from_csr(indptr, idx, vals, shape, check=False)


def block_pieces_by(B, b_lo, kind_from, bounds):
    """Split a row block (kind_from='rows', rows numbered from b_lo) into edge pieces cut by
    column partition (for building column blocks), or a column block into pieces by row:
    cut on the block's device, each piece then a host array (int32 indices where they fit)."""
    r, c, v = B.to_coo()
    v = None if B.is_iso else v
    n = int(bounds[-1])
    xp = B.xp
    if kind_from == "rows":
        m = (B.nrows + b_lo, n)
        r = _widen(xp, r, m[0]) + b_lo
        pieces = split_edges((r, c, v), bounds, "cols")
    else:
        m = (n, B.ncols + b_lo)
        c = _widen(xp, c, m[1]) + b_lo
        pieces = split_edges((r, c, v), bounds, "rows")
    del r, c, v
    return tuple((_host(_narrow_index(s, m[0])), _host(_narrow_index(d, m[1])),
                  None if w is None else _host(w)) for s, d, w in pieces)


def _host(a):
    return a.get() if hasattr(a, "get") and not isinstance(a, np.ndarray) else np.asarray(a)


def reduce_block(B, kind, monoid):
    """reduce_rows of a row block / reduce_cols of a column block (a local Vector)."""
    return sr.reduce_rows(B, monoid) if kind == "rows" else sr.reduce_cols(B, monoid)


def degree_block(B, kind):
    """Entries per row (of a row block) or per column (of a column block), int64, full."""
    xp = B.xp
    if kind == "rows":
        deg = xp.diff(B.indptr.astype(xp.int64))
    else:
        deg = xp.bincount(B.indices.astype(xp.int64), minlength=B.ncols).astype(xp.int64)
    return sr.Vector.from_dense(deg, device=B.device)


def counts_cut(B, kind_from, bounds):
    """Entries per row of a column block (kind_from='cols') or per column of a row block,
    over the whole dimension, cut by ``bounds``: one int64 array per target partition."""
    xp = B.xp
    if kind_from == "cols":
        c = xp.diff(B.indptr.astype(xp.int64))
    else:
        c = xp.bincount(B.indices.astype(xp.int64), minlength=B.ncols).astype(xp.int64)
    return tuple(c[int(a):int(b)] for a, b in zip(bounds[:-1], bounds[1:]))


def sum_pieces(*pieces):
    total = pieces[0].copy()
    for p in pieces[1:]:
        total += p
    return sr.Vector.from_dense(total, device=sr.device_of(total))


# ------------------------------------------------------------------ vectors

def vec_new(size, dtype, device):
    return sr.Vector.new(size, dtype, device=device)


def vec_full(size, value, dtype, device):
    xp = _xp(device)
    return sr.Vector.from_dense(xp.full(size, value, dtype=dtype), device=device)


def vec_arange(lo, hi, dtype, device):
    xp = _xp(device)
    return sr.Vector.from_dense(xp.arange(lo, hi, dtype=dtype), device=device)


def vec_from_coo(idx, vals, size, dtype, device, dup_op):
    xp = _xp(device)
    idx = xp.asarray(idx, dtype=xp.int64)
    if np.ndim(vals) == 0:
        vals = xp.full(idx.size, vals, dtype=dtype)
    else:
        vals = xp.asarray(vals, dtype=dtype)
    return sr.Vector.from_coo(idx, vals, size=size, dtype=dtype, dup_op=dup_op, device=device)


def vec_from_dense(arr, missing, device):
    xp = _xp(device)
    return sr.Vector.from_dense(xp.asarray(arr), missing=missing, device=device)


def vec_meta(v):
    return v.device, np.dtype(v.dtype), int(v.size)


def vec_nvals(v):
    return int(v.nvals)


def vec_to_dense(v, missing):
    return v.to_dense(missing=missing)


def vec_to_coo(v):
    return v.to_coo()


def vec_reduce(v, monoid):
    return sr.reduce_scalar(v, monoid)


def vec_dot(u, v, semiring):
    """⊕ of u(i) ⊗ v(i) over the common entries of two slices (one task, no temporary
    vector left behind)."""
    S = getattr(sr.semiring, semiring) if isinstance(semiring, str) else semiring
    return sr.reduce_scalar(sr.ewise_mult(u, v, S.mul), S.add)


def vec_dup(v):
    return v.dup()


def _from_bitmap(size, dtype, device, values, present):
    return sr.Vector.from_bitmap(values.astype(dtype, copy=False), present, device=device)


def _from_sparse(size, dtype, device, indices, values):
    return sr.Vector.from_coo(indices, values, size=size, dtype=dtype, device=device, sort=False)


def gather_global(parts, bounds, form):
    """The whole vector from its partitions (the all-gather before a product), in ``form``:
    'sparse' (the concatenated index lists) or 'bitmap' (the concatenated dense arrays)."""
    v0 = parts[0]
    xp, dev, dt = v0.xp, v0.device, v0.dtype
    size = int(bounds[-1])
    if len(parts) == 1:
        return v0.to_form(form)
    if form == "sparse":
        idx, vals = [], []
        for lo, p in zip(bounds[:-1], parts):
            i, v = p.sparse(sorted=False)
            idx.append(i + int(lo))
            vals.append(v.astype(dt, copy=False))
        return _from_sparse(size, dt, dev, xp.concatenate(idx), xp.concatenate(vals))
    vals, pres = [], []
    full = True
    for p in parts:
        v, pr = p.bitmap()
        vals.append(v.astype(dt, copy=False))
        pres.append(pr)
        full = full and pr is None
    present = None if full else xp.concatenate(
        [xp.ones(p.size, dtype=bool) if pr is None else pr for p, pr in zip(parts, pres)])
    return _from_bitmap(size, dt, dev, xp.concatenate(vals), present)


def _mask_kw(mask, mstruct, mcomp):
    if mask is None:
        return {}
    return {"mask": mask, "structure": mstruct, "complement": mcomp}


def local_product(op, B, x_parts, x_bounds, semiring, out, mask, mstruct, mcomp, accum,
                  replace, direction, offset, form):
    """One partition's share of a distributed product: the engine's own mxv / vxm on the
    local block with the whole x, then the partition's output offset, mask, accum, replace."""
    x = gather_global(x_parts, x_bounds, form)
    S = getattr(sr.semiring, semiring) if isinstance(semiring, str) else semiring
    mkw = _mask_kw(mask, mstruct, mcomp)
    fix = S.mul.positional and S.mul.name in OUTPUT_INDEX_OPS[op] and offset
    prod = sr.vxm if op == "vxm" else sr.mxv
    args = (x, B) if op == "vxm" else (B, x)
    if out is None:
        T = prod(*args, S, direction=direction, **mkw)
        return sr.apply(T, "plus", right=offset) if fix else T
    out = out.dup()
    if not fix:
        return prod(*args, S, out=out, accum=accum, replace=replace, direction=direction, **mkw)
    T = sr.apply(prod(*args, S, direction=direction, **mkw), "plus", right=offset)
    return sr.assign(out, T, accum=accum, replace=replace, **mkw)


def local_call(fname, args, kwargs, out_pos, out_kw):
    """sr.<fname>(*args, **kwargs) on partitions (``out``, changed in place by the engine, is
    copied first: a stored partition is never mutated)."""
    args = list(args)
    if out_pos is not None:
        args[out_pos] = args[out_pos].dup()
    if out_kw and kwargs.get("out") is not None:
        kwargs = dict(kwargs, out=kwargs["out"].dup())
    return getattr(sr, fname)(*args, **kwargs)


def local_extract(v_parts, v_bounds, index, missing_ok):
    """w(i) = v(index(i)) for the entries i of ``index`` (a gather from the whole v)."""
    v = gather_global(v_parts, v_bounds, "bitmap")
    vals, pres = v.bitmap()
    idx, where = index.sparse(sorted=True)
    xp = index.xp
    where = where.astype(xp.int64)
    got = vals[where]
    if pres is not None:
        keep = pres[where]
        idx, got = idx[keep], got[keep]
    return sr.Vector.from_coo(idx, got, size=index.size, dtype=v.dtype, device=index.device)


# ------------------------------------------------------------------ direct calls

#: Results of direct calls held on this worker until a task takes them (token -> object).
HELD: dict = {}


class PartitionServer:
    """A Dask actor on a partition's worker, holding its block: the client calls it
    directly (client -> worker, no scheduler in between: one network round trip rather
    than the scheduler's four messages) to run a function on the block, and the results stay
    on the worker (:data:`HELD`) until a task takes them into Dask's memory
    (:func:`take_held`) or the client drops them."""

    def __init__(self, block):
        self.block = block

    def call(self, fn, args, kwargs, token, keep):
        """``fn(block, *args, **kwargs)``: kept here under ``token`` (``keep``: a tuple of
        results, each kept as ``(token, i)``) and None returned, or returned."""
        out = fn(self.block, *args, **kwargs)
        if not keep:
            return out
        outs = out if isinstance(out, tuple) else (out,)
        for i, o in enumerate(outs):
            HELD[(token, i)] = o
        return len(outs)

    def drop(self, token, indices):
        for i in indices:
            HELD.pop((token, i), None)

    def held(self):
        """How many results this worker holds (for tests)."""
        return len(HELD)


def take_held(token, i, finish=None):
    """A held result, moved into Dask's memory (the task's result); ``finish = (fn, args)``
    makes the partition ``fn(result, *args)``."""
    out = HELD.pop((token, i))
    return out if finish is None else finish[0](out, *finish[1])
