/**
 * `gramkit/catalog`: the persistent tool catalog. Bundles and tools (keyed by `<bundle, slug,
 * version>`) and the registry view of them (Tool JSON, keyed by registry id) over a store (flat
 * files with cross-process locks, or Redis), with search, usage, events, and invocation through the
 * library's pipeline; and the record codecs (the `tool.json` record, the registry's Tool JSON,
 * gram) as pure functions returning `Either`.
 */
export type {
  Catalog,
  CatalogOptions,
  BundleQuery,
  ToolQuery,
  SearchQuery,
  Page,
  BundleView,
  ToolView,
  BundleList,
  ToolList,
  ToolRef,
  InvokeOptions as CatalogInvokeOptions,
  WriteOutcome,
  DiscoveryReport,
  StoreWipes,
} from '../catalog/catalog.js';
export { openCatalog, REGISTRY_BUNDLE_ID } from '../catalog/catalog.js';
export type { CatalogError, CatalogResult } from '../catalog/result.js';
export { CatalogCodes } from '../catalog/codes.js';
export type { CatalogCode } from '../catalog/codes.js';
export type {
  CatalogBackend,
  RecordKind,
  RecordWrite,
  RecordRead,
  LoadedRecords,
  JournalChanges,
  Decision,
  Committed,
  UsageDelta,
} from '../catalog/stores/backend.js';
export { StoreError } from '../catalog/stores/backend.js';
export type { FileStoreOptions } from '../catalog/stores/file-store.js';
export { openFileStore } from '../catalog/stores/file-store.js';
export type { RedisStoreOptions } from '../catalog/stores/redis-store.js';
export { openRedisStore, redactRedisUrl } from '../catalog/stores/redis-store.js';
export type { BundleRecord, ToolRecord, ToolContent, ToolType, CreatedBy, UsageCount, UsageEntry } from '../catalog/records/records.js';
export { SCHEMA_VERSION, TOOL_TYPES } from '../catalog/records/records.js';
export type {
  CatalogEvent,
  CatalogEventType,
  CatalogListener,
  ChangeAction,
  ChangedCatalogEvent,
  InvokedCatalogEvent,
  ResultCatalogEvent,
  FailedCatalogEvent,
  DiscoveredCatalogEvent,
  CreatedCatalogEvent,
} from '../catalog/events.js';
export { CATALOG_EVENT_TYPES } from '../catalog/events.js';
export type { ContentEnvironment, ContentInput, Built } from '../catalog/records/content.js';
export { buildContent, contentToGram, gramToInput, contentSpecification } from '../catalog/records/content.js';
export type { ToolWrite, ToolJsonContext } from '../catalog/records/tool-json.js';
export type { RequestPrograms } from '../catalog/program-guard.js';
export { guardRequestWrite } from '../catalog/program-guard.js';
export { decodeToolJson, decodeStoredTool, encodeTool } from '../catalog/records/tool-json.js';
export type { BundleWrite } from '../catalog/records/bundle-json.js';
export { decodeBundleWrite, decodeEnabledPatch, decodeStoredBundle, encodeBundle } from '../catalog/records/bundle-json.js';
export type { RegistryView } from '../catalog/records/registry-json.js';
export { decodeRegistryTool, encodeRegistryTool, registryIdOf, REGISTRY_VERSION, seedRegistryTool } from '../catalog/records/registry-json.js';
export { isMapForm, mapToSchema, schemaToMap } from '../catalog/records/map-schema.js';
export { parseSlug, parseBundleSlug, parseVersion, isSlug, isBundleSlug, isVersion, slugOfRegistryId, MAX_SLUG_RUNES } from '../catalog/records/slug.js';
export { parseId, isUuidV7, isRegistryId, parseRegistryId, newId } from '../catalog/records/ids.js';
export { NUCLEUS, nucleusToolJson } from '../catalog/records/nucleus.js';
export { BUILTIN_BUNDLE_ID } from '../catalog/records/builtin-records.js';
export type { SearchEntry, SearchTier, SearchCursor, SearchHit, SearchPage, SearchOptions } from '../catalog/search-index.js';
export { SearchIndex } from '../catalog/search-index.js';

export type { CatalogToolFormat, CatalogToolGram } from '../catalog/records/convert.js';
export { contentEnvironment, catalogToolFormat, catalogToolToGram } from '../catalog/records/convert.js';
