import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Child processes of the benchmark. Each runs in its own process group, so stopping it
 * stops everything it started (next start's workers too). Whatever happens to the
 * benchmark — an error, Ctrl-C — every group is killed before it exits.
 */
export type Managed = { label: string; pid: number; child: ChildProcess; exited: Promise<number | null>; output: () => string };

const live = new Map<number, Managed>();

function killGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false; // no such group: already gone
  }
}

function killAllNow(): void {
  for (const pid of live.keys()) killGroup(pid, 'SIGKILL');
  live.clear();
}

process.on('exit', killAllNow);
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
  process.on(signal, () => {
    console.error(`\nbench: ${signal}, stopping servers`);
    killAllNow();
    process.exit(130);
  });
}

export function startProcess(label: string, command: string, args: string[], env: NodeJS.ProcessEnv, cwd = process.cwd()): Managed {
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  if (child.pid === undefined) throw new Error(`could not start ${label}`);
  const tail: string[] = [];
  const keep = (chunk: Buffer) => {
    tail.push(chunk.toString('utf8'));
    if (tail.length > 200) tail.splice(0, tail.length - 200);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const managed: Managed = { label, pid: child.pid, child, exited, output: () => tail.join('') };
  live.set(child.pid, managed);
  void exited.then(() => {
    // The leader is gone; anything left in its group goes too.
    killGroup(managed.pid, 'SIGKILL');
    live.delete(managed.pid);
  });
  return managed;
}

/** SIGTERM the group, wait up to `graceMs`, then SIGKILL whatever is left. */
export async function stopProcess(managed: Managed, graceMs = 5000): Promise<void> {
  if (!live.has(managed.pid)) return;
  killGroup(managed.pid, 'SIGTERM');
  const timer = new Promise<'timeout'>((resolve) => setTimeout(() => resolve('timeout'), graceMs).unref());
  await Promise.race([managed.exited, timer]);
  killGroup(managed.pid, 'SIGKILL');
  live.delete(managed.pid);
}

export async function stopAll(): Promise<void> {
  await Promise.all([...live.values()].map((m) => stopProcess(m)));
}

/** Runs a command to completion (the build), streaming nothing, failing with its output. */
export async function runToCompletion(
  label: string,
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<string> {
  const managed = startProcess(label, command, args, env);
  const timer = setTimeout(() => killGroup(managed.pid, 'SIGKILL'), timeoutMs);
  const code = await managed.exited;
  clearTimeout(timer);
  if (code !== 0) throw new Error(`${label} failed (exit ${code}):\n${managed.output().slice(-4000)}`);
  return managed.output();
}

/**
 * A request and its whole body, aborted after `ms` by a timer that holds the controller.
 * Not AbortSignal.timeout(): its timer holds the signal only weakly, and so does fetch, so
 * after a GC nothing aborted a request that a server accepted but never answered, and the
 * bench waited for ever.
 */
export async function fetchWithin(url: string, ms: number, init: RequestInit = {}): Promise<{ status: number; ok: boolean; body: string }> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new Error(`no answer from ${url} within ${ms} ms`)), ms);
  // And raced against the timer itself: a fetch to a server that accepted the request but was
  // still starting has also been seen to stay pending after its abort (a server under
  // valgrind, answering curl, and the bench idle with no timer left).
  const late = new Promise<never>((_, reject) =>
    controller.signal.addEventListener('abort', () => reject(controller.signal.reason as Error)),
  );
  try {
    const res = await Promise.race([fetch(url, { ...init, signal: controller.signal }), late]);
    return { status: res.status, ok: res.ok, body: await Promise.race([res.text(), late]) };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * `work`, or an error naming `what` after `ms`: a phase of the benchmark that waits longer
 * than it can take fails loudly instead of holding the run for ever.
 */
export async function within<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${Math.round(ms / 1000)} s`)), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}

/** Polls `url` until it answers (any status below 500), at most `timeoutMs`. */
export async function waitForHttp(url: string, managed: Managed, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exited = false;
  void managed.exited.then(() => (exited = true));
  while (Date.now() < deadline) {
    if (exited) throw new Error(`${managed.label} exited before it was ready:\n${managed.output().slice(-4000)}`);
    try {
      if ((await fetchWithin(url, 2000)).status < 500) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${managed.label} was not ready within ${timeoutMs} ms:\n${managed.output().slice(-4000)}`);
}

