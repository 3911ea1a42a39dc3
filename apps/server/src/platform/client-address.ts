import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';
import { addressGroup } from './rate-limits';

/** TRUST_PROXY's named ranges, as Fastify's trustProxy (proxy-addr) reads them. */
const NAMED_RANGES: Record<string, string[]> = {
  loopback: ['127.0.0.1/8', '::1/128'],
  linklocal: ['169.254.0.0/16', 'fe80::/10'],
  uniquelocal: ['10.0.0.0/8', '172.16.0.0/12', '192.168.0.0/16', 'fc00::/7'],
};

const unmapped = (address: string) => address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '');

/**
 * The client address of a request Fastify never routes (a WebSocket handshake is answered from the
 * HTTP server's `upgrade` event), found as Fastify finds `req.ip`: X-Forwarded-For is walked from
 * the socket's end only while each hop is one of TRUST_PROXY's addresses. Answered as a rate key: an
 * IPv6 client counts as its /64, by the rate limits' own `addressGroup`.
 */
export function createClientAddress(trustProxy: string[]) {
  const trusted = new BlockList();
  for (const entry of trustProxy.flatMap((e) => NAMED_RANGES[e] ?? [e])) {
    const [address, bits] = entry.split('/');
    const family = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) trusted.addAddress(address, family);
    else trusted.addSubnet(address, Number(bits), family);
  }
  const isTrusted = (address: string) => {
    const family = isIP(address);
    return family !== 0 && trusted.check(address, family === 6 ? 'ipv6' : 'ipv4');
  };

  return (req: IncomingMessage): string => {
    let address = unmapped(req.socket.remoteAddress ?? '');
    if (trustProxy.length) {
      const forwarded = String(req.headers['x-forwarded-for'] ?? '')
        .split(',')
        .map((s) => unmapped(s.trim()))
        .filter(Boolean);
      while (forwarded.length && isTrusted(address)) address = forwarded.pop()!;
    }
    return address && isIP(address) ? addressGroup(address) : address || 'gone';
  };
}
