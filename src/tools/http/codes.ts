/**
 * The codes of HTTP tools (`HTTP_`): their configuration (checked when the tool is made) and their
 * calls. Fetch failures keep the net layer's codes (`NET_TIMEOUT`, `NET_PRIVATE_ADDRESS`, ...), and
 * bad arguments are `TOOL_INVALID_ARGUMENTS`.
 */
import { type CodeOf, defineCodes } from '../../core/codes.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const HttpCodes = defineCodes('tools/http', 'HTTP', {
  // configuration
  CONFIG_TYPE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration field of the wrong type (or a configuration that is not an object)',
    hint: 'give the field the type the message names',
  },
  CONFIG_UNKNOWN_KEY: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration key HTTP tools do not know (a typo would be silently ignored)',
    hint: 'fix the key (the hint suggests the closest)',
  },
  CONFIG_VALUE: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a configuration number out of range (a timeout, a count, a status)',
    hint: 'give a value in the range the message names',
  },
  CONFIG_METHOD: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'an HTTP method HTTP tools do not send',
    hint: 'use GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS',
  },
  URL_SCHEME: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a `urlTemplate` that does not start with http:// or https://',
    hint: 'write the scheme literally at the start',
  },
  URL_CREDENTIALS: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a `urlTemplate` with credentials before "@"',
    hint: 'send credentials in a header, from a secret',
  },
  URL_HOST: { canonical: 'INVALID_CONFIGURATION', summary: 'a `urlTemplate` without a host', hint: 'write the host after the scheme' },
  URL_INVALID: { canonical: 'INVALID_CONFIGURATION', summary: 'a `urlTemplate` that does not make a valid URL', hint: 'fix the template as the message says' },
  HOST_NOT_ALLOWED: {
    canonical: 'PERMISSION_DENIED',
    summary: "the host of `urlTemplate` is not on the tool's `allowedHosts`",
    hint: 'add the host to allowedHosts',
  },
  ALLOWED_HOSTS_REQUIRED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a placeholder in the host of `urlTemplate` without `allowedHosts`',
    hint: 'list the hosts the tool may reach in allowedHosts',
  },
  TEMPLATE_SYNTAX: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a `${` never closed by `}`, or a placeholder that is not a name, in a URL, header or body template',
    hint: 'write placeholders as ${name}, and $${ for a literal ${',
  },
  HEADER_NAME: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a header name that is not a valid token (placeholders are allowed in values only)',
    hint: 'fix the header name',
  },
  HEADER_VALUE: { canonical: 'INVALID_CONFIGURATION', summary: 'a header value with a line break or NUL character', hint: 'remove it' },
  BODY_NOT_ALLOWED: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a `bodyTemplate` on a method that has no body (GET, HEAD, ...)',
    hint: 'use POST, PUT or PATCH, or put the values in urlTemplate',
  },
  BODY_TEMPLATE_INVALID: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a JSON `bodyTemplate` that is not JSON once values are in place',
    hint: 'fix the template as the message says',
  },
  EXTRACT_INVALID: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'an `extractExpr` that is neither a JSONPath nor a regular expression',
    hint: 'e.g. "$.current.condition.text" or "$.items[*].name"',
  },
  EXTRACT_NEEDS_JSON: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a JSONPath `extractExpr` with a response read as text',
    hint: 'set responseEncoding to "json", or use a regular expression',
  },
  UNKNOWN_PLACEHOLDER: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a placeholder that names neither a parameter nor a known secret',
    hint: 'fix the name, or pass the secret provider that knows it',
  },
  AMBIGUOUS_PLACEHOLDER: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a placeholder that names both a parameter and a secret',
    hint: 'rename the parameter or the secret: a model must never be able to choose a secret value',
  },
  // calls
  ERROR: {
    canonical: 'EXECUTION_ERROR',
    summary: 'the server answered with a status that is not a success (details: status, body, attempts)',
    retryable: 'sometimes',
    hint: 'read the body in the message; statuses in retry.retryOn are retryable',
  },
  INVALID_RESPONSE: {
    canonical: 'EXECUTION_ERROR',
    summary: 'a response that is not JSON where JSON was expected',
    hint: 'set responseEncoding to "text" to read it as text',
  },
  EXTRACT_NO_MATCH: {
    canonical: 'EXECUTION_ERROR',
    summary: '`extractExpr` matched nothing in the response',
    hint: 'check the expression against the response, or set errorMode to "empty"',
  },
  SECRET_MISSING: {
    canonical: 'FAILED_PRECONDITION',
    summary: 'a secret the tool needs is not available',
    hint: 'provide it (the CLI reads secrets from the environment)',
  },
  SECRET_NOT_FOR_HOST: {
    canonical: 'PERMISSION_DENIED',
    summary: 'a secret bound to hosts (`--secret NAME@host`) that the call would send to another host',
    hint: 'aim the tool at a host the secret is for, or bind the secret to this host too',
  },
  SECRET_INVALID: {
    canonical: 'INVALID_CONFIGURATION',
    summary: 'a secret that cannot be used where it goes (a line break in a header)',
    hint: 'fix the secret value',
  },
});

export type HttpCode = CodeOf<typeof HttpCodes>;
