// CPU time a process has used (user + system), read from /proc: what a server spent on a load
// run, divided by the requests it answered, is its CPU cost per request, a figure that holds
// better than req/s on a shared machine.
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
