import { statfs } from 'node:fs/promises';
import path from 'node:path';

/**
 * Free space the embedded PostgreSQL wants before it starts: a WAL segment (16 MB) for the
 * checkpoint at the end of a start, a new cluster's files (about 40 MB), and some room to run.
 */
export const MIN_FREE_BYTES = 64 * 1024 * 1024;

/** PostgreSQL's words for a full disk, in its log or initdb's. */
const NO_SPACE = /No space left on device|ENOSPC|could not extend file/i;

/** Bytes the server's user may still write on the filesystem holding `dir` (or its nearest existing parent). */
export async function freeBytes(dir: string): Promise<number> {
  for (let at = path.resolve(dir); ; at = path.dirname(at)) {
    try {
      const stats = await statfs(at);
      return stats.bavail * stats.bsize;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || at === path.dirname(at)) throw error;
    }
  }
}

const megabytes = (bytes: number) => `${Math.floor(bytes / (1024 * 1024))} MB`;

/**
 * The one line an operator reads when DATA_DIR's disk is (nearly) full: what is wrong and what to
 * do. Undefined when there is room and `serverOutput` (what PostgreSQL said, if it failed) does
 * not speak of a full disk: the failure is something else.
 */
export async function fullDiskProblem(
  dir: string,
  options: { minFreeBytes: number; serverOutput?: string },
): Promise<string | undefined> {
  const free = await freeBytes(dir).catch(() => undefined);
  const isLow = free !== undefined && free < options.minFreeBytes;
  if (!isLow && !NO_SPACE.test(options.serverOutput ?? '')) return undefined;
  const left = free === undefined ? 'too little' : megabytes(free);
  return (
    `The disk of DATA_DIR is full: ${dir} has ${left} free, and the embedded PostgreSQL needs at least ` +
    `${megabytes(options.minFreeBytes)} to start. Free space on that disk (or move DATA_DIR to a larger one), then start again.`
  );
}
