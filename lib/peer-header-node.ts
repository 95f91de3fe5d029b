import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { PEER_HEADER, peerHeaderValue, peerStamp, setPeerStamp } from './shopper-address';

/**
 * Makes every HTTP server of this process record each request's socket address in
 * PEER_HEADER before anything else sees the request, replacing any header of that name
 * the client sent. Next gives route code no way to the socket, and its own X-Forwarded-For
 * is the client's when the client sent one (see lib/shopper-address.ts). Once per process.
 */
export function installPeerHeader(): void {
  if (peerStamp()) return;
  setPeerStamp(randomBytes(18).toString('base64url'));
  const stamp = peerStamp()!;
  const emit = http.Server.prototype.emit;
  http.Server.prototype.emit = function emitWithPeer(this: http.Server, event: string | symbol, ...args: unknown[]): boolean {
    if (event === 'request') {
      const req = args[0] as http.IncomingMessage;
      req.headers[PEER_HEADER] = peerHeaderValue(stamp, req.socket?.remoteAddress, req.headers['x-forwarded-for'] !== undefined);
    }
    return Reflect.apply(emit, this, [event, ...args]) as boolean;
  } as typeof emit;
}
