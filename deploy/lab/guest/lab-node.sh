#!/bin/sh
# lab-node.sh: one step of `lockstep lab` on a guest, as root. The lab feeds this file to
# `sh -s -- STEP ARGS...` over ssh each time (no copy lives in the image). Waits are polls with
# a bound; every failure is one line on stderr and a non-zero exit.
#
#   boot-ready SECS             systemd has finished booting (running or degraded)
#   priv-up                     the node's private disk (ext4, not shared) on /mnt/priv; writeback
#                               limits scaled to the guest (see below)
#   gfs2-config RATE OWN IDS    /etc/dlm/dlm.conf (enable_fencing=0, protocol=tcp, the plock settings),
#                               corosync.conf with the members IDS (1,2,3: node1..node3; two_node
#                               only with two)
#   gfs2-corosync SECS          corosync.service started; waits until quorate
#   gfs2-dlm SECS               dlm.service started; waits until dlm_controld answers
#   gfs2-mkfs JOURNALS          mkfs.gfs2 on the shared disk unless it has GFS2 already
#   gfs2-mount                  GFS2 on /mnt/gfs2
#   gfs2-umount                 GFS2 off /mnt/gfs2 (the stack's agent is stopped first)
#   gfs2-dlm-stop               dlm.service stopped
#   gfs2-set KEY VALUE          dlm_tool set_config KEY=VALUE, and the same in dlm.conf
#   ocfs2-o2cb SECS IDS         /etc/default/o2cb (the lab's dead threshold) + cluster.conf of the
#                               members IDS; o2cb.service restarted; cluster online
#   ocfs2-mkfs SLOTS            mkfs.ocfs2 on the shared disk unless it has OCFS2 already
#   ocfs2-mount [LOCALALLOC]    OCFS2 on /mnt/ocfs2 (localalloc=MB when given)
#   nfs-server GRACE LEASE      nfsd exporting /mnt/priv/nfs to the cluster segment, its grace and lease
#                               times (s) set: nfsd (re)started when they change, lockd's grace alike
#   nfsd-stop, nfsd-start       a scenario's restart: nfsd stopped; started again (its grace period begins)
#   nfs-mount SERVER OPTIONS    the export of node SERVER on /mnt/nfs with the mount OPTIONS
#   nfs-umount                  NFS off /mnt/nfs (the agent's sandbox let go of it first)
#   nfs-lock-probe SECS         an fcntl lock on /mnt/nfs taken and dropped; prints how long it took
#                               (after nfsd's start: the rest of its grace period)
#   agent-stop                  the agent's unit (lockstep-agent, a root on each stack) stopped, if installed
#   agent-unpin MOUNT           the running agent's sandbox lets go of the file system on MOUNT (see below)
#   agent-repin MOUNT           ... takes the new mount on MOUNT back: its roots there writable, the rest read-only
#   agent-start PORT            ... started, and listening on PORT
#   describe                    the cluster settings: dlm_tool dump_config, corosync totem, o2cb, mounts
set -eu
die() { echo "$*" >&2; exit 1; }
# wait_for SECS WHAT CMD...: run CMD every 0.5 s until it succeeds, at most SECS seconds
wait_for() {
	secs=$1 what=$2; shift 2
	end=$(( $(date +%s) + secs ))
	while ! "$@" >/dev/null 2>&1; do
		[ "$(date +%s)" -lt "$end" ] || die "$what: not within ${secs}s"
		sleep 0.5
	done
}
disk() { echo "/dev/disk/by-id/virtio-$1"; }
fstype() { blkid -o value -s TYPE "$(disk "$1")" 2>/dev/null || true; }
# The running agent's main pid, or 0. Its unit's sandbox (ProtectSystem=strict, ReadWritePaths=
# its roots) is a mount namespace of its own, with a read-only copy of each stack's mount and a
# writable bind of each root under it: those copies keep the file system mounted after the
# host's umount, so a remount with new options would meet the old mount. agent-unpin unmounts
# them in the agent's namespace (between runs nothing of the agent's is open there); the host's
# new mount then propagates into it, and agent-repin makes the sandbox's binds again. The agent
# and its spare workers run on, as on a node whose admin remounts under a running service.
agent_pid() { systemctl show -p MainPID --value lockstep-agent.service 2>/dev/null || echo 0; }
booted() { s=$(systemctl is-system-running 2>/dev/null || true); [ "$s" = running ] || [ "$s" = degraded ]; }
quorate() { corosync-quorumtool -s 2>/dev/null | grep -q 'Quorate:.*Yes'; }
dlm_up() { systemctl is-active -q dlm && dlm_tool status 2>/dev/null | grep -q '^cluster '; }
o2cb_online() { o2cb cluster-status lockstep 2>/dev/null | grep -q -i 'online'; }

