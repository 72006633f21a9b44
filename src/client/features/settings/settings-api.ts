/** GET and PUT /api/settings (docs/decisions/0008-settings.md): the whole object back each time. */
import type { SettingsPatch, SettingsResponse } from '#shared/settings/settings-schema';
import { requestJson } from '../../services/http.ts';

export const settingsApi = {
  get: () => requestJson<SettingsResponse>('settings'),
  update: (patch: SettingsPatch) => requestJson<SettingsResponse>('settings', { method: 'put', json: patch }),
};

export type SettingsApi = typeof settingsApi;
