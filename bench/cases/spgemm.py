"""Bench cases of spgemm: C = A ⊕.⊗ A (sparse x sparse), plus_times (vs cuSPARSE / SciPy) and min_plus."""

from __future__ import annotations

import numpy as np

from .. import generators as gen
from .. import metrics as met
from . import (Algorithm, CaseContext, Impl, Reference, Unavailable, _gb_matrix, _graphblas,
               _pair_ratio, compare_close, compare_exact, register_algorithm, semiring_module,
               sr_matrix)


#: Graphs with at most this many rows are checked on every row; larger ones on a random sample
#: of SPGEMM_SAMPLE rows (the full product of kron-18 has billions of entries).
SPGEMM_CHECK_ALL_ROWS = 1 << 14
SPGEMM_SAMPLE = 1024
#: CPU impls are unavailable above this many products (NumPy min-plus of kron-16: minutes and
#: tens of GB).
SPGEMM_CPU_MAX_PRODUCTS = 3 * 10**8
#: ... and for this engine's CPU backend, whose min-plus product (sort and segmented reduce)
#: took 13 s a run on kron-14 (1.6·10⁸ products; SciPy's plus-times 1.6 s): the quick GPU
#: suite spent 33 s of its SpGEMM minute there.
SPGEMM_ENGINE_CPU_MAX_PRODUCTS = 10**8
#: The chunked cuSPARSE peer: products per row block (cuSPARSE's SpGEMM workspace grows with
#: them: the whole kron-16 product, 1.2·10⁹, failed with CUSPARSE_STATUS_INSUFFICIENT_RESOURCES
#: on an H200, kron-14's 1.6·10⁸ ran), halved in setup (down to the floor) while the largest
#: block still fails that way.
SPGEMM_BLOCK_PRODUCTS = 1 << 28
SPGEMM_BLOCK_PRODUCTS_FLOOR = 1 << 22
#: ... and entries of a block's output (cupyx's int32 indices: at kron-18 the whole product
#: has more than 2^31 entries and cupyx returned a wrong matrix).
SPGEMM_BLOCK_MAX_OUTPUT = 2**31 - 1
#: The plain peer is not run above this many products: its output may not fit int32 indices.
SPGEMM_PLAIN_MAX_PRODUCTS = 2**31 - 1


def _spgemm_prepare(ctx: CaseContext) -> None:
    H = ctx.graph.host
    n = H.shape[0]
    if n <= SPGEMM_CHECK_ALL_ROWS:
        rows = np.arange(n, dtype=np.int64)
    else:
        rng = np.random.default_rng(ctx.seed)
        rows = np.sort(rng.choice(n, SPGEMM_SAMPLE, replace=False)).astype(np.int64)
    ctx.inputs["rows"] = rows
    ctx.inputs["row_products"] = row_products(H.indptr, H.indices, H.indptr)
    ctx.case_metrics["products"] = int(ctx.inputs["row_products"].sum())
    ctx.case_metrics["checked_rows"] = int(rows.size)


def row_products(a_indptr, a_indices, b_indptr) -> np.ndarray:
    """Products A(i,k)·B(k,j) of each row i of A·B (int64, length A.nrows): the sum of B's
    row lengths over the columns of A's row."""
    a_ptr = np.asarray(a_indptr, dtype=np.int64)
    degB = np.diff(np.asarray(b_indptr, dtype=np.int64))
    cs = np.concatenate([[0], np.cumsum(degB[np.asarray(a_indices)])])
    return cs[a_ptr[1:]] - cs[a_ptr[:-1]]


def spgemm_row_blocks(products, ncols: int, max_products: int,
                      max_output: int = SPGEMM_BLOCK_MAX_OUTPUT) -> np.ndarray:
    """Row blocks ``[b[t], b[t+1])`` of a row-wise product, greedy from the first row: each
    block as long as its products stay <= ``max_products`` and its output bound (a row has at
    most min(products, ncols) entries) <= ``max_output``. A single row over a limit is a block
    by itself (rows are not split). Returns the boundaries (int64, first 0, last nrows; one
    block [0, nrows) when the rows are empty or there are none).

    >>> spgemm_row_blocks(np.array([3, 0, 4, 9, 1, 1]), ncols=10, max_products=5).tolist()
    [0, 2, 3, 4, 6]
    """
    if max_products < 1 or max_output < 1:
        raise ValueError(f"spgemm_row_blocks: max_products (={max_products}) and max_output "
                         f"(={max_output}) must be >= 1")
    p = np.asarray(products, dtype=np.int64)
    nrows = p.size
    cum_p = np.concatenate([[0], np.cumsum(p)])
    cum_o = np.concatenate([[0], np.cumsum(np.minimum(p, max(int(ncols), 0)))])
    bounds = [0]
    r0 = 0
    while r0 < nrows:  # one step per block (tens), not per row
        r1 = min(int(np.searchsorted(cum_p, cum_p[r0] + max_products, side="right")),
                 int(np.searchsorted(cum_o, cum_o[r0] + max_output, side="right"))) - 1
        r1 = max(r1, r0 + 1)
        bounds.append(r1)
        r0 = r1
    if nrows == 0:
        bounds.append(0)
    return np.asarray(bounds, dtype=np.int64)


