// The physical floor: a bare Node http server answering a constant body of the given
// size, with headers like the API's. Nothing in the app is faster than this on this box.
// usage: node floor-server.mjs <port> <bytes>
import { createServer } from 'node:http';

const port = Number(process.argv[2]);
const bytes = Number(process.argv[3]);
if (!Number.isInteger(port) || !Number.isInteger(bytes) || bytes < 16) {
  console.error('usage: node floor-server.mjs <port> <bytes>');
  process.exit(2);
}
const head = '{"data":"';
const tail = '"}';
const body = Buffer.from(head + 'x'.repeat(bytes - head.length - tail.length) + tail);

createServer((req, res) => {
  res.writeHead(200, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': body.length,
    'Cache-Control': 'private, max-age=60',
    ETag: '"floor"',
  });
  res.end(body);
}).listen(port, '127.0.0.1', () => console.log(`floor listening on ${port}`));
