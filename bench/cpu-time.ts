// bench -> CPU time used by a process and by the processes it started (for the stack: DynamoDB Local's
// Java), from /proc/<pid>/stat, so a load run can say which process the CPU went to.
import { readdirSync, readFileSync } from 'node:fs';

/** USER_HZ: the unit of utime/stime in /proc/<pid>/stat, 100 on every mainstream Linux ABI. */
const TICKS_PER_SECOND = 100;

interface Stat {
  ppid: number;
  cpuSeconds: number;
}

const readStat = (pid: number): Stat | undefined => {
  try {
    const text = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which is in parentheses and may hold spaces.
    const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
    const ppid = Number(fields[1]);
    const ticks = Number(fields[11]) + Number(fields[12]);
    return { ppid, cpuSeconds: ticks / TICKS_PER_SECOND };
  } catch {
    return undefined; // gone, or not ours to read
  }
};

/** `pid`'s descendants (children, grandchildren…), found by their parent ids in /proc. */
export const descendants = (pid: number): number[] => {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    const stat = readStat(Number(entry));
    if (stat) parents.set(Number(entry), stat.ppid);
  }
  const found: number[] = [];
  let frontier = [pid];
  while (frontier.length > 0) {
    const next = [...parents].filter(([, ppid]) => frontier.includes(ppid)).map(([child]) => child);
    found.push(...next);
    frontier = next;
  }
  return found;
};

/** CPU seconds (user + system) each pid has used so far; a vanished pid counts 0. */
export const cpuSeconds = (pids: number[]): number[] => pids.map((pid) => readStat(pid)?.cpuSeconds ?? 0);

/** Starts counting CPU time of `pids`; `stop()` answers the seconds each used since. */
export const countCpu = (pids: number[]) => {
  const start = cpuSeconds(pids);
  return { stop: () => cpuSeconds(pids).map((seconds, i) => seconds - (start[i] ?? 0)) };
};
