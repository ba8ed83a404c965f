/**
 * Whether a server's host list (`--allow-host`) covers an HTTP tool's own list: the entries of the
 * tool's list the server's does not allow. An HTTP tool of a catalog may reach only hosts both
 * allow; one that names any other is not served (`CATALOG_HOST_NOT_ALLOWED`).
 */
import { isIP } from 'node:net';
import { type HostAllowlist, type HostPattern, isPrivateAddress, parseAllowedHosts } from '../../net/host-allowlist.js';
import { isLeft } from '../../core/either.js';
import { decodeHttpToolConfig } from './http-config.js';

const portCovered = (inner: number | undefined, outer: number | undefined): boolean => outer === undefined || inner === outer;

/** Whether every host `p` allows is allowed by `s`. */
const covers = (s: HostPattern, p: HostPattern): boolean => {
  switch (s.kind) {
    case 'any':
      return (
        p.kind === 'subdomain' || (p.kind === 'exact' && (isIP(p.host.replace(/^\[|\]$/g, '')) === 0 || !isPrivateAddress(p.host.replace(/^\[|\]$/g, ''))))
      );
    case 'exact':
      return p.kind === 'exact' && p.host === s.host && portCovered(p.port, s.port);
    case 'subdomain':
      return (
        (p.kind === 'exact' && p.host.endsWith(`.${s.suffix}`) && portCovered(p.port, s.port)) ||
        (p.kind === 'subdomain' && (p.suffix === s.suffix || p.suffix.endsWith(`.${s.suffix}`)) && portCovered(p.port, s.port))
      );
  }
};

/** The entries of a tool's host list that the server's list does not allow. */
export const hostsOutside = (tool: HostAllowlist, server: HostAllowlist): ReadonlyArray<string> =>
  tool.patterns.flatMap((p, i) => (server.patterns.some((s) => covers(s, p)) ? [] : [tool.entries[i] ?? '?']));

/** Why an HTTP tool's block may not run under the server's host list (`undefined`: it may, or the server has no list). */
export const hostProblem = (impl: unknown, allowHosts: ReadonlyArray<string> | undefined): string | undefined => {
  if (allowHosts === undefined) return undefined;
  const config = decodeHttpToolConfig(impl);
  if (isLeft(config)) return `its HTTP configuration is invalid: ${config.left.map((d) => d.message).join('; ')}`;
  const own = parseAllowedHosts(config.right.allowedHosts);
  const server = parseAllowedHosts(allowHosts);
  if (isLeft(own) || isLeft(server)) return 'a host list is invalid';
  const outside = hostsOutside(own.right, server.right);
  if (outside.length === 0) return undefined;
  return `it may reach ${outside.join(', ')}, which the server does not allow (--allow-host ${allowHosts.length > 0 ? allowHosts.join(', ') : 'is empty'})`;
};
