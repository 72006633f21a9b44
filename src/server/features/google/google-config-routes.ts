import type { FastifyInstance } from 'fastify';
import * as v from 'valibot';
import type { GoogleConfig } from './google-config.ts';

/**
 * Answer of `GET /api/auth/google/config`: which client id to initialise Identity Services with
 * and which script to load (Google's, or the local stand-in's). Belongs in src/shared once the
 * client uses it.
 */
export const GoogleClientConfigSchema = v.object({
  clientId: v.string(),
  scriptUrl: v.string(),
});
export type GoogleClientConfig = v.InferOutput<typeof GoogleClientConfigSchema>;

/** The public (no token) route that tells the client how to load Google sign-in. */
export async function googleConfigRoutes(app: FastifyInstance, options: { google: GoogleConfig }): Promise<void> {
  const answer: GoogleClientConfig = { clientId: options.google.clientId, scriptUrl: options.google.scriptUrl };
  app.get('/auth/google/config', async () => answer);
}
