/**
 * The `http` kind: a request to a URL made from the arguments (src/tools/http). Its block is the
 * HTTP configuration (`urlTemplate`, `method`, `extractExpr`, …); its default permission is
 * `net:read` (safety `low`) for GET, HEAD and OPTIONS and `net:write` (`medium`) otherwise. Under
 * a server's `--allow-host`, every host of its own list must be allowed there too.
 */
import { isLeft, left, mapLeft, right } from '../../core/either.js';
import { error } from '../../core/diagnostic.js';
import type { JsonObject } from '../../core/json-schema.js';
import { ImplCodes } from '../codes.js';
import type { HttpToolConfigInput } from '../http/http-config.js';
import { decodeHttpToolConfig } from '../http/http-config.js';
import { hostProblem } from '../http/hosts-outside.js';
import { httpTool } from '../http/http-tool.js';
import { kindFailure, type ToolKind } from './kind.js';

const SAFE_METHODS: ReadonlyArray<string> = ['GET', 'HEAD', 'OPTIONS'];

export const httpKind: ToolKind<'http'> = {
  name: 'http',
  example: 'http: {urlTemplate: "https://…"}',
  decode: (impl) => {
    const d = decodeHttpToolConfig(impl, 'impl');
    return isLeft(d) ? left(d.left.map((diagnostic) => ({ issue: 'config' as const, diagnostic }))) : right(impl as JsonObject);
  },
  metadataValue: (impl) => impl,
  defaults: (impl) => {
    const method = typeof impl['method'] === 'string' ? impl['method'].toUpperCase() : 'GET';
    const safe = SAFE_METHODS.includes(method);
    return { permissions: [safe ? 'net:read' : 'net:write'], safetyLevel: safe ? 'low' : 'medium' };
  },
  build: (spec, impl, ctx) => {
    const hosts = hostProblem(impl, ctx.allowHosts);
    if (hosts !== undefined) return left(kindFailure('host', [error(ImplCodes.UNAVAILABLE, hosts)]));
    const tool = httpTool(spec, impl as unknown as HttpToolConfigInput, {
      ...(ctx.secrets !== undefined ? { secrets: ctx.secrets } : {}),
      ...(ctx.secretHosts !== undefined ? { secretHosts: ctx.secretHosts } : {}),
      ...(ctx.dispatcher !== undefined ? { dispatcher: ctx.dispatcher } : {}),
      ...(ctx.random !== undefined ? { random: ctx.random } : {}),
    });
    return mapLeft(tool, (d) => kindFailure('config', d));
  },
  requestCheck: 'secrets',
};
