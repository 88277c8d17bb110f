#!/usr/bin/env bash
# Runs Lockstep next to the established tools on the same files, in one go, and prints each
# pair with the ratio Lockstep / peer:
#   dd        vs write       (4 KiB blocks, conv=fdatasync / fdatasync: true)
#   fio       vs write       (O_DIRECT, 64 KiB blocks, sequential)
#   fio       vs read        (buffered, 64 KiB blocks, sequential, page cache dropped first)
#   fio       vs read        (O_DIRECT, 4 KiB blocks, random)
#   ping_pong vs ping-pong   (one process, 2 slots; and on GlusterFS two mounts, 3 slots, -rw)
# on local disk (BENCH_LOCAL_DIR, default /var/tmp/lockstep-bench) and, if
# LOCKSTEP_GLUSTER_MOUNTS names two mounts of one GlusterFS volume, on GlusterFS.
# Agents listen on 127.0.0.1 only. Everything the script creates is removed at the end.
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
LOCAL_DIR="${BENCH_LOCAL_DIR:-/var/tmp/lockstep-bench}"
WORK="$(mktemp -d /tmp/lockstep-bench-work.XXXXXX)"
PIDS=()
CLEAN_DIRS=("$WORK")

for tool in dd fio ping_pong python3 java; do
  command -v "$tool" >/dev/null || { echo "compare-peers: '$tool' is not installed" >&2; exit 1; }
done

cleanup() {
  for p in "${PIDS[@]}"; do kill "$p" 2>/dev/null || true; done
  for p in "${PIDS[@]}"; do wait "$p" 2>/dev/null || true; done
  for d in "${CLEAN_DIRS[@]}"; do rm -rf "$d"; done
}
trap cleanup EXIT

# Build once (./lockstep builds the jars when sources changed).
"$HERE/lockstep" --version >/dev/null
AGENT_JAR="$HERE/agent/target/lockstep-agent.jar"
COORD_JAR="$HERE/coordinator/target/lockstep.jar"

# start_agent NAME ROOT -> sets AGENT_ADDR to HOST:PORT (no subshell, so the pid is kept)
start_agent() {
  local name=$1 root=$2 out="$WORK/agent-$1-$RANDOM.out"
  java -jar "$AGENT_JAR" --listen 127.0.0.1:0 --root "$root" --name "$name" >"$out" 2>"$out.log" &
  PIDS+=($!)
  for _ in $(seq 1 300); do
    if grep -qo 'listening on [0-9.]*:[0-9]*' "$out"; then
      AGENT_ADDR=$(grep -o 'listening on [0-9.]*:[0-9]*' "$out" | head -n1 | sed 's/listening on //')
      return 0
    fi
    sleep 0.1
  done
  echo "compare-peers: agent $name did not start; see $out.log" >&2
  exit 1
}

# lockstep_run AGENTS STEP YAML_BODY -> prints the step's throughput (sum of nodes for "all")
lockstep_run() {
  local agents=$1 step=$2 body=$3 scen="$WORK/s-$RANDOM.yaml" out="$WORK/r-$RANDOM"
  local plan; plan=$([ "$step" = all ] && echo "[all]" || echo "[solo]")
  printf 'name: bench\nplan: %s\nworkload:\n%s\n' "$plan" "  ${body//$'\n'/$'\n'  }" >"$scen"
  java -jar "$COORD_JAR" run "$scen" --agents "$agents" --out "$out" >"$out.log" 2>&1 \
    || { echo "compare-peers: lockstep run failed:" >&2; tail -n 5 "$out.log" >&2; exit 1; }
  python3 - "$out" <<'PY'
import json, sys, glob
run = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
s = run["steps"][0]
print(s["aggregate"]["sumOfNodes"] if len(s["results"]) > 1 else s["results"][0]["throughput"])
PY
}

