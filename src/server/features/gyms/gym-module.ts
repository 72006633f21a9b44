import type { FastifyInstance } from 'fastify';
import type { Database } from '../../db/client.ts';
import type { Logger } from '../../logger.ts';
import { createGymRepository } from './gym-repository.ts';
import { gymRoutes } from './gym-routes.ts';
import { createGymService, type GymService } from './gym-service.ts';

export type GymModule = {
  gyms: GymService;
  /** `/api/gyms`. */
  register(http: FastifyInstance): Promise<void>;
};

/** Gym search (spec 001 §2): the seeded gym list, made sure of before the module answers. */
export async function createGymModule(deps: { db: Database; logger: Logger }): Promise<GymModule> {
  const gyms = createGymService({ gyms: createGymRepository(deps.db), logger: deps.logger });
  await gyms.ensureSeeded();
  return {
    gyms,
    async register(http) {
      await http.register(gymRoutes, { prefix: '/api', gyms });
    },
  };
}
