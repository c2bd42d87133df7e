"""Hypothesis strategies: small matrices and vectors with the awkward cases (explicit zeros,
empty rows, isolated vertices, iso values, int64 indices, both vector forms)."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

import semiring as sr

DTYPES = [np.bool_, np.int32, np.int64, np.float32, np.float64]


def values_of(draw, dtype, n):
    dt = np.dtype(dtype)
    if n == 0:
        return np.zeros(0, dtype=dt)
    if dt == np.bool_:
        return np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=dt)
    if dt.kind == "i":
        return np.array(draw(st.lists(st.integers(-20, 20), min_size=n, max_size=n)), dtype=dt)
    elems = st.one_of(st.integers(-20, 20).map(float), st.sampled_from([0.0, -0.0, 0.5, np.inf, -np.inf]))
    return np.array(draw(st.lists(elems, min_size=n, max_size=n)), dtype=dt)


@st.composite
def dense_matrix(draw, nrows=None, ncols=None, dtype=None, max_dim=10):
    """(values, present) dense arrays."""
    nrows = draw(st.integers(0, max_dim)) if nrows is None else nrows
    ncols = draw(st.integers(0, max_dim)) if ncols is None else ncols
    dtype = draw(st.sampled_from(DTYPES)) if dtype is None else dtype
    density = draw(st.sampled_from([0.0, 0.2, 0.5, 1.0]))
    seed = draw(st.integers(0, 2**31 - 1))
    rng = np.random.default_rng(seed)
    present = rng.random((nrows, ncols)) < density
    vals = values_of(draw, dtype, nrows * ncols).reshape(nrows, ncols)
    return vals, present


def make_matrix(vals, present, device, *, iso=False, int64=False):
    rows, cols = np.nonzero(present)
    if iso:
        A = sr.Matrix.from_coo(rows, cols, None, nrows=vals.shape[0], ncols=vals.shape[1], device=device)
    else:
        A = sr.Matrix.from_coo(rows, cols, vals[rows, cols], nrows=vals.shape[0],
                               ncols=vals.shape[1], device=device)
    if int64:
        A = sr.Matrix(A.indptr.astype(np.int64), A.indices.astype(np.int64), A.values, A.shape,
                      iso_value=A.iso_value, dtype=A.dtype)
    return A


@st.composite
def dense_vector(draw, n, dtype=None):
    dtype = draw(st.sampled_from(DTYPES)) if dtype is None else dtype
    vals = values_of(draw, dtype, n)
    present = np.array(draw(st.lists(st.booleans(), min_size=n, max_size=n)), dtype=bool)
    return vals, present


def make_vector(vals, present, device, form):
    idx = np.flatnonzero(present)
    v = sr.Vector.from_coo(idx, vals[idx], size=vals.size, dtype=vals.dtype, device=device)
    return v.to_form(form)
