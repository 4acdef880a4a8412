#!/usr/bin/env bash
# record-modes.sh - records PROG with every perf record mode this machine
# offers without branch-stack hardware, one perf.data per mode in OUTDIR:
# cpu-clock samples (file and pipe, each also zstd-compressed), frame-pointer
# and DWARF call graphs, several events, event modifiers, sampled group
# reads, every extra sample field perf record can ask for, build IDs in
# MMAP2 records or none at all, inherited counters, system-wide.
#
# Usage: record-modes.sh PROG OUTDIR
set -euo pipefail
prog=$1 out=$2
mkdir -p "$out"
r() { name=$1; shift; perf record -q -o "$out/$name.data" "$@" >/dev/null 2>&1; }
p() { name=$1; shift; perf record -q -o - "$@" 2>/dev/null >"$out/$name.data"; }
args=("$prog" 2000000 exec)
r plain -e cpu-clock -F 4000 "${args[@]}"
r zstd -z -e cpu-clock -F 4000 "${args[@]}"
p pipe -e cpu-clock -F 4000 "${args[@]}"
p pipe-zstd -z -e cpu-clock -F 4000 "${args[@]}"
r callchain-fp --call-graph=fp -e cpu-clock -F 4000 "${args[@]}"
r callchain-dwarf --call-graph=dwarf,1024 -e cpu-clock -F 1000 "${args[@]}"
r events -e cpu-clock,task-clock,page-faults -F 4000 "${args[@]}"
r modifiers -e cpu-clock:u,task-clock:k -c 50000 "${args[@]}"
r group-read -s -e '{cpu-clock,task-clock}:S' -F 4000 "${args[@]}"
r group -e '{cpu-clock,task-clock}' -F 4000 "${args[@]}"
r sample-fields --sample-cpu --period --raw-samples --weight --transaction \
  --data-page-size --code-page-size --phys-data -d -T -e cpu-clock -F 4000 \
  "${args[@]}"
r regs --user-regs=ip,sp --intr-regs=ip -e cpu-clock -F 4000 "${args[@]}"
r cgroup --all-cgroups -W -e cpu-clock -F 4000 "${args[@]}"
r identifier --sample-identifier -e cpu-clock,task-clock -F 4000 "${args[@]}"
r inherit-stat -s -i -e cpu-clock -F 4000 "${args[@]}"
r buildid-mmap --buildid-mmap -e cpu-clock -F 4000 "${args[@]}"
r no-buildid -B -e cpu-clock -F 4000 "${args[@]}"
r system-wide -a -e cpu-clock -F 500 -- "${args[@]}"
