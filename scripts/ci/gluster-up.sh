#!/usr/bin/env bash
# Brings up a one-brick GlusterFS volume and mounts it twice over FUSE, so that two
# "nodes" are two real clients of one cluster file system. Idempotent: re-running when
# glusterd runs, the volume exists/is started and the mounts are present succeeds.
#
#   volume  : $LOCKSTEP_GLUSTER_VOLUME  (default lockstep)
#   brick   : $LOCKSTEP_GLUSTER_HOST:$LOCKSTEP_GLUSTER_BRICK (default 127.0.0.2:/srv/lockstep-brick)
#   mounts  : $LOCKSTEP_GLUSTER_MOUNTS  (default /mnt/lockstep/node1,/mnt/lockstep/node2)
#   smoke   : gluster-smoke.sh runs at the end (LOCKSTEP_GLUSTER_SMOKE=0 skips it;
#             LOCKSTEP_GLUSTER_PINGPONG_SECS=N adds an N-second ping_pong run).
#
# Loopback only -- what we found (GlusterFS 10.3, Debian 12):
#  * `gluster volume create V $(hostname):/brick` records the brick under the host name;
#    glusterd, the brick and every client then use that name. /etc/hosts may map the host
#    name to the eth0 address, so that would put all gluster traffic on eth0. Never use it.
#  * The gluster CLI refuses "localhost" and "127.0.0.1" (and 0.x) as a brick host
#    ("Please provide a valid hostname/ip other than localhost, 127.0.0.1 or loopback
#    address"), but that is a string check only: any other 127.x address is accepted and
#    glusterd treats every 127.0.0.0/8 address as local. So we use 127.0.0.2 (or any name
#    that /etc/hosts maps only to 127.x -- checked below); no /etc/hosts edit is needed.
#  * By default glusterd (24007) and the brick (49152-60999) listen on 0.0.0.0. We start
#    glusterd with a copy of /etc/glusterfs/glusterd.vol plus
#    `option transport.socket.bind-address <brick ip>`; glusterd then passes that bind
#    address on to the brick process, so both listen on 127.0.0.2 only. Consequence:
#    nothing answers on 127.0.0.1:24007, so the mounts use the brick address as the volfile
#    server (mount -t glusterfs 127.0.0.2:/lockstep ...). The CLI uses the unix socket.
#  * Verified with `ss -tnp`: every glusterd/glusterfsd/glusterfs connection is between
#    127.0.0.1 and 127.0.0.2; and an iptables counter rule (OUTPUT ! -o lo) counted 0
#    packets during a whole down / up / smoke / ping_pong cycle (no DNS either: the brick
#    host is an IP literal and names are looked up in /etc/hosts only).
#  * The brick inherits glusterd's open-file limit (20000 here, soft = hard), which two
#    agents holding 10,000 files each exhaust (EMFILE on open). We try to raise it when we
#    start glusterd (LOCKSTEP_GLUSTER_NOFILE, default 262144), but on this machine root lacks
#    CAP_SYS_RESOURCE, so the hard limit cannot be raised and the brick stays at 20000:
#    tests must stay below ~20000 files held open on the volume at once.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
. "$here/gluster-common.sh"
require_root

command -v glusterd >/dev/null 2>&1 || die "glusterd not found (run scripts/ci/install-packages.sh)"
command -v mount.glusterfs >/dev/null 2>&1 || die "mount.glusterfs not found (install glusterfs-client)"
[ -c /dev/fuse ] || die "/dev/fuse is missing: FUSE is not available on this machine"

# --- the brick host must be loopback ------------------------------------------------
case "$GL_HOST" in
  localhost|127.0.0.1) die "gluster refuses '$GL_HOST' as a brick host; use another 127.x address (default 127.0.0.2)";;
esac
GL_IP="$(gl_loopback_ip "$GL_HOST")" \
  || die "brick host '$GL_HOST' must resolve to 127.0.0.0/8 only (in /etc/hosts: $(getent -s files ahosts "$GL_HOST" | awk '{print $1}' | sort -u | paste -sd' '))"

