"""The csgraph facade against the installed SciPy where SciPy 1.18 changed (its own new tests,
run through the facade by ``python -m algorithms.csgraph.testing`` with SciPy 1.18.1, failed
here in session 28):

1. the public names are SciPy's (``test_index_arrays_dtype.py::test_new_functions_untested_here``
   lists ``dir(scipy.sparse.csgraph)``: the facade exported ``NULL_IDX``, which SciPy keeps
   private);
2. BSR input: SciPy 1.18's ``validate_graph`` drops the stored zeros of a BSR's blocks
   (gh-23142: a 2 x 2 block holding one edge is not four), SciPy before keeps them as edges;
3. ``reconstruct_path``: SciPy 1.18 refuses ``predecessors`` of a dtype other than an integer
   one with a ValueError ("must be of an integral dtype", gh-23577), SciPy before casts.

Each compares with the installed SciPy, so the same tests hold on SciPy 1.17 (CI) and 1.18
(the GPU machine, Python 3.12 users), on the SciPy path and the engine path.
"""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import scipy.sparse.csgraph as scg

from algorithms import csgraph
from algorithms.csgraph import _validation
from conftest import to_host
from test_csgraph_facade import backend

__all__ = ["backend"]  # the fixture used by the tests below


def _public(module):
    # (as SciPy's own test_new_functions_untested_here: not the test runners, SciPy's
    # ``test`` and the facade's ``testing`` module once something has imported it)
    return {n for n in dir(module) if n[0] != "_" and not n.startswith("test")}


def test_public_names_are_scipys():
    assert _public(csgraph) - _public(scg) == set()
    assert _public(scg) - _public(csgraph) == set()
    assert set(csgraph.__all__) == _public(scg)


GH23142 = [
    np.array([[1, 0, 1, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]),
    np.array([[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0]]),
    np.array([[0, 3, 0, 0, 0, 0], [0, 0, 0, 0, 2, 0], [0, 0, 0, 0, 0, 0],
              [0, 0, 1, 0, 0, 0], [0, 0, 0, 0, 0, 5], [0, 0, 0, 0, 0, 0]]),
]


def _outcome(f, *args, **kw):
    try:
        return f(*args, **kw), None
    except Exception as e:  # noqa: BLE001  (its class is what is compared)
        return None, e


def _same(got, want):
    (g, ge), (w, we) = got, want
    if we is not None or ge is not None:
        assert ge is not None and we is not None, (ge, we)
        assert isinstance(ge, type(we)), (ge, we)
        return
    if isinstance(w, tuple):
        assert isinstance(g, tuple) and len(g) == len(w)
        for a, b in zip(g, w):
            _same((a, None), (b, None))
        return
    if sp.issparse(w):
        w, g = w.toarray(), g.toarray()
    np.testing.assert_array_equal(np.asarray(to_host(g)), np.asarray(w))


@pytest.mark.parametrize("graph", range(len(GH23142)))
@pytest.mark.parametrize("family", ["array", "matrix"])
@pytest.mark.parametrize("call", [
    ("connected_components", dict(directed=False, connection="weak")),
    ("connected_components", dict(directed=True, connection="strong")),
    ("breadth_first_order", dict(i_start=0, directed=False)),
    ("depth_first_order", dict(i_start=0, directed=True)),
    ("dijkstra", dict(indices=0, directed=False)),
    ("shortest_path", dict(method="BF")),
    ("minimum_spanning_tree", {}),
    ("breadth_first_tree", dict(i_start=0, directed=False)),
])
def test_bsr_blocks_as_scipy_reads_them(backend, graph, family, call):
    """A BSR of 2 x 2 blocks whose stored zeros pad the blocks: SciPy's answer, whichever
    way the installed SciPy reads them."""
    device, _ = backend
    if device == "gpu":
        pytest.skip("BSR is a host format (cupyx has none)")
    name, kw = call
    cls = sp.bsr_array if family == "array" else sp.bsr_matrix
    G = cls(GH23142[graph], blocksize=(2, 2))
    assert (G.data == 0).any()  # zeros stored in the blocks
    before = G.data.copy()
    _same(_outcome(getattr(csgraph, name), G, **kw),
          _outcome(getattr(scg, name), cls(GH23142[graph], blocksize=(2, 2)), **kw))
    np.testing.assert_array_equal(G.data, before)  # the caller's blocks untouched


@pytest.mark.parametrize("pred", [
    np.array([-9999, 0, 1, 1, 3]),
    np.array([-9999, 0, 1, 1, 3], dtype=np.int32),
    [-9999, 0, 1, 1, 3],
    np.array([-9999.0, 0, 1, 1, 3]),
    np.array([np.nan] * 5),
    np.array([True] * 5),
])
def test_reconstruct_path_predecessors_dtype_as_scipy(backend, pred):
    """gh-23577: SciPy 1.18 refuses predecessors of a non-integer dtype (ValueError); before,
    SciPy casts them (integral floats: its answer; NaN and bools, which it misreads: the
    facade refuses them)."""
    device, _ = backend
    M = sp.csr_array(([9, -6, -8, 6, 8], ([0, 1, 1, 3, 3], [0, 2, 3, 1, 4])), shape=(5, 5),
                     dtype=np.int64)
    kind = np.asarray(pred).dtype.kind
    misread = kind == "b" or (kind == "f" and not np.isfinite(pred).all())
    if misread and not _validation.SCIPY_1_18:
        # SciPy before 1.18 casts NaN to an index and misreads bools: an out-of-bounds read
        # in its indexing (it crashed a CI worker), so it is not called; the facade refuses
        got = _outcome(csgraph.reconstruct_path, M, pred)
        assert isinstance(got[1], TypeError), got
        return
    want = _outcome(scg.reconstruct_path, M, pred)
    G = M
    if device == "gpu":
        import cupyx.scipy.sparse as cps  # noqa: PLC0415  (GPU runs only)

        G = cps.csr_matrix(sp.csr_matrix(M, dtype=np.float64))  # (cupyx: no int64 data)
    got = _outcome(csgraph.reconstruct_path, G, pred)
    if want[1] is not None and isinstance(pred, list) and got[1] is None:
        # SciPy before 1.18 compares the list itself with an int (a TypeError); 1.18 and the
        # facade read it as an array
        assert isinstance(want[1], TypeError)
        return
    if want[1] is not None and "integral" in str(want[1]):
        assert isinstance(got[1], ValueError) and "integral" in str(got[1]), got
        return
    _same(got, want)
