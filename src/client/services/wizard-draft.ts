/**
 * The profile wizard's unfinished draft on the device (issue #20): its step and fields (a `meta`
 * row) and the photos picked so far (blobs), in the signed-in user's own IndexedDB database. A
 * reload, or a phone evicting the tab while the person fetches a photo, resumes where they were;
 * saving the profile clears it, and sign-out deletes the whole database (QUALITY 23).
 */
import { dbFor } from './local-db.ts';

const DRAFT_KEY = 'wizard:profileDraft';

export type StoredWizardDraft = { step: number; draft: unknown; photos: File[] };

/** Keeps the step and the fields (a plain JSON copy: the store's objects are proxies). */
export async function saveWizardDraft(userId: string, step: number, draft: unknown): Promise<void> {
  const db = dbFor(userId);
  if (!db) return;
  await db.meta.put({ key: DRAFT_KEY, value: JSON.stringify({ step, draft }) });
}

/** Replaces the kept photos with these, in order. */
export async function saveWizardPhotos(userId: string, files: readonly File[]): Promise<void> {
  const db = dbFor(userId);
  if (!db) return;
  await db.transaction('rw', db.wizardPhotos, async () => {
    await db.wizardPhotos.clear();
    await db.wizardPhotos.bulkPut(
      files.map((file, position) => ({ position, blob: file, name: file.name, type: file.type })),
    );
  });
}

/** The kept draft, or null when there is none (or it cannot be read). */
export async function readWizardDraft(userId: string): Promise<StoredWizardDraft | null> {
  const db = dbFor(userId);
  if (!db) return null;
  try {
    const row = await db.meta.get(DRAFT_KEY);
    if (!row) return null;
    const { step, draft } = JSON.parse(row.value) as { step: unknown; draft: unknown };
    if (typeof step !== 'number' || typeof draft !== 'object' || draft === null) return null;
    const rows = await db.wizardPhotos.orderBy('position').toArray();
    const photos = rows.map((photo) => new File([photo.blob], photo.name, { type: photo.type }));
    return { step, draft, photos };
  } catch {
    return null;
  }
}

export async function clearWizardDraft(userId: string): Promise<void> {
  const db = dbFor(userId);
  if (!db) return;
  await db.transaction('rw', db.meta, db.wizardPhotos, async () => {
    await db.meta.delete(DRAFT_KEY);
    await db.wizardPhotos.clear();
  });
}