step=${1:-}; [ $# -gt 0 ] && shift
case $step in
boot-ready)
	wait_for "${1:-300}" "systemd boot" booted
	for d in root gfs2 ocfs2 priv; do [ -b "$(disk $d)" ] || die "no disk $(disk $d)"; done
	ip -4 -o addr show dev clu0 | grep -q "inet 192.168.77." || die "clu0 has no cluster address"
	echo "$(hostname) up $(cut -d' ' -f1 /proc/uptime)s ($(systemctl is-system-running || true))"
	;;
priv-up)
	[ "$(fstype priv)" = ext4 ] || mkfs.ext4 -q -F -L lab-priv "$(disk priv)"
	mountpoint -q /mnt/priv || mount -o noatime "$(disk priv)" /mnt/priv
	chmod 1777 /mnt/priv
	# The seed's dd wrote gigabytes, so writeback set its pace; a guest of 1 GB with the kernel's
	# default ratios would keep a test-sized file (32 MiB) in the page cache until fdatasync and
	# leave the disk idle while it is written. 4 MiB / 16 MiB of dirty pages make writeback run
	# while the writes happen, as on the seed's nodes.
	sysctl -q -w vm.dirty_background_bytes=4194304 vm.dirty_bytes=16777216
	;;
gfs2-config)
	mkdir -p /etc/dlm
	printf 'enable_fencing=0\nprotocol=tcp\nplock_rate_limit=%s\nplock_ownership=%s\n' "$1" "$2" > /etc/dlm/dlm.conf
	# corosync 3 on the cluster segment: with three or more members a majority is quorate, with
	# two two_node lets each go on alone (there is no fencing in the lab)
	ids=$(echo "$3" | tr ',' ' ')
	{
		# token 5000 ms, not corosync's 3000: the guests' vCPUs are threads of an emulator on a
		# shared host, and a guest held off its CPU for 3 s split a three-node lab (2026-12-06)
		printf 'totem {\n\tversion: 2\n\tcluster_name: lockstep\n\ttransport: knet\n\ttoken: 5000\n'
		printf '\tcrypto_cipher: none\n\tcrypto_hash: none\n}\nnodelist {\n'
		for i in $ids; do
			printf '\tnode {\n\t\tring0_addr: 192.168.77.%s\n\t\tname: node%s\n\t\tnodeid: %s\n\t}\n' "$i" "$i" "$i"
		done
		printf '}\nquorum {\n\tprovider: corosync_votequorum\n'
		[ "$(echo $ids | wc -w)" -ne 2 ] || printf '\ttwo_node: 1\n'
		printf '}\nlogging {\n\tto_logfile: yes\n\tlogfile: /var/log/corosync/corosync.log\n'
		printf '\tto_syslog: yes\n\ttimestamp: on\n}\n'
	} > /etc/corosync/corosync.conf
	# corosync's IPC (corosync-cmapctl: the token timeout) answers root only, unless a uidgid
	# entry lets the agents' group (lockstep, GID 7070) in; dlm_tool needs no such grant
	mkdir -p /etc/corosync/uidgid.d
	printf 'uidgid {\n\tgid: 7070\n}\n' > /etc/corosync/uidgid.d/lockstep
	;;
gfs2-corosync)
	systemctl start corosync
	wait_for "${1:-120}" "corosync quorum (corosync-quorumtool -s)" quorate
	;;
gfs2-dlm)
	systemctl start dlm
	wait_for "${1:-120}" "dlm_controld (dlm_tool status)" dlm_up
	;;
gfs2-mkfs)
	[ "$(fstype gfs2)" = gfs2 ] || mkfs.gfs2 -O -p lock_dlm -t lockstep:fs1 -j "$1" -J 32 "$(disk gfs2)" >/dev/null
	;;
gfs2-mount)
	mountpoint -q /mnt/gfs2 || mount -t gfs2 -o noatime "$(disk gfs2)" /mnt/gfs2
	;;
gfs2-umount)
	! mountpoint -q /mnt/gfs2 || umount /mnt/gfs2
	;;
gfs2-dlm-stop)
	systemctl stop dlm
	;;
