"""Distributed operations: the engine's own operations, one task per partition.

- :func:`mxv` / :func:`vxm`: ``w⟨M⟩ ⊙= A ⊕.⊗ u`` / ``u ⊕.⊗ A`` over any semiring. The
  exchange is an all-gather of u: every partition's task receives all of u's slices (Dask
  moves them between workers) and joins them into the whole vector, in the sparse form for a
  push (the concatenated index lists: the frontier only) or the bitmap form for a pull; the
  product is then the engine's ``sr.mxv`` on the row block (``sr.vxm`` on the column block),
  so each output entry is computed exactly as on one device. Masks, accumulators and
  ``replace`` act on the partition's own slice of the output.
- element-wise operations (:func:`ewise_add`, :func:`ewise_mult`, :func:`apply`,
  :func:`select`, :func:`assign`): the engine's, slice by slice (no exchange).
- reductions (:func:`reduce_scalar`, :meth:`DistVector.nvals`): partial results per slice,
  combined on the client; ``lazy=True`` defers them so that :func:`compute` gathers several
  in one round trip (the global frontier size and edge count of a BFS level together).
- :func:`extract`: ``w(i) = v(index(i))``, a gather from the whole v (pointer jumping).
"""

from __future__ import annotations

import numpy as np

import semiring as sr
from semiring.errors import check_flags

from . import _tasks as T
from .core import DistMask, DistMatrix, DistVector, Lazy, _monoid_fold, as_dist_vector

DIRECTIONS = ("auto", "push", "pull")


def _mask_parts(mask, structure, complement, L, op):
    """(per-partition mask future, structure, complement) from a DistVector or DistMask."""
    if mask is None:
        return (lambda p: None), False, False
    if isinstance(mask, DistMask):
        v, structure, complement = mask.vector, mask.structure, mask.complement ^ complement
    elif isinstance(mask, DistVector):
        v = mask
    else:
        raise sr.DomainMismatch(f"{op}: mask must be a DistVector or a DistMask (v.S, ~v.S), "
                                f"got {type(mask).__name__}")
    if not v.layout.compatible(L):
        raise sr.DimensionMismatch(f"{op}: the mask is cut differently from the output "
                                   f"(bounds {v.layout.bounds} against {L.bounds})")
    return (lambda p: v.parts[p]), bool(structure), bool(complement)


def _check_out(out, L, op):
    if out is None:
        return
    as_dist_vector(out, op, "out")
    if not out.layout.compatible(L):
        raise sr.DimensionMismatch(f"{op}: out is cut differently from the output (size "
                                   f"{out.size}, bounds {out.layout.bounds} against {L.bounds})")


def _product(op, A, u, semiring, out, mask, accum, replace, structure, complement, direction):
    # (on the client: a partition's task would raise only when gathered)
    replace, structure, complement = check_flags(op, replace=replace, structure=structure,
                                                 complement=complement)
    if not isinstance(A, DistMatrix):
        raise sr.DomainMismatch(f"{op}: A must be a semiring.dist.DistMatrix, got {type(A).__name__}")
    u = as_dist_vector(u, op, "u")
    S = getattr(sr.semiring, semiring, None) if isinstance(semiring, str) else semiring
    if not isinstance(S, sr.Semiring):
        raise sr.DomainMismatch(f"{op}: semiring must be a Semiring or its name, got {semiring!r}")
    if direction not in DIRECTIONS:
        raise sr.InvalidValue(f"{op}: direction must be one of {DIRECTIONS}, got {direction!r}")
    kind = "cols" if op == "vxm" else "rows"
    inner = A.row_layout if op == "vxm" else A.col_layout
    if u.size != inner.size:
        names = ("A.nrows", "u.size") if op == "vxm" else ("A.ncols", "u.size")
        raise sr.DimensionMismatch(f"{op}: {names[0]} (={inner.size}) must equal {names[1]} (={u.size})")
    if not u.layout.compatible(inner):
        raise sr.DimensionMismatch(f"{op}: u is cut differently from A (bounds {u.layout.bounds} "
                                   f"against {inner.bounds})")
    L = A.layout(kind)
    _check_out(out, L, op)
    mpart, ms, mc = _mask_parts(mask, structure, complement, L, op)
    if direction == "auto":
        direction = "pull"  # the caller's policy decides; without one, a dense pull
    form = "sparse" if direction == "push" else "bitmap"
    blocks = A.blocks(kind)
    xb, ub = L.bounds, u.layout.bounds
    name = S.name if getattr(sr.semiring, S.name, None) is S else S  # built-ins by name
    parts = L.map(T.local_product, lambda p: op, lambda p: blocks[p], lambda p: u.parts,
                  lambda p: ub, lambda p: name, lambda p: None if out is None else out.parts[p],
                  mpart, lambda p: ms, lambda p: mc, lambda p: accum, lambda p: replace,
                  lambda p: direction, lambda p: xb[p], lambda p: form)
    dtype = out.dtype if out is not None else S.result_type(_promote(A.dtype, u.dtype))
    if out is not None:
        return out._replace(parts)
    return DistVector(L, parts, dtype)


