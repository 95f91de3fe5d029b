// A real SMTP server for tests (the smtp-server package) and a small reader of what it got.
import { SMTPServer } from 'smtp-server';
import { freePort } from '../../e2e/support/instances';

export type Received = { raw: string; rcptTo: string[]; mailFrom: string | null };

export type TestSmtp = {
  port: number;
  url: string;
  received: Received[];
  /** Recipients of each message whose data has arrived, before the server answers it (with delayMs, that long before). */
  arriving: string[][];
  start(): Promise<void>;
  stop(): Promise<void>;
};

/**
 * An SMTP server on a fixed port that can be stopped and started again (a relay that is
 * down for a while). No TLS, no auth required; every accepted message is kept raw.
 */
export async function testSmtp(options: { delayMs?: number } = {}): Promise<TestSmtp> {
  const port = await freePort();
  const received: Received[] = [];
  const arriving: string[][] = [];
  let server: SMTPServer | null = null;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    received,
    arriving,
    async start() {
      server = new SMTPServer({
        authOptional: true,
        disabledCommands: ['STARTTLS', 'AUTH'],
        logger: false,
        onData(stream, session, callback) {
          const chunks: Buffer[] = [];
          stream.on('data', (c: Buffer) => chunks.push(c));
          stream.on('end', () => {
            arriving.push(session.envelope.rcptTo.map((r) => r.address));
            const finish = () => {
              received.push({
                raw: Buffer.concat(chunks).toString('utf8'),
                rcptTo: session.envelope.rcptTo.map((r) => r.address),
                mailFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              });
              callback();
            };
            if (options.delayMs) setTimeout(finish, options.delayMs);
            else finish();
          });
        },
      });
      await new Promise<void>((resolve, reject) => {
        server!.once('error', reject);
        server!.listen(port, '127.0.0.1', () => resolve());
      });
    },
    async stop() {
      const s = server;
      server = null;
      if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
    },
  };
}

/** RFC 2047 encoded words (`=?UTF-8?Q?…?=`, `=?UTF-8?B?…?=`), decoded; the space between two of them goes. */
function decodeWords(value: string): string {
  return value
    .replace(/(\?=)\s+(=\?)/g, '$1$2')
    .replace(/=\?([\w-]+)\?([QB])\?([^?]*)\?=/gi, (_, _charset: string, encoding: string, text: string) =>
      encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

/** A header's value, unfolded and decoded (the first one of that name). */
export function header(raw: string, name: string): string | null {
  const head = raw.split(/\r?\n\r?\n/)[0] ?? '';
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  const line = unfolded.split(/\r?\n/).find((l) => l.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line ? decodeWords(line.slice(name.length + 1).trim()) : null;
}

function decodeQuotedPrintable(text: string): string {
  const bytes: number[] = [];
  const soft = text.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const c = soft[i]!;
    if (c === '=' && /^[0-9A-F]{2}$/i.test(soft.slice(i + 1, i + 3))) {
      bytes.push(parseInt(soft.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(...Buffer.from(c, 'utf8'));
    }
  }
  return Buffer.from(bytes).toString('utf8');
}

/** The decoded body of the part with this content type (text/plain or text/html), found by the message's own boundary. */
export function part(raw: string, type: 'text/plain' | 'text/html'): string | null {
  const boundary = /boundary="?([^";\s]+)"?/i.exec(header(raw, 'Content-Type') ?? '')?.[1];
  const sections = boundary ? raw.split(`--${boundary}`).slice(1) : [raw];
  for (const section of sections) {
    const [head, ...rest] = section.replace(/^\r?\n/, '').split(/\r?\n\r?\n/);
    if (!head || !new RegExp(`content-type:\\s*${type.replace('/', '\\/')}`, 'i').test(head)) continue;
    let body = rest.join('\n\n').replace(/\r?\n$/, '');
    const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(head)?.[1]?.toLowerCase();
    if (encoding === 'quoted-printable') body = decodeQuotedPrintable(body);
    else if (encoding === 'base64') body = Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
    return body;
  }
  return null;
}

/** Every http(s) link in a text part. */
export function links(text: string): string[] {
  return [...text.matchAll(/https?:\/\/[^\s<>"]+/g)].map((m) => m[0]);
}

/** Waits for a condition, polling; never a fixed sleep. */
export async function waitFor<T>(probe: () => T | Promise<T>, what: string, timeoutMs = 15_000): Promise<NonNullable<T>> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as NonNullable<T>;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
