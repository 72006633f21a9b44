import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_PHOTO_BYTES } from '#shared/profile/options';
import { VERIFICATION_MESSAGES, VerificationRequestParamsSchema } from '#shared/verification/verification-schemas';
import { AppError, badRequest } from '../../errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { parseInput } from '../../validation.ts';
import type { Moderator, VerificationService } from './verification-service.ts';

/** The one `selfie` file of a multipart body, at most MAX_PHOTO_BYTES (checked while streaming). */
async function readSelfie(request: FastifyRequest): Promise<Buffer | undefined> {
  let selfie: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'selfie' || selfie) {
        part.file.resume();
        throw badRequest(VERIFICATION_MESSAGES.selfieMissing, 'VALIDATION');
      }
      selfie = await part.toBuffer();
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new AppError(413, VERIFICATION_MESSAGES.selfieTooLarge, 'FILE_SIZE');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_INVALID_MULTIPART_CONTENT_TYPE') {
      throw badRequest(VERIFICATION_MESSAGES.selfieMissing, 'VALIDATION');
    }
    throw error;
  }
  return selfie;
}

/**
 * The owner's calls under `/api/verification` (docs/decisions/0034): their state, the pose to
 * copy, and the selfie. No route here, nor anywhere for the owner, returns a selfie.
 */
export async function verificationRoutes(app: FastifyInstance, options: { verification: VerificationService }) {
  const { verification } = options;
  await app.register(multipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: 1, fields: 5, fieldSize: 1024, parts: 10, headerPairs: 50 },
  });
  app.addHook('preHandler', app.authenticate);

  app.get('/', async (request) => verification.state(requireAuth(request).userId));

  app.post('/challenge', async (request) => verification.challenge(requireAuth(request).userId));

  app.post('/requests', async (request, reply) => {
    const { userId } = requireAuth(request);
    if (!request.isMultipart()) throw badRequest(VERIFICATION_MESSAGES.selfieMissing, 'VALIDATION');
    // Refusals (state, expired pose, rate limit) come before a byte is read.
    await verification.beginSubmit(userId);
    const state = await verification.submit(userId, await readSelfie(request));
    return reply.code(201).send({ success: true, message: VERIFICATION_MESSAGES.submitted, verification: state });
  });
}

/**
 * The console's verification queue, registered by the moderation console under
 * `/api/moderation` behind its guard (every route 404s to non-moderators): the list, a request's
 * selfie (private, never cached), approve and reject. `moderatorOf` reads the guard's moderator.
 */
export function verificationModerationRoutes(
  verification: VerificationService,
  moderatorOf: (request: FastifyRequest) => Moderator,
) {
  return async (app: FastifyInstance) => {
    app.get('/verifications', async () => ({ success: true as const, requests: await verification.queue() }));

    app.get('/verifications/:id/selfie', async (request, reply) => {
      moderatorOf(request);
      const { id } = parseInput(VerificationRequestParamsSchema, request.params);
      const data = await verification.selfie(id);
      return reply
        .header('cache-control', 'no-store, private')
        .header('x-content-type-options', 'nosniff')
        .header('cross-origin-resource-policy', 'same-origin')
        .type('image/webp')
        .send(data);
    });

    app.post('/verifications/:id/approve', async (request) => {
      const { id } = parseInput(VerificationRequestParamsSchema, request.params);
      return verification.approve(moderatorOf(request), id, request.body);
    });

    app.post('/verifications/:id/reject', async (request) => {
      const { id } = parseInput(VerificationRequestParamsSchema, request.params);
      return verification.reject(moderatorOf(request), id, request.body);
    });
  };
}
