# Session 26 call 8 (h200): the csgraph route's steps on small GPU input
export PYTHONPATH=.
timeout 120 python3 bench/probes/csgraph_route_split.py 200 2>&1 | tail -12
