import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { isStoredPhotoKey, type PhotoStore } from './photo-store.ts';

export type CopyReport = { copied: number; ignored: string[] };

/**
 * Copies every photo file under `root` (an embedded install's DATA_DIR/photos, laid out as
 * `<userId>/<id>[.thumb].webp`) into `target` under the same keys. Keys are immutable, so running
 * it twice copies nothing twice; files that are not photos (temporary files) are listed, not copied.
 */
export async function copyPhotoFiles(root: string, target: PhotoStore): Promise<CopyReport> {
  const report: CopyReport = { copied: 0, ignored: [] };
  let folders: string[];
  try {
    folders = await readdir(root);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return report;
    throw error;
  }
  for (const folder of folders) {
    const dir = path.join(root, folder);
    let files: string[];
    try {
      files = await readdir(dir);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') {
        report.ignored.push(folder);
        continue;
      }
      throw error;
    }
    for (const file of files) {
      const key = `photos/${folder}/${file}`;
      if (!isStoredPhotoKey(key)) {
        report.ignored.push(`${folder}/${file}`);
        continue;
      }
      await target.put(key, await readFile(path.join(dir, file)));
      report.copied += 1;
    }
  }
  return report;
}
