import { MESSAGE_VERSIONS, type MessageVersion } from './field-tables/tables.js';
import type { Crd } from './client.js';

/**
 * The protocol version of the attempt (versioning.rst): the highest that all parties support —
 * this service (2.2.0, 2.3.1), the ACS (acsStart…acsEndProtocolVersion) and the directory
 * server (dsStart…dsEndProtocolVersion, when the CRD gives them). Undefined when there is none
 * (an ACS of 2.1.0 only): the service does not speak 2.1.0.
 */
export function chooseMessageVersion(
  crd: Pick<Crd, 'acsStartProtocolVersion' | 'acsEndProtocolVersion' | 'dsStartProtocolVersion' | 'dsEndProtocolVersion'>,
): MessageVersion | undefined {
  const lows = [crd.acsStartProtocolVersion, crd.dsStartProtocolVersion].filter((v): v is string => v !== undefined);
  const highs = [crd.acsEndProtocolVersion, crd.dsEndProtocolVersion].filter((v): v is string => v !== undefined);
  const ours = [...MESSAGE_VERSIONS].sort((a, b) => compareVersions(b, a));
  return ours.find((version) => lows.every((low) => compareVersions(version, low) >= 0) && highs.every((high) => compareVersions(version, high) <= 0));
}

export function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < Math.max(pa.length, pb.length); i++) {
    const diff = (pa[i] ?? 0) - (pb[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}
