import type { FastifyInstance } from 'fastify';
import { type SettingsResponse, SettingsPatchSchema } from '#shared/settings/settings-schema';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { SettingsService } from './settings-service.ts';

/** `GET /api/settings` and `PUT /api/settings` (partial): the caller's own settings only. */
export async function settingsRoutes(app: FastifyInstance, options: { settings: SettingsService }) {
  app.addHook('preHandler', app.authenticate);

  app.get('/', async (request): Promise<SettingsResponse> => {
    return { success: true, settings: await options.settings.get(requireAuth(request).userId) };
  });

  app.put('/', async (request): Promise<SettingsResponse> => {
    const patch = parseInput(SettingsPatchSchema, request.body);
    return { success: true, settings: await options.settings.update(requireAuth(request).userId, patch) };
  });
}
