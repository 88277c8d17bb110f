#!/usr/bin/env bash
# Undoes gluster-up.sh for a clean re-run: unmounts the FUSE mounts, stops and deletes the
# volume and removes its brick directory. Tolerant of partial state (nothing mounted, no
# volume, glusterd not running). glusterd itself keeps running unless
# LOCKSTEP_GLUSTER_STOP_DAEMON=1 (then the glusterd that gluster-up.sh started is stopped).
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"
. "$here/gluster-common.sh"
require_root
rc=0

for m in "${GL_MOUNTS[@]}"; do
  # findmnt reads the mount table; it also sees stale FUSE mounts whose stat() fails.
  while findmnt -n "$m" >/dev/null 2>&1; do
    if umount "$m" 2>/dev/null || umount -l "$m"; then
      say "unmounted $m"
    else
      warn "could not unmount $m"; rc=1; break
    fi
  done
  rmdir "$m" 2>/dev/null || true
done
rmdir "$(dirname "${GL_MOUNTS[0]}")" 2>/dev/null || true

if gl_glusterd_pid >/dev/null && timeout 30 gluster --mode=script volume list >/dev/null 2>&1; then
  if gluster --mode=script volume info "$GL_VOL" >/dev/null 2>&1; then
    status="$(gluster --mode=script volume info "$GL_VOL" | awk -F': ' '/^Status:/{print $2}')"
    if [ "$status" = "Started" ]; then
      timeout 60 gluster --mode=script volume stop "$GL_VOL" force | sed 's/^/    /' || { warn "volume stop failed"; rc=1; }
    fi
    timeout 60 gluster --mode=script volume delete "$GL_VOL" | sed 's/^/    /' || { warn "volume delete failed"; rc=1; }
  else
    say "no volume $GL_VOL"
  fi
  if gluster --mode=script volume info "$GL_VOL" >/dev/null 2>&1; then
    warn "volume $GL_VOL still exists; keeping its brick $GL_BRICK"
  else
    rm -rf "$GL_BRICK" && say "removed brick directory $GL_BRICK"
  fi
elif [ -d "/var/lib/glusterd/vols/$GL_VOL" ]; then
  warn "glusterd is not running; volume $GL_VOL stays defined (gluster-up.sh will reuse it)"
else
  rm -rf "$GL_BRICK"
  say "glusterd not running; no volume $GL_VOL"
fi

if [ "${LOCKSTEP_GLUSTER_STOP_DAEMON:-0}" = 1 ] && pid="$(cat "$GL_PIDFILE" 2>/dev/null)" \
   && [ "$(ps -o comm= -p "$pid" 2>/dev/null)" = glusterd ]; then
  kill "$pid" && say "stopped glusterd (pid $pid)"
  rm -f "$GL_PIDFILE"
fi
exit "$rc"
