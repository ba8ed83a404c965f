/**
 * `gramkit/zod`: a tool specification from Zod schemas (zod 4, an optional peer dependency). The
 * options' base type and the diagnostic codes (`AdapterCodes`) are in `gramkit/standard-schema`,
 * which needs no schema library.
 */
export type { FromZodOptions, ZodSchema } from '../adapters/zod.js';
export { fromZod } from '../adapters/zod.js';