# fio_mbs ARGS... -> MB/s (10^6 bytes) of the job's I/O over its runtime
fio_mbs() {
  fio --output-format=json "$@" 2>/dev/null | python3 -c '
import json, sys
j = json.load(sys.stdin)["jobs"][0]
d = j["read"] if j["read"]["io_bytes"] > 0 else j["write"]
print(d["io_bytes"] / (d["runtime"] / 1000.0) / 1e6)'
}

# dd_mbs FILE BS COUNT -> MB/s over dd's own elapsed time (including fdatasync)
dd_mbs() {
  dd if=/dev/zero of="$1" bs="$2" count="$3" conv=fdatasync 2>&1 | python3 -c '
import re, sys
t = sys.stdin.read()
m = re.search(r"(\d+) bytes .* copied, ([0-9.]+) s", t)
print(int(m.group(1)) / float(m.group(2)) / 1e6)'
  rm -f "$1"
}

# ping_pong_rate FILE SLOTS [OPTS] -> the last locks/sec ping_pong printed in ~6 s
ping_pong_rate() {
  local file=$1 slots=$2 opts=${3:-}
  # shellcheck disable=SC2086
  (timeout -s INT 6 ping_pong $opts "$file" "$slots" || true) | tr '\r' '\n' \
    | grep -o '[0-9]* locks/sec' | tail -n 1 | awk '{print $1}'
}

ROWS=()
# pair LABEL UNIT PEER_FN LOCKSTEP_FN: runs peer, lockstep, lockstep, peer (ABBA, so a trend
# in the machine's state favours neither) and prints the means and the ratio lockstep / peer.
pair() {
  local label=$1 unit=$2 peer=$3 ls=$4 p1 l1 l2 p2
  p1=$($peer); l1=$($ls); l2=$($ls); p2=$($peer)
  ROWS+=("$(python3 -c "
import sys
p1, l1, l2, p2 = map(float, sys.argv[3:7])
p, l = (p1 + p2) / 2, (l1 + l2) / 2
print('%-46s %12.1f %12.1f %-7s %6.2f   (peer %.1f/%.1f, lockstep %.1f/%.1f)' % (sys.argv[1], p, l, sys.argv[2], l / p, p1, p2, l1, l2))
" "$label" "$unit" "$p1" "$l1" "$l2" "$p2")")
  echo "  ${ROWS[-1]}" >&2
}

