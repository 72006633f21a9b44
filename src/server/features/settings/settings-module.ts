import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Clock } from '../../infra/clock.ts';
import { createSettingsRepository } from './settings-repository.ts';
import { settingsRoutes } from './settings-routes.ts';
import { createSettingsService, type SettingsService } from './settings-service.ts';

export type SettingsModule = {
  /** `get(userId)`: the user's complete settings, for any feature that needs them. */
  settings: SettingsService;
  /** `/api/settings`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Settings (spec 001 §9, /config): repository, service and routes. */
export function createSettingsModule(deps: { db: Database; clock: Clock }): SettingsModule {
  const settings = createSettingsService({ settings: createSettingsRepository(deps.db), clock: deps.clock });
  return {
    settings,
    async register(http) {
      await http.register(settingsRoutes, { prefix: '/api/settings', settings });
    },
  };
}
