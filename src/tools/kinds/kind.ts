/**
 * What an implementation kind is (`http`, `command`, `builtin`, `function`): one module of this
 * folder each, listed in `../kinds.ts`. A kind says how its block is written (the value of its
 * property in a specification, the `impl` of a catalog record) and checked, its default
 * annotations and schemas, whether it can run here (given the server's configuration), and how it
 * becomes a `Tool`. Everything that differs between kinds is here; the specification files, the
 * catalog, the service's schemas and the CLI look a kind up and never name one.
 */
import type { Either } from '../../core/either.js';
import type { Diagnostic } from '../../core/diagnostic.js';
import type { JsonObject, JsonSchema, JsonValue } from '../../core/json-schema.js';
import type { SecretProvider } from '../../core/redact.js';
import type { SafetyLevel, Tool, ToolAnnotations } from '../../library/tool.js';
import type { ToolLibrary } from '../../library/tool-library.js';
import type { HttpDispatcher } from '../../net/dispatcher.js';
import type { RuleEngine } from '../../policy/rules.js';
import type { ImplementationProperty } from '../../specification/specifications.js';
import type { ToolSpecification } from '../../specification/tool-spec.js';
import type { SecretHosts } from '../http/http-tool.js';

// -------------------------------------------------------------------------------------------------
// model
// -------------------------------------------------------------------------------------------------

/** What defaults and checks of a write need to know about implementations. */
export interface ContentEnvironment {
  /** The specification of a built-in tool (its schemas are the defaults of a `builtin` tool). */
  readonly builtinSpecification: (name: string) => ToolSpecification | undefined;
  /** The annotations of a built-in tool (default permissions and safety level). */
  readonly builtinAnnotations: (name: string) => ToolAnnotations | undefined;
  /** A tool of the libraries the server loaded (`function` tools resolve to it). */
  readonly functionTool: (name: string) => Tool | undefined;
}

/** What a kind builds against: the host's tools and the server's configuration (fixed when the catalog opens). */
export interface KindContext {
  /** The directory built-in and command tools are confined to. */
  readonly workspace: string;
  /** The built-in tools, by name. */
  readonly builtins?: ReadonlyMap<string, Tool>;
  /** The tools of the libraries loaded at start (`--library`): what `function` tools name. */
  readonly functions?: ToolLibrary;
  /** Secrets of `${NAME}` placeholders in HTTP tools. */
  readonly secrets?: SecretProvider;
  /** The hosts each secret is for (`--secret NAME@host`); a secret bound to none only serves the operator's tools. */
  readonly secretHosts?: SecretHosts;
  /** An undici dispatcher for HTTP tools (tests: a mock). */
  readonly dispatcher?: HttpDispatcher;
  /** Jitter source for HTTP retries. */
  readonly random?: () => number;
  /** The environment command tools pass listed variables from. */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** The hosts HTTP tools may reach (the server's `--allow-host`); absent: each tool's own list only. */
  readonly allowHosts?: ReadonlyArray<string>;
  /** The safety rules command tools judge their argv by (default: the default rules, as `shell`). */
  readonly rules?: RuleEngine;
}

/**
 * A problem of an implementation block as a client wrote it: `config`, its configuration
 * decoder's diagnostic (with the decoder's own code); `form`, not the kind's form at all;
 * `unknown`, it names something this version does not have. The catalog gives each its code.
 */
export type ImplIssue =
  | { readonly issue: 'config'; readonly diagnostic: Diagnostic }
  | { readonly issue: 'form' | 'unknown'; readonly message: string; readonly hint?: string };

/** Why a block does not become a tool here: `config`, it does not build; `host`, it may reach a host the server does not allow; `missing`, what it names is not here. */
export interface KindFailure {
  readonly cause: 'config' | 'host' | 'missing';
  readonly diagnostics: ReadonlyArray<Diagnostic>;
}

/** The defaults an implementation brings to a record: permissions and safety level, and the schemas when a write gives none. */
export interface KindDefaults {
  readonly permissions: ReadonlyArray<string>;
  readonly safetyLevel: SafetyLevel;
  readonly input?: JsonSchema;
  readonly output?: JsonSchema;
}

/** What a write from a request is checked for (catalog/program-guard.ts): nothing, the secrets it names, or the program it runs. */
export type RequestCheck = 'none' | 'secrets' | 'program';

/** An implementation kind. */
export interface ToolKind<N extends ImplementationProperty = ImplementationProperty> {
  /** The property that declares it in a specification, and a catalog record's `type`. */
  readonly name: N;
  /** How it is written, for hints: `http: {urlTemplate: "https://…"}`. */
  readonly example: string;
  /** The block as a catalog record stores it, from what a client sent (a record's `impl`, or the property's value in gram). */
  readonly decode: (impl: unknown, env: ContentEnvironment) => Either<ReadonlyArray<ImplIssue>, JsonObject>;
  /** The stored block as its property's value in a specification (the gram form). */
  readonly metadataValue: (impl: JsonObject) => JsonValue;
  /** Default permissions, safety level and schemas of a record of this kind. */
  readonly defaults: (impl: JsonObject, env: ContentEnvironment) => KindDefaults;
  /**
   * Why it cannot run here when the block alone tells, cheaply (a built-in or function that is
   * missing); absent: building the tool tells (a host outside the server's list, a placeholder
   * that names no secret).
   */
  readonly missing?: (impl: JsonObject, ctx: KindContext) => string | undefined;
  /** The tool implementing `spec` (its name, description and schemas) with this block (the stored form, or a specification's property value). */
  readonly build: (spec: ToolSpecification, impl: JsonValue, ctx: KindContext) => Either<KindFailure, Tool>;
  /** What a write from a request is checked for. */
  readonly requestCheck: RequestCheck;
  /** The name policies judge a call by, when not the tool's own (a built-in's: its path and command rules apply). */
  readonly policyName?: (impl: JsonObject) => string | undefined;
  /** The block as the `exec` of the registry's Tool JSON (seed 002), when it has that form (a program's argv of strings). */
  readonly registryExec?: (impl: JsonObject) => JsonObject | undefined;
  /** Whether a call ends quickly in process, so it takes invoke's plain path without a cancellation signal. */
  readonly quick?: (impl: JsonObject) => boolean;
}

/** A failure of kind `cause` from diagnostics. */
export const kindFailure = (cause: KindFailure['cause'], diagnostics: ReadonlyArray<Diagnostic>): KindFailure => ({ cause, diagnostics });
