/** What other features may take from photos: another feature imports it only through this file. */
export { MAX_INPUT_PIXELS, PhotoRejectedError, sniffImageFormat } from './photo-processor.ts';