def _encode_rows(indptr, indices, data, rows, *, sort: bool) -> np.ndarray:
    """The listed rows of a CSR product as one float64 array: [nrows, lengths, columns,
    values] (columns sorted within a row first when ``sort``: peers' outputs need not be)."""
    indptr = gen.to_numpy(indptr).astype(np.int64)
    starts, ends = indptr[rows], indptr[rows + 1]
    lens = ends - starts
    total = int(lens.sum())
    seg = np.repeat(np.arange(rows.size), lens)
    pos = starts[seg] + np.arange(total, dtype=np.int64) - (np.cumsum(lens) - lens)[seg]
    if isinstance(indices, np.ndarray):
        cols, vals = indices[pos], data[pos]
    else:  # on the GPU: gather the checked rows there, copy only them
        import cupy  # noqa: PLC0415  (CuPy is optional: GPU runs only)

        p = cupy.asarray(pos)
        cols, vals = cupy.asnumpy(indices[p]), cupy.asnumpy(data[p])
    cols = cols.astype(np.int64)
    if sort:
        order = np.lexsort((cols, seg))
        cols, vals = cols[order], vals[order]
    return np.concatenate([[rows.size], lens, cols, vals.astype(np.float64)]).astype(np.float64)


def _decode_rows(a: np.ndarray):
    m = int(a[0])
    lens = a[1:1 + m].astype(np.int64)
    total = int(lens.sum())
    cols = a[1 + m:1 + m + total]
    vals = a[1 + m + total:]
    return lens, cols, vals


def compare_rows(rtol: float):
    """Rows of a product: same lengths and columns, values close (rtol; 0: exact)."""
    def cmp(got: np.ndarray, ref: np.ndarray) -> tuple[bool, str]:
        gl, gc, gv = _decode_rows(np.asarray(got))
        rl, rc, rv = _decode_rows(np.asarray(ref))
        if gl.size != rl.size:
            return False, f"{gl.size} rows checked, reference has {rl.size}"
        if not np.array_equal(gl, rl):
            bad = np.flatnonzero(gl != rl)
            return False, (f"{bad.size} of {rl.size} checked rows differ in length; first: "
                           f"row #{bad[0]} has {gl[bad[0]]} entries, expected {rl[bad[0]]}")
        if gv.size != rv.size or not np.array_equal(gc, rc):
            return False, "columns differ from the reference (or are not sorted)"
        if rtol:
            return compare_close(rtol)(gv, rv)
        return compare_exact(gv, rv)

    return cmp


def _spgemm_fetch(sort: bool):
    def fetch(result) -> np.ndarray:
        C, rows = result
        if hasattr(C, "indptr") and hasattr(C, "nvals"):  # an engine Matrix
            data = C.values
        else:  # scipy / cupyx
            data = C.data
        return _encode_rows(C.indptr, C.indices, data, rows, sort=sort)

    return fetch


def _spgemm_ref(semiring_name: str):
    def compute(ctx: CaseContext) -> np.ndarray:
        H = ctx.graph.host
        rows = ctx.inputs["rows"]
        R = H[rows]
        if semiring_name == "plus_times":
            C = R.astype(np.float64) @ H.astype(np.float64)
            C.sort_indices()
            return _encode_rows(C.indptr, C.indices, C.data, np.arange(rows.size), sort=False)
        from semiring.spgemm import spgemm  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)

        sr = semiring_module()
        C = spgemm(sr.Matrix.from_scipy(R, device="cpu"), sr.Matrix.from_scipy(H, device="cpu"),
                   semiring_name)
        return _encode_rows(C.indptr, C.indices, C.values, np.arange(rows.size), sort=False)

    return compute


def _spgemm_semiring(device: str, semiring_name: str):
    def setup(ctx: CaseContext):
        from semiring.spgemm import spgemm  # noqa: PLC0415  (lazy: semiring adds 0.04 s to python -m bench --list's 0.2 s)

        if device == "cpu" and ctx.case_metrics["products"] > SPGEMM_ENGINE_CPU_MAX_PRODUCTS:
            raise Unavailable(f"{ctx.case_metrics['products']} products: too many for the CPU "
                              f"backend here (limit {SPGEMM_ENGINE_CPU_MAX_PRODUCTS})")
        A = sr_matrix(ctx, device)
        rows = ctx.inputs["rows"]
        return lambda: (spgemm(A, A, semiring_name), rows)

    return setup


