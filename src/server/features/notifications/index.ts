/**
 * What other features may take from notifications: another feature imports it only through this
 * file, or its module through `notification-module.ts`.
 */
export type { NotificationService, OwedMessageNotice, PushMessage, PushPort } from './notification-service.ts';