# --- glusterd -----------------------------------------------------------------------
if pid="$(gl_glusterd_pid)"; then
  listen="$(ss -Htln 'sport = :24007' | awk '{print $4}' | sort -u | paste -sd' ')"
  case " $listen " in
    *" $GL_IP:24007 "*) say "glusterd already running (pid $pid, listening on $listen)";;
    *" 0.0.0.0:24007 "*|*" *:24007 "*)
      warn "glusterd (pid $pid) was started elsewhere and listens on all interfaces ($listen);"
      warn "using it anyway: all our traffic still goes to $GL_IP (loopback)";;
    *) die "glusterd (pid $pid) listens on '$listen', not on $GL_IP:24007; stop it or set LOCKSTEP_GLUSTER_HOST";;
  esac
else
  mkdir -p "$GL_STATE_DIR"
  # Our copy of the system volfile, bound to the loopback brick address.
  grep -v 'transport.socket.bind-address' /etc/glusterfs/glusterd.vol \
    | sed "s|^end-volume|    option transport.socket.bind-address $GL_IP\nend-volume|" >"$GL_STATE_DIR/glusterd.vol"
  grep -q "bind-address $GL_IP" "$GL_STATE_DIR/glusterd.vol" || die "could not write $GL_STATE_DIR/glusterd.vol"
  want="${LOCKSTEP_GLUSTER_NOFILE:-262144}"
  # glusterd daemonizes itself; the subshell only scopes the ulimit.
  (
    ulimit -Hn "$want" 2>/dev/null || true
    ulimit -n "$want" 2>/dev/null || ulimit -n "$(ulimit -Hn)" 2>/dev/null || true
    say "starting glusterd (bound to $GL_IP, open-file limit $(ulimit -n), log /var/log/glusterfs/glusterd.log)"
    [ "$(ulimit -n)" = unlimited ] || [ "$(ulimit -n)" -ge "$want" ] \
      || warn "could not raise the open-file limit to $want (no CAP_SYS_RESOURCE?); the brick keeps $(ulimit -n)"
    exec glusterd -f "$GL_STATE_DIR/glusterd.vol" -p "$GL_PIDFILE" </dev/null
  )
fi
deadline=$((SECONDS + 30))
until gluster --mode=script volume list >/dev/null 2>&1; do
  [ "$SECONDS" -lt "$deadline" ] || { tail -n 20 /var/log/glusterfs/glusterd.log >&2; die "glusterd does not answer"; }
  sleep 0.5
done

# --- volume -------------------------------------------------------------------------
if gluster --mode=script volume info "$GL_VOL" >/dev/null 2>&1; then
  bricks="$(gluster --mode=script volume info "$GL_VOL" | awk '/^Brick[0-9]+:/{print $2}' | tr '\n' ' ')"
  [ "$bricks" = "$GL_HOST:$GL_BRICK " ] \
    || die "volume $GL_VOL exists with brick(s) '$bricks', expected '$GL_HOST:$GL_BRICK' (run scripts/ci/gluster-down.sh)"
  say "volume $GL_VOL exists ($GL_HOST:$GL_BRICK)"
else
  # A brick directory left over from a deleted volume carries its volume-id xattr and
  # .glusterfs/ and gluster refuses to reuse it. The path is dedicated to this volume.
  if [ -e "$GL_BRICK" ]; then
    say "removing leftover brick directory $GL_BRICK"
    rm -rf "$GL_BRICK"
  fi
  mkdir -p "$GL_BRICK"
  say "creating volume $GL_VOL on $GL_HOST:$GL_BRICK"
  # force: the brick is on the root file system.
  gluster --mode=script volume create "$GL_VOL" "$GL_HOST:$GL_BRICK" force | sed 's/^/    /'
fi

