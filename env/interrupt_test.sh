#!/bin/bash
# interrupt_test.sh — kills `env.sh setup` twice (SIGKILL to its whole process group, the harshest
# stop: once during debootstrap, once while packages install), then lets it finish, and checks the
# environment works and no mount is left. Uses a separate environment (RULES_GPU_ENV, default
# /tmp/intenv, about 7 GB) and takes ~10 minutes; results go to /tmp/int.txt.
cd "$(dirname "$0")/.."
export RULES_GPU_ENV=${RULES_GPU_ENV:-/tmp/intenv}
rm -f /tmp/int.txt
kill_after() { setsid env/env.sh setup > "$2" 2>&1 & pid=$!; sleep "$1"; kill -KILL -- -"$pid"; wait "$pid" 2>/dev/null; }
kill_after 15 /tmp/int1.log
echo "1: killed at 15 s: $(ls $RULES_GPU_ENV | tr '\n' ' '); stamps: $(ls $RULES_GPU_ENV/stamps 2>/dev/null | tr '\n' ' ')" >> /tmp/int.txt
kill_after 150 /tmp/int2.log
echo "2: killed at 150 s: stamps: $(ls $RULES_GPU_ENV/stamps 2>/dev/null | tr '\n' ' '); $(tail -1 /tmp/int2.log)" >> /tmp/int.txt
s=$(date +%s); env/env.sh setup > /tmp/int3.log 2>&1; rc=$?
echo "3: to completion: rc=$rc in $(( $(date +%s)-s )) s; stamps: $(ls $RULES_GPU_ENV/stamps | tr '\n' ' ')" >> /tmp/int.txt
env/env.sh run bash -c 'bazel --version; ptxas --version | tail -1; mlir-opt-21 --version | grep -i version' >> /tmp/int.txt 2>&1
echo "mounts left: $(grep -c "$RULES_GPU_ENV" /proc/mounts)" >> /tmp/int.txt
