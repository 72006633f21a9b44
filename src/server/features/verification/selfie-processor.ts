import sharp from 'sharp';
import { MAX_INPUT_PIXELS, PhotoRejectedError, sniffImageFormat } from '../photos/index.ts';

/** Longest side of a stored selfie: enough to compare a face, no more. */
export const SELFIE_MAX_SIDE = 1280;

/**
 * Re-encodes a verification selfie as profile photos are (QUALITY 10): JPEG, PNG or WebP by its
 * bytes and by the decoder, at most MAX_INPUT_PIXELS, the EXIF orientation applied, then WebP
 * with no metadata at all (sharp keeps none unless asked): EXIF, GPS and the camera's model never
 * reach the database.
 */
export async function processSelfie(data: Buffer): Promise<Buffer> {
  const sniffed = sniffImageFormat(data);
  if (!sniffed) throw new PhotoRejectedError('format');
  const input = () => sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  try {
    const { format } = await input().metadata();
    if (format !== sniffed) throw new PhotoRejectedError('format');
    return await input()
      .rotate()
      .resize(SELFIE_MAX_SIDE, SELFIE_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer();
  } catch (error) {
    if (error instanceof PhotoRejectedError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    throw new PhotoRejectedError(/pixel limit/i.test(message) ? 'too-many-pixels' : 'format');
  }
}
