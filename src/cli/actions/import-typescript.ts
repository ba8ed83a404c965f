/**
 * How the CLI imports a TypeScript library or scorer module (`importTs` of project/load-library.ts):
 * bundled by tsx's esbuild (bundle-typescript.ts), or through tsx's `tsImport` where that cannot be
 * done. tsx is an optional peer dependency, loaded only then: without it, the module is
 * `PROJECT_LIBRARY_NEEDS_TSX` with the way to install it.
 */
import { pathToFileURL } from 'node:url';
import { type ImportTs, TypeScriptUnavailable } from '../../project/load-library.js';
import { importBundled } from './bundle-typescript.js';

const loadTsx = (): Promise<typeof import('tsx/esm/api')> =>
  import('tsx/esm/api').catch((e: unknown) => {
    const code = (e as { code?: unknown }).code;
    const message = e instanceof Error ? e.message : String(e);
    throw code === 'ERR_MODULE_NOT_FOUND' && /\btsx\b/.test(message)
      ? new TypeScriptUnavailable(
          'loading one needs tsx, which is not installed',
          'install it next to gramkit (npm install --save-dev tsx), or give the compiled .js module',
        )
      : e;
  });

/** A TypeScript module bundled by tsx's esbuild, or imported through tsx's `tsImport`. */
export const importTypeScript: ImportTs = async (file) =>
  (await importBundled(file)) ?? loadTsx().then(({ tsImport }) => tsImport(pathToFileURL(file).href, import.meta.url));
