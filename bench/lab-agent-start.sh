#!/usr/bin/env bash
# An agent's start in a lab guest with two builds' jar and class-data archive, alternated
# (A B B A per round): one agent by hand with mTLS through the package's launcher (no spare
# workers), the guest's page cache dropped before each, as after a node's boot. Prints per start
# the seconds to the listening line, the agent's CPU then, and the start-up rehearsal's time (a
# worker's start and a 300 ms ping-pong).
#
#   bench/lab-agent-start.sh NODE DIR_A DIR_B [ROUNDS]     # ROUNDS default 2
#
# DIR_A, DIR_B: directories on the guest, each with a lockstep-agent.jar and lockstep-agent.jsa
# copied (cp -p: the archive maps only for its jar's size and time) from an installed package.
# The node's lab agent is stopped while it runs; at the end its installed jar and archive are
# put back and its agent started again. Lab in LOCKSTEP_LAB_DIR (default /var/tmp/lockstep-lab).
set -euo pipefail
cd "$(dirname "$0")/.."
[ $# -ge 3 ] || { sed -n '2,13p' "$0" >&2; exit 2; }
node=$1 a=$2 b=$3 rounds=${4:-2}
guest=$(cat <<'GUEST'
d=$1
systemctl stop lockstep-agent 2>/dev/null || true
cp -p "$d"/lockstep-agent.jar "$d"/lockstep-agent.jsa /usr/lib/lockstep-agent/lib/
sync; echo 3 > /proc/sys/vm/drop_caches; sleep 3
mkdir -p /tmp/lab-agent-start; rm -f /tmp/lab-agent-start.out
t0=$(date +%s.%N)
JAVA_OPTS="-XX:TieredStopAtLevel=1 -XX:+UseSerialGC" LOCKSTEP_WORKER_JAVA_OPTIONS=-XX:CompileThresholdScaling=1 \
  /usr/bin/lockstep-agent --listen 127.0.0.1:7999 --root /tmp/lab-agent-start --name bench --spare-workers 0 \
  --tls-cert /etc/lockstep/tls/agent.pem --tls-key /etc/lockstep/tls/agent-key.pem \
  --tls-client-ca /etc/lockstep/tls/ca.pem >/tmp/lab-agent-start.out 2>&1 &
p=$!
until grep -q ' listening on ' /tmp/lab-agent-start.out; do kill -0 $p || exit 1; sleep 0.2; done
t1=$(date +%s.%N); c1=$(awk '{print ($14+$15)/100}' /proc/$p/stat)
until grep -q 'start-up rehearsal' /tmp/lab-agent-start.out; do sleep 0.2; done
r=$(sed -n 's/.*start-up rehearsal done in \([0-9]*\) ms.*/\1/p' /tmp/lab-agent-start.out)
kill $p; wait $p 2>/dev/null || true
echo "$d: listening $(awk -v a=$t1 -v b=$t0 'BEGIN{printf "%.1f", a-b}') s, agent CPU $c1 s; rehearsal ${r:-?} ms"
GUEST
)
on_guest() { ./lockstep lab ssh "$node" sh -c "$(printf '%q' "$1")" sh "${@:2}" </dev/null; }
lib=/usr/lib/lockstep-agent/lib
on_guest "mkdir -p /root/lab-agent-start-installed && cp -p $lib/lockstep-agent.jar $lib/lockstep-agent.jsa /root/lab-agent-start-installed/"
# shellcheck disable=SC2064  # expand now
trap "on_guest 'cp -p /root/lab-agent-start-installed/* $lib/ && rm -rf /root/lab-agent-start-installed /tmp/lab-agent-start /tmp/lab-agent-start.out && systemctl start lockstep-agent 2>/dev/null; true'" EXIT
for _ in $(seq 1 "$rounds"); do
  for d in "$a" "$b" "$b" "$a"; do
    on_guest "$guest" "$d"
  done
done
