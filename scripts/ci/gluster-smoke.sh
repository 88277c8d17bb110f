#!/usr/bin/env bash
# Quick checks that two mounts are two clients of ONE file system with working locks:
#   1. a file written through mount 1 is read back through mount 2;
#   2. an fcntl (POSIX) write lock held through mount 1 makes a non-blocking lock attempt
#      through mount 2 fail, and a blocking one succeed once the holder releases it;
#   3. optionally (--ping-pong SECS) Samba's ping_pong on mount 1 and its lock rate.
# Usage: gluster-smoke.sh [--ping-pong SECS] MOUNT1 MOUNT2
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
. "$here/lib.sh"

pp_secs=""
if [ "${1:-}" = "--ping-pong" ]; then pp_secs="$2"; shift 2; fi
[ "$#" -eq 2 ] || die "usage: $0 [--ping-pong SECS] MOUNT1 MOUNT2"
m1="$1"; m2="$2"
command -v python3 >/dev/null 2>&1 || die "python3 is needed for the lock check"

dir=".lockstep-smoke-$$"
mkdir -p "$m1/$dir"
trap 'rm -rf "${m1:?}/$dir"' EXIT

# 1. data written through one client is seen by the other
token="lockstep-$(date +%s%N)-$RANDOM"
printf '%s\n' "$token" >"$m1/$dir/data"
got="$(timeout 10 cat "$m2/$dir/data")" || die "cannot read $m2/$dir/data"
[ "$got" = "$token" ] || die "read '$got' through $m2, wrote '$token' through $m1"
say "smoke: write via $m1 -> read via $m2: ok"

# 2. fcntl lock contention across the two clients (two processes, bounded by timeout)
: >"$m1/$dir/lock"
timeout 30 python3 - "$m1/$dir/lock" "$m2/$dir/lock" <<'PY' || die "fcntl lock check failed"
import fcntl, os, sys, time
p1, p2 = sys.argv[1], sys.argv[2]
r, w = os.pipe()
r2, w2 = os.pipe()
pid = os.fork()
if pid == 0:                      # holder, through mount 1
    os.close(r); os.close(w2)
    fd = os.open(p1, os.O_RDWR)
    fcntl.lockf(fd, fcntl.LOCK_EX)
    os.write(w, b"L")             # locked
    os.read(r2, 1)                # wait until told to release
    fcntl.lockf(fd, fcntl.LOCK_UN)
    os._exit(0)
os.close(w); os.close(r2)
assert os.read(r, 1) == b"L"
fd = os.open(p2, os.O_RDWR)       # contender, through mount 2
try:
    fcntl.lockf(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    print("    ERROR: got the lock through mount 2 while mount 1 holds it", file=sys.stderr)
    sys.exit(1)
except (BlockingIOError, PermissionError):
    pass
os.write(w2, b"U")                # holder releases
t0 = time.monotonic()
fcntl.lockf(fd, fcntl.LOCK_EX)    # blocking: must be granted after the release
waited = time.monotonic() - t0
fcntl.lockf(fd, fcntl.LOCK_UN)
os.waitpid(pid, 0)
print(f"    smoke: fcntl lock held via mount 1 blocks mount 2; granted {waited*1000:.0f} ms after release: ok")
PY

# 3. ping_pong (package ctdb), one process, 3 lock slots; prints a rate every second
if [ -n "$pp_secs" ]; then
  pp="$(command -v ping_pong || true)"
  [ -n "$pp" ] || die "ping_pong not found (package ctdb)"
  rc=0
  out="$(timeout "$pp_secs" "$pp" "$m1/$dir/pp.dat" 3 2>&1)" || rc=$?
  [ "$rc" -eq 124 ] || die "ping_pong exited with $rc: $out"
  rate="$(printf '%s' "$out" | tr '\r' '\n' | grep 'locks/sec' | tail -n1 | sed 's/^ *//')"
  [ -n "$rate" ] || die "ping_pong printed no rate: $out"
  say "smoke: ping_pong $m1 3 for ${pp_secs}s: $rate"
fi