/** Resident memory (KiB) of every process in a process group, from /proc. */
export function groupRssKb(pgid: number): number {
  let total = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // fields after the parenthesised command: state ppid pgrp ...
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      const match = /VmRSS:\s+(\d+)\s+kB/.exec(status);
      if (match) total += Number(match[1]);
    } catch {
      // the process ended between the listing and the read
    }
  }
  return total;
}

/**
 * Where a process group's resident memory is (MB), from /proc/<pid>/smaps: anonymous memory
 * (V8's heaps, malloc's arenas, thread stacks: /proc cannot tell them apart), the node binary,
 * native add-ons (.node: libsql's SQLite), other shared libraries, other files; and the
 * processes and threads it counted. With process.memoryUsage() beside it, anonymous minus
 * the V8 heap is what native code holds.
 */
export type MemoryMap = {
  rss: number;
  processes: number;
  threads: number;
  anonymous: number;
  node: number;
  addons: number;
  libraries: number;
  files: number;
};

export function memoryMapMb(pgid: number): MemoryMap {
  const kb = { anonymous: 0, node: 0, addons: 0, libraries: 0, files: 0 };
  let processes = 0;
  let threads = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]) !== pgid) continue;
      const status = readFileSync(`/proc/${entry}/status`, 'utf8');
      threads += Number(/Threads:\s+(\d+)/.exec(status)?.[1] ?? 0);
      processes += 1;
      let kind: keyof typeof kb = 'anonymous';
      for (const line of readFileSync(`/proc/${entry}/smaps`, 'utf8').split('\n')) {
        // a mapping's header: address range, perms, offset, device, inode, [path]
        const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
        if (header) {
          const path = header[1]!;
          kind =
            path === '' || path.startsWith('[')
              ? 'anonymous'
              : path.endsWith('.node')
                ? 'addons'
                : /\/node$/.test(path)
                  ? 'node'
                  : /\.so(\.|$)/.test(path)
                    ? 'libraries'
                    : 'files';
          continue;
        }
        const rss = /^Rss:\s+(\d+) kB/.exec(line);
        if (rss) kb[kind] += Number(rss[1]);
      }
    } catch {
      // the process ended meanwhile
    }
  }
  const mb = (n: number) => Math.round(n / 102.4) / 10;
  return {
    rss: mb(kb.anonymous + kb.node + kb.addons + kb.libraries + kb.files),
    processes,
    threads,
    anonymous: mb(kb.anonymous),
    node: mb(kb.node),
    addons: mb(kb.addons),
    libraries: mb(kb.libraries),
    files: mb(kb.files),
  };
}

/** Samples a group's RSS every 250 ms; windows of it give each scenario's peak. */
export class RssSampler {
  readonly samples: { t: number; kb: number }[] = [];
  private timer: NodeJS.Timeout;

  constructor(
    private readonly pgid: number,
    intervalMs = 250,
  ) {
    this.sample();
    this.timer = setInterval(() => this.sample(), intervalMs);
    this.timer.unref();
  }

  private sample(): number {
    const kb = groupRssKb(this.pgid);
    if (kb > 0) this.samples.push({ t: Date.now(), kb });
    return kb;
  }

  /** RSS in MB now, read at once (and kept with the other samples). */
  nowMb(): number {
    return Math.round(this.sample() / 102.4) / 10;
  }

  /** Peak in MB over [from, to]. */
  peakMb(from = 0, to = Number.POSITIVE_INFINITY): number {
    let peak = 0;
    for (const s of this.samples) if (s.t >= from && s.t <= to && s.kb > peak) peak = s.kb;
    return Math.round(peak / 102.4) / 10;
  }

  /** RSS in MB at the sample nearest to `t`. */
  atMb(t: number): number {
    let best: { t: number; kb: number } | undefined;
    for (const s of this.samples) if (!best || Math.abs(s.t - t) < Math.abs(best.t - t)) best = s;
    return best ? Math.round(best.kb / 102.4) / 10 : 0;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }
}
