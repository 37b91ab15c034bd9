import { isIPv4, isIPv6 } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * The client's address: the socket's peer, or with TRUST_PROXY the address the proxy in front of us
 * saw (the last X-Forwarded-For entry, which that proxy appended and the client cannot forge).
 */
export function clientAddress(c: Context, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = c.req.header('x-forwarded-for')?.split(',').at(-1)?.trim();
    if (forwarded) return forwarded;
  }
  return getConnInfo(c).remote.address ?? 'unknown';
}

/**
 * The group an address is throttled under: an IPv4 address as it is (an IPv4-mapped IPv6 address such as
 * `::ffff:192.0.2.1` becomes `192.0.2.1`), an IPv6 address as its /64 (`2001:db8:1:2::/64`), because one
 * customer line, and so one attacker, usually gets a whole /64 and can pick any address in it.
 */
export function addressGroup(address: string): string {
  const bare = address.replace(/^\[(.*)\]$/, '$1').split('%')[0] ?? '';
  if (isIPv4(bare)) return bare;
  if (!isIPv6(bare)) return address.slice(0, 100);
  const groups = expandIPv6(bare);
  const [g6 = 0, g7 = 0] = groups.slice(6);
  if (groups.slice(0, 5).every((g) => g === 0) && groups[5] === 0xffff) {
    return [g6 >> 8, g6 & 0xff, g7 >> 8, g7 & 0xff].join('.');
  }
  return `${groups
    .slice(0, 4)
    .map((g) => g.toString(16))
    .join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, `::` and a dotted IPv4 tail expanded. */
function expandIPv6(address: string): number[] {
  let text = address.toLowerCase();
  const tail: number[] = [];
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    tail.push((a << 8) | b, (c << 8) | d);
    text = text.slice(0, dotted.index);
    if (text.endsWith(':') && !text.endsWith('::')) text = text.slice(0, -1);
  }
  const parse = (part: string) => (part ? part.split(':').map((g) => Number.parseInt(g, 16)) : []);
  const [head = '', rest] = text.split('::');
  const before = parse(head);
  const after = rest === undefined ? [] : parse(rest);
  const zeros = rest === undefined ? 0 : 8 - before.length - after.length - tail.length;
  return [...before, ...Array<number>(zeros).fill(0), ...after, ...tail];
}