def _promote(a, b):
    if a == np.bool_:
        return np.dtype(b)
    if b == np.bool_:
        return np.dtype(a)
    return np.promote_types(a, b)


def mxv(A, u, semiring="plus_times", *, out=None, mask=None, accum=None, replace=False,
        structure=False, complement=False, direction="auto"):
    """``w⟨M⟩ ⊙= A ⊕.⊗ u`` over the row blocks of a :class:`DistMatrix`.

    Keywords as in :func:`semiring.mxv`; ``direction`` is the local product's: ``'push'``
    sends u's entries as index lists (a sparse frontier), ``'pull'`` (and ``'auto'``) as
    dense bitmaps. ``out`` (a DistVector) is updated in place (its partitions replaced) and
    returned; otherwise a new DistVector.

    Examples
    --------
    >>> import numpy as np, scipy.sparse as sp, semiring as sr
    >>> from semiring import dist
    >>> client = dist.local_cluster(2, processes=False)
    >>> DA = dist.DistMatrix.from_scipy(sp.csr_matrix(np.array([[0, 1.0], [2.0, 3.0]])))
    >>> u = dist.DistVector.from_coo(DA, [0, 1], [10.0, 20.0])
    >>> dist.mxv(DA, u, sr.min_plus).to_dense().tolist()
    [21.0, 12.0]
    >>> dist.vxm(u, DA, sr.min_plus, mask=dist.DistVector.from_coo(DA, [1], True)).to_dense(missing=-1).tolist()
    [-1.0, 11.0]
    >>> client.close(); client.cluster.close()
    """
    return _product("mxv", A, u, semiring, out, mask, accum, replace, structure, complement,
                    direction)


def vxm(u, A, semiring="plus_times", *, out=None, mask=None, accum=None, replace=False,
        structure=False, complement=False, direction="auto"):
    """``w⟨M⟩ ⊙= u ⊕.⊗ A`` over the column blocks of a :class:`DistMatrix` (each block's
    push scatters the frontier's rows within the block's columns; its pull reads the block's
    transpose). Keywords as in :func:`mxv`; positional multiplies give global indices."""
    return _product("vxm", A, u, semiring, out, mask, accum, replace, structure, complement,
                    direction)


# ----------------------------------------------------------------------------- element-wise

def _elementwise(fname, positional, kwargs, out_pos=None):
    """sr.<fname> slice by slice; DistVector arguments are replaced by their slices."""
    op = fname
    kwargs["replace"], kwargs["structure"], kwargs["complement"] = check_flags(
        op, replace=kwargs["replace"], structure=kwargs["structure"],
        complement=kwargs["complement"])
    vecs = [a for a in positional if isinstance(a, DistVector)]
    out = kwargs.get("out")
    if out_pos is not None:
        out = positional[out_pos]
    if out is not None:
        vecs.append(as_dist_vector(out, op, "out"))
    if not vecs:
        raise sr.DomainMismatch(f"{op}: expected a DistVector operand")
    L = vecs[0].layout
    for v in vecs[1:]:
        if v.size != L.size:
            raise sr.DimensionMismatch(f"{op}: operand sizes differ ({v.size} and {L.size})")
        if not v.layout.compatible(L):
            raise sr.DimensionMismatch(f"{op}: operands are cut differently ({v.layout.bounds} "
                                       f"and {L.bounds})")
    mask = kwargs.pop("mask", None)
    mpart, ms, mc = _mask_parts(mask, kwargs.pop("structure", False),
                                kwargs.pop("complement", False), L, op)

    def args_of(p):
        return [a.parts[p] if isinstance(a, DistVector) else a for a in positional]

    def kw_of(p):
        kw = {k: (v.parts[p] if isinstance(v, DistVector) else v) for k, v in kwargs.items()}
        m = mpart(p)
        if m is not None:
            kw.update(mask=m, structure=ms, complement=mc)
        return kw

    parts = [L.submit(p, T.local_call, fname, args_of(p), kw_of(p), out_pos,
                      out_pos is None and kwargs.get("out") is not None)
             for p in range(L.nparts)]
    return L, parts, out


