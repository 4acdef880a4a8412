#!/usr/bin/env bash
# pause-jobs.sh - run one bench with other jobs of the machine paused, so
# that its wall times are not those of a shared machine: each process group
# named with -p is stopped (SIGSTOP) before the command and continued
# (SIGCONT) after it, also when the command fails or the script is
# interrupted. The 1-minute load average before the pause and after the
# command goes to stderr, for the bench's report.
#
# Usage: bench/pause-jobs.sh -p PGID [-p PGID ...] -- COMMAND [ARG ...]
#   e.g. bench/pause-jobs.sh -p "$(ps -o pgid= -p "$(pgrep -n ninja)")" \
#          -- bench/perfdata-sqlite.sh
# Only the named groups are touched; naming this script's own group is an
# error. The exit status is the command's.
set -euo pipefail
# shellcheck source-path=SCRIPTDIR source=lib.sh
source "$(dirname "$0")/lib.sh"

groups=()
while [ $# -gt 0 ]; do
  case "$1" in
    -p) [ $# -ge 2 ] || die "-p needs a process group ID"
        groups+=("$2"); shift 2 ;;
    --) shift; break ;;
    -h|--help) usage; exit 0 ;;
    *) die "unknown argument '$1' (usage: -p PGID ... -- COMMAND)" ;;
  esac
done
[ ${#groups[@]} -gt 0 ] || die "no process group to pause (-p PGID)"
[ $# -gt 0 ] || die "no command to run (after --)"

own=$(ps -o pgid= -p $$ | tr -d ' ')
for g in "${groups[@]}"; do
  case "$g" in ''|*[!0-9]*) die "'$g' is not a process group ID" ;; esac
  [ "$g" != "$own" ] || die "$g is this script's own process group"
  kill -0 -- "-$g" 2>/dev/null || die "no process group $g"
done

load() { cut -d' ' -f1 /proc/loadavg; }

# Continues every group once, whatever ends the run.
# shellcheck disable=SC2317 # called by the EXIT trap
resume() {
  for g in "${groups[@]}"; do kill -CONT -- "-$g" 2>/dev/null || true; done
}
trap resume EXIT
trap 'exit 130' INT TERM

echo "pause-jobs: load average $(load) before the pause" >&2
for g in "${groups[@]}"; do kill -STOP -- "-$g"; done
status=0
"$@" || status=$?
echo "pause-jobs: load average $(load) after the command" >&2
exit "$status"
