"""The ``networkx`` bench case's JSON reports (``python -m bench --algorithms networkx``) as
one Markdown table: per case NetworkX's time, the backend's conversion, first call and warm
call (median), and both speed-ups, with the device and host named.

Usage: python3 bench/probes/nx_results_table.py REPORT.json [REPORT.json ...]
"""

import json
import sys


def main(paths):
    rows = []
    env = {}
    for p in paths:
        with open(p) as fh:
            d = json.load(fh)
        env = d["environment"]
        for c in d["cases"]:
            alg = c["params"]["alg"]
            graph = c["case_id"].split("/")[1]
            if alg == "bc" and "bc_sources" in c["case_metrics"]:
                alg += f" (k = {c['case_metrics']['bc_sources']})"
            for r in c["results"]:
                if not r["engine"]:
                    continue
                m = r["metrics"]
                if "networkx_s" not in m:
                    why = r.get("check") or r.get("error")
                    rows.append(f"| {graph} | {alg} | {r['status']}: {why} | | | | | | |")
                    continue
                rows.append(f"| {graph} | {alg} | {m['networkx_s']:.3f} | {m['convert_s']:.3f} | "
                            f"{m['first_s'] * 1e3:.1f} | {r['ms_median']:.2f} | "
                            f"{m['speedup_once']:.1f}x | {m['speedup_warm']:.0f}x | "
                            f"{r['status']}: {r['check']} |")
    print(f"device: {env.get('gpu_name')}; host CPU {env.get('cpu_model')} "
          f"({env.get('cpu_count')} CPUs); numpy {env.get('numpy_version')}, "
          f"cupy {env.get('cupy_version')}")
    print("| graph | algorithm | NetworkX s | convert s | first call ms | warm ms (median) | "
          "NetworkX / (convert + first) | NetworkX / warm | check |")
    print("|---|---|---:|---:|---:|---:|---:|---:|---|")
    print("\n".join(rows))


if __name__ == "__main__":
    main(sys.argv[1:])