def _result(L, parts, out, dtype):
    if out is not None:
        return out._replace(parts)
    return DistVector(L, parts, dtype)


def ewise_add(a, b, op="plus", *, out=None, mask=None, accum=None, replace=False,
              structure=False, complement=False, dtype=None):
    """Union ``a ⊕ b`` slice by slice (as :func:`semiring.ewise_add`). ``dtype`` names the
    result type for the client's records when ``out`` is not given (default: a's)."""
    L, parts, out = _elementwise("ewise_add", [a, b, op], dict(
        out=out, mask=mask, accum=accum, replace=replace, structure=structure,
        complement=complement))
    return _result(L, parts, out, dtype or _engine_dtype("ewise_add", a, b, op))


def ewise_mult(a, b, op="times", *, out=None, mask=None, accum=None, replace=False,
               structure=False, complement=False, dtype=None):
    """Intersection ``a ⊗ b`` slice by slice (as :func:`semiring.ewise_mult`)."""
    L, parts, out = _elementwise("ewise_mult", [a, b, op], dict(
        out=out, mask=mask, accum=accum, replace=replace, structure=structure,
        complement=complement))
    return _result(L, parts, out, dtype or _engine_dtype("ewise_mult", a, b, op))


def apply(a, op, *, left=None, right=None, out=None, mask=None, accum=None, replace=False,
          structure=False, complement=False, dtype=None):
    """``op(a)`` slice by slice (as :func:`semiring.apply`; positional unary ops give the
    slice's local indices)."""
    L, parts, out = _elementwise("apply", [a, op], dict(
        left=left, right=right, out=out, mask=mask, accum=accum, replace=replace,
        structure=structure, complement=complement))
    # (the scalar's type counts: an int32 vector times 2.5 is float64)
    return _result(L, parts, out, dtype or _engine_dtype("apply", a, op, left=left,
                                                             right=right))


def select(a, op, thunk=None, *, out=None, mask=None, accum=None, replace=False,
           structure=False, complement=False):
    """The entries of ``a`` that ``op`` keeps, slice by slice (as :func:`semiring.select`)."""
    L, parts, out = _elementwise("select", [a, op, thunk], dict(
        out=out, mask=mask, accum=accum, replace=replace, structure=structure,
        complement=complement))
    return _result(L, parts, out, a.dtype)


def assign(out, value, *, mask=None, accum=None, replace=False, structure=False,
           complement=False):
    """``out⟨M⟩ ⊙= value`` over the whole vector (a DistVector or a scalar), slice by slice
    (as :func:`semiring.assign` with all indices); ``out`` is updated and returned."""
    as_dist_vector(out, "assign", "out")
    L, parts, _ = _elementwise("assign", [out, value], dict(
        mask=mask, accum=accum, replace=replace, structure=structure, complement=complement),
        out_pos=0)
    return out._replace(parts)


def _empty(x):
    """An empty host operand of x's type (a DistVector's, a scalar's own)."""
    if isinstance(x, DistVector):
        return sr.Vector.new(0, x.dtype, device="cpu")
    return x


def _engine_dtype(fname, *args, **kwargs):
    """The type the engine itself gives ``sr.<fname>(*args, **kwargs)``, read off the call on
    empty host operands of the same types (its rules: a Python scalar does not widen an
    int32 vector, a float one makes it float64, a boolean monoid gives bool); the first
    operand's type where that call raises (the partitions' tasks raise then too)."""
    try:
        return np.dtype(getattr(sr, fname)(*(_empty(a) for a in args),
                                           **{k: _empty(v) for k, v in kwargs.items()}).dtype)
    except Exception:  # noqa: BLE001 (the error is the partitions' to raise)
        a = args[0]
        return np.dtype(a.dtype if hasattr(a, "dtype") else np.asarray(a).dtype)


