# Shared by the maintainer scripts of the .deb (preinst is not needed; postinst, prerm, postrm)
# and the scriptlets of the .rpm: packages.sh puts this file at the top of each (a script cannot
# source a file of its own package: preinst and %pre run before the files are unpacked).
# POSIX sh; no bashisms (dash runs the .deb's scripts).

LOCKSTEP_USER=lockstep
# The same UID and GID on every node: a file one node's agent creates on the shared file system
# must be writable and lockable by the others' (docs/deploy.md). The Ansible role uses the same.
LOCKSTEP_ID=7070
# The agents a package operation stopped, one unit a line, started again when it ends.
LOCKSTEP_STOPPED=/run/lockstep-agent.package-stopped

ls_say() { echo "lockstep-agent: $*" >&2; }

# The lockstep user and group with UID/GID 7070; an existing user is kept as it is (a warning if
# its ids differ: files will not match those of the other nodes).
ls_create_user() {
  if ! getent group "$LOCKSTEP_USER" >/dev/null; then
    if getent group "$LOCKSTEP_ID" >/dev/null; then
      ls_say "cannot create group $LOCKSTEP_USER: GID $LOCKSTEP_ID belongs to group $(getent group "$LOCKSTEP_ID" | cut -d: -f1)." \
        "Every node needs the same lockstep group; create it with a GID free on all nodes (groupadd --system --gid GID lockstep), then install again."
      return 1
    fi
    groupadd --system --gid "$LOCKSTEP_ID" "$LOCKSTEP_USER"
  fi
  if ! getent passwd "$LOCKSTEP_USER" >/dev/null; then
    if getent passwd "$LOCKSTEP_ID" >/dev/null; then
      ls_say "cannot create user $LOCKSTEP_USER: UID $LOCKSTEP_ID belongs to $(getent passwd "$LOCKSTEP_ID" | cut -d: -f1)." \
        "Every node needs the same lockstep user; create it with a UID free on all nodes (useradd --system --uid UID --gid lockstep lockstep), then install again."
      return 1
    fi
    useradd --system --uid "$LOCKSTEP_ID" --gid "$LOCKSTEP_USER" --home-dir /var/lib/lockstep \
      --no-create-home --shell /usr/sbin/nologin --comment "Lockstep agent" "$LOCKSTEP_USER"
  fi
  uid=$(id -u "$LOCKSTEP_USER") gid=$(getent group "$LOCKSTEP_USER" | cut -d: -f3)
  if [ "$uid" != "$LOCKSTEP_ID" ] || [ "$gid" != "$LOCKSTEP_ID" ]; then
    ls_say "warning: user $LOCKSTEP_USER has UID $uid and GID $gid, not $LOCKSTEP_ID: keep them equal on every node"
  fi
}

# /etc/lockstep/tls: the node's certificate and key, readable by the agent's group only.
ls_tls_dir() {
  mkdir -p /etc/lockstep/tls
  chown "root:$LOCKSTEP_USER" /etc/lockstep/tls
  chmod 0750 /etc/lockstep/tls
}

ls_systemd() { [ -d /run/systemd/system ]; }

# Whether policy-rc.d (an image build, a chroot) lets a package script act on UNIT: exit 101 no.
ls_policy_allows() {
  [ -x /usr/sbin/policy-rc.d ] || return 0
  rc=0
  /usr/sbin/policy-rc.d "$1" "$2" >/dev/null 2>&1 || rc=$?
  [ "$rc" -ne 101 ]
}

# The running agent services: the package's lockstep-agent.service and the copies the Ansible
# role installs beside it (lockstep-agent-NAME.service, another root and port). All run
# /usr/bin/lockstep-agent, so a package operation concerns them all.
ls_active_agents() {
  systemctl list-units --type=service --state=active --plain --no-legend --no-pager 'lockstep-agent*.service' 2>/dev/null |
    awk '{print $1}'
}

