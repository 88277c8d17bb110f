#!/usr/bin/env bash
# Builds the local Java 17 base image lockstep/base-jre17:local WITHOUT any container
# registry: debootstrap a minimal Debian bookworm with openjdk-17-jre-headless, then
# `docker import` the root file system.
#
# Caching (same machine, between runs):
#   1. image present in the docker engine with the same recipe label -> nothing to do;
#   2. else the rootfs tarball /var/cache/lockstep/<recipe>.tar exists -> docker import only
#      (cheap after a daemon restart that lost /var/lib/docker);
#   3. else debootstrap (about 1 min, needs the Debian mirror) -> tarball -> import.
# Env: LOCKSTEP_AGENT_BASE_IMAGE (image name), LOCKSTEP_DEBIAN_MIRROR, LOCKSTEP_CACHE_DIR,
#      LOCKSTEP_BASE_IMAGE_REBUILD=1 (ignore both caches).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
require_root

image="${LOCKSTEP_AGENT_BASE_IMAGE:-lockstep/base-jre17:local}"
suite=bookworm
mirror="${LOCKSTEP_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# minbase already has coreutils, dash (/bin/sh), bash, util-linux; procps adds ps/pkill
# for debugging inside a container. Everything else (iproute2, ...) is left out.
include="openjdk-17-jre-headless,procps"
cache_dir="${LOCKSTEP_CACHE_DIR:-/var/cache/lockstep}"
arch="$(dpkg --print-architecture)"
recipe_v=1   # bump when the recipe below changes in a way the key does not capture
recipe="$(printf '%s|%s|%s|%s' "$recipe_v" "$suite" "$include" "$arch" | sha256sum | cut -c1-12)"
tarball="$cache_dir/base-jre17-$suite-$recipe.tar"
log="$(ci_log_dir)/base-image.log"

docker info >/dev/null 2>&1 || die "docker engine not answering (run scripts/ci/docker-up.sh)"

if [ "${LOCKSTEP_BASE_IMAGE_REBUILD:-}" != 1 ] \
   && label="$(docker image inspect --format '{{ index .Config.Labels "org.lockstep.recipe" }}' "$image" 2>/dev/null)" \
   && [ "$label" = "$recipe" ]; then
  say "image $image already present (recipe $recipe)"
  exit 0
fi

mkdir -p "$cache_dir"
if [ "${LOCKSTEP_BASE_IMAGE_REBUILD:-}" = 1 ] || [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap not found (run scripts/ci/install-packages.sh)"
  work="$(mktemp -d "$cache_dir/rootfs.XXXXXX")"
  trap 'rm -rf "$work" "$tarball.tmp"' EXIT
  say "debootstrap $suite (+$include) from $mirror (log: $log)"
  t0=$SECONDS
  run_logged "$log" debootstrap --variant=minbase --include="$include" "$suite" "$work/rootfs" "$mirror"
  # Slim down: downloaded .debs, apt lists, docs and man pages are not needed at run time.
  rm -rf "$work/rootfs"/var/cache/apt/archives/*.deb "$work/rootfs"/var/lib/apt/lists/* \
         "$work/rootfs"/usr/share/doc/* "$work/rootfs"/usr/share/man/* "$work/rootfs"/tmp/*
  # (java cannot be run with a bare chroot: without /proc the loader cannot resolve
  # $ORIGIN and libjli.so is "not found". The check below runs it in a container.)
  [ -x "$work/rootfs/usr/lib/jvm/java-17-openjdk-$arch/bin/java" ] || die "no JRE in the rootfs"
  say "debootstrap done in $((SECONDS - t0))s, rootfs $(du -sh "$work/rootfs" | cut -f1)"
  tar --numeric-owner -C "$work/rootfs" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$work"
  trap - EXIT
  # Drop tarballs of older recipes.
  find "$cache_dir" -maxdepth 1 -name 'base-jre17-*.tar' ! -name "$(basename "$tarball")" -delete
else
  say "using cached rootfs $tarball"
fi

t0=$SECONDS
say "docker import -> $image"
run_logged "$log" docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change "ENV JAVA_HOME=/usr/lib/jvm/java-17-openjdk-$arch" \
  --change "LABEL org.lockstep.recipe=$recipe" \
  --change 'CMD ["/bin/bash"]' \
  "$tarball" "$image"
say "imported in $((SECONDS - t0))s; checking java, /bin/sh and coreutils in a container"
if ! out="$(docker run --rm --network none "$image" /bin/sh -c 'java -version 2>&1 && ls --version | head -n1 && ps --version' 2>&1)"; then
  printf '%s\n' "$out" | sed 's/^/    | /' >&2
  docker image rm -f "$image" >/dev/null 2>&1 || true
  rm -f "$tarball"
  die "the imported image does not run java; removed it and the cached tarball"
fi
printf '%s\n' "$out" | sed 's/^/    | /'
