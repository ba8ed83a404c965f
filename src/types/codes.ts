/**
 * The spec layer's codes (`SPEC_`): type signatures and specifications (`SpecCodes`), argument
 * validation issues (`ArgCodes`, `SPEC_ARG_`), the JSON Schema importer (`ImportCodes`,
 * `SPEC_IMPORT_`) and the provider dialects (`DialectCodes`, `SPEC_DIALECT_`). Tools and tests match
 * on these, never on messages; docs/errors.md lists them.
 */
import { type CodeOf, defineCodes } from '../core/codes.js';

// -------------------------------------------------------------------------------------------------
// signatures and specifications
// -------------------------------------------------------------------------------------------------

export const SpecCodes = defineCodes(
  'spec',
  'SPEC',
  {
    // type signatures
    EMPTY: { summary: 'the signature text is empty', hint: 'write a path of nodes, e.g. `(name::String)==>(::String)`' },
    NOT_A_PATH: {
      summary: 'the signature is not one path of nodes (a subject pattern, several patterns, ...)',
      hint: 'join the nodes with arrows: `(a::String)==>(b::Integer)==>(::String)`',
    },
    UNKNOWN_TYPE: { summary: 'a type name gramkit does not know', hint: 'use one of the type names (the message suggests the closest)' },
    MISSING_TYPE: { summary: 'a parameter node without a type label', hint: 'write the type after the name, e.g. `(city::String)`' },
    MULTIPLE_TYPES: { summary: 'a node with more than one label', hint: 'keep one type label; a union is written `String | Integer`' },
    MISSING_PARAM_NAME: { summary: 'a parameter with neither an identifier nor `paramName`', hint: 'name it: `(city::String)`' },
    PARAM_NAME_MISMATCH: { summary: 'identifier and `paramName` both present and different', hint: 'keep one of them' },
    DUPLICATE_PARAM: { summary: 'two parameters of one signature with the same name', hint: 'rename one of them' },
    CONFLICTING_PARAM: {
      summary: 'a bare `(name)` reference to an identifier that the signatures of a file define differently',
      hint: "write the type at the reference: a parameter's name belongs to its tool",
    },
    INVALID_DEFAULT: { summary: 'a default that does not validate against its own parameter', hint: 'change the default, or the type' },
    CONSTRAINT_TYPE: {
      summary: 'a constraint that does not apply to the type (`minLength` on an Int)',
      hint: 'use a constraint of the type (the message lists them)',
    },
    INVALID_CONSTRAINT: {
      summary: 'a constraint with a bad value (`minLength: -1`, an invalid pattern, min above max, an enum member of the wrong type)',
      hint: 'fix the value as the message says',
    },
    MALFORMED_FIELDS: {
      summary: '`fields` that is not a list of field maps, or a field without name or type',
      hint: 'write `fields: [{name: "a", type: "String"}]`, or a type expression `{a: String}`',
    },
    MALFORMED_ELEMENT_TYPE: { summary: '`elementType` / `elementTypes` that is not a type', hint: 'write a type name or a type expression in a string' },
    MALFORMED_TYPE: {
      summary: '`anyOf` / `additionalProperties` / `type` that is not a type',
      hint: 'write a type expression in a string, e.g. "[String]" or "{name: String}"',
    },
    TYPE_EXPR: {
      summary: 'a syntax error inside a type expression',
      hint: 'the message says where; type expressions read like `{name: String, tags: [String]}`',
    },
    TYPE_CONFLICT: { summary: 'the label and the `type` property (or structure keys) describe different types', hint: 'make them agree, or keep only one' },
    MAYBE_POSITION: {
      summary: '`Maybe` where absence means nothing (inside an array, a union, the return type)',
      hint: 'for a value that may be null write `T | Null`',
    },
    MISSING_RETURN: { summary: 'the last node is not a return type', hint: 'end the signature with the type of the result, e.g. `==>(::String)`' },
    ARROW_DIRECTION: { summary: 'a left, undirected or bidirectional arrow', hint: 'join the nodes with `==>`' },
    ARROW_SUBJECT: { summary: 'an arrow with a label or properties (`-[r]->`)', hint: 'use a bare arrow `==>`; put properties on the nodes' },
    IO_TYPE: { summary: 'a Haskell effect type such as `IO Text`', hint: 'write the type of the value, `(::Text)`: tools may always have effects' },
    UNKNOWN_PROPERTY: {
      summary:
        'a property gramkit does not read on a tool, agent, parameter, field or type (kept as metadata on tools and agents, left out of the schema elsewhere)',
      severity: 'warning',
      hint: 'check the spelling (the message suggests the closest); a property of your own takes an `x-` prefix',
    },
    INVALID_PARAM_PROPERTY: {
      summary: 'a known property of a parameter, field or type with a value of the wrong kind (`optional: "yes"`)',
      hint: 'give it a value of the kind the message names',
    },
    DUPLICATE_FIELD: { summary: 'two fields with one name in a record', hint: 'rename or remove one of them' },
    INVALID_VALUE: {
      summary: 'a gram value with no JSON form where JSON is needed (a tagged string as a default)',
      hint: 'write a JSON value: a string, number, boolean, null, array or map',
    },
    INVALID_EXAMPLE: { summary: 'an example that does not validate against its parameter', hint: 'change the example, or the type' },
    UNKNOWN_FORMAT: {
      summary: 'a `format` ajv-formats does not know: it is not checked',
      severity: 'warning',
      hint: 'use a known format (date, date-time, email, uri, uuid, ...) or describe it in the description',
    },
    ARGUMENTS_POSITION: { summary: 'the `Arguments` node anywhere but first', hint: 'put `(::Arguments {...})` first in the signature' },
    // specifications
    EMPTY_NAME: { summary: 'a tool or agent with an empty name', hint: 'give it a name' },
    MISSING_DESCRIPTION: { summary: 'a tool with no (or an empty) description', hint: 'add `description: "..."`: the model reads it to choose the tool' },
    MISSING_SIGNATURE: {
      summary: 'a tool pattern without a signature',
      hint: 'add it after `|`: `[name:Tool {description: ".."} | (arg::String)==>(::String)]`',
    },
    MULTIPLE_SIGNATURES: {
      summary: 'a tool pattern with more than one element',
      hint: 'join the parameters into one path: `(a::String)==>(b::Integer)==>(::String)`',
    },
    MISSING_NAME: { summary: 'a tool or agent pattern without an identifier', hint: 'write `[name:Tool {...} | ...]`' },
    DUPLICATE_NAME: { summary: 'two tools (or two agents) with one name', hint: 'rename one of them' },
    UNKNOWN_TOOL: { summary: 'an agent referring to a tool that is defined nowhere', hint: 'define the tool, load the file that defines it, or fix the name' },
    INVALID_AGENT_ELEMENT: {
      summary: 'an agent element that is neither a tool nor a reference to one',
      hint: 'list tools as `name` references or inline `[name:Tool ...]` patterns',
    },
    MISSING_INSTRUCTION: { summary: 'an agent without an instruction', hint: 'add `instruction: "..."`' },
    INVALID_PROPERTY: { summary: 'a property of the wrong kind on a tool or agent (`description: 42`)', hint: 'give it a value of the kind the message names' },
    DUPLICATE_AGENT_TOOL: { summary: 'an agent listing the same tool twice', hint: 'list it once' },
    UNKNOWN_LABEL: {
      summary: 'a label that looks like a specification label but is not one (`Tools`, `agent`)',
      severity: 'warning',
      hint: 'write `Tool` or `Agent`, or another label if the pattern is not a specification',
    },
    INVALID_JSON: {
      summary: 'the JSON form of a specification does not have the expected shape',
      hint: 'the message names the field; see docs/specifications.md for the JSON form',
    },
    SCHEMA_MISMATCH: {
      summary: "the JSON form's stored schema is not the one its signature compiles to",
      hint: 'regenerate the JSON form, or remove `schema`: the signature is the source of truth',
    },
    READ_ERROR: { summary: 'a specification file that cannot be read', retryable: 'sometimes', hint: 'check the path and its permissions' },
    INVALID_METADATA: { summary: 'the metadata of a tool is not JSON', hint: 'keep metadata to JSON values' },
    ANNOTATION_IGNORED: {
      summary: 'annotations (`@k(v)`) on a tool or agent pattern, which gramkit does not read',
      severity: 'warning',
      hint: 'put the information in the record (it becomes metadata)',
    },
    // schemas
    INVALID_SCHEMA: { summary: 'a JSON Schema ajv cannot compile', hint: 'fix the schema as the message says' },
  },
  { canonical: 'INVALID_CONFIGURATION' },
);

