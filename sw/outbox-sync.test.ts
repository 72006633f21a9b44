import 'fake-indexeddb/auto';
import { type IDBPDatabase, openDB } from 'idb';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { handleOutboxSync, openExisting, RetryLater } from './outbox-sync.ts';

const USER = 'u-1';
const opened: IDBPDatabase[] = [];

async function seed(rows: Array<{ clientId: string; scope: string; status?: string }>, withSession = true) {
  if (withSession) {
    const session = await openDB('entreno-session', 1, {
      upgrade: (db) => void db.createObjectStore('session', { keyPath: 'key' }),
    });
    await session.put('session', { key: 'current', userId: USER, token: 'tok' });
    session.close();
  }
  const db = await openDB(`entreno-${USER}`, 10, {
    upgrade(db) {
      db.createObjectStore('outbox', { keyPath: 'id', autoIncrement: true });
      db.createObjectStore('messages', { keyPath: 'key' });
    },
  });
  for (const row of rows) {
    await db.add('outbox', {
      clientId: row.clientId,
      kind: 'message',
      scope: row.scope,
      request: { method: 'POST', path: 'messages/messages', json: { clientId: row.clientId } },
      payload: {},
      status: row.status ?? 'pending',
      attempts: 0,
      createdAt: '',
    });
    await db.put('messages', { key: row.clientId, status: 'sending' });
  }
  db.close();
}

const openDb = async (name: string) => {
  const db = await openExisting(name);
  if (db) opened.push(db);
  return db;
};

afterEach(async () => {
  for (const db of opened.splice(0)) db.close();
  for (const name of ['entreno-session', `entreno-${USER}`]) {
    await new Promise((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = request.onerror = request.onblocked = resolve;
    });
  }
});

describe('Background Sync of the outbox', () => {
  it('tells open pages to drain and sends nothing itself', async () => {
    const postMessage = vi.fn();
    const fetch = vi.fn();
    const result = await handleOutboxSync({ matchClients: async () => [{ postMessage }], openDb, fetch });
    expect(result).toBe('told-clients');
    expect(postMessage).toHaveBeenCalledWith({ type: 'OUTBOX_DRAIN' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('with no page open, replays pending items in order with the saved token, marking refusals failed', async () => {
    await seed([
      { clientId: 'a', scope: 'c1' },
      { clientId: 'b', scope: 'c1' },
      { clientId: 'x', scope: 'c2', status: 'failed' },
    ]);
    const fetch = vi.fn(async (_url: string, init: RequestInit) => {
      const { clientId } = JSON.parse(String(init.body)) as { clientId: string };
      if (clientId === 'b') return new Response('{}', { status: 403 });
      return Response.json({ success: true, data: { _id: 'm1', clientId, seq: 1, status: 'sent' } });
    });
    const result = await handleOutboxSync({ matchClients: async () => [], openDb, fetch });
    expect(result).toBe('drained');
    expect(
      fetch.mock.calls.map(([url, init]) => [url, (init.headers as Record<string, string>).authorization]),
    ).toEqual([
      ['/api/messages/messages', 'Bearer tok'],
      ['/api/messages/messages', 'Bearer tok'],
    ]);
    const db = await openDB(`entreno-${USER}`);
    const outbox = await db.getAll('outbox');
    expect(outbox.map((row) => [row.clientId, row.status])).toEqual([
      ['b', 'failed'],
      ['x', 'failed'],
    ]);
    expect(await db.get('messages', 'a')).toMatchObject({ _id: 'm1', status: 'sent' });
    expect(await db.get('messages', 'b')).toMatchObject({ status: 'error' });
    db.close();
  });

  it('without a remember-me session it does nothing; offline it asks the browser to retry', async () => {
    const fetch = vi.fn(async () => {
      throw new TypeError('offline');
    });
    expect(await handleOutboxSync({ matchClients: async () => [], openDb, fetch })).toBe('nothing');
    await seed([{ clientId: 'a', scope: 'c1' }]);
    await expect(handleOutboxSync({ matchClients: async () => [], openDb, fetch })).rejects.toBeInstanceOf(RetryLater);
  });

  it('a notification DELETE answered 404 is done (already gone); another 404 is a refusal', async () => {
    await seed([]);
    const db = await openDB(`entreno-${USER}`);
    const row = (clientId: string, method: string, path: string) => ({
      clientId,
      kind: 'notification',
      scope: 'notifications',
      request: { method, path },
      payload: {},
      status: 'pending',
      attempts: 0,
      createdAt: '',
    });
    await db.add('outbox', row('del', 'DELETE', 'notifications/n1'));
    await db.add('outbox', row('read', 'PATCH', 'notifications/n2/read'));
    db.close();
    const fetch = vi.fn(async (_url: string, _init: RequestInit) => new Response('{}', { status: 404 }));
    expect(await handleOutboxSync({ matchClients: async () => [], openDb, fetch })).toBe('drained');
    expect(fetch.mock.calls.map(([url, init]) => [url, init.method])).toEqual([
      ['/api/notifications/n1', 'DELETE'],
      ['/api/notifications/n2/read', 'PATCH'],
    ]);
    const after = await openDB(`entreno-${USER}`);
    expect((await after.getAll('outbox')).map((entry) => [entry.clientId, entry.status])).toEqual([['read', 'failed']]);
    after.close();
  });
});
