#!/usr/bin/env bash
# Lockstep's ping-pong against ctdb's ping_pong and lockbench (a C program with the same fcntl
# calls) in the lab's GFS2 guests, alternated A B B A (A = the peers, B = a Lockstep run).
#
#   ./lockstep lab up gfs2 --dir /var/tmp/lockstep-lab
#   [LAB_PAIRS=5] [LAB_SECONDS=10] [LAB_LIMIT=0] bench/lab-pingpong.sh
#   ./lockstep lab down --dir /var/tmp/lockstep-lab
#
# Each side runs on node1 alone, one process, two slots (ping_pong's "file 2"), with GFS2's
# plock_rate_limit set to LAB_LIMIT on every node first. ping_pong's figure is the mean of its
# once-a-second lines after the first; lockbench prints its own mean; Lockstep's is node1's figure
# over its measured window (after a 5 s ring warm-up that counts nothing). Take it with nothing
# else running on the host: the guests' CPUs are emulated, so anything beside them is in the
# figure. Method and results: docs/workloads.md ("Lab ping-pong, A B B A").
set -euo pipefail
cd "$(dirname "$0")/.."

LOCKSTEP=${LAB_LOCKSTEP:-./lockstep}
DIR=${LAB_DIR:-/var/tmp/lockstep-lab}
PAIRS=${LAB_PAIRS:-5}
SECS=${LAB_SECONDS:-10}
LIMIT=${LAB_LIMIT:-0}
WORK=$(mktemp -d /tmp/lockstep-lab-pingpong.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

lab() { "$LOCKSTEP" lab "$@"; }

if ! lab status --dir "$DIR" 2>/dev/null | grep -q gfs2; then
  echo "lab-pingpong: no lab with GFS2 up in $DIR ($LOCKSTEP lab up gfs2 --dir $DIR)" >&2
  exit 2
fi
lab set --dir "$DIR" "plock_rate_limit=$LIMIT" >&2

cat >"$WORK/pp.yaml" <<EOF
name: lab-pingpong-abba
plan: [ramp]
ramp: [1]
workload: {type: ping-pong, file: abba-pp.dat, processes: 1, lock: fcntl, duration: ${SECS}s, warmup: 5s}
EOF

peers() {
  local out pp lb
  out=$(lab ssh --dir "$DIR" node1 \
    "timeout -s INT $((SECS + 1)) ping_pong /mnt/gfs2/abba-peer.dat 2; lockbench fcntl /mnt/gfs2/abba-peer.dat $SECS; rm -f /mnt/gfs2/abba-peer.dat" 2>&1 || true)
  pp=$(tr '\r' '\n' <<<"$out" | grep -o '[0-9]* locks/sec' | awk 'NR > 1 { s += $1; n++ } END { if (n) printf "%.0f", s / n }')
  lb=$(grep -o 'ops_per_s [0-9.]*' <<<"$out" | awk '{ printf "%.0f", $2 }')
  if [[ -z $pp || -z $lb ]]; then
    echo "lab-pingpong: the peers printed no figure: $out" >&2
    exit 1
  fi
  echo "$pp $lb"
}

lockstep() {
  local out=$WORK/results.$RANDOM
  lab run --dir "$DIR" --stack gfs2 "$WORK/pp.yaml" --out "$out" >"$WORK/run.log" 2>&1 || {
    echo "lab-pingpong: the Lockstep run failed:" >&2
    tail -20 "$WORK/run.log" >&2
    exit 1
  }
  python3 - "$out" "$WORK/layout" <<'EOF'
import glob, json, sys
run = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
r = run["steps"][0]["results"][0]
assert r["node"] == "node1", r["node"]
print("%.0f" % r["throughput"])
a = next(a for a in run["agents"] if a["node"] == "node1")
with open(sys.argv[2], "w") as f:
    f.write("guests of %s vCPU(s), node1's agent on CPUs %s" % (
        a["labels"].get("lab-cpus", "?"),
        a["clusterSettings"].get("host:cpu-affinity", "all")))
EOF
  rm -rf "$out"
}

pp=() lb=() ls=()
for ((i = 1; i <= PAIRS; i++)); do
  for side in A B B A; do
    if [[ $side == A ]]; then
      read -r p l <<<"$(peers)"
      pp+=("$p") lb+=("$l")
      echo "pair $i A: ping_pong $p, lockbench $l locks/s" >&2
    else
      x=$(lockstep)
      ls+=("$x")
      echo "pair $i B: lockstep $x locks/s" >&2
    fi
  done
done

python3 - "${pp[*]}" "${lb[*]}" "${ls[*]}" <<'EOF'
import statistics, sys
pp, lb, ls = ([float(x) for x in a.split()] for a in sys.argv[1:4])
def show(name, xs):
    return "%s median %.0f [%.0f .. %.0f]" % (name, statistics.median(xs), min(xs), max(xs))
print("lab ping-pong locks/s, node1 alone: " + "; ".join(
    [show("ping_pong", pp), show("lockbench", lb), show("lockstep", ls)]))
print("lockstep / ping_pong %.2f, lockstep / lockbench %.2f (medians)" % (
    statistics.median(ls) / statistics.median(pp), statistics.median(ls) / statistics.median(lb)))
EOF
echo "($(cat "$WORK/layout"))"