export type SpecCode = CodeOf<typeof SpecCodes>;

// -------------------------------------------------------------------------------------------------
// validation issues
// -------------------------------------------------------------------------------------------------

/** The kind of a validation issue (`ValidationIssue.code`): what is wrong with the value at its path. */
export const ArgCodes = defineCodes(
  'spec',
  'SPEC_ARG',
  {
    REQUIRED: { summary: 'a required property is missing', hint: 'give it' },
    TYPE: { summary: 'a value of the wrong JSON type', hint: 'give a value of the type the message names' },
    ENUM: { summary: 'a value that is not one of the allowed values', hint: 'use one of the values the message lists' },
    CONST: { summary: 'a value other than the one allowed', hint: 'use the value the message names' },
    UNKNOWN: { summary: 'a property the schema does not allow', hint: 'remove it (the schema is closed), or check its spelling' },
    FORMAT: { summary: 'a string that does not have its format (date, email, uri, ...)', hint: 'write the value in that format' },
    PATTERN: { summary: 'a string that does not match its pattern', hint: 'give a string that matches the pattern' },
    RANGE: { summary: 'a number outside its bounds, or not a multiple of `multipleOf`', hint: 'give a number within the bounds' },
    LENGTH: { summary: 'a string that is too short or too long', hint: 'give a string of an allowed length' },
    ITEMS: { summary: 'too few or too many items or properties, or repeated items', hint: 'give as many items as the message says, without repeats' },
    NO_MATCH: { summary: 'a value that matches none (or more than one) of the alternatives of a union', hint: 'give a value of one of the alternatives' },
    INVALID: { summary: 'any other way a value fails its schema', hint: 'the message says what the schema requires' },
  },
  { canonical: 'INVALID_ARGUMENTS' },
);

