#!/usr/bin/env bash
# The agent's own Java runtime: jdeps lists the modules the agent jar (and so its workers, which
# run from the same jar) uses, jlink links those (plus the service providers jdeps cannot see,
# extra-modules) into OUT and generates the runtime's class-data archive (CDS) for the JDK's
# classes.
#
#   runtime.sh JDK AGENT_JAR OUT
#
# JDK: a JDK 17 with jmods (its bin/jdeps, bin/jlink and jmods/). OUT is rebuilt only when the
# jar, the JDK, this script or extra-modules changed (its key is in OUT/lockstep-runtime.key).
# OUT/lockstep-jdeps.txt keeps what jdeps said, for the build's log; RuntimeModulesTest asks
# jdeps again and checks the runtime against it.
set -euo pipefail

[ $# -eq 3 ] || { echo "usage: runtime.sh JDK AGENT_JAR OUT" >&2; exit 2; }
jdk=$1 jar=$2 out=$3
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
extra_file="$here/extra-modules"

die() { echo "runtime.sh: $*" >&2; exit 1; }
[ -f "$jar" ] || die "$jar is missing: build the agent first (mvn -B package -Pdist -pl dist -am)"
for tool in jdeps jlink java; do
  [ -x "$jdk/bin/$tool" ] || die "$jdk/bin/$tool is missing: dist.jdk must name a JDK 17 (-Ddist.jdk=DIR)"
done
[ -f "$jdk/jmods/java.base.jmod" ] || die "$jdk/jmods is missing: jlink needs a JDK with jmods (Debian: openjdk-17-jdk-headless)"
feature=$("$jdk/bin/java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = //p')
[ "$feature" = 17 ] || die "$jdk is Java $feature; the agent's runtime is made from a JDK 17 (-Ddist.jdk=DIR)"

key=$(cat "$jar" "$jdk/release" "${BASH_SOURCE[0]}" "$extra_file" | sha256sum | cut -c1-16)
if [ -f "$out/lockstep-runtime.key" ] && [ "$(cat "$out/lockstep-runtime.key")" = "$key" ]; then
  echo "runtime: $out is up to date (key $key)"
  exit 0
fi

t0=$SECONDS
# --multi-release 17: the shaded jar is multi-release (versioned classes of its dependencies).
# --ignore-missing-deps: optional dependencies of the libraries (e.g. Log4j's Kafka appender) are
# not in the jar and never loaded; without it jdeps stops at the first one.
used=$("$jdk/bin/jdeps" --ignore-missing-deps --print-module-deps --multi-release 17 "$jar")
[ -n "$used" ] || die "jdeps printed no modules for $jar"
extra=$(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$extra_file" | tr -d ' ' | paste -sd, -)
modules="$used${extra:+,$extra}"

rm -rf "$out.tmp" "$out"
mkdir -p "$(dirname "$out")"
# --strip-debug: the JDK's own debug attributes (the agent jar is not touched);
# --generate-cds-archive: lib/server/classes.jsa, the JDK's classes pre-parsed for every JVM this
# runtime starts (the agent and each worker); a jlinked runtime has none otherwise.
"$jdk/bin/jlink" --module-path "$jdk/jmods" --add-modules "$modules" \
  --strip-debug --no-man-pages --no-header-files --generate-cds-archive \
  --output "$out.tmp"
printf '%s\n' "$used" >"$out.tmp/lockstep-jdeps.txt"
printf '%s\n' "$key" >"$out.tmp/lockstep-runtime.key"
mv "$out.tmp" "$out"
echo "runtime: jdeps: $used; added: ${extra:-nothing}"
echo "runtime: $(du -sh "$out" | cut -f1) in $out ($(sed -n 's/^MODULES="\(.*\)"/\1/p' "$out/release" | wc -w) modules with their requirements), $((SECONDS - t0)) s"