# Prints the run manifests of UNIT's agent: a run in progress on it. Every step an agent
# prepares writes ROOT/.lockstep-runs.NODE/RUN.NODE before it creates anything and removes it when
# the step is cleaned up (agent/run/RunManifests); ROOT and NODE are the agent's --root and --name
# as the unit started it. Fails when that directory cannot be read (it cannot tell).
ls_runs_of() {
  pid=$(systemctl show -p MainPID --value "$1" 2>/dev/null || true)
  [ -n "$pid" ] && [ "$pid" != 0 ] && [ -r "/proc/$pid/cmdline" ] || return 0
  root=$(tr '\0' '\n' <"/proc/$pid/cmdline" | awk 'p == "--root" {print; exit} {p = $0}')
  name=$(tr '\0' '\n' <"/proc/$pid/cmdline" | awk 'p == "--name" {print; exit} {p = $0}')
  [ -n "$root" ] && [ -n "$name" ] || return 0
  dir="$root/.lockstep-runs.$name"
  [ -e "$dir" ] || return 0
  ls -A "$dir" >/dev/null 2>&1 || { echo "$dir (cannot read it)"; return 1; }
  ls -A "$dir" | sed "s|^|$dir/|"
}

# Refuses (fails) WHAT (upgrade, remove) while an agent has a run in progress: stopping the agent
# would abort the run. LOCKSTEP_ABORT_RUNS=1 in the environment goes ahead anyway.
ls_refuse_if_running() {
  ls_systemd || return 0
  [ "${LOCKSTEP_ABORT_RUNS:-}" = 1 ] && return 0
  busy=""
  for unit in $(ls_active_agents); do
    runs=$(ls_runs_of "$unit") || true
    [ -z "$runs" ] || busy="$busy $unit: $(echo "$runs" | head -n 3 | paste -sd' ' -);"
  done
  [ -z "$busy" ] && return 0
  ls_say "refusing to $1 while a run is in progress:$busy" \
    "The $1 would stop the agent and so abort the run. Try again when the run has ended." \
    "If no coordinator is running anything here (one was killed mid-run), stop the agent first" \
    "(systemctl stop UNIT: it removes what the run left) or set LOCKSTEP_ABORT_RUNS=1."
  return 1
}

# Stops every running agent (before its files are replaced or removed) and notes which, so
# ls_start_stopped can start them again after an upgrade.
ls_stop_agents() {
  ls_systemd || return 0
  units=$(ls_active_agents)
  [ -n "$units" ] || return 0
  for unit in $units; do
    if ls_policy_allows "$unit" stop; then
      # The agent ends on SIGTERM after stopping its gRPC server (AgentServer.stop); the unit
      # gives it TimeoutStopSec= for that.
      systemctl stop "$unit"
      echo "$unit" >>"$LOCKSTEP_STOPPED"
      ls_say "stopped $unit"
    fi
  done
}

# Starts the agents ls_stop_agents stopped (after an upgrade, or when an operation was undone).
ls_start_stopped() {
  [ -f "$LOCKSTEP_STOPPED" ] || return 0
  if ls_systemd; then
    systemctl daemon-reload
    for unit in $(sort -u "$LOCKSTEP_STOPPED"); do
      if ls_policy_allows "$unit" start; then
        systemctl start "$unit" || ls_say "warning: $unit did not start again: journalctl -u $unit"
        ls_say "started $unit again"
      fi
    done
  fi
  rm -f "$LOCKSTEP_STOPPED"
}

ls_daemon_reload() {
  if ls_systemd; then systemctl daemon-reload || true; fi
}

ls_first_install_note() {
  cat >&2 <<'EOF'
lockstep-agent: installed; the service is not started. It needs a root on the cluster file
system and this node's TLS files first:
  1. LOCKSTEP_ROOT in /etc/lockstep/lockstep-agent.env and the same path in
     /etc/systemd/system/lockstep-agent.service.d/10-root.conf (the directory owned by lockstep);
  2. the node's certificate, key and the CA from `lockstep certs` in /etc/lockstep/tls;
  3. systemctl enable --now lockstep-agent
(docs/deploy.md, section 1.)
EOF
}

# What a purge removes besides the conffiles dpkg removes itself (the env file, the drop-in): the
# TLS files, the state directory (class-data archives), the unit's enable links, and
# /etc/lockstep when nothing else is left in it. Env files, units and drop-ins the Ansible role
# wrote for other agent services on this node (lockstep-agent-NAME) stay: they are the role's.
# The lockstep user stays too: files on the shared file system keep its UID.
ls_purge() {
  rm -rf /etc/lockstep/tls /var/lib/lockstep
  rm -f /etc/systemd/system/*.wants/lockstep-agent.service
  rmdir /etc/lockstep /etc/systemd/system/lockstep-agent.service.d 2>/dev/null || true
}