export type ArgCode = CodeOf<typeof ArgCodes>;

// -------------------------------------------------------------------------------------------------
// the JSON Schema importer
// -------------------------------------------------------------------------------------------------

export const ImportCodes = defineCodes(
  'spec',
  'SPEC_IMPORT',
  {
    INVALID_SCHEMA: { summary: 'a schema that is not a JSON Schema (not an object, an unknown type name)', hint: 'fix the schema as the message says' },
    UNSUPPORTED_KEYWORD: {
      summary: 'a keyword that changes validation and has no form in gram types (`not`, `if`, `patternProperties`, ...)',
      hint: 'simplify the schema, or keep this check in the tool implementation',
    },
    RECURSIVE_REF: {
      summary: 'a `$ref` that refers to itself (a recursive type)',
      hint: 'gram types are finite trees: flatten the recursion to a fixed depth, or use Any',
    },
    UNRESOLVED_REF: {
      summary: 'a `$ref` that does not resolve in the document',
      hint: 'only local references (`#/$defs/...`, `#/definitions/...`) can be imported',
    },
    UNSATISFIABLE: {
      summary: 'a schema that accepts no value (an empty enum, a const that does not fit its type)',
      hint: 'fix the schema: a parameter that accepts nothing cannot be called',
    },
    ROOT_NOT_OBJECT: {
      summary: 'an arguments schema whose root is not an object',
      hint: 'tool arguments are always a JSON object; wrap the value in an object property',
    },
    KEYWORD_IGNORED: {
      summary: 'a keyword that does not apply to its type (validators ignore it), not imported',
      severity: 'warning',
      hint: 'nothing to do, or remove it from the source schema',
    },
    REPAIRED: {
      summary: "`--repair` read a schema that accepted nothing as its author meant it (an enum on an array is its items', an enum of strings on a number)",
      severity: 'warning',
      hint: 'check the repaired tool; fix the source schema if you own it',
    },
    KEYWORD_DROPPED: {
      summary: 'a keyword that validates nothing and has no place in gram types (`$comment`, `x-*`, `nullable`, unknown keywords), dropped',
      severity: 'warning',
      hint: 'nothing to do; write `type: ["T", "null"]` instead of `nullable`',
    },
    DEFAULT_DROPPED: {
      summary: 'a default that does not validate against its schema, dropped',
      severity: 'warning',
      hint: 'fix the default in the source schema',
    },
    VALUE_DROPPED: {
      summary: 'enum values (or examples) that can never validate against the type, dropped',
      severity: 'warning',
      hint: 'fix the values in the source schema',
    },
    ONEOF_AS_ANYOF: {
      summary: '`oneOf` imported as a union (`anyOf`)',
      severity: 'warning',
      hint: 'nothing to do when the branches cannot overlap; otherwise a value matching several is now accepted',
    },
    TYPE_INFERRED: {
      summary: 'a schema without `type`, whose type was inferred from its keywords',
      severity: 'info',
      hint: 'nothing to do, or write `type` in the source schema',
    },
    BFCL_TUPLE: { summary: "BFCL's `tuple` imported as an array", severity: 'info', hint: 'nothing to do' },
    BFCL_OPTIONAL: { summary: "BFCL's `optional` read as an optional parameter", severity: 'info', hint: 'nothing to do' },
    NOTE: { summary: 'a rewrite that keeps what validates (OpenAPI `example` as `examples`, ...)', severity: 'info', hint: 'nothing to do' },
    INVALID_INPUT: {
      summary: 'the input is not JSON (or JSON lines), or is empty',
      hint: 'give tool definitions as JSON: an array, an object with `tools`, or one definition per line',
    },
    UNKNOWN_SHAPE: { summary: 'a value that is not a tool definition of the format', hint: 'check the format (`--format`) or the value' },
    MISSING_NAME: { summary: 'a tool definition without a name', hint: 'give the definition a name' },
    MISSING_DESCRIPTION: {
      summary: 'a tool definition without a description',
      hint: 'give the definition a description: the model reads it to choose the tool',
    },
    DUPLICATE: { summary: 'a tool name imported twice (info when identical, error when different)', hint: 'rename one of them, or remove the copy' },
    ROUND_TRIP: {
      summary: 'the printed gram does not read back to the imported signature (a bug in gramkit)',
      hint: 'please report it with the schema that caused it',
    },
  },
  { canonical: 'INVALID_CONFIGURATION' },
);

