#!/usr/bin/env bash
# Builds lockstep/debian12:local, a Debian bookworm node WITHOUT Java, for the package tests
# (PackageIT installs the agent's .deb there, and the agent image's Dockerfile can use it as its
# base): debootstrap a minimal bookworm with systemd (a cluster node runs its agent as a
# systemd service; the test boots the container with systemd as PID 1), then `docker import` the
# root file system. No container registry is involved.
#
# Caching (same machine, between runs), as base-image.sh does:
#   1. image present in the docker engine with the same recipe label -> nothing to do;
#   2. else the rootfs tarball /var/cache/lockstep/<recipe>.tar exists -> docker import only;
#   3. else debootstrap (about 1 min, needs the Debian mirror) -> tarball -> import.
# Env: LOCKSTEP_DEBIAN_IMAGE (image name), LOCKSTEP_DEBIAN_MIRROR, LOCKSTEP_CACHE_DIR,
#      LOCKSTEP_DEBIAN_IMAGE_REBUILD=1 (ignore both caches).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
require_root

image="${LOCKSTEP_DEBIAN_IMAGE:-lockstep/debian12:local}"
suite=bookworm
mirror="${LOCKSTEP_DEBIAN_MIRROR:-http://deb.debian.org/debian}"
# minbase has dpkg, apt, passwd (useradd), coreutils, dash, bash, util-linux. systemd and
# systemd-sysv (/sbin/init) make it a node that can run the agent's unit; procps adds ps/pgrep.
include="systemd,systemd-sysv,procps"
cache_dir="${LOCKSTEP_CACHE_DIR:-/var/cache/lockstep}"
arch="$(dpkg --print-architecture)"
recipe_v=1   # bump when the recipe below changes in a way the key does not capture
recipe="$(printf '%s|%s|%s|%s' "$recipe_v" "$suite" "$include" "$arch" | sha256sum | cut -c1-12)"
tarball="$cache_dir/debian12-$suite-$recipe.tar"
log="$(ci_log_dir)/debian-image.log"

docker info >/dev/null 2>&1 || die "docker engine not answering (run scripts/ci/docker-up.sh)"

if [ "${LOCKSTEP_DEBIAN_IMAGE_REBUILD:-}" != 1 ] \
   && label="$(docker image inspect --format '{{ index .Config.Labels "org.lockstep.recipe" }}' "$image" 2>/dev/null)" \
   && [ "$label" = "$recipe" ]; then
  say "image $image already present (recipe $recipe)"
  exit 0
fi

mkdir -p "$cache_dir"
if [ "${LOCKSTEP_DEBIAN_IMAGE_REBUILD:-}" = 1 ] || [ ! -s "$tarball" ]; then
  command -v debootstrap >/dev/null 2>&1 || die "debootstrap not found (run scripts/ci/install-packages.sh)"
  work="$(mktemp -d "$cache_dir/rootfs.XXXXXX")"
  trap 'rm -rf "$work" "$tarball.tmp"' EXIT
  say "debootstrap $suite (+$include) from $mirror (log: $log)"
  t0=$SECONDS
  run_logged "$log" debootstrap --variant=minbase --include="$include" "$suite" "$work/rootfs" "$mirror"
  rm -rf "$work/rootfs"/var/cache/apt/archives/*.deb "$work/rootfs"/var/lib/apt/lists/* \
         "$work/rootfs"/usr/share/doc/* "$work/rootfs"/usr/share/man/* "$work/rootfs"/tmp/*
  # Man pages stay out of later installs too (dpkg path-exclude), but the directories some
  # postinst scripts expect remain.
  mkdir -p "$work/rootfs/usr/share/man/man1" "$work/rootfs/etc/dpkg/dpkg.cfg.d"
  printf 'path-exclude=/usr/share/doc/*\npath-exclude=/usr/share/man/*\n' \
    >"$work/rootfs/etc/dpkg/dpkg.cfg.d/01-lockstep-nodoc"
  # A node without Java is the point of this image.
  if find "$work/rootfs/usr/lib/jvm" "$work/rootfs/usr/bin/java" -maxdepth 0 2>/dev/null | grep -q .; then
    die "the rootfs has a Java runtime; this image must not"
  fi
  say "debootstrap done in $((SECONDS - t0))s, rootfs $(du -sh "$work/rootfs" | cut -f1)"
  tar --numeric-owner -C "$work/rootfs" -cf "$tarball.tmp" .
  mv "$tarball.tmp" "$tarball"
  rm -rf "$work"
  trap - EXIT
  find "$cache_dir" -maxdepth 1 -name 'debian12-*.tar' ! -name "$(basename "$tarball")" -delete
else
  say "using cached rootfs $tarball"
fi

t0=$SECONDS
say "docker import -> $image"
run_logged "$log" docker import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change 'ENV LANG=C.UTF-8' \
  --change "LABEL org.lockstep.recipe=$recipe" \
  --change 'CMD ["/bin/bash"]' \
  "$tarball" "$image"
say "imported in $((SECONDS - t0))s; checking it in a container"
if ! out="$(docker run --rm --network none "$image" /bin/sh -c \
    'if command -v java; then echo "java found"; exit 1; fi; systemctl --version | head -n1; useradd --help >/dev/null && echo useradd ok; apt-get --version | head -n1' 2>&1)"; then
  printf '%s\n' "$out" | sed 's/^/    | /' >&2
  docker image rm -f "$image" >/dev/null 2>&1 || true
  rm -f "$tarball"
  die "the imported image is not a Debian node without Java; removed it and the cached tarball"
fi
printf '%s\n' "$out" | sed 's/^/    | /'
