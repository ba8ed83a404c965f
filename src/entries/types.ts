/**
 * `gramkit/types`: the type language behind signatures, as one ADT with its interpreters (JSON
 * Schema both ways, gram, TypeScript, value checking), for building tools on top of it. Signatures
 * and specifications themselves are in the root entry.
 */
export type {
  TypeKind, PrimitiveKind, Keywords, KeywordName, Field, ObjectType, ArrayType, TupleType, UnionType, StringType, IntegerType,
  NumberType, BooleanType, NullType, AnyType, ReturnType, TypeAlgebra,
} from '../spec/types.js';
export {
  stringType, integerType, numberType, booleanType, nullType, anyType, arrayType, tupleType, objectType, unionType, primitiveType,
  field, typeSignature, returnType, matchType, foldType, withMeta, stripSpans, stripSignatureSpans, typeEquals, fieldEquals,
  signatureEquals,
} from '../spec/types.js';
export type { KeywordInfo, KeywordValueKind } from '../spec/keywords.js';
export { KEYWORDS, keywordApplies } from '../spec/keywords.js';
export type { TypeExpression, TypeExpressionOptions } from '../spec/type-expr.js';
export { parseTypeExpression, printTypeExpression, TYPE_NAMES } from '../spec/type-expr.js';
export type { SignatureSchemas } from '../spec/to-json-schema.js';
export { toJsonSchema, argumentsSchema, signatureSchemas } from '../spec/to-json-schema.js';
export type { SchemaDialect, SchemaImportOptions } from '../spec/from-json-schema.js';
export { fromJsonSchema, checkFromJsonSchema, checkSignatureFromJsonSchemas } from '../spec/from-json-schema.js';
export { BFCL_TYPES } from '../spec/bfcl.js';
export type { ImportCode } from '../spec/codes.js';
export { ImportCodes } from '../spec/codes.js';
export type { Intersection } from '../spec/intersect.js';
export { intersect } from '../spec/intersect.js';
export type { ValueProblem } from '../spec/value-check.js';
export { checkValue, isValueOf } from '../spec/value-check.js';
export type { SignaturePrintOptions, NameStyle } from '../spec/print-signature.js';
export { printSignature, ARGUMENTS_LABEL } from '../spec/print-signature.js';
export { jsonToGram } from '../spec/gram-values.js';
export type { TypeView } from '../spec/to-typescript.js';
export { typeToTypeScript, signatureDeclarations } from '../spec/to-typescript.js';
export { importDefinitions, importSucceeded, detectFormat, IMPORT_FORMATS } from '../spec/import.js';
export { ToolSpecificationJson, AgentSpecificationJson, SpecificationsJson } from '../spec/json-codecs.js';
export type { JsonDifference, DiffOptions } from '../core/json-diff.js';
export { diffJson, formatDifferences, schemaDiffOptions } from '../core/json-diff.js';
export type { JsonEqualityOptions } from '../core/json-equal.js';
export { jsonEqual } from '../core/json-equal.js';
