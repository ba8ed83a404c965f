/**
 * The io-ts codecs of the JSON form of specifications (what `gramkit/types` exports for users who
 * compose them into codecs of their own):
 *
 *   tool:  {name, description, typeSignature, schema?, outputSchema?, metadata?}
 *   agent: {name, description, instruction, model?, tools: [tool | "toolName"], metadata?}
 *   file:  {tools?: [tool], agents?: [agent]}
 *
 * They check the shape only; `json-form.ts` decodes into specifications with them. A module of its
 * own so that the declarations of the root entry, which exports the decoders, never name an io-ts
 * type: only `gramkit/types` reaches this module's declarations.
 */
import * as t from 'io-ts';
import { isJsonObject, isJsonValue } from '../core/json.js';
import type { JsonObject } from '../core/json-schema.js';

const JsonObjectC = new t.Type<JsonObject, JsonObject, unknown>(
  'JsonObject',
  (u): u is JsonObject => isJsonObject(u) && isJsonValue(u),
  (u, c) => (isJsonObject(u) && isJsonValue(u) ? t.success(u) : t.failure(u, c)),
  t.identity,
);

const JsonSchemaC = t.union([JsonObjectC, t.boolean], 'JsonSchema');

export const ToolSpecificationJson = t.intersection(
  [
    t.type({ name: t.string, description: t.string, typeSignature: t.string }),
    t.partial({ schema: JsonObjectC, outputSchema: JsonSchemaC, metadata: JsonObjectC }),
  ],
  'ToolSpecification',
);
export type ToolSpecificationJson = t.TypeOf<typeof ToolSpecificationJson>;

export const AgentSpecificationJson = t.intersection(
  [
    t.type({ name: t.string, description: t.string, instruction: t.string, tools: t.array(t.union([t.string, ToolSpecificationJson])) }),
    t.partial({ model: t.string, metadata: JsonObjectC }),
  ],
  'AgentSpecification',
);
export type AgentSpecificationJson = t.TypeOf<typeof AgentSpecificationJson>;

export const SpecificationsJson = t.partial({ tools: t.array(ToolSpecificationJson), agents: t.array(AgentSpecificationJson) }, 'Specifications');
export type SpecificationsJson = t.TypeOf<typeof SpecificationsJson>;