def _cusparse_out_of_resources(e: Exception) -> bool:
    # by name: importing cupy_backends' cusparse module loads the library
    return type(e).__name__ == "CuSparseError" and "INSUFFICIENT_RESOURCES" in str(e)


def _spgemm_cusparse(ctx: CaseContext):
    products = ctx.case_metrics["products"]
    if products > SPGEMM_PLAIN_MAX_PRODUCTS:
        raise Unavailable(f"{products} products: the output may pass 2^31 entries, beyond "
                          f"cupyx's int32 indices (see cusparse-plus-times-chunked)")
    A = ctx.graph.gpu()
    rows = ctx.inputs["rows"]

    def run():
        try:
            return A @ A, rows
        except Exception as e:
            if _cusparse_out_of_resources(e):
                raise Unavailable(f"cuSPARSE: {e} ({products} products; see "
                                  f"cusparse-plus-times-chunked)") from e
            raise

    return run


def _spgemm_cusparse_chunked(ctx: CaseContext):
    """cupyx ``A[r0:r1] @ A`` over row blocks of bounded products (slices made here, untimed;
    every block's product timed). The largest block is tried once here: while cuSPARSE runs
    out of resources on it, the block limit halves."""
    A = ctx.graph.gpu()
    rows = ctx.inputs["rows"]
    products = ctx.inputs["row_products"]
    limit = SPGEMM_BLOCK_PRODUCTS
    while True:
        bounds = spgemm_row_blocks(products, A.shape[1], limit)
        per_block = np.add.reduceat(products, bounds[:-1]) if products.size else np.zeros(1)
        big = int(np.argmax(per_block))
        try:
            A[int(bounds[big]):int(bounds[big + 1])] @ A
            break
        except Exception as e:
            if not _cusparse_out_of_resources(e):
                raise
            if limit // 2 < SPGEMM_BLOCK_PRODUCTS_FLOOR:
                raise Unavailable(f"cuSPARSE: {e} even with blocks of <= {limit} products"
                                  ) from e
            limit //= 2
    ctx.case_metrics["cusparse_blocks"] = int(bounds.size - 1)
    ctx.case_metrics["cusparse_block_products"] = int(limit)
    blocks = [A[r0:r1] for r0, r1 in zip(bounds[:-1].tolist(), bounds[1:].tolist())]
    return lambda: ([Ab @ A for Ab in blocks], bounds, rows)


def _spgemm_fetch_blocks(result) -> np.ndarray:
    """The checked rows of a blocked product, encoded as :func:`_spgemm_fetch` does."""
    parts, bounds, rows = result
    which = np.searchsorted(bounds, rows, side="right") - 1
    lens, cols, vals = [], [], []
    for b in np.unique(which).tolist():
        sel = rows[which == b] - bounds[b]
        C = parts[b]
        bl, bc, bv = _decode_rows(_encode_rows(C.indptr, C.indices, C.data, sel, sort=True))
        lens.append(bl)
        cols.append(bc)
        vals.append(bv)
    cat = (lambda xs: np.concatenate(xs)) if lens else (lambda xs: np.zeros(0))
    return np.concatenate([[rows.size], cat(lens), cat(cols), cat(vals)]).astype(np.float64)


def _spgemm_scipy(ctx: CaseContext):
    if ctx.case_metrics["products"] > SPGEMM_CPU_MAX_PRODUCTS:
        raise Unavailable(f"{ctx.case_metrics['products']} products: too many for SciPy here")
    A = ctx.graph.host
    rows = ctx.inputs["rows"]
    return lambda: (A @ A, rows)


def _spgemm_graphblas(ctx: CaseContext):
    """SuiteSparse:GraphBLAS ``A.mxm(A, plus_times)`` (its own choice of saxpy method), under
    the SciPy peer's limit on products."""
    gb = _graphblas()
    if ctx.case_metrics["products"] > SPGEMM_CPU_MAX_PRODUCTS:
        raise Unavailable(f"{ctx.case_metrics['products']} products: too many for a CPU peer "
                          f"here (limit {SPGEMM_CPU_MAX_PRODUCTS}, as SciPy's)")
    A = _gb_matrix(ctx)
    rows = ctx.inputs["rows"]
    return lambda: (A.mxm(A, gb.semiring.plus_times).new(), rows)


def _spgemm_fetch_graphblas(result) -> np.ndarray:
    """The checked rows of a graphblas product, encoded as :func:`_spgemm_fetch` does (the
    conversion to SciPy CSR is untimed)."""
    C, rows = result
    gb = _graphblas()
    S = gb.io.to_scipy_sparse(C, format="csr")
    return _encode_rows(S.indptr, S.indices, S.data, rows, sort=True)


