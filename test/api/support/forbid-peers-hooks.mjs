// Module hooks for test/api/optional-peers.test.ts: resolving an optional peer from gramkit's own
// code (not from inside another package) fails, naming it. FORBID lists the peers, comma-separated.
const forbidden = (process.env.FORBID ?? '').split(',').filter((s) => s !== '');
const isForbidden = (specifier) => forbidden.some((p) => specifier === p || specifier.startsWith(`${p}/`));

export async function resolve(specifier, context, next) {
  if (isForbidden(specifier) && context.parentURL !== undefined && !context.parentURL.includes('/node_modules/')) {
    throw new Error(`optional peer loaded: ${specifier} (from ${context.parentURL})`);
  }
  return next(specifier, context);
}
