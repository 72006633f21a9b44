import multipart from '@fastify/multipart';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { DISCOVERY_MESSAGES, type PhotoUploadResponse } from '#shared/discovery/discovery-schemas';
import { MAX_PHOTO_BYTES, MAX_PHOTOS } from '#shared/profile/options';
import { badRequest } from '../../errors.ts';
import { requireAuth } from '../../plugins/auth.ts';
import { type PhotoService, photoTooLarge } from './photo-service.ts';
import { photoEtag } from './photo-store.ts';

/** Reads the `photos` files of a multipart body, each at most MAX_PHOTO_BYTES (checked while streaming). */
async function readPhotoFiles(request: FastifyRequest): Promise<Buffer[]> {
  const files: Buffer[] = [];
  try {
    for await (const part of request.parts()) {
      if (part.type !== 'file') continue;
      if (part.fieldname !== 'photos') {
        part.file.resume();
        throw badRequest(DISCOVERY_MESSAGES.photoMissing, 'VALIDATION');
      }
      files.push(await part.toBuffer());
    }
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw photoTooLarge();
    if (code === 'FST_FILES_LIMIT') throw badRequest(DISCOVERY_MESSAGES.photosMax, 'PHOTO_LIMIT');
    throw error;
  }
  return files;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

/**
 * Photo upload, delete and order under /api (owner only), mounted in their own scope so the
 * multipart parser exists only here.
 */
export async function photoRoutes(app: FastifyInstance, options: { photos: PhotoService }) {
  const { photos } = options;
  await app.register(multipart, {
    limits: { fileSize: MAX_PHOTO_BYTES, files: MAX_PHOTOS, fields: 10, fieldSize: 1024, parts: 20, headerPairs: 50 },
  });
  const guarded = { preHandler: app.authenticate };

  app.post<{ Params: { id: string } }>(
    '/profiles/:id/photos',
    guarded,
    async (request): Promise<PhotoUploadResponse & { uploadedKeys: string[] }> => {
      // Owner, profile, rate limit and the 6-photo cap are checked before any byte is read.
      const { userId } = await photos.beginUpload(requireAuth(request).userId, request.params.id);
      const files = await readPhotoFiles(request);
      const { photoKeys, uploadedKeys } = await photos.addPhotos(userId, files);
      return { success: true, photoKeys, uploadedKeys };
    },
  );

  // The key has slashes: accept it raw (…/photos/photos/<user>/<id>.webp) or encoded as one segment.
  app.delete<{ Params: { id: string; '*': string } }>('/profiles/:id/photos/*', guarded, async (request) => {
    const key = safeDecode(request.params['*']);
    const photoKeys = await photos.deletePhoto(requireAuth(request).userId, request.params.id, key);
    return { success: true, photoKeys };
  });

  app.put<{ Params: { id: string } }>('/profiles/:id/photos/order', guarded, async (request) => {
    const photoKeys = await photos.reorder(requireAuth(request).userId, request.params.id, request.body);
    return { success: true, photoKeys };
  });
}

/**
 * The photo files themselves, at `/<key>` (`/photos/<userId>/<id>.webp`), outside /api so they
 * are cacheable forever: a key never changes content (a new photo gets a new key). No token:
 * an <img> cannot send one, and the 128-bit random keys are only handed out with the profiles.
 */
export async function photoFileRoutes(app: FastifyInstance, options: { photos: PhotoService }) {
  app.get<{ Params: { userId: string; file: string } }>('/photos/:userId/:file', async (request, reply) => {
    const key = `photos/${request.params.userId}/${request.params.file}`;
    const data = await options.photos.read(key);
    if (!data) {
      return reply
        .status(404)
        .header('cache-control', 'no-store')
        .send({ success: false, message: DISCOVERY_MESSAGES.photoNotFound });
    }
    const etag = photoEtag(key);
    reply
      .header('etag', etag)
      .header('cache-control', 'public, max-age=31536000, immutable')
      .header('x-content-type-options', 'nosniff')
      .header('cross-origin-resource-policy', 'same-origin');
    if (request.headers['if-none-match']?.split(/\s*,\s*/).includes(etag)) return reply.status(304).send();
    return reply.header('content-type', 'image/webp').send(data);
  });
}
