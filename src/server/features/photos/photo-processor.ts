import sharp from 'sharp';

/** A decoded image may have at most this many pixels: a small file cannot expand into gigabytes. */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Longest side of a stored photo, and of its thumbnail. */
export const PHOTO_MAX_SIDE = 1600;
export const THUMBNAIL_MAX_SIDE = 400;

export type ProcessedPhoto = { photo: Buffer; thumbnail: Buffer };

export type PhotoRejection = 'format' | 'too-many-pixels';

export class PhotoRejectedError extends Error {
  override name = 'PhotoRejectedError';
  constructor(readonly reason: PhotoRejection) {
    super(`photo rejected: ${reason}`);
  }
}

/** The format the first bytes announce (JPEG, PNG or WebP), or undefined: the name and MIME type are not trusted. */
export function sniffImageFormat(data: Buffer): 'jpeg' | 'png' | 'webp' | undefined {
  if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff) return 'jpeg';
  if (data.length >= 8 && data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) {
    return 'png';
  }
  if (data.length >= 12 && data.toString('latin1', 0, 4) === 'RIFF' && data.toString('latin1', 8, 12) === 'WEBP') {
    return 'webp';
  }
  return undefined;
}

/**
 * Re-encodes an uploaded image (QUALITY 10): the content must be JPEG, PNG or WebP (by its bytes,
 * then by the decoder), at most MAX_INPUT_PIXELS; the EXIF orientation is applied, the image is
 * fitted into PHOTO_MAX_SIDE and written as WebP with no metadata at all (sharp keeps none unless
 * asked), so EXIF, GPS, XMP and ICC comments never leave the server. A 400 px thumbnail comes along.
 */
export async function processPhoto(data: Buffer): Promise<ProcessedPhoto> {
  const sniffed = sniffImageFormat(data);
  if (!sniffed) throw new PhotoRejectedError('format');
  const input = () => sharp(data, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  let format: string | undefined;
  try {
    ({ format } = await input().metadata());
  } catch (error) {
    throw rejection(error);
  }
  if (format !== sniffed) throw new PhotoRejectedError('format');
  try {
    const oriented = input().rotate();
    const [photo, thumbnail] = await Promise.all([
      oriented
        .clone()
        .resize(PHOTO_MAX_SIDE, PHOTO_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 82 })
        .toBuffer(),
      oriented
        .clone()
        .resize(THUMBNAIL_MAX_SIDE, THUMBNAIL_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 75 })
        .toBuffer(),
    ]);
    return { photo, thumbnail };
  } catch (error) {
    throw rejection(error);
  }
}

function rejection(error: unknown): PhotoRejectedError {
  const message = error instanceof Error ? error.message : String(error);
  return new PhotoRejectedError(/pixel limit/i.test(message) ? 'too-many-pixels' : 'format');
}
