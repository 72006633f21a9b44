import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it } from 'vitest';
import type { Quedada } from '#shared/quedadas/quedada-schemas';
import { type LocalDb, openLocalDb, readQuedadas, type StoredQuedada, upsertQuedadas } from './local-db.ts';

let counter = 0;
let db: LocalDb;
afterEach(async () => {
  db?.close();
});

const A = 'a0000000-0000-4000-8000-000000000001';
const B = 'b0000000-0000-4000-8000-000000000002';

function quedada(overrides: Partial<Quedada> = {}): Quedada {
  return {
    _id: 'q1',
    conversationId: 'c1',
    proposerId: A,
    proposedBy: A,
    status: 'proposed',
    gymName: 'McFit Madrid Centro',
    gymAddress: null,
    startsAt: '2026-03-12T17:30:00.000Z',
    durationMin: 90,
    activity: 'Pierna',
    note: null,
    history: [],
    cancelledBy: null,
    isLateCancel: false,
    confirmations: { [A]: null, [B]: null },
    version: 1,
    clientId: 'client-1',
    createdAt: '2026-03-10T09:00:00.000Z',
    updatedAt: '2026-03-10T09:00:00.000Z',
    ...overrides,
  };
}

describe('quedadas on the device', () => {
  it('the server copy replaces the pending proposal of the same clientId', async () => {
    db = openLocalDb(`quedadas-${++counter}`);
    const pending: StoredQuedada = { ...quedada({ _id: '', version: 0 }), key: 'client-1', sync: 'pending' };
    await db.quedadas.put(pending);
    await upsertQuedadas(db, [quedada()]);
    const rows = await readQuedadas(db, 'c1');
    expect(rows.map((row) => [row.key, row.sync, row.version])).toEqual([['q1', 'synced', 1]]);
  });

  it('never goes back to an older version, and keeps an optimistic change until a newer copy comes', async () => {
    db = openLocalDb(`quedadas-${++counter}`);
    await upsertQuedadas(db, [quedada({ version: 3, status: 'accepted' })]);
    await upsertQuedadas(db, [quedada({ version: 2, status: 'countered' })]);
    expect((await db.quedadas.get('q1'))?.status).toBe('accepted');

    // The user cancels offline: the row is pending at version 3; a late copy of version 3 does not undo it.
    await db.quedadas.put({ ...quedada({ version: 3, status: 'cancelled' }), key: 'q1', sync: 'pending' });
    await upsertQuedadas(db, [quedada({ version: 3, status: 'accepted' })]);
    expect((await db.quedadas.get('q1'))?.status).toBe('cancelled');
    // The server's answer (version 4) settles it.
    await upsertQuedadas(db, [quedada({ version: 4, status: 'cancelled' })]);
    expect(await db.quedadas.get('q1')).toMatchObject({ status: 'cancelled', sync: 'synced', version: 4 });
  });
});
