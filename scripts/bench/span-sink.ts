// An OTLP/HTTP receiver for the tracing benches (tracing.ts, tracing-instructions.ts).
import { createServer, type Server as HttpServer } from 'node:http';

const SPAN_ID = Buffer.from('"spanId"');

/** An OTLP/HTTP receiver that takes every export and throws it away, counting the spans. */
export function spanSink(): Promise<{ server: HttpServer; url: string; spans: () => number }> {
  let spans = 0;
  const server = createServer((req, res) => {
    // Counted in the raw bytes, never decoded or parsed: the sink shares the host with the
    // servers it measures, so the less it does, the less it takes from the traced one. One
    // "spanId" per span (and per link, of which there are none); a chunk boundary splitting
    // one only undercounts.
    req.on('data', (chunk: Buffer) => {
      for (let at = chunk.indexOf(SPAN_ID); at !== -1; at = chunk.indexOf(SPAN_ID, at + SPAN_ID.length)) spans += 1;
    });
    req.on('end', () => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}'));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, url: `http://127.0.0.1:${port}`, spans: () => spans });
    }),
  );
}
