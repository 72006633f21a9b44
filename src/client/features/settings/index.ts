/** The settings feature: /config. */
export type { SearchDistanceBinding, SearchGenderBinding } from './search-preferences.tsx';
export { SettingsScreen } from './settings-screen.tsx';
export { ThemePicker } from './theme-picker.tsx';
export { useMessageAlertsEnabled } from './use-message-alerts.ts';
