/** The safety feature (docs/decisions/0012): block and report menus, their dialogs, and the account data actions. */
export { AccountDataActions } from './account-data-actions.tsx';
export { type GroupLine, type GroupPerson, GroupSafetyMenu, ReportSessionButton } from './report-entry-points.tsx';
export type { SafetyTarget } from './safety-actions.ts';
export { SafetyButtons, SafetyMenu } from './safety-menu.tsx';