status="$(gluster --mode=script volume info "$GL_VOL" | awk -F': ' '/^Status:/{print $2}')"
if [ "$status" != "Started" ]; then
  gluster --mode=script volume start "$GL_VOL" | sed 's/^/    /'
fi
brick_online() {
  gluster --mode=script volume status "$GL_VOL" "$GL_HOST:$GL_BRICK" detail 2>/dev/null \
    | awk -F: '/^Online/{gsub(/ /,"",$2); print $2}' | grep -qx Y
}
if ! brick_online; then
  # e.g. glusterd restarted after the brick process died: `start force` respawns it.
  say "brick process not online; volume start force"
  gluster --mode=script volume start "$GL_VOL" force | sed 's/^/    /'
  deadline=$((SECONDS + 20))
  until brick_online; do
    [ "$SECONDS" -lt "$deadline" ] || die "brick $GL_HOST:$GL_BRICK does not come online (see /var/log/glusterfs/bricks/)"
    sleep 0.5
  done
fi
say "volume $GL_VOL started, brick online"

# Coherence as CTDB needs it: with the client-side caches on, a byte written through one
# mount is not what a reader on the other mount sees after taking the lock (ctdb's
# `ping_pong -rw` on the two mounts shows "data increment = 1" instead of 2). With these
# off and the mounts in direct-io mode it shows 2, and Lockstep's ping-pong sees no
# coherence errors. `volume set` is idempotent.
for opt in performance.quick-read performance.read-ahead performance.io-cache performance.write-behind \
           performance.stat-prefetch performance.open-behind performance.readdir-ahead performance.nl-cache; do
  gluster --mode=script volume set "$GL_VOL" "$opt" off >/dev/null
done
say "client caches off (coherent across mounts)"

# --- mounts -------------------------------------------------------------------------
for m in "${GL_MOUNTS[@]}"; do
  if findmnt -n "$m" >/dev/null 2>&1; then
    read -r fstype source < <(findmnt -n -o FSTYPE,SOURCE "$m" | tail -n1)
    if [ "$fstype" != "fuse.glusterfs" ] || [ "$source" != "$GL_HOST:/$GL_VOL" ]; then
      die "$m is already a mount of '$source' ($fstype), not $GL_HOST:/$GL_VOL"
    fi
    # A client reconnects to a restarted brick within a few seconds; give it that time.
    ok=0
    for _ in 1 2 3 4 5 6; do
      if timeout 10 stat -t "$m" >/dev/null 2>&1; then ok=1; break; fi
      sleep 1
    done
    if [ "$ok" = 1 ] && pgrep -f -- "--direct-io-mode=enable.* $m\$" >/dev/null; then
      say "$m already mounted"
      continue
    fi
    if [ "$ok" = 1 ]; then
      say "$m is mounted without direct-io-mode; remounting"
    else
      say "$m is a stale mount (client gone?); remounting"
    fi
    umount "$m" 2>/dev/null || umount -l "$m"
  fi
  mkdir -p "$m"
  # direct-io-mode: no kernel page cache between this client and the other one.
  mount -t glusterfs -o direct-io-mode=enable "$GL_HOST:/$GL_VOL" "$m"
  timeout 10 stat -t "$m" >/dev/null || die "mounted $m but it does not answer (see /var/log/glusterfs/)"
  say "mounted $GL_HOST:/$GL_VOL at $m"
done

if [ "${LOCKSTEP_GLUSTER_SMOKE:-1}" != 0 ]; then
  pp=()
  [ -z "${LOCKSTEP_GLUSTER_PINGPONG_SECS:-}" ] || pp=(--ping-pong "$LOCKSTEP_GLUSTER_PINGPONG_SECS")
  "$here/gluster-smoke.sh" "${pp[@]}" "${GL_MOUNTS[@]}"
fi

echo "LOCKSTEP_GLUSTER_MOUNTS=$(IFS=,; echo "${GL_MOUNTS[*]}")"
