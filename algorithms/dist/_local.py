"""One partition: the whole one-device algorithm as one task on the worker that holds it.

With a single partition there is nothing to exchange, so the per-partition kernel is the
whole algorithm: one Dask round trip instead of one per level (on the GPU the one-device
BFS runs all its levels in one launch). ``WHOLE_ON_ONE_WORKER = False`` sends single-partition
matrices through the distributed loop too (the tests do, to check it).
"""

from __future__ import annotations

import semiring as sr
from semiring import dist

WHOLE_ON_ONE_WORKER = True

#: Call the partition's worker directly (``DistMatrix.call_direct``: a Dask actor's method,
#: client -> worker) rather than through the scheduler (a task: client -> scheduler -> worker
#: -> scheduler -> client). On a 2-core host's LocalCluster, a no-op costs 1.1 ms directly
#: against 3.5-4 ms as a task (10.6 ms with Dask's batched sends; bench/probes/dask_latency.py);
#: the result stays on the worker either way.
DIRECT = True

#: With DIRECT, call through the SPMD mesh's own socket to the partition's rank
#: (``DistMatrix.call_spmd``: no Dask message at all, 0.14 ms a no-op call on the 2-core
#: host against 1.6 ms for the actor) rather than through the actor.
MESH = True


def _run(name, B, args, kwargs, missing, ntuple, gather=False):
    import algorithms  # noqa: PLC0415 (on the worker)

    try:
        fn = _FUNCTIONS[name] if name in _FUNCTIONS else getattr(algorithms, name)
        out = fn(B, *args, **kwargs)
    except algorithms.ConvergenceError as err:  # the distributed loop's error for the same
        from ._common import NoConvergence  # noqa: PLC0415 (on the worker)

        raise NoConvergence(f"{name}: no convergence in max_iter (={kwargs.get('max_iter')}) "
                            f"iterations (tol = {kwargs.get('tol')}): {err}",
                            iterations=err.iterations, error=err.error) from err
    outs = out if isinstance(out, tuple) else (out,)
    if any(sr.is_gpu_array(o) for o in outs):
        # done when the call returns (the device loop's kernels run on after their launch)
        import cupy  # noqa: PLC0415 (GPU workers only)

        cupy.cuda.Device().synchronize()
    if gather:  # the arrays themselves: the one-device result, 'missing' where absent
        return out
    vecs = tuple(sr.Vector.from_dense(o, missing=m, device=sr.device_of(o))
                 for o, m in zip(outs, missing))
    return vecs if ntuple > 1 else vecs[0]


def _run_block(B, name, args, kwargs, missing, ntuple, gather):
    """``_run`` with the block first (a direct call's signature), the one-device arrays
    themselves (each made a Vector by the task that takes it, if one does)."""
    out = _run(name, B, args, kwargs, missing, ntuple, True)
    return out if gather or isinstance(out, tuple) else (out,)


def _run_rank(rank, kind, name, args, kwargs, missing, ntuple, gather):
    """``_run_block`` on the rank's block of ``kind`` (a mesh call's signature)."""
    out = _run_block(rank.block(kind), name, args, kwargs, missing, ntuple, gather)
    if gather:  # to the client over the mesh's socket: host arrays
        outs = tuple(o.get() if sr.is_gpu_array(o) else o
                     for o in (out if isinstance(out, tuple) else (out,)))
        return outs
    return out


def _component_roots(B, **kwargs):
    """Each vertex's component's least vertex (the distributed loop's ``gather=False``
    result) from the one-device labels (numbered in order of their least vertex)."""
    import algorithms  # noqa: PLC0415 (on the worker)

    # (O(n): no sort of the labels)
    return sr.blocks.component_roots(algorithms.connected_components(B, **kwargs))


_FUNCTIONS = {"connected_components_roots": _component_roots}


def _as_vector(a, missing):
    """The partition of a held dense result: entries equal to ``missing`` absent."""
    return sr.Vector.from_dense(a, missing=missing, device=sr.device_of(a))


def _pick(t, i):
    return t[i]


def whole(A, name, args, kwargs, missing, dtypes, *, gather):
    """Run ``algorithms.<name>(block, *args, **kwargs)`` on the worker of A's only partition;
    its outputs come back as DistVectors (``missing``: the output's value for 'absent') or,
    with ``gather``, as arrays: the task's own result, one round trip in all."""
    kind = "cols" if A._blocks["cols"] is not None or A._blocks["rows"] is None else "rows"
    B = A.blocks(kind)[0]
    L = A.layout(kind)
    if DIRECT and MESH:
        args_ = (kind, name, args, kwargs, missing, len(missing), gather)
        if gather:
            (got,) = A.call_spmd(_run_rank, args_, kinds=(kind,), keep=False)
            if A.device == "gpu":
                xp = sr.array_module("gpu")
                got = tuple(xp.asarray(g) for g in got)
            return got if len(got) > 1 else got[0]
        vecs = A.call_spmd(_run_rank, args_, kinds=(kind,), keep=True,
                           finish=[(_as_vector, (m,)) for m in missing], dtypes=dtypes)
        return tuple(vecs) if len(vecs) > 1 else vecs[0]
    if DIRECT:
        got = A.call_direct(kind, 0, _run_block, (name, args, kwargs, missing, len(missing),
                                                   gather), keep=not gather,
                            finish=[(_as_vector, (m,)) for m in missing])
        if gather:
            return got
        vecs = [dist.DistVector(L, [h], dt) for h, dt in zip(got, dtypes)]
        return tuple(vecs) if len(vecs) > 1 else vecs[0]
    if gather:
        return L.submit(0, _run, name, B, args, kwargs, missing, len(missing), True).result()
    fut = L.submit(0, _run, name, B, args, kwargs, missing, len(missing))
    futs = [fut] if len(missing) == 1 else [L.submit(0, _pick, fut, i) for i in range(len(missing))]
    vecs = [dist.DistVector(L, [f], dt) for f, dt in zip(futs, dtypes)]
    return tuple(vecs) if len(vecs) > 1 else vecs[0]


def applies(A, name) -> bool:
    import algorithms  # noqa: PLC0415 (the package above this one: a circle at import)

    return WHOLE_ON_ONE_WORKER and A.nparts == 1 and hasattr(algorithms, name)
