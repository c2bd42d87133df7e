#!/usr/bin/env bash
# mg23 (session 23, issue 18): the library's two-GPU BFS (BFS_LEVELS 'peer' / 'auto',
# semiring/kernels/bfs_peer.cu over CUDA IPC) on the 2 x H200 machine. Run from the
# repository root after the wheels:
#   python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
#       --target /tmp/site .whl/*.whl && export PYTHONPATH=$PWD:/tmp/site
#   bash bench/results/session23/mg23_gpu_try.sh
# Under 4 minutes (each step has its own timeout); every step prints PASS or FAIL.
set -u
export NCCL_NVLS_ENABLE=0
nvidia-smi --query-gpu=index,name,pci.bus_id --format=csv,noheader
nvidia-smi topo -m 2>/dev/null | head -4

echo "== 1. NVRTC compile of the bfs_peer family (sm_90) =="
if timeout 30 python3 .ci/compile_kernels.py --family bfs_peer --arch sm_90 --jobs 2; then
    echo "PASS 1 nvrtc"; else echo "FAIL 1 nvrtc rc=$?"; fi

echo "== 2. 2-GPU tests: tests/test_dist_peer_bfs.py (workers see their own GPU only) =="
DEVICES=own
if timeout 80 python3 -m pytest -p no:cacheprovider -n 0 -q -x -rs \
        tests/test_dist_peer_bfs.py; then
    echo "PASS 2 peer tests"
else
    echo "FAIL 2 peer tests rc=$?"
    # the IPC open across CUDA_VISIBLE_DEVICES may be what failed: the same with every GPU
    # visible to every worker, its own first (dask-cuda's layout)
    echo "== 2b. the same, SEMIRING_GPU_WORKER_DEVICES=rotated (first failure only) =="
    DEVICES=rotated
    if SEMIRING_GPU_WORKER_DEVICES=rotated timeout 60 python3 -m pytest -p no:cacheprovider \
            -n 0 -q -x -rs tests/test_dist_peer_bfs.py; then
        echo "PASS 2b peer tests (rotated)"; else echo "FAIL 2b peer tests (rotated) rc=$?"; fi
fi

echo "== 3. timing: kron-22 and kron-24, peer vs fused vs the one-GPU engine ($DEVICES) =="
if timeout 120 python3 bench/probes/peer_bfs_time.py --scales 22,24 --sources 6 --reps 3 \
        --devices "$DEVICES"; then
    echo "PASS 3 timing (levels equal)"; else echo "FAIL 3 timing rc=$?"; fi

echo "== 4. kron-24 with the kept launch (PEER_KEPT_LAUNCH on the workers: the launch's host call) =="
if timeout 60 python3 bench/probes/peer_bfs_time.py --scales 24 --sources 6 --reps 3 \
        --devices "$DEVICES" --kept-launch --no-fused --no-one-worker; then
    echo "PASS 4 kept launch (levels equal)"; else echo "FAIL 4 kept launch rc=$?"; fi