bench_fs() { # LABEL ROOT1 ROOT2-or-empty SIZE
  local label=$1 root=$2 root2=$3 size=$4
  start_agent node1 "$root"
  A1=$AGENT_ADDR
  R=$root
  MIB=$((size / 1048576))
  echo "== $label ($root)" >&2

  peer_dd() { dd_mbs "$R/lockstep-write.node1" 4k $((MIB * 256)); }
  ls_write4k() { lockstep_run "$A1" solo "type: write
size: ${MIB}MiB
block-size: 4KiB
fdatasync: true"; }
  pair "$label: dd bs=4k conv=fdatasync / write" MB/s peer_dd ls_write4k

  local direct_ok=1
  fio --name=probe --filename="$root/probe" --rw=write --bs=64k --size=1m --direct=1 --ioengine=psync >/dev/null 2>&1 || direct_ok=0
  rm -f "$root/probe"
  if [ $direct_ok = 1 ]; then
    # fallocate=none: like Lockstep (O_TRUNC, then extending writes); fio's default
    # preallocation makes ext4 convert unwritten extents on every direct write.
    peer_fio_w() { fio_mbs --name=w --filename="$R/lockstep-write.node1" --rw=write --bs=64k --size="${MIB}m" \
        --direct=1 --ioengine=psync --fallocate=none; rm -f "$R/lockstep-write.node1"; }
    ls_write_direct() { lockstep_run "$A1" solo "type: write
size: ${MIB}MiB
block-size: 64KiB
o-direct: true"; }
    pair "$label: fio write 64k direct / write o-direct" MB/s peer_fio_w ls_write_direct
  else
    echo "  $label: O_DIRECT refused by this file system; direct pairs skipped" >&2
  fi

  # fio reads a file laid out and synced first, so its invalidate=1 (POSIX_FADV_DONTNEED) can
  # drop clean pages, as Lockstep's prepare does (write, fsync, DONTNEED).
  layout() { fio --name=lay --filename="$R/lockstep-read.node1" --rw=write --bs=1m --size="$1" --end_fsync=1 \
      --ioengine=psync >/dev/null 2>&1; }
  peer_fio_r() { layout "${MIB}m"; fio_mbs --name=r --filename="$R/lockstep-read.node1" --rw=read --bs=64k \
      --size="${MIB}m" --ioengine=psync --invalidate=1; rm -f "$R/lockstep-read.node1"; }
  ls_read() { lockstep_run "$A1" solo "type: read
size: ${MIB}MiB
block-size: 64KiB"; }
  pair "$label: fio read 64k buffered / read" MB/s peer_fio_r ls_read

  if [ $direct_ok = 1 ]; then
    RMIB=$((MIB / 4))
    peer_fio_rr() { layout "${RMIB}m"; fio_mbs --name=rr --filename="$R/lockstep-read.node1" --rw=randread --bs=4k \
        --size="${RMIB}m" --direct=1 --ioengine=psync; rm -f "$R/lockstep-read.node1"; }
    ls_read_rand() { lockstep_run "$A1" solo "type: read
size: ${RMIB}MiB
block-size: 4KiB
pattern: random
o-direct: true"; }
    pair "$label: fio randread 4k direct / read random" MB/s peer_fio_rr ls_read_rand
  fi

  peer_pp() { ping_pong_rate "$R/ping-pong.dat" 2; rm -f "$R/ping-pong.dat"; }
  ls_pp() { lockstep_run "$A1" solo "type: ping-pong
io: none
duration: 5s
warmup: 500ms"; }
  pair "$label: ping_pong (1 process, 2 locks)" locks/s peer_pp ls_pp

  if [ -n "$root2" ]; then
    start_agent node2 "$root2"
    A2=$AGENT_ADDR
    R2=$root2
    peer_pp2() {
      local p1 p2
      ping_pong_rate "$R/ping-pong.dat" 3 -rw >"$WORK/pp1" & p1=$!
      ping_pong_rate "$R2/ping-pong.dat" 3 -rw >"$WORK/pp2" & p2=$!
      wait "$p1" "$p2"
      echo $(( $(cat "$WORK/pp1") + $(cat "$WORK/pp2") ))
      rm -f "$R/ping-pong.dat"
    }
    ls_pp2() { lockstep_run "$A1,$A2" all "type: ping-pong
io: read-write
duration: 5s
warmup: 500ms"; }
    pair "$label: ping_pong -rw x2 mounts, 3 locks (sum)" locks/s peer_pp2 ls_pp2
  fi
}

mkdir -p "$LOCAL_DIR"
CLEAN_DIRS+=("$LOCAL_DIR")
bench_fs "local $(df -T "$LOCAL_DIR" | awk 'NR==2{print $2}')" "$LOCAL_DIR" "" $((256 << 20))

if [ -n "${LOCKSTEP_GLUSTER_MOUNTS:-}" ]; then
  IFS=, read -r m1 m2 _ <<<"$LOCKSTEP_GLUSTER_MOUNTS"
  d="lockstep-bench-$$"
  mkdir -p "$m1/$d"
  CLEAN_DIRS+=("$m1/$d")
  bench_fs "glusterfs" "$m1/$d" "$m2/$d" $((128 << 20))
fi

echo
printf '%-46s %12s %12s %-7s %6s\n' "pair (peer / lockstep), means of 2 runs each" "peer" "lockstep" "unit" "ratio"
printf '%s\n' "${ROWS[@]}"
