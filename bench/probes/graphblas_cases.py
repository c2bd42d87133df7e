"""Seeded cases of the algebra with python-graphblas' answers, for a device without it.

python-graphblas (SuiteSparse:GraphBLAS) is installed on the development host but not on the
GPU machine. ``--make FILE`` (host, needs graphblas) draws seeded random cases of each
operation with the awkward values (empty, n = 0 / 1, stored inf / NaN, the types' limits)
and writes them with SuiteSparse's results as JSON; ``--check FILE --device gpu`` runs the
same cases through the engine and prints every disagreement (``any`` semirings: structure
only). The comparison rules are those of ``tests/test_graphblas_oracle.py``.

    PYTHONPATH=. python3 bench/probes/graphblas_cases.py --make /tmp/gb_cases.json
    PYTHONPATH=. python3 bench/probes/graphblas_cases.py --check /tmp/gb_cases.json --device gpu
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import warnings

import numpy as np

import semiring as sr

DTYPES = ["bool", "int32", "int64", "float32", "float64"]
GB_TYPE = {"bool": "BOOL", "int32": "INT32", "int64": "INT64", "float32": "FP32", "float64": "FP64"}
BOOL_RENAME = {"plus": "lor", "max": "lor", "times": "land", "min": "land", "minus": "lxor"}
POSITIONAL = ("firsti", "firstj", "secondi", "secondj")
MASKS = [None, "V", "S", "~V", "~S"]
ACCUMS = [None, "plus", "min", "max", "first", "second", "minus"]


def draw_values(rng, dt, n, exact):
    dt = np.dtype(dt)
    if dt == np.bool_:
        return rng.random(n) < 0.5
    if dt.kind == "i":
        info = np.iinfo(dt)
        special = [info.min, info.min + 1, info.max - 1, info.max, 0, -1]
        v = rng.integers(-20, 21, n).astype(dt)
    else:
        special = [np.inf, -np.inf, np.nan, 0.5, 0.0]
        if not exact:
            special += [float(np.finfo(dt).max), -float(np.finfo(dt).max)]
        v = rng.integers(-20, 21, n).astype(dt)
    pick = rng.random(n) < 0.3
    with np.errstate(all="ignore"):
        v[pick] = np.asarray(special, dtype=dt)[rng.integers(0, len(special), int(pick.sum()))]
    return v


def draw_dense(rng, shape, dt, exact=False):
    density = [0.0, 0.3, 0.6, 1.0][rng.integers(0, 4)]
    pres = rng.random(shape) < density
    return draw_values(rng, dt, int(np.prod(shape)), exact).reshape(shape), pres


def enc(vd, vp):
    return {"dtype": str(vd.dtype), "shape": list(vd.shape),
            "values": [None if False else (v.item() if hasattr(v, "item") else v) for v in vd.ravel()],
            "present": vp.ravel().tolist()}


def dec(d):
    vals = np.asarray(d["values"], dtype=np.float64 if d["dtype"].startswith("float") else object)
    return vals.astype(d["dtype"]).reshape(d["shape"]), np.asarray(d["present"], bool).reshape(d["shape"])


def ours(vd, vp, device):
    if vd.ndim == 1:
        i = np.flatnonzero(vp)
        return sr.Vector.from_coo(i, vd[i], size=vd.size, dtype=vd.dtype, device=device)
    r, c = np.nonzero(vp)
    return sr.Matrix.from_coo(r, c, vd[r, c], nrows=vd.shape[0], ncols=vd.shape[1],
                              dtype=vd.dtype, device=device)


def dense_of_ours(x):
    get = lambda a: a.get() if hasattr(a, "get") else np.asarray(a)  # noqa: E731
    if isinstance(x, sr.Vector):
        i, v = (get(a) for a in x.to_coo())
        vals, pres = np.zeros(x.size, x.dtype), np.zeros(x.size, bool)
    else:
        r, c, v = (get(a) for a in x.to_coo())
        i = (r, c)
        vals, pres = np.zeros(x.shape, x.dtype), np.zeros(x.shape, bool)
    vals[i], pres[i] = v, True
    return vals, pres


def cases(seed, per_op):
    """(kind, parameters, operands) of every case, seeded."""
    rng = np.random.default_rng(seed)
    out = []
    for name in sorted(sr.ops.builtins("semiring")):
        add = name.split("_", 1)[0]
        for _ in range(per_op):
            dt = DTYPES[rng.integers(0, 5)]
            m, n, k = (int(x) for x in rng.integers(0, 7, 3))
            kind = ["mxv", "vxm", "mxm"][rng.integers(0, 3)]
            a = draw_dense(rng, (m, k), dt, add == "plus")
            b = draw_dense(rng, {"mxv": (k,), "vxm": (m,), "mxm": (k, n)}[kind], dt, add == "plus")
            if kind == "vxm":
                a = draw_dense(rng, (m, k), dt, add == "plus")
            out.append((kind, {"semiring": name, "dtype": dt}, [a, b]))
    for op in ["plus", "minus", "times", "min", "max", "first", "second", "eq", "lt", "ge"]:
        for kind in ("ewise_add", "ewise_mult"):
            for _ in range(per_op):
                dt = DTYPES[rng.integers(0, 5)]
                shape = tuple(int(x) for x in rng.integers(0, 7, rng.integers(1, 3)))
                out.append((kind, {"op": op, "dtype": dt},
                            [draw_dense(rng, shape, dt), draw_dense(rng, shape, dt)]))
    for op in ["identity", "ainv", "abs", "minv", "lnot", "one"]:
        for _ in range(per_op):
            dt = DTYPES[rng.integers(0, 5)]
            shape = tuple(int(x) for x in rng.integers(0, 7, rng.integers(1, 3)))
            out.append(("apply", {"op": op, "dtype": dt}, [draw_dense(rng, shape, dt)]))
    for mono in ["plus", "times", "min", "max"]:
        for _ in range(per_op):
            dt = DTYPES[rng.integers(1, 5)]
            shape = tuple(int(x) for x in rng.integers(0, 7, 2))
            out.append((["reduce_rows", "reduce_cols"][rng.integers(0, 2)], {"monoid": mono, "dtype": dt},
                        [draw_dense(rng, shape, dt, {"plus": True, "times": True}.get(mono, False))]))
    for src in ("float32", "float64"):
        for dst in ("int32", "int64", "bool"):
            with np.errstate(all="ignore"):
                v = np.array([np.nan, np.inf, -np.inf, 3e10, -3e10, -2.7, 2.7, -0.0, 1e30], dtype=src)
            out.append(("cast", {"dtype": dst}, [(v, np.ones(v.size, bool))]))
    # the corners, every case pinned: integer limits under the unary and binary ops, NaN
    # under min / max (element-wise, reductions, folds of the products)
    for dt in ("int32", "int64"):
        info = np.iinfo(dt)
        x = np.array([info.min, info.min + 1, -1, 0, 1, 2, info.max], dtype=dt)
        p_ = np.ones(x.size, bool)
        for op in ["identity", "ainv", "abs", "minv", "lnot", "one"]:
            out.append(("apply", {"op": op, "dtype": dt}, [(x, p_)]))
        for op in ["plus", "minus", "times", "min", "max"]:
            out.append(("ewise_mult", {"op": op, "dtype": dt}, [(x, p_), (x[::-1].copy(), p_)]))
    for dt in ("float32", "float64"):
        x = np.array([np.nan, 1.0, np.nan, -np.inf, -0.0, np.inf], dtype=dt)
        y = np.array([2.0, np.nan, np.nan, np.nan, 0.0, -1.0], dtype=dt)
        p_ = np.ones(x.size, bool)
        for op in ["min", "max", "plus", "minus", "eq", "lt"]:
            out.append(("ewise_mult", {"op": op, "dtype": dt}, [(x, p_), (y, p_)]))
        A = np.vstack([x, y])
        for mono in ["min", "max", "plus"]:
            out.append(("reduce_rows", {"monoid": mono, "dtype": dt}, [(A, np.ones(A.shape, bool))]))
            out.append(("reduce_cols", {"monoid": mono, "dtype": dt}, [(A, np.ones(A.shape, bool))]))
        u = np.array([0.0, 1.0, np.nan, 2.0, 0.0, 1.0], dtype=dt)
        for sname in ["min_plus", "max_plus", "min_first", "max_second", "min_times"]:
            out.append(("mxv", {"semiring": sname, "dtype": dt}, [(A, np.ones(A.shape, bool)), (u, p_)]))
    # masks and accumulators on the vector products
    fin = []
    for kind, p, ops_ in out:
        if kind in ("mxv", "vxm") and p["semiring"].split("_")[0] != "any":
            nout = ops_[0][0].shape[0] if kind == "mxv" else ops_[0][0].shape[1]
            rt = str(sr.ops.builtins("semiring")[p["semiring"]].result_type(p["dtype"]))
            mk = MASKS[rng.integers(0, 5)]
            acc = ACCUMS[rng.integers(0, len(ACCUMS))]
            p = dict(p, mask=mk, accum=acc, replace=bool(rng.integers(0, 2)), rtype=rt)
            ops_ = ops_ + [draw_dense(rng, (nout,), rt), draw_dense(rng, (nout,), "float64")]
        fin.append((kind, p, ops_))
    return fin


def run_ours(kind, p, ops_, device):
    xs = [ours(*o, device) for o in ops_]
    if kind in ("mxv", "vxm", "mxm"):
        s = p["semiring"]
        extra = {}
        if "mask" in p:
            out, m = xs[2], xs[3]
            extra = {"out": out if p["accum"] or p["mask"] else None, "accum": p["accum"],
                     "replace": p["replace"]}
            if extra["out"] is None:
                extra.pop("replace")
                extra.pop("accum")
            if p["mask"]:
                extra["mask"] = {"V": m.V, "S": m.S, "~V": ~m.V, "~S": ~m.S}[p["mask"]]
        if kind == "mxv":
            r = sr.mxv(xs[0], xs[1], s, **extra)
        elif kind == "vxm":
            r = sr.vxm(xs[1], xs[0], s, **extra)
        else:
            r = sr.mxm(xs[0], xs[1], s)
        return r
    if kind == "ewise_add":
        return sr.ewise_add(xs[0], xs[1], p["op"])
    if kind == "ewise_mult":
        return sr.ewise_mult(xs[0], xs[1], p["op"])
    if kind == "apply":
        return sr.apply(xs[0], p["op"])
    if kind == "reduce_rows":
        return sr.reduce_rows(xs[0], p["monoid"])
    if kind == "reduce_cols":
        return sr.reduce_cols(xs[0], p["monoid"])
    if kind == "cast":
        n = ops_[0][0].size
        return sr.apply(xs[0], "identity", out=sr.Vector.new(n, p["dtype"], device=device))
    raise ValueError(kind)


def run_graphblas(kind, p, ops_):
    import graphblas as gb  # noqa: PLC0415  (the host's optional oracle, --make only)
    warnings.filterwarnings("ignore", category=DeprecationWarning)

    def g(vd, vp):
        t = GB_TYPE[str(vd.dtype)]
        if vd.ndim == 1:
            i = np.flatnonzero(vp)
            return gb.Vector.from_coo(i, vd[i], size=vd.size, dtype=t)
        r, c = np.nonzero(vp)
        return gb.Matrix.from_coo(r, c, vd[r, c], nrows=vd.shape[0], ncols=vd.shape[1], dtype=t)

    def gbin(name):
        return getattr(gb.binary.ss, name, None) or getattr(gb.binary, name)

    xs = [g(*o) for o in ops_]
    dt = p["dtype"]
    if kind in ("mxv", "vxm", "mxm"):
        add, mul = p["semiring"].split("_", 1)
        name = p["semiring"]
        t = "INT64" if mul in POSITIONAL else GB_TYPE[dt]
        if dt == "bool" and mul not in POSITIONAL:
            name = f"{BOOL_RENAME.get(add, add)}_{BOOL_RENAME.get(mul, mul)}"
        s = (getattr(gb.semiring.ss, name, None) or getattr(gb.semiring, name))[t]
        expr = xs[0].mxv(xs[1], s) if kind == "mxv" else xs[1].vxm(xs[0], s) if kind == "vxm" \
            else xs[0].mxm(xs[1], s)
        if "mask" not in p:
            return expr.new()
        use_out = bool(p["accum"] or p["mask"])
        w = xs[2] if use_out else gb.Vector(GB_TYPE[p["rtype"]], ops_[2][0].size)
        kw = {}
        if p["mask"]:
            m = xs[3]
            kw["mask"] = {"V": m.V, "S": m.S, "~V": ~m.V, "~S": ~m.S}[p["mask"]]
            kw["replace"] = p["replace"]
        if use_out and p["accum"]:
            kw["accum"] = gbin(p["accum"])
        w(**kw) << expr
        return w
    if kind in ("ewise_add", "ewise_mult"):
        op = gbin(p["op"])[GB_TYPE[dt]]
        return (xs[0].ewise_add(xs[1], op) if kind == "ewise_add" else xs[0].ewise_mult(xs[1], op)).new()
    if kind == "apply":
        return xs[0].apply(getattr(gb.unary, p["op"])[GB_TYPE[dt]]).new()
    if kind == "reduce_rows":
        return xs[0].reduce_rowwise(getattr(gb.monoid, p["monoid"])[GB_TYPE[dt]]).new()
    if kind == "reduce_cols":
        return xs[0].reduce_columnwise(getattr(gb.monoid, p["monoid"])[GB_TYPE[dt]]).new()
    if kind == "cast":
        w = gb.Vector(GB_TYPE[dt], ops_[0][0].size)
        w << xs[0].apply(gb.unary.identity)
        return w
    raise ValueError(kind)


def dense_of_gb(x):
    import graphblas as gb  # noqa: PLC0415  (the host's optional oracle, --make only)
    dt = np.dtype(x.dtype.np_type)
    if isinstance(x, gb.Vector):
        i, v = x.to_coo()
        vals, pres = np.zeros(x.size, dt), np.zeros(x.size, bool)
    else:
        r, c, v = x.to_coo()
        i = (r.astype(np.int64), c.astype(np.int64))
        vals, pres = np.zeros(x.shape, dt), np.zeros(x.shape, bool)
    vals[i], pres[i] = v, True
    return vals, pres


def make(path, seed, per_op):
    rows = []
    for kind, p, ops_ in cases(seed, per_op):
        w = dense_of_gb(run_graphblas(kind, p, ops_))
        rows.append({"kind": kind, "params": p, "operands": [enc(*o) for o in ops_],
                     "expected": enc(*w)})
    with open(path, "w") as f:
        json.dump(rows, f)
    print(f"{len(rows)} cases written to {path}")


def check(path, device, limit=20, time_limit=None, kinds=None):
    """Run the cases (those of ``kinds`` first, in that order) until ``time_limit`` s."""
    rows = json.load(open(path))
    order = sorted(range(len(rows)), key=lambda n: (kinds or []).index(rows[n]["kind"])
                   if rows[n]["kind"] in (kinds or []) else len(kinds or []))
    bad = done = 0
    t0 = time.perf_counter()
    for n in order:
        row = rows[n]
        if time_limit is not None and time.perf_counter() - t0 > time_limit:
            print(f"time limit: stopped after {done} cases")
            break
        done += 1
        ops_ = [dec(o) for o in row["operands"]]
        kind, p = row["kind"], row["params"]
        wv, wp = dec(row["expected"])
        try:
            rv, rp = dense_of_ours(run_ours(kind, p, ops_, device))
        except Exception as exc:  # noqa: BLE001  (report and go on)
            bad += 1
            print(f"case {n} {kind} {p}: raised {type(exc).__name__}: {exc}")
            continue
        any_ = kind in ("mxv", "vxm", "mxm") and p["semiring"].startswith("any_")
        ok = rv.shape == wv.shape and np.array_equal(rp, wp) and rv.dtype == wv.dtype
        if ok and not any_:
            a, b = rv[rp], wv[wp]
            ok = np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        if not ok:
            bad += 1
            if bad <= limit:
                print(f"case {n} {kind} {p}:\n ours {rv.dtype} {rv[rp]} at {np.argwhere(rp).tolist()}\n"
                      f" gb   {wv.dtype} {wv[wp]} at {np.argwhere(wp).tolist()}")
    print(f"{device}: {done} of {len(rows)} cases run, {bad} disagree with python-graphblas "
          f"({time.perf_counter() - t0:.1f} s)", flush=True)
    return bad


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--make")
    ap.add_argument("--check")
    ap.add_argument("--device", default="cpu")
    ap.add_argument("--seed", type=int, default=15)
    ap.add_argument("--per-op", type=int, default=6)
    ap.add_argument("--time-limit", type=float, default=None)
    ap.add_argument("--kinds", default=None, help="comma-separated kinds to run first")
    a = ap.parse_args(argv)
    if a.make:
        make(a.make, a.seed, a.per_op)
    if a.check:
        kinds = a.kinds.split(",") if a.kinds else None
        return 1 if check(a.check, a.device, time_limit=a.time_limit, kinds=kinds) else 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