gfs2-set)
	dlm_tool set_config "$1=$2" >/dev/null
	sed -i "s/^$1=.*/$1=$2/" /etc/dlm/dlm.conf
	grep -q "^$1=" /etc/dlm/dlm.conf || echo "$1=$2" >> /etc/dlm/dlm.conf
	dlm_tool dump_config | grep "^$1="
	;;
ocfs2-o2cb)
	if ! [ -s /etc/ocfs2/cluster.conf ]; then
		mkdir -p /etc/ocfs2
		o2cb add-cluster lockstep
		for i in $(echo "$2" | tr ',' ' '); do
			o2cb add-node lockstep "node$i" --ip "192.168.77.$i" --number "$i" --port 7777
		done
	fi
	# the lab's dead threshold: (16 - 1) x 2 s = 30 s without a disk heartbeat (the package's 31: 60 s)
	sed -i -e 's/^O2CB_ENABLED=.*/O2CB_ENABLED=true/' -e 's/^O2CB_BOOTCLUSTER=.*/O2CB_BOOTCLUSTER=lockstep/' \
		-e 's/^O2CB_HEARTBEAT_THRESHOLD=.*/O2CB_HEARTBEAT_THRESHOLD=16/' /etc/default/o2cb
	grep -q '^O2CB_HEARTBEAT_THRESHOLD=' /etc/default/o2cb || echo 'O2CB_HEARTBEAT_THRESHOLD=16' >> /etc/default/o2cb
	# o2cb is a SysV script (systemd-sysv-generator's o2cb.service) that ran at boot with
	# O2CB_ENABLED=false and stays "active (exited)": a start would do nothing
	systemctl restart o2cb
	wait_for "${1:-120}" "o2cb cluster lockstep online (o2cb cluster-status)" o2cb_online
	t=$(cat /sys/kernel/config/cluster/lockstep/heartbeat/dead_threshold)
	[ "$t" = 16 ] || die "o2cb's dead threshold is $t, not 16"
	;;
ocfs2-mkfs)
	[ "$(fstype ocfs2)" = ocfs2 ] ||
		mkfs.ocfs2 -q -F -N "$1" -b 4K -C 4K -J size=32M --cluster-stack=o2cb --cluster-name=lockstep -L lab-ocfs2 "$(disk ocfs2)" >/dev/null
	;;
ocfs2-mount)
	opts=noatime
	[ -z "${1:-}" ] || opts="$opts,localalloc=$1"
	mountpoint -q /mnt/ocfs2 || mount -t ocfs2 -o "$opts" "$(disk ocfs2)" /mnt/ocfs2
	;;
ocfs2-umount)
	! mountpoint -q /mnt/ocfs2 || umount /mnt/ocfs2
	;;
nfs-server)
	mkdir -p /mnt/priv/nfs
	chmod 0755 /mnt/priv/nfs
	# no_root_squash: the playbook (root on each client) makes the agents' root there; the lab's
	# clients are the only hosts on the segment
	echo '/mnt/priv/nfs 192.168.77.0/24(rw,sync,no_subtree_check,no_root_squash)' > /etc/exports
	nfsconf --set nfsd grace-time "$1"
	nfsconf --set nfsd lease-time "$2"
	# lockd's (NLM, NFSv3) grace: a sysctl of the lockd module, read when lockd starts
	modprobe lockd
	sysctl -q -w fs.nfs.nlm_grace_period="$1"
	if ! systemctl is-active -q nfs-server || [ "$(cat /proc/fs/nfsd/nfsv4gracetime)" != "$1" ] ||
		[ "$(cat /proc/fs/nfsd/nfsv4leasetime)" != "$2" ]; then
		systemctl restart nfs-server
	fi
	exportfs -ra
	g=$(cat /proc/fs/nfsd/nfsv4gracetime) l=$(cat /proc/fs/nfsd/nfsv4leasetime)
	[ "$g" = "$1" ] && [ "$l" = "$2" ] || die "nfsd took grace $g s and lease $l s, not $1 and $2"
	echo "nfsd: versions $(cat /proc/fs/nfsd/versions), grace ${g}s, lease ${l}s, threads $(cat /proc/fs/nfsd/threads)"
	;;
nfsd-stop)
	# a scenario's restart: nfsd and its exports gone, the clients' calls wait (hard mounts)
	systemctl stop nfs-server
	echo "nfsd stopped"
	;;
