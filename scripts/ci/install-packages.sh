#!/usr/bin/env bash
# Installs the Debian packages the Lockstep CI needs, idempotently.
# Only packages that are not installed yet are installed; `apt-get update` runs
# only when something is missing (set LOCKSTEP_APT_UPDATE=always to force it).
# Output of apt goes to $LOCKSTEP_CI_LOG_DIR/apt.log (tail printed on failure).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
require_root

packages=(
  docker.io            # Docker engine for Testcontainers (dockerd, containerd, runc)
  glusterfs-server     # glusterd + brick daemon: a real cluster file system
  glusterfs-client     # FUSE client (mount -t glusterfs)
  fio                  # reference I/O benchmark
  ctdb                 # ships Samba's ping_pong (fcntl lock benchmark)
  debootstrap          # builds the local JRE 17 base image and the Java-free Debian node image
  dpkg-dev             # dpkg-shlibdeps: the agent .deb's library dependencies (-Pdist)
  rpm                  # rpmbuild: the agent .rpm (-Pdist)
  openssl              # the training run of the agent's class-data archive: throwaway mTLS certificates (-Pdist)
  curl                 # ... and its two Describe calls over HTTP/2 (-Pdist)
  prometheus           # a real Prometheus server for PrometheusIT (run as a plain process on 127.0.0.1)
  docker-compose       # compose 1.29.2: ComposeIT brings deploy/compose/compose.yaml up for real
  chromium
  chromium-driver
  python3              # used by gluster-smoke.sh (fcntl lock check)
  openssh-client       # ssh, scp, ssh-keygen for the SSH launch tests
  util-linux           # flock, mountpoint, findmnt
  iproute2             # ss
  attr                 # setfattr/getfattr (brick clean-up)
  ca-certificates
  qemu-system-x86      # lockstep lab: the two cluster guests (LabIT)
  qemu-utils           # qemu-img: the guests' overlays
  mmdebstrap           # builds the lab's guest image from Debian packages
  ansible              # deploys the agents into the lab's guests (deploy/ansible)
  gcc                  # the lab image's static C lock programs
  libc6-dev
)
# Java 17 and Maven only when the machine does not already have them.
if ! command -v javac >/dev/null 2>&1 || ! javac -version 2>&1 | grep -Eq 'javac (1[7-9]|[2-9][0-9])'; then
  packages+=(openjdk-17-jdk-headless)
fi
command -v mvn >/dev/null 2>&1 || packages+=(maven)
# Extra packages for local experiments: LOCKSTEP_EXTRA_PACKAGES="pkg1 pkg2".
# shellcheck disable=SC2206
packages+=(${LOCKSTEP_EXTRA_PACKAGES:-})

missing=()
for p in "${packages[@]}"; do
  if [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)" != "installed" ]; then
    missing+=("$p")
  fi
done

log="$(ci_log_dir)/apt.log"
export DEBIAN_FRONTEND=noninteractive

if [ "${#missing[@]}" -eq 0 ] && [ "${LOCKSTEP_APT_UPDATE:-}" != "always" ]; then
  say "all ${#packages[@]} packages already installed"
  exit 0
fi

# Keep package post-install scripts from starting daemons (dockerd, glusterd):
# docker-up.sh and gluster-up.sh start them in a controlled way.
policy=/usr/sbin/policy-rc.d
added_policy=0
if [ ! -e "$policy" ]; then
  printf '#!/bin/sh\nexit 101\n' >"$policy"; chmod 755 "$policy"; added_policy=1
fi
cleanup() { if [ "$added_policy" = 1 ]; then rm -f "$policy"; fi; }
trap cleanup EXIT

say "apt-get update (log: $log)"
# A failing third-party source must not stop us as long as Debian's own lists are fine.
run_logged "$log" apt-get update || warn "apt-get update reported errors; trying the install anyway"

if [ "${#missing[@]}" -gt 0 ]; then
  say "installing: ${missing[*]}"
  run_logged "$log" apt-get install -y --no-install-recommends \
    -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold "${missing[@]}"
fi
say "packages ready"
