/**
 * What other features may take from moderation: another feature imports it only through this
 * file, or its module through `moderation-module.ts`.
 */
export { createModerationAuditRepository, type ModerationAuditRepository } from './moderation-audit-repository.ts';
export { requireModerator } from './moderation-guard.ts';
export { createModeratorRoleRepository, type ModeratorRoleRepository } from './moderator-role-repository.ts';