nfsd-start)
	# ... and back: nfsd begins in its grace period, in which the clients reclaim their locks
	systemctl start nfs-server
	echo "nfsd started again (grace $(cat /proc/fs/nfsd/nfsv4gracetime) s, lockd's $(sysctl -n fs.nfs.nlm_grace_period) s)"
	;;
nfs-mount)
	mountpoint -q /mnt/nfs || mount -t nfs -o "$2" "192.168.77.$1:/mnt/priv/nfs" /mnt/nfs
	;;
nfs-umount)
	! mountpoint -q /mnt/nfs || umount /mnt/nfs
	;;
nfs-lock-probe)
	# a lock asked for in the server's grace period is refused (NFS4ERR_GRACE, NLM's
	# denied_grace_period) and the client asks again until it ends
	t0=$(date +%s.%N)
	timeout "$1" python3 -c 'import fcntl, sys
with open(sys.argv[1], "a") as f:
    fcntl.lockf(f, fcntl.LOCK_EX)
    fcntl.lockf(f, fcntl.LOCK_UN)' /mnt/nfs/.lab-lock-probe || die "nfs-lock-probe: no lock on /mnt/nfs within $1 s"
	echo "lock taken in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"
	;;
agent-stop)
	! systemctl cat lockstep-agent.service >/dev/null 2>&1 || systemctl stop lockstep-agent.service
	;;
agent-unpin)
	pid=$(agent_pid)
	[ "${pid:-0}" -gt 0 ] || exit 0
	nsenter -t "$pid" -m sh -c '
		for m in $(awk -v m="$1/" "index(\$5, m) == 1 { print \$5 }" /proc/self/mountinfo | sort -r); do
			umount "$m" || exit 1
		done
		! mountpoint -q "$1" || umount "$1"' agent-unpin "$1" ||
		die "agent-unpin: the agent (pid $pid) still holds $1 (a run in progress?)"
	;;
agent-repin)
	pid=$(agent_pid)
	[ "${pid:-0}" -gt 0 ] || exit 0
	roots=$(systemctl show -p ReadWritePaths --value lockstep-agent.service | tr ' ' '\n' | sed 's/^-//' |
		awk -v m="$1/" 'index($0, m) == 1')
	nsenter -t "$pid" -m sh -c '
		mp=$1; shift
		mountpoint -q "$mp" || { echo "$mp did not reach the agent'"'"'s namespace" >&2; exit 1; }
		for r in "$@"; do
			mount --bind "$r" "$r" && mount -o remount,bind,nosuid "$r" || exit 1
		done
		mount -o remount,bind,ro,nosuid "$mp"' agent-repin "$1" $roots ||
		die "agent-repin: the agent (pid $pid) could not take $1 back"
	;;
agent-start)
	# PORT: started, then listening on PORT (a JVM start takes a while under emulation:
	# 113-116 s seen in a node's recovery on 2026-12-02, so 120 s was not enough)
	if systemctl cat lockstep-agent.service >/dev/null 2>&1; then
		systemctl start lockstep-agent.service
		wait_for 270 "lockstep-agent listening on $1" sh -c "ss -Hltn 'sport = :$1' | grep -q ."
	fi
	;;
describe)
	echo "# $(hostname): $(uname -r), up $(cut -d' ' -f1 /proc/uptime)s"
	grep -E ' (gfs2|ocfs2|ext4|nfs|nfs4) ' /proc/mounts | grep /mnt/ || true
	if systemctl is-active -q nfs-server; then
		echo "nfsd grace $(cat /proc/fs/nfsd/nfsv4gracetime) s, lease $(cat /proc/fs/nfsd/nfsv4leasetime) s, nlm_grace_period $(cat /proc/sys/fs/nfs/nlm_grace_period) s"
	fi
	if systemctl is-active -q dlm; then dlm_tool dump_config | grep -E '^(plock_|protocol|enable_fencing)'; fi
	if systemctl is-active -q corosync; then corosync-cmapctl -g runtime.config.totem.token 2>/dev/null || true; fi
	if [ -d /sys/kernel/config/cluster/lockstep ]; then
		for f in idle_timeout_ms keepalive_delay_ms reconnect_delay_ms heartbeat/dead_threshold; do
			echo "o2cb $f = $(cat /sys/kernel/config/cluster/lockstep/$f)"
		done
	fi
	! systemctl cat lockstep-agent.service >/dev/null 2>&1 || echo "lockstep-agent: $(systemctl is-active lockstep-agent || true)"
	;;
*)
	die "lab-node.sh: unknown step '$step'"
	;;
esac
