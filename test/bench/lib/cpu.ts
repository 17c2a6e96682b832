// CPU time a process has used (user + system), read from /proc: what a server spent on a load
// run, divided by the requests it answered, is its CPU cost per request, a figure that holds
// better than req/s on a shared machine. The machine's idle time tells whether a run had CPU to
// spare at all: on a machine that is never idle, one more process only shares the same cores.
import { readFileSync } from 'node:fs';

const ticksPerSecond = 100; // USER_HZ on Linux

export function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name (which may hold spaces) start after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(fields[11]);
  const stime = Number(fields[12]);
  return ((utime + stime) * 1000) / ticksPerSecond;
}

/** The CPU time of every process in `pids` that still runs (one that has exited counts nothing). */
export function cpuMsOf(pids: readonly number[]): number {
  let sum = 0;
  for (const pid of pids) {
    try {
      sum += cpuMs(pid);
    } catch {
      // Gone since it was listed (a PostgreSQL backend whose connection closed).
    }
  }
  return sum;
}

/** The machine's CPU time since boot in ticks, all cores together: how much of it was idle. */
export function machineTicks(): { idle: number; total: number } {
  // The first line of /proc/stat: cpu user nice system idle iowait irq softirq steal guest guest_nice
  const fields = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { idle: fields[3]! + fields[4]!, total: fields.reduce((sum, ticks) => sum + ticks, 0) };
}
