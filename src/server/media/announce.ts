/**
 * Which address the SFU tells browsers to send media to. A server listening on a wildcard
 * (0.0.0.0, ::) that announces nothing offers browsers that wildcard, which no browser can reach:
 * ICE never connects and calls stay black. So with no RTC_ANNOUNCED_IP we pick one ourselves:
 * the loopback address when PUBLIC_URL is local (a developer's `npm start`), otherwise the first
 * non-internal IPv4 of the machine, and say which at start.
 */
import os from 'node:os';

export interface AnnouncedAddress {
  /** Undefined when the listen address itself is reachable (a specific IP). */
  ip: string | undefined;
  why: 'configured' | 'listen-address' | 'local-public-url' | 'first-interface' | 'no-interface';
}

const WILDCARDS = new Set(['0.0.0.0', '::', '']);
const LOCAL_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function announcedAddress(
  { listenIp, announcedIp, publicUrl }: { listenIp: string; announcedIp: string | undefined; publicUrl: string },
  interfaces: NodeJS.Dict<os.NetworkInterfaceInfo[]> = os.networkInterfaces(),
): AnnouncedAddress {
  if (announcedIp) return { ip: announcedIp, why: 'configured' };
  if (!WILDCARDS.has(listenIp)) return { ip: undefined, why: 'listen-address' };
  const host = safeHostname(publicUrl);
  if (host && (LOCAL_HOSTS.has(host) || host.endsWith('.localhost'))) return { ip: '127.0.0.1', why: 'local-public-url' };
  for (const infos of Object.values(interfaces)) {
    const external = infos?.find((i) => i.family === 'IPv4' && !i.internal);
    if (external) return { ip: external.address, why: 'first-interface' };
  }
  return { ip: '127.0.0.1', why: 'no-interface' };
}

function safeHostname(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}
