// @setup embedded
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { accountRestrictions, passkeys, sessions, users } from '../../src/server/db/schema/index.ts';
import { rowsOf } from '../../src/server/db/rows.ts';
import { type Api, type ApiResponse, decodeToken, GOOD_PASSWORD, uniqueEmail } from '../helpers/auth-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { createSoftPasskey } from '../helpers/soft-passkey.ts';
import { DAY, HOUR } from '../helpers/test-clock.ts';
import { useTwoStepApp } from '../helpers/two-step-api.ts';

/**
 * One account-state gate for every way in (issue #32 §1, docs/decisions/0043, QUALITY 35): a
 * deleted, suspended or banned account gets in by none of password, phone and password, the SMS
 * code, Google, a passkey, the second step, a token's renewal or a socket's handshake.
 *
 * Suspensions and bans are written straight into `account_restrictions`, without the console's
 * revocation of the sessions: the gate must hold by itself, also for a session that slipped past
 * a revocation (a race, or a session opened by a way in that did not ask).
 */
const STATES = ['deleted', 'suspended', 'banned'] as const;
type State = (typeof STATES)[number];

describe('one account-state gate for every way in', () => {
  const ctx = useTwoStepApp({ google: true });

  type Account = Awaited<ReturnType<Api['registerUser']>> & { token: string };

  const newAccount = async (overrides: { email?: string } = {}): Promise<Account> => {
    const account = await ctx.api.registerUser(overrides);
    return { ...account, token: (await ctx.api.login(account.email)).token };
  };

  /** Puts the account in the state; a deleted account's sessions (given) are put back as they were. */
  const enter = async (state: State, account: Account, survivingToken?: string) => {
    const { db } = ctx.app.database;
    if (state === 'deleted') {
      const sid = survivingToken ? (decodeToken(survivingToken).sid as string) : undefined;
      const [session] = sid ? await db.select().from(sessions).where(eq(sessions.id, sid)) : [];
      const deleted = await ctx.api.call('DELETE', '/account', {
        body: { password: GOOD_PASSWORD },
        token: account.token,
      });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      if (session) await db.insert(sessions).values(session);
      return;
    }
    await db.insert(accountRestrictions).values({
      userId: account.userId,
      kind: state === 'banned' ? 'ban' : 'suspension',
      reason: 'spam',
      createdAt: ctx.clock.now(),
      endsAt: state === 'banned' ? null : new Date(ctx.clock.now().getTime() + 30 * DAY),
    });
  };

  /** Nothing that opens a way in came back: no session, no pending second step. */
  const expectRefused = (response: ApiResponse, state: State, whenDeleted: { status: number; errorType?: string }) => {
    expect(response.body.token, JSON.stringify(response.body)).toBeUndefined();
    expect(response.body.pendingToken).toBeUndefined();
    if (state === 'deleted') {
      expect(response.status).toBe(whenDeleted.status);
      if (whenDeleted.errorType) expect(response.body.errorType).toBe(whenDeleted.errorType);
      return;
    }
    expect(response.status).toBe(403);
    expect(response.body.errorType).toBe('ACCOUNT_RESTRICTED');
    expect(response.body.restriction).toMatchObject({ kind: state === 'banned' ? 'ban' : 'suspension' });
  };

  const addPasskey = async (token: string) => {
    const passkey = createSoftPasskey(ctx.app.config.publicOrigin);
    const options = await ctx.api.post('/security/passkeys/options', {}, token);
    const added = await ctx.api.post(
      '/security/passkeys',
      {
        challengeId: options.body.challengeId,
        name: 'Móvil',
        response: passkey.register(options.body.options as never),
      },
      token,
    );
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return passkey;
  };

  const signInWithPasskey = async (passkey: ReturnType<typeof createSoftPasskey>) => {
    const options = await ctx.api.post('/auth/passkey/options', {});
    return ctx.api.post('/auth/passkey', {
      challengeId: options.body.challengeId,
      response: passkey.authenticate(options.body.options as { challenge: string }),
      rememberMe: true,
    });
  };

  for (const state of STATES) {
    describe(`a ${state} account`, () => {
      it('gets in by no password, not even to the second step', async () => {
        const account = await newAccount();
        await ctx.twoStep.enable(account.token);
        await enter(state, account);
        const login = await ctx.api.post('/auth/login', { email: account.email, password: GOOD_PASSWORD });
        expectRefused(login, state, { status: 401 });
      });

      it('gets in by no phone and password, not even to the second step', async () => {
        const account = await newAccount();
        await ctx.twoStep.enable(account.token);
        await enter(state, account);
        const login = await ctx.api.post('/auth/complete-registration', {
          phone: account.phone,
          password: GOOD_PASSWORD,
        });
        expectRefused(login, state, { status: 401 });
      });

      it('gets no SMS code for a pending second step, and no session with one', async () => {
        const account = await newAccount();
        await ctx.twoStep.enable(account.token);
        const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
        ctx.clock.advance(61_000);
        const sent = await ctx.api.post('/auth/second-step/send-sms', { pendingToken });
        expect(sent.status, JSON.stringify(sent.body)).toBe(200);
        const code = await ctx.api.latestCode(account.phone);
        const texts = (await ctx.api.outbox(account.phone)).length;
        ctx.clock.advance(61_000);
        await enter(state, account);
        const again = await ctx.api.post('/auth/second-step/send-sms', { pendingToken });
        expect(again.status).toBe(state === 'deleted' ? 401 : 403);
        expect((await ctx.api.outbox(account.phone)).length).toBe(texts);
        const done = await ctx.api.post('/auth/second-step', { pendingToken, method: 'sms', code });
        expectRefused(done, state, { status: 401, errorType: 'ACCOUNT_DELETED' });
      });

      it('gets in by no Google sign-in, not even to the second step', async () => {
        const email = uniqueEmail('gmail').replace('@example.com', '@gmail.com');
        const account = await newAccount({ email });
        const googleAccount = { email, givenName: 'Lucía', familyName: 'García' };
        const signIn = async () =>
          ctx.api.post('/auth/google', { credential: await ctx.google.signIdToken({ account: googleAccount }) });
        // Linked at its first Google sign-in (decision 0004), then two-step turned on.
        const linked = await signIn();
        expect(linked.status, JSON.stringify(linked.body)).toBe(200);
        const signedIn = { ...account, token: linked.body.token as string };
        await ctx.twoStep.enable(signedIn.token);
        ctx.clock.advance(30_000);
        if (state === 'deleted') {
          const deleted = await ctx.api.call('DELETE', '/account', {
            body: { confirmation: 'ELIMINAR' },
            token: signedIn.token,
          });
          expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
        } else {
          await enter(state, signedIn);
        }
        expectRefused(await signIn(), state, { status: 404, errorType: 'USER_NOT_FOUND' });
      });

      it('is not linked to Google by a first Google sign-in (its password stays)', async () => {
        const email = uniqueEmail('gmail').replace('@example.com', '@gmail.com');
        const account = await newAccount({ email });
        await enter(state, account);
        const googleAccount = { email, givenName: 'Lucía', familyName: 'García' };
        const signIn = await ctx.api.post('/auth/google', {
          credential: await ctx.google.signIdToken({ account: googleAccount }),
        });
        expectRefused(signIn, state, { status: 404, errorType: 'USER_NOT_FOUND' });
        if (state === 'deleted') return;
        const [row] = await ctx.app.database.db.select().from(users).where(eq(users.id, account.userId));
        expect(row?.googleSub).toBeNull();
        expect(row?.passwordHash).not.toBeNull();
      });

      it('gets in by no passkey', async () => {
        const account = await newAccount();
        const passkey = await addPasskey(account.token);
        const [row] = await ctx.app.database.db.select().from(passkeys).where(eq(passkeys.userId, account.userId));
        await enter(state, account);
        if (state === 'deleted') {
          // Deletion took the passkey with it…
          expect(await ctx.app.database.db.select().from(passkeys).where(eq(passkeys.userId, account.userId))).toEqual(
            [],
          );
          expectRefused(await signInWithPasskey(passkey), state, { status: 400, errorType: 'PASSKEY_UNKNOWN' });
          // …and one left behind by an older deletion still opens nothing.
          if (row) await ctx.app.database.db.insert(passkeys).values(row);
          expectRefused(await signInWithPasskey(passkey), state, { status: 401, errorType: 'ACCOUNT_DELETED' });
          return;
        }
        expectRefused(await signInWithPasskey(passkey), state, { status: 0 });
      });

      it('gets no session from a second step begun before', async () => {
        const account = await newAccount();
        const { secret } = await ctx.twoStep.enable(account.token);
        ctx.clock.advance(30_000);
        const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
        await enter(state, account);
        const done = await ctx.api.post('/auth/second-step', {
          pendingToken,
          method: 'totp',
          code: ctx.twoStep.code(secret),
        });
        expectRefused(done, state, { status: 401, errorType: 'ACCOUNT_DELETED' });
      });

      it('gets no renewed token, and its session ends', async () => {
        const account = await newAccount();
        const token = (await ctx.api.login(account.email, GOOD_PASSWORD, { rememberMe: false })).token;
        await enter(state, account, token);
        // Past half the token's life, the next request would carry its successor.
        ctx.clock.advance(7 * HOUR);
        const renewed = await ctx.api.get('/auth/validate-session', token);
        expect(renewed.status).toBe(401);
        expect(renewed.headers.get('x-new-token')).toBeNull();
        const [row] = await ctx.app.database.db
          .select()
          .from(sessions)
          .where(eq(sessions.id, decodeToken(token).sid as string));
        expect(row?.revokedAt ?? null).not.toBeNull();
      });

      it('opens no socket', async () => {
        const account = await newAccount();
        const token = (await ctx.api.login(account.email)).token;
        await enter(state, account, token);
        await expect(connectSocket(ctx.app, { token })).rejects.toThrow('Token inválido o expirado');
      });
    });
  }

  it('deleting an account deletes its ways in: passkeys, the second step, recovery codes, remembered devices', async () => {
    const account = await newAccount();
    await addPasskey(account.token);
    const { secret } = await ctx.twoStep.enable(account.token);
    ctx.clock.advance(30_000);
    const pendingToken = await ctx.twoStep.pendingLogin(account.email, GOOD_PASSWORD);
    const remembered = await ctx.api.post('/auth/second-step', {
      pendingToken,
      method: 'totp',
      code: ctx.twoStep.code(secret),
      rememberDevice: true,
    });
    expect(remembered.status, JSON.stringify(remembered.body)).toBe(200);
    const waysIn = async () => {
      const counts = await ctx.app.database.db.execute(sql`select
          (select count(*) from passkeys where user_id = ${account.userId}::uuid) as passkeys,
          (select count(*) from two_factor where user_id = ${account.userId}::uuid) as two_factor,
          (select count(*) from recovery_codes where user_id = ${account.userId}::uuid) as recovery_codes,
          (select count(*) from trusted_devices where user_id = ${account.userId}::uuid) as trusted_devices`);
      const [row] = rowsOf<Record<string, string | number>>(counts);
      return Object.fromEntries(Object.entries(row ?? {}).map(([table, n]) => [table, Number(n)]));
    };
    expect(await waysIn()).toEqual({ passkeys: 1, two_factor: 1, recovery_codes: 10, trusted_devices: 1 });
    await enter('deleted', account);
    expect(await waysIn()).toEqual({ passkeys: 0, two_factor: 0, recovery_codes: 0, trusted_devices: 0 });
  });

  it('an open account still gets in by each of them (the gate refuses only what it should)', async () => {
    const account = await newAccount();
    const passkey = await addPasskey(account.token);
    expect((await signInWithPasskey(passkey)).status).toBe(200);
    const token = (await ctx.api.login(account.email, GOOD_PASSWORD, { rememberMe: false })).token;
    ctx.clock.advance(7 * HOUR);
    const renewed = await ctx.api.get('/auth/validate-session', token);
    expect(renewed.status).toBe(200);
    expect(renewed.headers.get('x-new-token')).toEqual(expect.any(String));
    const socket = await connectSocket(ctx.app, { token: renewed.headers.get('x-new-token') as string });
    socket.close();
  });
});
