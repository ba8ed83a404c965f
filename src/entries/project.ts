/**
 * `gramkit/project`: what the CLI does with a project's files, for a program of your own. Load a
 * specification file once (`loadProjectFile`: its specifications and its header's `library`),
 * load a tool library module (`loadLibrary`), resolve which library implements a file's tools by
 * the CLI's one rule (`resolveLibrary`) with the CLI's loaders (`defaultLoaders`), and choose who
 * approves the calls (`chooseApprover`).
 * A TypeScript library module is imported by the `importTs` a program passes, else as node would
 * (under tsx, or `PROJECT_LIBRARY_NEEDS_TSX`).
 */
export type { ProjectCode } from '../project/codes.js';
export { ProjectCodes } from '../project/codes.js';
export type { ProjectSource, FileHeader, ProjectFile, FileLoadFailure, ParseEvent, LoadFileOptions } from '../project/project-file.js';
export { loadProjectFile } from '../project/project-file.js';
export type { LibraryRequest, LibraryLoaders, LibraryFailure, ResolvedLibrary } from '../project/library.js';
export { resolveLibrary } from '../project/library.js';
export type { ApprovalChoice, ApprovalSetting, ChosenApprover } from '../project/approval.js';
export { chooseApprover } from '../project/approval.js';
export type { NamedLibrary, LoadLibraryOptions, ImportTs, LibraryCode, LibraryLoadError } from '../project/load-library.js';
export { loadLibrary, TypeScriptUnavailable } from '../project/load-library.js';
export type { DefaultLoadersOptions } from '../project/default-loaders.js';
export { defaultLoaders } from '../project/default-loaders.js';
export type { ProjectEnv } from '../project/named-libraries.js';
