import { readdirSync, readFileSync } from 'node:fs';

/** One process of a tree: resident set (RSS) and proportional set (PSS, shared pages divided among their users). */
export type ProcessMemory = { pid: number; name: string; rssKb: number; pssKb: number };

/** What a process tree holds in memory: RSS counts shared pages (PostgreSQL's shared buffers) once per process; PSS once in all. */
export type TreeMemory = { processes: ProcessMemory[]; rssMb: number; pssMb: number; rootRssMb: number };

const field = (text: string, name: string) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(text)?.[1] ?? 0);

function children(): Map<number, number[]> {
  const byParent = new Map<number, number[]>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // pid (comm) state ppid …: comm may hold spaces, so read after the last ')'.
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      byParent.set(ppid, [...(byParent.get(ppid) ?? []), Number(entry)]);
    } catch {
      // gone meanwhile
    }
  }
  return byParent;
}

/** The memory of `rootPid` and every process below it (Linux /proc). */
export function treeMemory(rootPid: number): TreeMemory {
  const byParent = children();
  const pids: number[] = [];
  for (const queue = [rootPid]; queue.length > 0; ) {
    const pid = queue.shift() as number;
    pids.push(pid);
    queue.push(...(byParent.get(pid) ?? []));
  }
  const processes: ProcessMemory[] = [];
  for (const pid of pids) {
    try {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const rollup = readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8');
      const name = /^Name:\s+(.*)$/m.exec(status)?.[1] ?? '?';
      processes.push({ pid, name, rssKb: field(status, 'VmRSS'), pssKb: field(rollup, 'Pss') });
    } catch {
      // exited meanwhile
    }
  }
  const sum = (key: 'rssKb' | 'pssKb') => processes.reduce((total, item) => total + item[key], 0) / 1024;
  return {
    processes,
    rssMb: sum('rssKb'),
    pssMb: sum('pssKb'),
    rootRssMb: (processes.find((item) => item.pid === rootPid)?.rssKb ?? 0) / 1024,
  };
}

/** "PSS 212 MB (RSS sum 260 MB; node 150 MB + 9 other processes)". */
export function describeMemory(memory: TreeMemory): string {
  return `PSS ${memory.pssMb.toFixed(0)} MB (RSS summed ${memory.rssMb.toFixed(0)} MB: node ${memory.rootRssMb.toFixed(0)} MB + ${memory.processes.length - 1} other processes)`;
}
