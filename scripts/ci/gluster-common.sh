# shellcheck shell=bash
# Settings shared by gluster-up.sh, gluster-down.sh (sourced).
# shellcheck disable=SC2034  # the variables are used by the scripts that source this file
GL_VOL="${LOCKSTEP_GLUSTER_VOLUME:-lockstep}"
GL_HOST="${LOCKSTEP_GLUSTER_HOST:-127.0.0.2}"
GL_BRICK="${LOCKSTEP_GLUSTER_BRICK:-/srv/lockstep-brick}"
IFS=, read -r -a GL_MOUNTS <<<"${LOCKSTEP_GLUSTER_MOUNTS:-/mnt/lockstep/node1,/mnt/lockstep/node2}"
GL_STATE_DIR=/var/lib/lockstep
GL_PIDFILE=/run/lockstep-glusterd.pid

# Prints the pid of a live glusterd (zombies excluded: PID 1 of some containers does not
# reap, and a dead "[glusterd] <defunct>" would fool pgrep).
gl_glusterd_pid() {
  ps -eo pid=,stat=,comm= | awk '$3 == "glusterd" && $2 !~ /^Z/ {print $1; f=1; exit} END {exit !f}'
}

# Prints the IPv4 address of host $1 if it resolves to exactly one address and that is
# in 127.0.0.0/8; fails otherwise. Only /etc/hosts is consulted (`-s files`): a name
# lookup must not send a DNS query off the machine.
gl_loopback_ip() {
  local addrs
  addrs="$(getent -s files ahostsv4 "$1" | awk '{print $1}' | sort -u)"
  [ -n "$addrs" ] && [ "$(printf '%s\n' "$addrs" | wc -l)" -eq 1 ] || return 1
  case "$addrs" in 127.*) printf '%s\n' "$addrs";; *) return 1;; esac
}
