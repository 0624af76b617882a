/** Dotted numeric versions ('2509.21.01', '1.6.0'): negative when a < b, 0 when equal. */
export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map((p) => Number.parseInt(p, 10) || 0);
  const pb = b.split('.').map((p) => Number.parseInt(p, 10) || 0);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const d = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

/** The client must update when it is older than AppConfig.minimalVersion. */
export const needsUpdate = (clientVersion: string, minimalVersion: string) => compareVersions(clientVersion, minimalVersion) < 0;
