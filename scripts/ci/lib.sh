# shellcheck shell=bash
# Shared helpers for scripts/ci/*.sh (sourced, not executed).

ci_log_dir() {
  local d="${LOCKSTEP_CI_LOG_DIR:-/tmp/lockstep-ci-logs}"
  mkdir -p "$d"
  printf '%s\n' "$d"
}

say()  { printf '    %s\n' "$*"; }
warn() { printf '    WARNING: %s\n' "$*" >&2; }
die()  { printf '    ERROR: %s\n' "$*" >&2; exit 1; }

# run_logged LOGFILE CMD...: run CMD with its output appended to LOGFILE;
# on failure print the tail of the log and return the command's exit code.
run_logged() {
  local log="$1"; shift
  printf '\n$ %s\n' "$*" >>"$log"
  local rc=0
  "$@" >>"$log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    printf '    FAILED (exit %s): %s\n    --- last 40 lines of %s ---\n' "$rc" "$*" "$log" >&2
    tail -n 40 "$log" | sed 's/^/    | /' >&2
    printf '    ---\n' >&2
  fi
  return "$rc"
}

require_root() {
  [ "$(id -u)" -eq 0 ] || die "must run as root"
}
