/**
 * Stable diagnostic codes of type signatures and specifications. Tools and tests match on these,
 * never on messages.
 */

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

export const SigCodes = {
  /** The signature text is empty. */
  EMPTY: 'SIG_EMPTY',
  /** The signature is not a path of nodes (a subject pattern, several patterns, ...). */
  NOT_A_PATH: 'SIG_NOT_A_PATH',
  /** A type name gramkit does not know. */
  UNKNOWN_TYPE: 'SIG_UNKNOWN_TYPE',
  /** A parameter node without a type label. */
  MISSING_TYPE: 'SIG_MISSING_TYPE',
  /** A node with more than one label. */
  MULTIPLE_TYPES: 'SIG_MULTIPLE_TYPES',
  /** A parameter with neither an identifier nor `paramName`. */
  MISSING_PARAM_NAME: 'SIG_MISSING_PARAM_NAME',
  /** Identifier and `paramName` both present and different. */
  PARAM_NAME_MISMATCH: 'SIG_PARAM_NAME_MISMATCH',
  /** Two parameters of one signature with the same name. */
  DUPLICATE_PARAM: 'SIG_DUPLICATE_PARAM',
  /** A bare `(name)` reference to an identifier that the signatures of a file define differently. */
  CONFLICTING_PARAM: 'SIG_CONFLICTING_PARAM',
  /** A default that does not validate against its own parameter. */
  INVALID_DEFAULT: 'SIG_INVALID_DEFAULT',
  /** A constraint that does not apply to the type (`minLength` on an Int). */
  CONSTRAINT_TYPE: 'SIG_CONSTRAINT_TYPE',
  /** A constraint with a bad value (`minLength: -1`, an invalid pattern, min above max, an enum member of the wrong type). */
  INVALID_CONSTRAINT: 'SIG_INVALID_CONSTRAINT',
  /** `fields` that is not a list of field maps, or a field without name or type. */
  MALFORMED_FIELDS: 'SIG_MALFORMED_FIELDS',
  /** `elementType` / `elementTypes` that is not a type. */
  MALFORMED_ELEMENT_TYPE: 'SIG_MALFORMED_ELEMENT_TYPE',
  /** `anyOf` / `additionalProperties` / `type` that is not a type. */
  MALFORMED_TYPE: 'SIG_MALFORMED_TYPE',
  /** A syntax error inside a type expression. */
  TYPE_EXPR: 'SIG_TYPE_EXPR',
  /** The label and the `type` property (or structure keys) describe different types. */
  TYPE_CONFLICT: 'SIG_TYPE_CONFLICT',
  /** `Maybe` where absence means nothing (inside an array, a union, the return type). */
  MAYBE_POSITION: 'SIG_MAYBE_POSITION',
  /** The last node is not a return type. */
  MISSING_RETURN: 'SIG_MISSING_RETURN',
  /** A left, undirected or bidirectional arrow. */
  ARROW_DIRECTION: 'SIG_ARROW_DIRECTION',
  /** An arrow with a label or properties (`-[r]->`). */
  ARROW_SUBJECT: 'SIG_ARROW_SUBJECT',
  /** A Haskell effect type such as `IO Text`. */
  IO_TYPE: 'SIG_IO_TYPE',
  /** A property gramkit does not know on a parameter, field or type. */
  UNKNOWN_PROPERTY: 'SIG_UNKNOWN_PROPERTY',
  /** A known property with a value of the wrong kind (`optional: "yes"`). */
  INVALID_PROPERTY: 'SIG_INVALID_PROPERTY',
  /** Two fields with one name in a record. */
  DUPLICATE_FIELD: 'SIG_DUPLICATE_FIELD',
  /** A gram value with no JSON form where JSON is needed (a tagged string as a default). */
  INVALID_VALUE: 'SIG_INVALID_VALUE',
  /** An example that does not validate against its parameter (error). */
  INVALID_EXAMPLE: 'SIG_INVALID_EXAMPLE',
  /** A `format` ajv-formats does not know (warning: it is not checked). */
  UNKNOWN_FORMAT: 'SIG_UNKNOWN_FORMAT',
  /** The `Arguments` node anywhere but first. */
  ARGUMENTS_POSITION: 'SIG_ARGUMENTS_POSITION',
} as const;

export const SpecCodes = {
  /** A property of a tool or agent that gramkit does not read (warning: kept as metadata; `x-` properties are the user's own). */
  UNKNOWN_PROPERTY: 'SPEC_UNKNOWN_PROPERTY',
  /** A tool or agent with an empty name. */
  EMPTY_NAME: 'SPEC_EMPTY_NAME',
  /** A tool with no (or an empty) description. */
  MISSING_DESCRIPTION: 'SPEC_MISSING_DESCRIPTION',
  /** A tool pattern without a signature. */
  MISSING_SIGNATURE: 'SPEC_MISSING_SIGNATURE',
  /** A tool pattern with more than one element. */
  MULTIPLE_SIGNATURES: 'SPEC_MULTIPLE_SIGNATURES',
  /** A tool or agent pattern without an identifier. */
  MISSING_NAME: 'SPEC_MISSING_NAME',
  /** Two tools (or two agents) with one name. */
  DUPLICATE_NAME: 'SPEC_DUPLICATE_NAME',
  /** An agent referring to a tool that is defined nowhere. */
  UNKNOWN_TOOL: 'SPEC_UNKNOWN_TOOL',
  /** An agent element that is neither a tool nor a reference to one. */
  INVALID_AGENT_ELEMENT: 'SPEC_INVALID_AGENT_ELEMENT',
  /** An agent without an instruction. */
  MISSING_INSTRUCTION: 'SPEC_MISSING_INSTRUCTION',
  /** A property of the wrong kind on a tool or agent (`description: 42`). */
  INVALID_PROPERTY: 'SPEC_INVALID_PROPERTY',
  /** An agent listing the same tool twice. */
  DUPLICATE_AGENT_TOOL: 'SPEC_DUPLICATE_AGENT_TOOL',
  /** A label that looks like a specification label but is not one (`Tools`, `agent`). */
  UNKNOWN_LABEL: 'SPEC_UNKNOWN_LABEL',
  /** The JSON form does not have the expected shape. */
  INVALID_JSON: 'SPEC_INVALID_JSON',
  /** The JSON form's stored schema is not the one its signature compiles to. */
  SCHEMA_MISMATCH: 'SPEC_SCHEMA_MISMATCH',
  /** A file that cannot be read. */
  READ_ERROR: 'SPEC_READ_ERROR',
  /** The metadata of a tool is not JSON. */
  INVALID_METADATA: 'SPEC_INVALID_METADATA',
  /** Annotations (`@k(v)`) on a tool or agent pattern, which gramkit does not read (warning). */
  ANNOTATION_IGNORED: 'SPEC_ANNOTATION_IGNORED',
} as const;
