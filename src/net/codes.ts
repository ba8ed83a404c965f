/**
 * The net layer's codes (`NET_`): the safe fetch and the host allowlist. A tool that fetches
 * (an HTTP tool, `web_fetch`) fails with these codes as they are.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const NetCodes = defineCodes('net', 'NET', {
  INVALID_URL: { canonical: 'INVALID_ARGUMENTS', summary: 'a URL that cannot be parsed', hint: 'give an absolute http(s) URL' },
  UNSUPPORTED_SCHEME: { canonical: 'INVALID_ARGUMENTS', summary: 'a URL whose scheme is not http or https', hint: 'use an http or https URL' },
  HOST_NOT_ALLOWED: {
    canonical: 'PERMISSION_DENIED',
    summary: 'a host that is not on the allowlist',
    hint: "the hosts a run may reach are set by its operator (the tool's allowedHosts)",
  },
  PRIVATE_ADDRESS: {
    canonical: 'PERMISSION_DENIED',
    summary: 'a host that is, or resolves to, a private, loopback or link-local address (checked when connecting)',
    hint: 'use a public host, or allow private addresses for this tool if it is meant to reach them',
  },
  TOO_MANY_REDIRECTS: { canonical: 'EXECUTION_ERROR', summary: 'more redirects than `maxRedirects`', hint: 'request the final URL, or raise maxRedirects' },
  INSECURE_REDIRECT: { canonical: 'PERMISSION_DENIED', summary: 'a redirect from https to http', hint: 'request the http URL directly if that is intended' },
  REDIRECT_REFUSED: {
    canonical: 'PERMISSION_DENIED',
    summary: 'a 307/308 redirect to another origin that would re-send a request body holding a secret',
    hint: 'send the request to the final URL directly, if that origin may have the secret',
  },
  INVALID_REQUEST: {
    canonical: 'INVALID_ARGUMENTS',
    summary: 'a request undici refuses (a bad header, a body on GET, a bad option)',
    hint: 'fix the request as the message says',
  },
  RESPONSE_TOO_LARGE: { canonical: 'LIMIT_EXCEEDED', summary: 'a response body larger than `maxBytes`', hint: 'ask for less, or raise maxResponseBytes' },
  TIMEOUT: {
    canonical: 'TIMEOUT',
    summary: 'no response (headers, or the rest of the body) within the timeout of the attempt',
    retryable: true,
    hint: 'try again later, or raise the timeout',
  },
  CANCELLED: { canonical: 'CANCELLED', summary: 'the caller aborted the request', hint: 'nothing to do: the caller asked for it' },
  NETWORK_ERROR: {
    canonical: 'UNAVAILABLE',
    summary: 'the connection failed (refused, reset, DNS failure, TLS)',
    retryable: true,
    hint: 'try again; check the host name if it persists',
  },
  HOST_PATTERN_INVALID: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'an allowlist entry that is not a host pattern (`example.com`, `*.example.com`, an IP, a CIDR)',
    hint: 'fix the pattern as the message says',
  },
});

export type NetCode = CodeOf<typeof NetCodes>;
