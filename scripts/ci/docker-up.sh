#!/usr/bin/env bash
# Starts the Docker engine in the background unless `docker info` already answers,
# then waits (bounded, ~60 s) until it does.
#   Log: ${LOCKSTEP_DOCKERD_LOG:-/var/log/lockstep-dockerd.log}
# dockerd is started with --ip=127.0.0.1 so that any published container port binds
# to loopback only. Tests should use host networking (agents on 127.0.0.x ports).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
require_root

timeout_s="${LOCKSTEP_DOCKER_TIMEOUT:-60}"
log="${LOCKSTEP_DOCKERD_LOG:-/var/log/lockstep-dockerd.log}"

docker_answers() { timeout 10 docker info >/dev/null 2>&1; }

if docker_answers; then
  say "docker engine already running ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'))"
  exit 0
fi

command -v dockerd >/dev/null 2>&1 || die "dockerd not found (run scripts/ci/install-packages.sh)"

# A dockerd that is still starting (or hung) holds the pid file: do not start a second one.
if pid="$(cat /var/run/docker.pid 2>/dev/null)" && [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
  say "dockerd (pid $pid) is running but not answering yet; waiting for it"
else
  rm -f /var/run/docker.pid
  say "starting dockerd (log: $log)"
  mkdir -p "$(dirname "$log")"
  # setsid + nohup: the daemon must outlive this script and the CI step that started it.
  setsid nohup dockerd --ip=127.0.0.1 >>"$log" 2>&1 </dev/null &
  pid=$!
fi

deadline=$((SECONDS + timeout_s))
until docker_answers; do
  if ! kill -0 "$pid" 2>/dev/null; then
    echo "    dockerd exited; last lines of $log:" >&2
    tail -n 30 "$log" | sed 's/^/    | /' >&2
    exit 1
  fi
  if [ "$SECONDS" -ge "$deadline" ]; then
    echo "    docker info did not answer within ${timeout_s}s; last lines of $log:" >&2
    tail -n 30 "$log" | sed 's/^/    | /' >&2
    exit 1
  fi
  sleep 0.5
done
say "docker engine ready after ${SECONDS}s ($(docker version --format '{{.Server.Version}}' 2>/dev/null || echo '?'), storage driver $(docker info --format '{{.Driver}}' 2>/dev/null || echo '?'))"
