#!/usr/bin/env bash
# Boots the lab the lab tests share (LabFixture's, /var/tmp/lockstep-lab-it): .ci/run starts this
# in the background before `mvn -B verify`, so the lab boots while the other modules build and
# test, and the fixture takes the lab that is up (waiting for this up if it still runs).
#   scripts/ci/lab-up.sh gfs2 ocfs2 --nodes 3     (the arguments of `lockstep lab up`)
# It runs from a copy of the built tree's jars, agent package and deploy/ files: mvn rebuilds the
# same files meanwhile, and a JVM this up starts (certs, the agents' checks) must not open a jar
# half written. SIGTERM or SIGINT stops the up, which removes what it made.
set -euo pipefail
repo="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
tree="${LOCKSTEP_CI_LAB_TREE:-/var/tmp/lockstep-ci-lab-tree}"
cd "$repo"
deb="$(ls -t dist/target/lockstep-agent_*_amd64.deb 2>/dev/null | head -n1 || true)"
if [ -z "$deb" ]; then
  echo "lab-up: no agent package in dist/target (./lockstep lab image builds one)" >&2
  exit 1
fi
rm -rf "$tree"
mkdir -p "$tree"
cp -a --parents deploy bench/c coordinator/target/lockstep.jar lab/target/lockstep-lab.jar \
  agent/target/lockstep-agent.jar "$deb" "$tree"/
t0=$SECONDS
java -Dlockstep.log.dir="$tree/logs" \
  -cp "$tree/coordinator/target/lockstep.jar:$tree/lab/target/lockstep-lab.jar" \
  lockstep.coordinator.cli.LockstepCli lab up "$@" --dir /var/tmp/lockstep-lab-it </dev/null &
pid=$!
trap 'kill -TERM "$pid" 2>/dev/null || true' TERM INT
rc=0
wait "$pid" || rc=$?
# a trapped signal ends the first wait early: wait for the up to finish removing what it made
while kill -0 "$pid" 2>/dev/null; do wait "$pid" || rc=$?; done
echo "lab-up: lockstep lab up $* exited $rc after $((SECONDS - t0)) s"
exit "$rc"
