#!/usr/bin/env bash
# What resource sampling costs a workload: the same workload with telemetry on (A) and off (B,
# scenario `telemetry: false`), alternating A B B A so that drift in the machine's load hits
# both sides alike, PAIRS times (default 5, i.e. 2*PAIRS runs per side). Prints every run, then
# per side the median, min and max, and the cost = 1 - median(on) / median(off).
#
# Workload (BENCH_WORKLOAD, YAML flow map): by default ping-pong with one process on local disk,
# a CPU-bound lock loop in which any CPU the sampler takes shows up as fewer locks/s.
# One agent on 127.0.0.1 with its root under BENCH_LOCAL_DIR (default /var/tmp/lockstep-telemetry-cost).
# Then, independent of the machine's other load, the CPU one sample costs on the sampling thread
# itself (lockstep.agent.telemetry.SamplerCost, ThreadMXBean) and what that is at the agent's
# sampling period (SAMPLE_MILLIS, 100 ms as Run.SAMPLE_MILLIS).
# Everything the script creates is removed at the end. Usage: bench/telemetry-cost.sh [PAIRS]
set -euo pipefail
HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
PAIRS="${1:-5}"
LOCAL_DIR="${BENCH_LOCAL_DIR:-/var/tmp/lockstep-telemetry-cost}"
WORKLOAD="${BENCH_WORKLOAD:-{type: ping-pong, processes: 1, duration: 3s, warmup: 500ms}}"
SAMPLE_MILLIS=100
WORK="$(mktemp -d /tmp/lockstep-telemetry-cost.XXXXXX)"
AGENT_PID=""

[[ "$PAIRS" =~ ^[1-9][0-9]*$ ]] || { echo "telemetry-cost: PAIRS must be a positive integer, got '$PAIRS'" >&2; exit 2; }
for tool in python3 java; do
  command -v "$tool" >/dev/null || { echo "telemetry-cost: '$tool' is not installed" >&2; exit 1; }
done

cleanup() {
  if [[ -n "$AGENT_PID" ]]; then kill "$AGENT_PID" 2>/dev/null || true; wait "$AGENT_PID" 2>/dev/null || true; fi
  rm -rf "$WORK" "$LOCAL_DIR"
}
trap cleanup EXIT

"$HERE/lockstep" --version >/dev/null   # builds the jars when sources changed
mkdir -p "$LOCAL_DIR"
java -jar "$HERE/agent/target/lockstep-agent.jar" --listen 127.0.0.1:0 --root "$LOCAL_DIR" --name bench \
  >"$WORK/agent.out" 2>"$WORK/agent.log" &
AGENT_PID=$!
ADDR=""
for _ in $(seq 1 600); do
  ADDR=$(grep -o 'listening on [0-9.]*:[0-9]*' "$WORK/agent.out" | head -n1 | sed 's/listening on //' || true)
  [[ -n "$ADDR" ]] && break
  sleep 0.1
done
[[ -n "$ADDR" ]] || { echo "telemetry-cost: the agent did not start; see $WORK/agent.log" >&2; exit 1; }
# Warm the agent up until it answers Describe (a cold JVM on a busy machine can miss the 5 s deadline); bounded.
for attempt in $(seq 1 10); do
  java -jar "$HERE/coordinator/target/lockstep.jar" agents --agents "$ADDR" >"$WORK/agents.log" 2>&1 && break
  [[ $attempt -lt 10 ]] || { echo "telemetry-cost: the agent does not answer Describe:" >&2; cat "$WORK/agents.log" >&2; exit 1; }
done

# run SIDE TELEMETRY -> appends "SIDE throughput" to $WORK/results
run() {
  local side=$1 telemetry=$2 n=$RANDOM
  printf 'name: telemetry-cost\nplan: [solo]\ntelemetry: %s\nworkload: %s\n' "$telemetry" "$WORKLOAD" >"$WORK/s-$n.yaml"
  # A run that fails before anything started (Describe missing its deadline on a busy machine)
  # measured nothing and is tried again, at most 10 times; any other failure stops the script.
  for attempt in $(seq 1 10); do
    rm -rf "$WORK/r-$n"
    if java -jar "$HERE/coordinator/target/lockstep.jar" run "$WORK/s-$n.yaml" --agents "$ADDR" --out "$WORK/r-$n" \
        >"$WORK/r-$n.log" 2>&1; then
      break
    fi
    if [[ $attempt -eq 10 ]] || ! grep -q 'describe: no answer within the deadline' "$WORK/r-$n.log"; then
      echo "telemetry-cost: run failed:" >&2; tail -n 5 "$WORK/r-$n.log" >&2; exit 1
    fi
  done
  python3 - "$WORK/r-$n" "$side" >>"$WORK/results" <<'PY'
import json, sys, glob
run = json.load(open(glob.glob(sys.argv[1] + "/*/run.json")[0]))
node = run["steps"][0]["results"][0]
assert (node.get("resources") is not None) == (sys.argv[2] == "on"), "telemetry flag not honoured"
print(sys.argv[2], node["throughput"], run["unit"])
PY
  tail -n 1 "$WORK/results"
}

echo "workload: $WORKLOAD on $LOCAL_DIR; $PAIRS x (on off off on)"
for _ in $(seq 1 "$PAIRS"); do
  run on true; run off false; run off false; run on true
done

python3 - "$WORK/results" <<'PY'
import statistics, sys
rows = [l.split() for l in open(sys.argv[1])]
unit = rows[0][2]
side = {s: sorted(float(r[1]) for r in rows if r[0] == s) for s in ("on", "off")}
for s in ("on", "off"):
    v = side[s]
    print(f"telemetry {s:3}: median {statistics.median(v):,.1f} {unit}  min {v[0]:,.1f}  max {v[-1]:,.1f}  n={len(v)}")
on, off = statistics.median(side["on"]), statistics.median(side["off"])
spread = (max(side["off"]) - min(side["off"])) / off
print(f"cost: {(1 - on / off) * 100:+.2f}% of the throughput (median on / median off = {on / off:.4f}); "
      f"run-to-run spread with telemetry off: {spread * 100:.1f}%")
PY

java -cp "$HERE/agent/target/lockstep-agent.jar" lockstep.agent.telemetry.SamplerCost "$LOCAL_DIR" "$SAMPLE_MILLIS" 2000
