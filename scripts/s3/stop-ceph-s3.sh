#!/usr/bin/env bash
# The project's own copy of ../shared/tools/ceph-s3 (the measured reference), on its own folder and ports
# (/tmp/hunktube-s3, S3 on 127.0.0.1:7490) so that it never meets a cluster started from the reference.
# stop-ceph-s3.sh — stop the cluster started by start-ceph-s3.sh and delete its data.
#   stop-ceph-s3.sh [--keep-data]
# Only the processes recorded in $S3LAB_DIR/run/{rgw,osd,mon}.pid are signalled, and only if their command
# line still names this cluster's ceph.conf (so a recycled PID is never hit). Each daemon was started with
# setsid, so its process group is signalled (TERM, then KILL after a bounded grace period of 10 s).
# Default (data discarded): radosgw gets SIGTERM first (if the cluster vanished under it, it can hang on
# shutdown); then the OSD and the monitor are signalled together, the memstore OSD with SIGKILL straight away
# (on SIGTERM it would first write every object it holds in RAM into its data dir, about to be deleted).
# --keep-data: daemons are stopped one after the other (rgw, osd, mon) with SIGTERM, so the OSD can save
# its objects and tell the monitor it is going down; the data dir and logs are kept.
set -uo pipefail
DIR=${S3LAB_DIR:-${TMPDIR:-/tmp}/hunktube-s3}
KEEP=0; [ "${1:-}" = --keep-data ] && KEEP=1
rc=0
now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
alive() { kill -0 "$1" 2>/dev/null && [ "$(ps -o stat= -p "$1" 2>/dev/null | cut -c1)" != Z ]; }

declare -A PID TARGET SIG T0
ours() { # name → sets PID/TARGET if the recorded process is alive and is ours
  local f=$DIR/run/$1.pid pid pgid
  [ -f "$f" ] || return 1
  pid=$(cat "$f")
  [ -n "$pid" ] && alive "$pid" || { rm -f "$f"; return 1; }
  tr '\0' ' ' < "/proc/$pid/cmdline" 2>/dev/null | grep -qF -- "$DIR/ceph.conf" || { rm -f "$f"; return 1; }
  pgid=$(ps -o pgid= -p "$pid" | tr -d ' ')
  PID[$1]=$pid
  if [ "$pgid" = "$pid" ]; then TARGET[$1]="-$pgid"; else TARGET[$1]="$pid"; fi
}
signal() { # name
  SIG[$1]=TERM; [ "$1" = osd ] && [ "$KEEP" = 0 ] && SIG[$1]=KILL
  T0[$1]=$(now_ms)
  kill -"${SIG[$1]}" -- "${TARGET[$1]}" 2>/dev/null
}
reap() { # name: wait ≤ 10 s, then SIGKILL
  local n=$1 pid=${PID[$1]}
  for _ in $(seq 1 40); do alive "$pid" || break; sleep 0.25; done
  if alive "$pid"; then
    echo "stop-ceph-s3: $n (pid $pid) still running 10 s after SIG${SIG[$n]}; sending SIGKILL" >&2
    kill -KILL -- "${TARGET[$n]}" 2>/dev/null
    for _ in $(seq 1 20); do alive "$pid" || break; sleep 0.25; done
    if alive "$pid"; then echo "stop-ceph-s3: ERROR: could not stop $n (pid $pid)" >&2; rc=1; return; fi
  fi
  echo "stop-ceph-s3: stopped $n (pid $pid, SIG${SIG[$n]}, $(( $(now_ms) - ${T0[$n]} )) ms)" >&2
  rm -f "$DIR/run/$n.pid"
}

names=()
for n in rgw osd mon; do ours "$n" && names+=("$n"); done
if [ "$KEEP" = 0 ]; then
  rest=()
  for n in "${names[@]}"; do if [ "$n" = rgw ]; then signal rgw; reap rgw; else rest+=("$n"); fi; done
  for n in "${rest[@]}"; do signal "$n"; done
  for n in "${rest[@]}"; do reap "$n"; done
else
  for n in "${names[@]}"; do signal "$n"; reap "$n"; done
fi

if [ "$KEEP" = 0 ] && [ "$rc" = 0 ] && [ -d "$DIR" ]; then
  case "$DIR" in
    /tmp/*|/var/tmp/*|/run/*) rm -rf "$DIR"; echo "stop-ceph-s3: removed $DIR" >&2 ;;
    *) echo "stop-ceph-s3: not removing $DIR (not under /tmp)" >&2 ;;
  esac
fi
exit $rc
