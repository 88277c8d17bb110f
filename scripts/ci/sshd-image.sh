#!/usr/bin/env bash
# Builds lockstep/sshd-jre17:local: the local JRE 17 base image plus OpenSSH's server, for the
# SSH launch tests (SshLaunchIT). The tests only run it (sshd on a loopback port, host
# networking); they never build it, so they send no traffic beyond loopback.
#
# The build runs `apt-get install openssh-server` from the Debian mirror in the base image's
# sources.list, with host networking (the same mirror debootstrap used for the base image).
# Cached: nothing is done when the image exists with the same recipe and base image id.
# Env: LOCKSTEP_SSHD_IMAGE, LOCKSTEP_AGENT_BASE_IMAGE, LOCKSTEP_SSHD_IMAGE_REBUILD=1,
#      LOCKSTEP_SSHD_JAVA=required (default: the base must have java) or absent (it must not:
#      lockstep/sshd-debian12:local on lockstep/debian12:local, a node that gets the agent's
#      tarball, SshLaunchTarballIT).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
require_root

image="${LOCKSTEP_SSHD_IMAGE:-lockstep/sshd-jre17:local}"
base="${LOCKSTEP_AGENT_BASE_IMAGE:-lockstep/base-jre17:local}"
log="$(ci_log_dir)/sshd-image.log"

docker info >/dev/null 2>&1 || die "docker engine not answering (run scripts/ci/docker-up.sh)"
base_id="$(docker image inspect --format '{{.Id}}' "$base" 2>/dev/null)" \
  || die "base image $base is missing (run scripts/ci/base-image.sh)"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cat >"$work/Dockerfile" <<'DOCKERFILE'
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update -q \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends openssh-server \
 && rm -rf /var/lib/apt/lists/* /var/cache/apt/archives/*.deb \
 && mkdir -p /run/sshd
DOCKERFILE
recipe="$(cat "$work/Dockerfile" <(echo "$base_id") | sha256sum | cut -c1-12)"

if [ "${LOCKSTEP_SSHD_IMAGE_REBUILD:-}" != 1 ] \
   && label="$(docker image inspect --format '{{ index .Config.Labels "org.lockstep.recipe" }}' "$image" 2>/dev/null)" \
   && [ "$label" = "$recipe" ]; then
  say "image $image already present (recipe $recipe)"
  exit 0
fi

say "building $image from $base (apt-get install openssh-server; log: $log)"
t0=$SECONDS
run_logged "$log" docker build --network host --build-arg "BASE_IMAGE=$base" \
  --label "org.lockstep.recipe=$recipe" -t "$image" "$work"
java_check='command -v java || exit 1'
case "${LOCKSTEP_SSHD_JAVA:-required}" in
  required) ;;
  absent) java_check='if command -v java; then exit 1; fi; echo "no java"' ;;
  *) die "LOCKSTEP_SSHD_JAVA must be required or absent, not '${LOCKSTEP_SSHD_JAVA}'" ;;
esac
out="$(docker run --rm --network none "$image" /bin/sh -c "/usr/sbin/sshd -V 2>&1 | head -n1; for c in sftp-server nohup hostname tar; do { command -v \$c || ls /usr/lib/openssh/\$c; } || exit 1; done; $java_check")" \
  || die "the built image does not run sshd, or its java is not ${LOCKSTEP_SSHD_JAVA:-required}: $out"
printf '%s\n' "$out" | sed 's/^/    | /'
say "built in $((SECONDS - t0))s"
