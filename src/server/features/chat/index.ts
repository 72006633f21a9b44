/**
 * What other features may take from chat: another feature imports it only through this file, or
 * its module through `chat-module.ts`.
 */
export type { ChatRealtime } from './chat-service.ts';
