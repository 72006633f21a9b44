import type { FastifyInstance } from 'fastify';
import type { OwnProfileResponse, PublicProfile } from '#shared/profile/profile-views';
import { requireAuth } from '../../plugins/auth.ts';
import type { ProfileService } from './profile-service.ts';

type IdParams = { id: string };
type UserIdParams = { userId: string };

/** Profiles (spec 001 §7), all bearer-authenticated; mounted at /api. */
export async function profileRoutes(app: FastifyInstance, options: { profiles: ProfileService }) {
  const { profiles } = options;
  const guarded = { preHandler: app.authenticate };

  app.post('/profiles', guarded, async (request, reply): Promise<OwnProfileResponse> => {
    const profile = await profiles.create(requireAuth(request).userId, request.body);
    reply.status(201);
    return { success: true, profile };
  });

  app.get<{ Params: IdParams }>('/profiles/:id', guarded, async (request) => {
    return { success: true, profile: await profiles.get(requireAuth(request).userId, request.params.id) };
  });

  app.put<{ Params: UserIdParams }>('/profiles/:userId', guarded, async (request): Promise<OwnProfileResponse> => {
    const profile = await profiles.update(requireAuth(request).userId, request.params.userId, request.body);
    return { success: true, profile };
  });

  app.put<{ Params: UserIdParams }>(
    '/profiles/:userId/location',
    guarded,
    async (request): Promise<OwnProfileResponse> => {
      const profile = await profiles.updateLocation(requireAuth(request).userId, request.params.userId, request.body);
      return { success: true, profile };
    },
  );

  app.get<{ Params: IdParams }>(
    '/messages/conversations/profile/:id',
    guarded,
    async (request): Promise<{ success: true; profile: PublicProfile }> => {
      return { success: true, profile: await profiles.getChatPartner(requireAuth(request).userId, request.params.id) };
    },
  );
}
