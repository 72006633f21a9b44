/** The settings feature: /config. */
export { SettingsScreen } from './settings-screen.tsx';
export { ThemePicker } from './theme-picker.tsx';