# ----------------------------------------------------------------------------- reductions

def reduce_scalar(a, monoid="plus", *, lazy=False):
    """⊕ of every entry of a DistVector: per-slice results combined on the client (as
    :func:`semiring.reduce_scalar`; a float sum may round differently from one device's)."""
    a = as_dist_vector(a, "reduce_scalar", "a")
    futs = a.layout.map(T.vec_reduce, lambda p: a.parts[p], lambda p: monoid)
    z = Lazy(a.layout.client, futs, _monoid_fold(monoid))
    return z if lazy else z.result()


def dot(u, v, semiring="plus_times", *, lazy=False):
    """``⊕_i u(i) ⊗ v(i)`` over the entries present in both (the inner product of two
    DistVectors over a semiring), one task per slice: e.g. the out-edges of a frontier q,
    ``dot(degree, q, 'plus_first')``."""
    u = as_dist_vector(u, "dot", "u")
    v = as_dist_vector(v, "dot", "v")
    if u.size != v.size or not u.layout.compatible(v.layout):
        raise sr.DimensionMismatch(f"dot: u and v must be cut alike, got sizes {u.size} and "
                                   f"{v.size}, bounds {u.layout.bounds} and {v.layout.bounds}")
    S = getattr(sr.semiring, semiring, None) if isinstance(semiring, str) else semiring
    if not isinstance(S, sr.Semiring):
        raise sr.DomainMismatch(f"dot: semiring must be a Semiring or its name, got {semiring!r}")
    name = S.name if getattr(sr.semiring, S.name, None) is S else S
    futs = u.layout.map(T.vec_dot, lambda p: u.parts[p], lambda p: v.parts[p], lambda p: name)
    z = Lazy(u.layout.client, futs, _monoid_fold(S.add.name))
    return z if lazy else z.result()


def nvals(a, *, lazy=False):
    """Entries present in a DistVector (``lazy=True``: a :class:`Lazy` for :func:`compute`)."""
    z = as_dist_vector(a, "nvals", "a").nvals_lazy()
    return z if lazy else z.result()


def reduce_rows(A, monoid="plus"):
    """``w(i) = ⊕_j A(i, j)`` over the row blocks (as :func:`semiring.reduce_rows`)."""
    blocks = A.blocks("rows")
    L = A.row_layout
    parts = L.map(T.reduce_block, lambda p: blocks[p], lambda p: "rows", lambda p: monoid)
    return DistVector(L, parts, _reduced_dtype(A, monoid))


def reduce_cols(A, monoid="plus"):
    """``w(j) = ⊕_i A(i, j)`` over the column blocks (as :func:`semiring.reduce_cols`)."""
    blocks = A.blocks("cols")
    L = A.col_layout
    parts = L.map(T.reduce_block, lambda p: blocks[p], lambda p: "cols", lambda p: monoid)
    return DistVector(L, parts, _reduced_dtype(A, monoid))


def _reduced_dtype(A, monoid):
    """reduce_rows' result type as the engine gives it (bool for 'lor' on any matrix; it was
    recorded as A's type)."""
    return _engine_dtype("reduce_rows", sr.Matrix.from_coo(
        np.zeros(0, np.int64), np.zeros(0, np.int64), None, nrows=0, ncols=0, dtype=A.dtype,
        device="cpu"), monoid)


def extract(v, index):
    """``w(i) = v(index(i))`` for each entry i of ``index`` (integer values in
    [0, v.size)); absent where v lacks the entry. The gather reads the whole v (an
    all-gather), as pointer jumping ``f = f(f)`` needs."""
    v = as_dist_vector(v, "extract", "v")
    index = as_dist_vector(index, "extract", "index")
    L = index.layout
    vb = v.layout.bounds
    parts = L.map(T.local_extract, lambda p: v.parts, lambda p: vb, lambda p: index.parts[p],
                  lambda p: True)
    return DistVector(L, parts, v.dtype)
