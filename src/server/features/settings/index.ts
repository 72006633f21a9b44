/** What other features may take from settings: another feature imports it only through this file. */
export type { SettingsService } from './settings-service.ts';
