"""The first call of a process through the NetworkX backend, against its warm calls (issue 17,
session 15): is ``nx_semiring.algorithms.ORDER_ON_GPU`` (BFS lengths ordered by a sort on the
GPU) paid for on the first call?

The parent builds the graph once (``nx_semiring.bench``'s Kronecker graph or grid) and forks
one child per setting (``--settings``): CUDA is initialized in the child only, so its first
call is its process's first. The child converts the graph into NetworkX's cache
(``from_networkx``, timed: ``convert_s``), then through NetworkX's dispatcher
(``backend="semiring"``) times the first and the warm calls (best of ``--reps``) of
``single_source_shortest_path_length`` and of ``list(bfs_layers(...))`` (the latter after the
former: its own first call, the engine warm). Each child's kernel caches (``CUPY_CACHE_DIR``,
``CUDA_CACHE_PATH``) are empty directories, or the previous child's (a setting ending in
``w``: a second run of a script on the same machine).

Without the package installed (its entry points), a ``.dist-info`` with them is written to a
temporary directory on ``sys.path`` first, so NetworkX finds the backend from a checkout.

Usage: PYTHONPATH=. python3 bench/probes/nx_first_call.py --graph kron:18|grid:1000
       [--settings 0,1,1w] [--reps 3] [--source N] [--json FILE]
"""

import argparse
import json
import os
import sys
import tempfile
import time


def _entry_points():
    """Make NetworkX find the backend where the package is not installed: a minimal
    distribution (METADATA, entry_points.txt) on sys.path."""
    from importlib.metadata import entry_points  # noqa: PLC0415  (only here)

    if any(ep.name == "semiring" for ep in entry_points(group="networkx.backends")):
        return
    d = tempfile.mkdtemp(prefix="nx_semiring_ep")
    info = os.path.join(d, "nx_semiring_ep-0.1.dist-info")
    os.makedirs(info)
    with open(os.path.join(info, "METADATA"), "w") as f:
        f.write("Metadata-Version: 2.1\nName: nx-semiring-ep\nVersion: 0.1\n")
    with open(os.path.join(info, "entry_points.txt"), "w") as f:
        f.write("[networkx.backends]\nsemiring = nx_semiring.interface:backend_interface\n\n"
                "[networkx.backend_info]\nsemiring = nx_semiring:get_info\n")
    sys.path.insert(0, d)


def measure(G, kind, src, order_on_gpu, reps):
    """One child process's measurement (see the module docstring): a dict."""
    import networkx as nx  # noqa: PLC0415  (in the child: its first call is the measure)

    import semiring as sr  # noqa: PLC0415  (in the child, as above)
    from nx_semiring import algorithms as nxa  # noqa: PLC0415  (in the child, as above)
    from nx_semiring.graph import from_networkx  # noqa: PLC0415  (in the child, as above)

    if order_on_gpu is not None:  # None: the module's default
        nxa.ORDER_ON_GPU = bool(order_on_gpu)
    out = {"order_on_gpu": nxa.ORDER_ON_GPU, "device": sr.default_device(), "source": src,
           "kernel_cache": os.environ.get("CUPY_CACHE_DIR", "default")}
    assert "semiring" in nx.utils.backends.backends, "the backend's entry point is missing"
    nx.config.warnings_to_ignore.add("cache")
    G.__networkx_cache__.clear()
    t0 = time.perf_counter()
    from_networkx(G)  # into G.__networkx_cache__, where the dispatcher looks
    out["convert_s"] = time.perf_counter() - t0

    def timed(f):
        t = time.perf_counter()
        r = f()
        return time.perf_counter() - t, r

    calls = {
        "sspl": lambda: nx.single_source_shortest_path_length(G, src, backend="semiring"),
        "bfs_layers": lambda: list(nx.bfs_layers(G, src, backend="semiring")),
    }
    for name, f in calls.items():
        out[f"{name}_first_s"], r = timed(f)
        out[f"{name}_warm_s"] = min(timed(f)[0] for _ in range(reps))
        out[f"{name}_size"] = len(r)
        if PARTIAL:  # each family's figures as they come (a timeout keeps what finished)
            with open(PARTIAL, "a") as f:
                f.write(json.dumps({"partial": name, **out}) + "\n")
    return out


