/**
 * `gramkit/ai-sdk`: bound tools as Vercel AI SDK tools (`ai` 6 or 7, an optional peer dependency).
 */
export type { AISDKToolsOptions } from '../adapters/ai-sdk.js';
export { toAISDKTool, toAISDKTools } from '../adapters/ai-sdk.js';
