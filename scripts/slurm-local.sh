#!/usr/bin/env bash
# A single-node Slurm on this machine (slurmctld + slurmd + munge, all on localhost), for the
# end-to-end test of `winnow launch slurm` (pipelines/cli/src/slurm-e2e.test.ts). Debian or
# Ubuntu, run as root, no systemd needed: the daemons are started directly. Safe to run again:
# it installs what is missing and (re)starts what is not running.
#
#   sudo scripts/slurm-local.sh          # then: sinfo; sbatch ...
#   scripts/slurm-local.sh --stop        # stops the daemons it started
set -euo pipefail

if [[ "${1:-}" == "--stop" ]]; then
  for pidfile in /run/slurm/slurmd.pid /run/slurm/slurmctld.pid; do
    [[ -s "$pidfile" ]] && kill "$(cat "$pidfile")" 2>/dev/null || true
  done
  [[ -s /run/munge/munged.pid ]] && kill "$(cat /run/munge/munged.pid)" 2>/dev/null || true
  exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
  echo "slurm-local.sh: run as root (it installs packages and starts daemons)" >&2
  exit 1
fi

if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v munged >/dev/null; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -q
  apt-get install -y -q --no-install-recommends slurm-wlm munge
fi

host=$(hostname -s)
cpus=$(nproc)
# Leave the node some memory of its own; RealMemory is in MB.
mem=$(($(awk '/^MemTotal:/ {print $2}' /proc/meminfo) / 1024 - 512))

# munge: one key, its own user, its socket under /run/munge.
mkdir -p /etc/munge /run/munge /var/lib/munge /var/log/munge
if [[ ! -s /etc/munge/munge.key ]]; then
  dd if=/dev/urandom of=/etc/munge/munge.key bs=1024 count=1 status=none
fi
chown -R munge:munge /etc/munge /run/munge /var/lib/munge /var/log/munge
chmod 0700 /etc/munge /var/lib/munge /var/log/munge
chmod 0755 /run/munge
chmod 0400 /etc/munge/munge.key
if ! munge -n </dev/null >/dev/null 2>&1; then
  runuser -u munge -- /usr/sbin/munged
  for _ in $(seq 50); do munge -n </dev/null >/dev/null 2>&1 && break; sleep 0.1; done
fi

conf_dir=/etc/slurm
[[ -d /etc/slurm-llnl && ! -d /etc/slurm ]] && conf_dir=/etc/slurm-llnl
mkdir -p "$conf_dir" /var/spool/slurmctld /var/spool/slurmd /var/log/slurm /run/slurm
cat >"$conf_dir/slurm.conf" <<CONF
# Written by winnow's scripts/slurm-local.sh: one node, this machine.
ClusterName=winnow-local
SlurmctldHost=$host
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
StateSaveLocation=/var/spool/slurmctld
SlurmdSpoolDir=/var/spool/slurmd
SlurmctldPidFile=/run/slurm/slurmctld.pid
SlurmdPidFile=/run/slurm/slurmd.pid
SlurmctldLogFile=/var/log/slurm/slurmctld.log
SlurmdLogFile=/var/log/slurm/slurmd.log
# No cgroups in a container: track processes by parent pid, bind nothing.
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
ReturnToService=2
MpiDefault=none
MaxArraySize=10001
NodeName=$host CPUs=$cpus RealMemory=$mem State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=INFINITE State=UP
CONF
# No cgroups in a container: Slurm 23.02 and later can be told so; 22.05 (Debian 12) falls back
# to cgroup/v1, which slurmd loads without using it under proctrack/linuxproc.
major=$(slurmd -V | awk '{split($2, v, "."); print v[1]}')
if [[ ! -f "$conf_dir/cgroup.conf" && "$major" -ge 23 ]]; then
  echo "CgroupPlugin=disabled" >"$conf_dir/cgroup.conf"
fi

running() { [[ -s "$1" ]] && kill -0 "$(cat "$1")" 2>/dev/null; }
running /run/slurm/slurmctld.pid || slurmctld
running /run/slurm/slurmd.pid || slurmd

up=false
for _ in $(seq 100); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null || true)
  if [[ "$state" == idle* || "$state" == mix* || "$state" == alloc* ]]; then
    up=true
    break
  fi
  [[ "$state" == down* || "$state" == drain* ]] && scontrol update nodename="$host" state=resume 2>/dev/null || true
  sleep 0.2
done
sinfo
# CI (.ci/run) relies on this status: a node that never comes up is a failure, not a note.
if [[ "$up" != true ]]; then
  echo "slurm-local.sh: the node $host did not come up within 20 s (state: ${state:-none}); see /var/log/slurm/" >&2
  exit 1
fi
echo "slurm-local.sh: Slurm is up on $host ($cpus CPUs, $mem MB)"