PARTIAL = None  # --json's file, for the partial lines


def _order(setting):
    """ORDER_ON_GPU of a setting: '0' / '1', or 'd' the module's default (a trailing 'w':
    the previous child's kernel caches)."""
    return None if setting[0] == "d" else int(setting[0])


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--graph", default="grid:200")
    p.add_argument("--settings", default="0,1,1w",
                   help="ORDER_ON_GPU per child process: 0 or 1 (d: the module's default) "
                        "with empty kernel caches, '1w' (or '0w', 'dw') reusing the "
                        "previous child's caches, '1h' (or '0h', 'dh') the machine's own")
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--source", type=int, default=None,
                   help="default: 0 on a grid, the vertex of largest degree on kron")
    p.add_argument("--json", default=None)
    p.add_argument("--in-process", action="store_true",
                   help="measure the first setting in this process (no fork)")
    a = p.parse_args()
    global PARTIAL
    PARTIAL = a.json
    _entry_points()
    import networkx as nx  # noqa: F401, PLC0415  (before the fork: shared by the children)

    from nx_semiring.bench import grid_graph, kronecker_graph  # noqa: PLC0415  (after it)

    kind, size = a.graph.split(":")
    t0 = time.perf_counter()
    G = kronecker_graph(int(size)) if kind == "kron" else grid_graph(int(size))
    build_s = time.perf_counter() - t0
    src = a.source if a.source is not None else (
        0 if kind == "grid" else max(G, key=G.degree))
    print(json.dumps({"graph": a.graph, "build_s": build_s, "source": src}), flush=True)
    import semiring.device  # noqa: PLC0415  (nothing probed yet: lazy)

    if a.in_process or semiring.device.gpu_available.cache_info().currsize:
        # CUDA may be initialized here already (a fork would inherit a context it cannot
        # use): each setting in a process of its own, building the graph again
        if a.in_process:
            setting = a.settings.split(",")[0]
            out = measure(G, kind, src, _order(setting), a.reps)
            out.update(graph=a.graph, setting=setting, build_s=build_s)
            print(json.dumps(out), flush=True)
            if a.json:
                with open(a.json, "a") as f:
                    f.write(json.dumps(out) + "\n")
            return
        import subprocess  # noqa: PLC0415  (only where each setting needs a process)

        for setting in a.settings.split(","):
            subprocess.run([sys.executable, __file__, "--graph", a.graph, "--settings",
                            setting, "--reps", str(a.reps), "--source", str(src),
                            "--in-process"] + (["--json", a.json] if a.json else []),
                           check=False)
        return
    cache = None
    for setting in a.settings.split(","):
        if not setting.endswith(("w", "h")) or cache is None:
            cache = tempfile.mkdtemp(prefix="nx_first_call_cache")
        # one child per setting: its first call is its process's first (CUDA is initialized
        # in the child only; the parent imported neither CuPy's device nor a kernel)
        r, w = os.pipe()
        pid = os.fork()
        if pid == 0:
            os.close(r)
            if not setting.endswith("h"):  # 'h': the machine's own caches, as they are
                os.environ["CUPY_CACHE_DIR"] = os.path.join(cache, "cupy")
                os.environ["CUDA_CACHE_PATH"] = os.path.join(cache, "cuda")
            try:
                out = measure(G, kind, src, _order(setting), a.reps)
                out.update(graph=a.graph, setting=setting)
            except Exception as exc:  # noqa: BLE001 (reported by the parent)
                out = {"graph": a.graph, "setting": setting, "error": repr(exc)}
            os.write(w, json.dumps(out).encode())
            os._exit(0)
        os.close(w)
        with os.fdopen(r) as f:
            line = f.read()
        os.waitpid(pid, 0)
        print(line, flush=True)
        if a.json:
            with open(a.json, "a") as f:
                f.write(line + "\n")


if __name__ == "__main__":
    main()
