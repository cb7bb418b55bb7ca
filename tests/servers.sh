# servers.sh — sourced, not run: a real Bazel remote cache and a real remote execution server, on
# 127.0.0.1, for the tests that share or send out actions (tests/remote.sh).
# Every server started is stopped when the calling shell exits (servers_stop), however it exits.
#
#   cache_server_start DIR   builds bazel-remote (tests/remote: v1.3.3, pinned by go.sum) into
#                            DIR/bin, starts it with an empty store in DIR/data on two free ports,
#                            and waits until it answers; sets cache_grpc (grpc://127.0.0.1:PORT,
#                            what --remote_cache takes) and cache_http. Its log: DIR/server.log.
#   exec_server_start DIR    starts buildbox-casd (Debian's buildbox) as a local Remote Execution
#                            API server, with an empty store in DIR/data, running each action with
#                            buildbox-run-hosttools in a directory staged from its inputs, and
#                            reapi2 (tests/remote/reapi2) in front of it, so that Bazel 7, which
#                            speaks REAPI 2.0 only, accepts it; sets exec_grpc (what
#                            --remote_executor takes). Logs: DIR/casd.log, DIR/reapi2.log.
#   servers_stop             stops every server started (and waits until each is gone).
#
# bazel-remote rather than nginx with WebDAV: it speaks Bazel's gRPC cache protocol (the one
# --remote_download_minimal needs to be cheap: FindMissingBlobs, batched reads), checks every action
# result it stores against the blobs it names (no half-uploaded entries served), and is a Go program
# built here from the Go module proxy, as rules_gpu's helper is.

servers_tests=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
servers_pids=()

# free_ports N: N TCP ports of 127.0.0.1 that the kernel says are free (bound to port 0, released).
free_ports() {
  python3 -c 'import socket, sys
ss = [socket.socket() for _ in range(int(sys.argv[1]))]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])' "$1"
}

# wait_port NAME PID PORT LOG: waits until PID listens on PORT (up to 20 s); fails, with LOG's tail,
# when it does not or exits first.
wait_port() {
  local i
  for i in $(seq 100); do
    python3 -c 'import socket, sys; socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=1).close()' "$3" 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || break
    sleep 0.2
  done
  echo "servers.sh: $1 did not start; its log ($4):" >&2
  tail -20 "$4" >&2
  return 1
}

# start NAME LOG CMD...: starts CMD in the background, logging to LOG; sets started_pid.
start() {
  local name=$1 log=$2
  shift 2
  "$@" >"$log" 2>&1 &
  started_pid=$!
  servers_pids+=("$started_pid:$name")
  trap servers_stop EXIT
}

cache_server_start() {
  local dir=${1:?usage: cache_server_start DIR} http grpc
  rm -rf "$dir/data" && mkdir -p "$dir/bin" "$dir/data" || return 1
  (cd "$servers_tests/remote" && go build -o "$dir/bin/bazel-remote" github.com/buchgr/bazel-remote) ||
    { echo "servers.sh: bazel-remote does not build (tests/remote)" >&2; return 1; }
  read -r http grpc <<<"$(free_ports 2)" || return 1
  start bazel-remote "$dir/server.log" "$dir/bin/bazel-remote" --dir "$dir/data" --max_size 8 \
    --host 127.0.0.1 --port "$http" --grpc_port "$grpc"
  wait_port bazel-remote "$started_pid" "$grpc" "$dir/server.log" || { servers_stop; return 1; }
  cache_http=http://127.0.0.1:$http cache_grpc=grpc://127.0.0.1:$grpc
  echo "cache server: bazel-remote (pid $started_pid) at $cache_grpc, store $dir/data"
}

exec_server_start() {
  local dir=${1:?usage: exec_server_start DIR} casd front
  command -v buildbox-casd >/dev/null ||
    { echo "servers.sh: no buildbox-casd (Debian's buildbox package; env/versions.sh installs it)" >&2; return 1; }
  rm -rf "$dir/data" && mkdir -p "$dir/bin" "$dir/data" || return 1
  (cd "$servers_tests/remote" && go build -o "$dir/bin/reapi2" ./reapi2) ||
    { echo "servers.sh: reapi2 does not build (tests/remote/reapi2)" >&2; return 1; }
  read -r casd front <<<"$(free_ports 2)" || return 1
  # Inputs are staged by copying or hard-linking: the FUSE stager needs /dev/fuse, which the build
  # environment does not have.
  start buildbox-casd "$dir/casd.log" env BUILDBOX_STAGER=copy-or-link buildbox-casd \
    --buildbox-run=/usr/bin/buildbox-run-hosttools --jobs "$(nproc)" --bind "127.0.0.1:$casd" "$dir/data"
  wait_port buildbox-casd "$started_pid" "$casd" "$dir/casd.log" || { servers_stop; return 1; }
  start reapi2 "$dir/reapi2.log" "$dir/bin/reapi2" -listen "127.0.0.1:$front" -upstream "127.0.0.1:$casd"
  wait_port reapi2 "$started_pid" "$front" "$dir/reapi2.log" || { servers_stop; return 1; }
  exec_grpc=grpc://127.0.0.1:$front
  echo "remote execution server: buildbox-casd at 127.0.0.1:$casd behind reapi2 at $exec_grpc, store $dir/data"
}

servers_stop() {
  local entry
  for entry in "${servers_pids[@]}"; do
    kill "${entry%%:*}" 2>/dev/null && wait "${entry%%:*}" 2>/dev/null
    echo "stopped ${entry#*:} (pid ${entry%%:*})"
  done
  servers_pids=()
}