export type ImportCode = CodeOf<typeof ImportCodes>;

// -------------------------------------------------------------------------------------------------
// provider dialects
// -------------------------------------------------------------------------------------------------

/**
 * Codes of the exporters and checkers. Severity says how much was changed: `info` — rewritten
 * without changing what is accepted; `warning` — the provider will not enforce something (gramkit
 * still validates it locally) or a tool could not use a mode; `error` — the tool cannot be exported.
 */
export const DialectCodes = defineCodes(
  'spec',
  'SPEC_DIALECT',
  {
    LOWERED: { summary: 'a lossless rewrite (optional → nullable and required, const → enum, `$ref` inlined...)', severity: 'info', hint: 'nothing to do' },
    MOVED_TO_DESCRIPTION: {
      summary: 'a constraint the provider does not take, moved into the description and checked locally',
      severity: 'warning',
      hint: 'nothing to do: gramkit still validates the arguments against the full schema',
    },
    DROPPED: {
      summary: 'a keyword removed: an annotation (info) or a constraint enforced only locally (warning)',
      severity: 'warning',
      hint: 'nothing to do: gramkit still validates the arguments against the full schema',
    },
    NOT_STRICT: {
      summary: 'the schema cannot be strict; the tool is sent with `strict: false`',
      severity: 'warning',
      hint: 'simplify the schema (the message says what blocks strict mode), or accept non-strict decoding',
    },
    NAME_CHANGED: {
      summary: "the tool's name breaks the provider's rules and was changed (the reverse map undoes it)",
      severity: 'info',
      hint: 'nothing to do, or rename the tool to a name the provider takes',
    },
    LIMIT_EXCEEDED: {
      summary: 'a documented provider limit (properties, nesting, enum size) is exceeded',
      severity: 'warning',
      hint: 'simplify the schema, or split the tool',
    },
    INVALID_SCHEMA: {
      summary: 'the schema is not a tool argument schema (its root is not an object schema), or a tool of that name was already exported',
      hint: 'give the tool an object schema at the root, and each tool a distinct name',
    },
    RULE_VIOLATION: {
      summary: 'an exported definition breaks a rule of its provider (`checkExportedTool`)',
      hint: 'the message names the rule; this is a bug in the exporter if gramkit produced the definition',
    },
    UNKNOWN: {
      summary: 'a dialect name gramkit does not know',
      hint: 'use one of openai, openai-strict, anthropic, gemini, mcp, jsonschema (parseDialect checks names from users)',
    },
  },
  { canonical: 'INVALID_CONFIGURATION' },
);

export type DialectCode = CodeOf<typeof DialectCodes>;
