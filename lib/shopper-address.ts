import { isIP } from 'node:net';
import { processSlot } from '@/lib/process-state';

/**
 * Where a request came from, for the storefront to name its shopper to the API
 * (Site-Buyer-IP, which partitions rate limits).
 *
 * Next fills `X-Forwarded-For` with the socket's address only when the client sent none,
 * and keeps whatever the client wrote otherwise: that header alone cannot tell a shopper's
 * real address from one they typed. So the server records the socket's address itself
 * (guardServer in lib/server/server-guard.ts, from instrumentation.ts) in a header of its own, stamped with a
 * per-process secret: a client can send a header of that name, but not with the stamp.
 */
export const PEER_HEADER = 'x-site-peer';

const holder = processSlot<{ stamp?: string }>('peerStamp', () => ({}));

/** The stamp of this process, once the server guard is installed (else undefined). */
export function peerStamp(): string | undefined {
  return holder.stamp;
}

export function setPeerStamp(stamp: string): void {
  holder.stamp ??= stamp;
}

/** What the server guard writes: the stamp, the socket's address, and whether the client sent X-Forwarded-For. */
export function peerHeaderValue(stamp: string, address: string | undefined, forwarded: boolean): string {
  return `${stamp} ${address ?? '-'} ${forwarded ? 'f' : '-'}`;
}

type Peer = { address: string; forwarded: boolean };

function readPeer(headers: Headers): Peer | null {
  const stamp = peerStamp();
  const [given, address, forwarded] = (headers.get(PEER_HEADER) ?? '').split(' ');
  if (!stamp || given !== stamp || !address || isIP(address) === 0) return null;
  return { address, forwarded: forwarded === 'f' };
}

/**
 * The shopper's address: the socket's peer, or — behind `trustedHops` proxies that each
 * append the address they saw to X-Forwarded-For — the entry that many hops from the
 * right, i.e. the address the outermost trusted proxy saw. Entries further left are the
 * client's own words and never used. A list shorter than the hops means the request did
 * not come through all the proxies; the socket's peer is then the best fact there is.
 * Null when the address is unknown or not an IP address: the API then charges the
 * storefront's credential alone.
 */
export function shopperAddress(headers: Headers, trustedHops: number): string | null {
  const peer = readPeer(headers);
  if (!peer) return null;
  if (trustedHops <= 0) return peer.address;
  const listed = peer.forwarded ? (headers.get('x-forwarded-for') ?? '').split(',').map((s) => s.trim()) : [];
  const chain = [...listed, peer.address];
  const chosen = chain[chain.length - 1 - trustedHops] ?? peer.address;
  return isIP(chosen) ? chosen : null;
}