def _spgemm_metrics(ctx: CaseContext, impl: Impl, seconds: float) -> dict:
    return {"rate_g": met.giga_rate(ctx.case_metrics["products"], seconds)}


def _spgemm_summary(ctx: CaseContext, results: dict) -> dict:
    s = {}
    # targets (H100/H200): plus_times >= 0.5x cuSPARSE; min_plus within 1.5x of plus_times
    # the target against the plain peer where it ran, else against the chunked one
    r = _pair_ratio(results, "semiring-gpu", "cusparse-plus-times")
    if r is not None:
        s["semiring_plus_times_vs_cusparse_throughput"] = r
    else:
        r = _pair_ratio(results, "semiring-gpu", "cusparse-plus-times-chunked")
        if r is not None:
            s["semiring_plus_times_vs_cusparse_chunked_throughput"] = r
    r = _pair_ratio(results, "semiring-gpu-min-plus", "semiring-gpu")
    if r is not None:
        s["semiring_min_plus_vs_plus_times_throughput"] = r
    r = _pair_ratio(results, "semiring-cpu", "scipy-plus-times")
    if r is not None:
        s["semiring_cpu_plus_times_vs_scipy_throughput"] = r
    r = _pair_ratio(results, "semiring-gpu", "graphblas-cpu")
    if r is not None:
        s["semiring_plus_times_vs_graphblas_cpu_throughput"] = r
    return s


SPGEMM = register_algorithm(Algorithm(
    name="spgemm",
    description="C = A ⊕.⊗ A (SpGEMM), plus_times against cuSPARSE (cupyx A @ A) and SciPy, "
                "and min_plus; checked on every row of small graphs, on a random sample of "
                f"{SPGEMM_SAMPLE} rows of larger ones; rate: products A(i,k)·A(k,j) per second",
    prepare=_spgemm_prepare,
    references={
        "plus_times": Reference("plus_times", "SciPy float64 product of the checked rows "
                                "(structure exact, values rtol 1e-3)",
                                _spgemm_ref("plus_times"), compare_rows(1e-3)),
        "min_plus": Reference("min_plus", "the CPU backend's min_plus product of the checked "
                              "rows (itself tested against the dense oracle; exact)",
                              _spgemm_ref("min_plus"), compare_rows(0.0)),
    },
    impls=[
        Impl("semiring-gpu", "gpu", "plus_times", _spgemm_semiring("gpu", "plus_times"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM (hash Gustavson) plus_times on the GPU"),
        Impl("semiring-gpu-min-plus", "gpu", "min_plus", _spgemm_semiring("gpu", "min_plus"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM min_plus on the GPU"),
        Impl("cusparse-plus-times", "gpu", "plus_times", _spgemm_cusparse,
             fetch=_spgemm_fetch(True),
             description="cupyx.scipy.sparse A @ A (cuSPARSE SpGEMM): throughput peer"),
        Impl("cusparse-plus-times-chunked", "gpu", "plus_times", _spgemm_cusparse_chunked,
             fetch=_spgemm_fetch_blocks,
             description="cupyx A[r0:r1] @ A over row blocks of <= "
                         f"{SPGEMM_BLOCK_PRODUCTS} products (cuSPARSE SpGEMM per block; the "
                         "blocks' outputs kept): the peer where the whole product fails; the "
                         "summary's target ratio uses it when the plain peer did not run"),
        Impl("semiring-cpu", "cpu", "plus_times", _spgemm_semiring("cpu", "plus_times"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM plus_times on the CPU backend (SciPy fast path)"),
        Impl("semiring-cpu-min-plus", "cpu", "min_plus", _spgemm_semiring("cpu", "min_plus"),
             fetch=_spgemm_fetch(False), engine=True,
             description="semiring SpGEMM min_plus on the CPU backend (NumPy)"),
        Impl("scipy-plus-times", "cpu", "plus_times", _spgemm_scipy,
             fetch=_spgemm_fetch(True), description="scipy.sparse A @ A: CPU peer"),
        Impl("graphblas-cpu", "cpu", "plus_times", _spgemm_graphblas,
             fetch=_spgemm_fetch_graphblas,
             description="python-graphblas (SuiteSparse:GraphBLAS) A.mxm(A, plus_times), "
                         "multithreaded CPU; optional"),
    ],
    impl_metrics=_spgemm_metrics,
    rate_key="rate_g",
    rate_label="G products/s (A(i,k)·A(k,j) pairs / time)",
    param_label=lambda p: "A·A",
    summary=_spgemm_summary,
    work_key="products",
    work_label="products A(i,k)·A(k,j)",
))
