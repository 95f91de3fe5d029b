import { request as httpRequest } from 'node:http';
import { readFileSync } from 'node:fs';

export type ChunkedAnswer = {
  /** The status the server answered, or null when it closed the connection without one. */
  status: number | null;
  error: string | null;
  /** Bytes written before the answer came (or the connection closed). */
  sent: number;
};

/**
 * POSTs `total` bytes of `filler` (after `prefix`) with Transfer-Encoding: chunked — no
 * Content-Length, so only counting while reading can stop it — as fast as the server takes
 * them, and stops sending as soon as the server answers. node:http, because fetch would
 * buffer nothing differently but hides when the answer arrived.
 */
export function postChunked(url: string, headers: Record<string, string>, total: number, prefix = ''): Promise<ChunkedAnswer> {
  return new Promise((resolve) => {
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    let done = false;
    const req = httpRequest(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } });
    const finish = (answer: ChunkedAnswer) => {
      if (done) return;
      done = true;
      req.destroy();
      resolve(answer);
    };
    req.on('response', (res) => {
      res.resume();
      finish({ status: res.statusCode ?? null, error: null, sent });
    });
    req.on('error', (error: NodeJS.ErrnoException) => finish({ status: null, error: error.code ?? error.message, sent }));
    if (prefix) {
      req.write(prefix);
      sent += Buffer.byteLength(prefix);
    }
    const pump = () => {
      while (!done && sent < total) {
        sent += chunk.length;
        if (!req.write(chunk)) {
          req.once('drain', pump);
          return;
        }
      }
      if (!done) req.end();
    };
    pump();
  });
}

/** Resident memory of a process, in bytes (Linux). */
export function rssOf(pid: number): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('VmRSS:'));
  return Number(/(\d+)/.exec(line ?? '')?.[1] ?? NaN) * 1024;
}
