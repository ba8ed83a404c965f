/**
 * `gramkit/types`: the type language behind signatures, as one ADT with its interpreters (JSON
 * Schema both ways, gram, TypeScript, value checking), for building tools on top of it. Signatures
 * and specifications themselves are in the root entry.
 */
export type {
  TypeKind,
  PrimitiveKind,
  Keywords,
  KeywordName,
  Field,
  ObjectType,
  ArrayType,
  TupleType,
  UnionType,
  StringType,
  IntegerType,
  NumberType,
  BooleanType,
  NullType,
  AnyType,
  ReturnType,
  TypeAlgebra,
} from '../types/types.js';
export {
  stringType,
  integerType,
  numberType,
  booleanType,
  nullType,
  anyType,
  arrayType,
  tupleType,
  objectType,
  unionType,
  primitiveType,
  field,
  typeSignature,
  returnType,
  matchType,
  foldType,
  withMeta,
  stripSpans,
  stripSignatureSpans,
  typeEquals,
  fieldEquals,
  signatureEquals,
} from '../types/types.js';
export type { KeywordInfo, KeywordValueKind } from '../types/keywords.js';
export { KEYWORDS, keywordApplies } from '../types/keywords.js';
export type { TypeExpression, TypeExpressionOptions } from '../types/type-expr.js';
export { parseTypeExpression, printTypeExpression, TYPE_NAMES } from '../types/type-expr.js';
export type { SignatureSchemas } from '../schema/to-json-schema.js';
export { toJsonSchema, argumentsSchema, signatureSchemas } from '../schema/to-json-schema.js';
export type { SchemaDialect, SchemaImportOptions } from '../schema/from-json-schema.js';
export { fromJsonSchema, checkFromJsonSchema, checkSignatureFromJsonSchemas } from '../schema/from-json-schema.js';
export { BFCL_TYPES } from '../schema/bfcl.js';
export type { ImportCode } from '../types/codes.js';
export { ImportCodes } from '../types/codes.js';
export type { Intersection } from '../types/intersect.js';
export { intersect } from '../types/intersect.js';
export type { ValueProblem } from '../types/value-check.js';
export { checkValue, isValueOf } from '../types/value-check.js';
export type { SignaturePrintOptions, NameStyle } from '../types/print-signature.js';
export { printSignature, ARGUMENTS_LABEL } from '../types/print-signature.js';
export { jsonToGram } from '../types/gram-values.js';
export type { TypeView } from '../specification/to-typescript.js';
export { typeToTypeScript, signatureDeclarations } from '../specification/to-typescript.js';
export { importDefinitions, importSucceeded, detectFormat, IMPORT_FORMATS } from '../specification/import.js';
export { ToolSpecificationJson, AgentSpecificationJson, SpecificationsJson } from '../specification/json-codecs.js';
export type { JsonDifference, DiffOptions } from '../core/json-diff.js';
export { diffJson, formatDifferences, schemaDiffOptions } from '../core/json-diff.js';
export type { JsonEqualityOptions } from '../core/json-equal.js';
export { jsonEqual } from '../core/json-equal.js';
