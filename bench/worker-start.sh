#!/usr/bin/env bash
# A worker's start on several Java runtimes, alternating (A B C C B A per round: the A B B A of
# docs/performance.md for any number of sides), each round a fresh bench JVM per side that times
# STARTS worker starts (agent's WorkerStartBench: WorkerProcess.start to the worker's ready
# event, as the agent sees it; its first start, which dumps the workers' class-data archive when
# there is none, is left out).
#
#   bench/worker-start.sh [ROUNDS] [STARTS]        # defaults 4 and 5
#
# Sides: WS_SIDES, space-separated NAME:RUNTIME_DIR:CDS[:WORKER_JAVA_OPTIONS[:JAR_DIR]] (CDS on
# or off: LOCKSTEP_WORKER_CDS, the workers' archive; options: LOCKSTEP_WORKER_JAVA_OPTIONS,
# commas for spaces; JAR_DIR: another build's lockstep-agent.jar and tests jar, default
# agent/target). Default, four sides:
#   nocds     the packaged modules linked without any class-data archive (jlink, in BENCH_DIR),
#             workers' archive off: a jlinked runtime as it comes
#   packaged  dist/target/runtime (mvn -B package -Pdist: jlink's archive of the JDK's classes)
#             and this build's workers' archive (WorkerClassArchive)
#   dynamic   the same runtime with the workers' archive of the build in WS_DYNAMIC_JARS, if set
#             (the dynamic archive the first worker dumped at its exit, before 2026-12-06)
#   jdk       the JDK 17 the build used (its own default archive), the workers' archive as in
#             WS_DYNAMIC_JARS if set, else this build's
# Needs agent/target/lockstep-agent.jar and the agent's tests jar (mvn -B package -DskipTests).
# Prints every start, then per side: median ms [min .. max] over all measured starts of the wall
# time and of the worker's CPU time until ready, and the load average before and after.
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-4}
starts=${2:-5}
bench_dir=${BENCH_DIR:-/var/tmp/lockstep-worker-start}
jar=agent/target/lockstep-agent.jar
tests=$(ls agent/target/lockstep-agent-*-tests.jar 2>/dev/null | head -n 1)
[ -f "$jar" ] && [ -n "$tests" ] || { echo "worker-start: build the agent jars first (mvn -B package -DskipTests -pl agent -am)" >&2; exit 1; }
jdk=${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v java)")")")}
mkdir -p "$bench_dir"

if [ -z "${WS_SIDES:-}" ]; then
  [ -x dist/target/runtime/bin/java ] || { echo "worker-start: dist/target/runtime is missing (mvn -B package -Pdist)" >&2; exit 1; }
  mods=$(sed -n 's/^MODULES="\(.*\)"/\1/p' dist/target/runtime/release | tr ' ' ',')
  if [ ! -x "$bench_dir/runtime-nocds/bin/java" ] || [ "$(cat "$bench_dir/runtime-nocds/mods" 2>/dev/null)" != "$mods" ]; then
    rm -rf "$bench_dir/runtime-nocds"
    "$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$mods" --strip-debug --no-man-pages \
      --no-header-files --output "$bench_dir/runtime-nocds"
    echo "$mods" >"$bench_dir/runtime-nocds/mods"
  fi
  WS_SIDES="nocds:$bench_dir/runtime-nocds:off packaged:dist/target/runtime:on"
  if [ -n "${WS_DYNAMIC_JARS:-}" ]; then
    WS_SIDES="$WS_SIDES dynamic:dist/target/runtime:on::$WS_DYNAMIC_JARS jdk:$jdk:on::$WS_DYNAMIC_JARS"
  else
    WS_SIDES="$WS_SIDES jdk:$jdk:on"
  fi
fi
read -r -a sides <<<"$WS_SIDES"
results="$bench_dir/results.txt"
: >"$results"
echo "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
for round in $(seq 1 "$rounds"); do
  order=("${sides[@]}")
  for ((i = ${#sides[@]} - 1; i >= 0; i--)); do order+=("${sides[i]}"); done
  for side in "${order[@]}"; do
    IFS=: read -r name runtime cds opts jars <<<"$side"
    cp="$jar:$tests"
    if [ -n "$jars" ]; then cp="$jars/lockstep-agent.jar:$(ls "$jars"/lockstep-agent-*-tests.jar | head -n 1)"; fi
    state="$bench_dir/state-$name"      # the side's archive persists across rounds, as on a node
    mkdir -p "$state"
    work=$(mktemp -d "$bench_dir/work.XXXXXX")
    out=$(STATE_DIRECTORY="$state" LOCKSTEP_WORKER_CDS="$([ "$cds" = off ] && echo off || echo on)" \
      LOCKSTEP_WORKER_JAVA_OPTIONS="${opts//,/ }" \
      "$runtime/bin/java" -cp "$cp" lockstep.agent.process.WorkerStartBench "$work" "$starts")
    rm -rf "$work"
    echo "$out" | sed "s/^/round $round $name: /"
    echo "$out" | awk -v n="$name" '$1 == "start" {print n, $3, $5}' >>"$results"
  done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
for side in "${sides[@]}"; do
  name=${side%%:*}
  for col in 2 3; do
    sort -n <(awk -v n="$name" -v c="$col" '$1 == n {print $c}' "$results") | awk -v n="$name" -v what="$([ $col = 2 ] && echo "wall" || echo "cpu ")" '
      {v[NR] = $1}
      END {
        m = NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2
        printf "%-10s %s median %6.0f ms  [%d .. %d]  n=%d\n", n, what, m, v[1], v[NR], NR
      }'
  done
done
