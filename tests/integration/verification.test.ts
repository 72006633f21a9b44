// @setup embedded
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { POSE_INSTRUCTIONS, VERIFICATION_POSES } from '../../src/shared/verification/verification-poses.ts';
import {
  createDiscoveryApi,
  createSignedInUser,
  type DiscoveryApi,
  profileBody,
  type TestUser,
} from '../helpers/discovery-api.ts';
import { createModerator } from '../helpers/moderation-api.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';
import {
  createVerificationApi,
  profilePhoto,
  taggedSelfie,
  type VerificationApi,
} from '../helpers/verification-api.ts';

/** Verified profiles, reviewed by people (issue #23 part 2, docs/decisions/0034). */
describe('profile verification', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  let verify: VerificationApi;
  let moderator: TestUser;

  beforeAll(async () => {
    app = await startTestApp();
    api = createDiscoveryApi(app);
    verify = createVerificationApi(app, api);
    moderator = await createModerator(app);
  });
  afterAll(async () => {
    await app?.close();
  });

  const publicProfile = async (viewer: TestUser, target: TestUser) => {
    const answer = await api.get(`/profiles/${target.userId}`, viewer.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return answer.body.profile as { verified: boolean };
  };
  const deckCard = async (viewer: TestUser, target: TestUser) => {
    const answer = await api.get(`/profiles/${viewer.userId}/recommended`, viewer.token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    const card = (answer.body.profiles as { userId: string; verified: boolean }[]).find(
      (profile) => profile.userId === target.userId,
    );
    expect(card, 'the target is in the deck').toBeDefined();
    return card as { verified: boolean };
  };
  const notificationsOf = async (user: TestUser) =>
    (await api.get('/notifications', user.token)).body.notifications as { title: string; body: string }[];
  const approve = (itemId: string, photoKeys: readonly string[], token = moderator.token) =>
    api.post(`/moderation/verifications/${itemId}/approve`, { photoKeys }, token);
  const auditActions = async (userId: string) => {
    const answer = await api.get(`/moderation/audit?userId=${userId}`, moderator.token);
    expect(answer.status).toBe(200);
    return (answer.body.entries as { action: string; targetUserId: string; reason: string }[]).filter(
      (entry) => entry.targetUserId === userId,
    );
  };

  it('asks for a profile with a photo, and keeps a chosen pose instead of shopping for another', async () => {
    const noProfile = await api.get('/verification', (await createSignedInUser(app, 'Nadia')).token);
    expect(noProfile.status).toBe(404);
    expect(noProfile.body.message).toBe('Crea tu perfil antes de verificarlo');
    const bare = await api.userWithProfile({}, 'Sinfoto');
    const refused = await api.post('/verification/challenge', {}, bare.token);
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ message: 'Añade al menos una foto de perfil en la que se te vea la cara' });

    const user = await verify.userWithPhoto('Paula');
    expect(await verify.state(user.token)).toMatchObject({ status: 'none', pose: null, reason: null });
    const first = await api.post('/verification/challenge', {}, user.token);
    expect(first.status).toBe(200);
    const pose = first.body.pose as string;
    expect(VERIFICATION_POSES).toContain(pose);
    for (let i = 0; i < 4; i += 1) {
      expect((await api.post('/verification/challenge', {}, user.token)).body.pose).toBe(pose);
    }
  });

  it('refuses a selfie without a pose, a non-image, and a second request while one waits', async () => {
    const user = await verify.userWithPhoto('Rocío');
    const noPose = await verify.submit(user.token, { data: await taggedSelfie() });
    expect(noPose.status).toBe(409);
    expect(noPose.body.message).toBe('La pose ha caducado. Vuelve a empezar la verificación.');

    await api.post('/verification/challenge', {}, user.token);
    const notImage = await verify.submit(user.token, { data: Buffer.from('no soy una foto') });
    expect(notImage.status).toBe(415);
    expect(notImage.body.message).toBe('Formato de imagen no soportado. Utiliza JPG, PNG o WEBP.');
    const empty = await verify.submit(user.token, null);
    expect(empty.status).toBe(400);
    expect(await verify.state(user.token)).toMatchObject({ status: 'none' });

    const sent = await verify.submit(user.token, { data: await taggedSelfie() });
    expect(sent.status).toBe(201);
    expect(sent.body).toMatchObject({
      success: true,
      message: 'Solicitud enviada. La revisaremos en 24-48 horas.',
      verification: { status: 'pending', pose: null },
    });
    const again = await api.post('/verification/challenge', {}, user.token);
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('Ya tienes una solicitud de verificación en revisión');
    expect(await verify.countRows('verification_requests', user.userId)).toBe(1);
  });

  it('stores the selfie re-encoded without EXIF or GPS, and shows it to moderators only', async () => {
    const user = await verify.userWithPhoto('Elena');
    const stranger = await verify.userWithPhoto('Extraño');
    await verify.request(user, await taggedSelfie());
    const [stored] = await verify.selfiesOf(user.userId);
    expect(stored).toBeDefined();
    const meta = await sharp(stored).metadata();
    expect(meta.format).toBe('webp');
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(stored?.includes(Buffer.from('CámaraEspía'))).toBe(false);
    // The orientation was applied (90×60 turned by 90°), then dropped.
    expect([meta.width, meta.height]).toEqual([60, 90]);

    const item = await verify.pendingOf(moderator.token, user.userId);
    expect(item).toMatchObject({ kind: 'selfie', name: 'Elena', hasSelfie: true, photoKeys: user.photoKeys });
    const path = `/api/moderation/verifications/${item.id}/selfie`;
    const seen = await fetch(`${app.url}${path}`, { headers: { authorization: `Bearer ${moderator.token}` } });
    expect(seen.status).toBe(200);
    expect(seen.headers.get('content-type')).toBe('image/webp');
    expect(seen.headers.get('cache-control')).toContain('no-store');
    expect(Buffer.from(await seen.arrayBuffer()).equals(stored as Buffer)).toBe(true);
    // Not the owner, not another user, not without a token: the same 404 as an unknown path.
    for (const token of [user.token, stranger.token, undefined]) {
      const answer = await fetch(`${app.url}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
      expect(answer.status).toBe(404);
      expect(answer.headers.get('content-type')).not.toContain('image');
    }
    // The owner's own state never carries it.
    expect(JSON.stringify(await verify.state(user.token))).not.toMatch(/selfie|data:image/i);
  });

  it("answers the queue's actions with the unknown-path 404 to everyone but moderators", async () => {
    const user = await verify.userWithPhoto('Ana');
    await verify.request(user);
    const item = await verify.pendingOf(moderator.token, user.userId);
    const unknown = await api.call('GET', '/no-such-path', { token: user.token });
    const actions: [string, unknown][] = [
      [`/moderation/verifications/${item.id}/approve`, { photoKeys: item.photoKeys }],
      [`/moderation/verifications/${item.id}/reject`, { reason: 'pose' }],
    ];
    for (const token of [undefined, 'not-a-token', user.token]) {
      for (const [path, body] of actions) {
        const answer = await api.call('POST', path, { token, body });
        expect(answer.status, path).toBe(404);
        expect(answer.body).toEqual(unknown.body);
      }
    }
    expect(await verify.state(user.token)).toMatchObject({ status: 'pending' });
    expect(await verify.selfiesOf(user.userId)).toHaveLength(1);
  });

  it('approves against the profile photos: badge on the public profile and the deck card, notification, audit, selfie deleted', async () => {
    const place = { location: { latitude: 36.5271, longitude: -6.2886, city: 'Cádiz' } };
    const user = await verify.userWithPhoto('Carmen');
    await api.put(`/profiles/${user.userId}`, { userId: user.userId, ...place }, user.token);
    const viewer = await api.userWithProfile(place, 'Víctor');
    await verify.request(user);
    expect((await publicProfile(viewer, user)).verified).toBe(false);

    const item = await verify.pendingOf(moderator.token, user.userId);
    expect(VERIFICATION_POSES).toContain(item.pose);
    // A plain user cannot approve; the moderator can.
    expect((await approve(item.id, item.photoKeys, viewer.token)).status).toBe(404);
    const approved = await approve(item.id, item.photoKeys);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ success: true, message: 'Verificación aprobada' });

    expect(await verify.state(user.token)).toMatchObject({ status: 'verified', reason: null });
    expect((await publicProfile(viewer, user)).verified).toBe(true);
    expect((await deckCard(viewer, user)).verified).toBe(true);
    expect((await notificationsOf(user))[0]).toMatchObject({ title: 'Perfil verificado' });
    expect(await verify.selfiesOf(user.userId)).toHaveLength(0);
    expect((await auditActions(user.userId)).map((entry) => entry.action)).toEqual(['verification_approved']);
    // A second decision on the same request is refused.
    const twice = await approve(item.id, item.photoKeys);
    expect(twice.status).toBe(409);
    expect((await verify.queue(moderator.token)).some((entry) => entry.userId === user.userId)).toBe(false);

    // New photos pause the badge until a moderator re-checks, queued by itself.
    const added = await api.upload(user.userId, [{ data: await profilePhoto('#aa3322') }], user.token);
    expect(added.status).toBe(200);
    expect(await verify.state(user.token)).toMatchObject({ status: 'recheck' });
    expect((await publicProfile(viewer, user)).verified).toBe(false);
    expect((await deckCard(viewer, user)).verified).toBe(false);
    const recheck = await verify.pendingOf(moderator.token, user.userId);
    expect(recheck).toMatchObject({ kind: 'recheck', pose: null, hasSelfie: false, approvedPhotoKeys: user.photoKeys });
    expect(recheck.photoKeys).toEqual(added.body.photoKeys);
    expect((await approve(recheck.id, recheck.photoKeys)).status).toBe(200);
    expect((await publicProfile(viewer, user)).verified).toBe(true);
    expect((await deckCard(viewer, user)).verified).toBe(true);

    // Removing or reordering photos shows no new face: the badge stays.
    const [first] = added.body.photoKeys as string[];
    const removed = await api.call('DELETE', `/profiles/${user.userId}/photos/${encodeURIComponent(first as string)}`, {
      token: user.token,
    });
    expect(removed.status).toBe(200);
    expect(await verify.state(user.token)).toMatchObject({ status: 'verified' });
  });

  it('never lets a moderator review their own request', async () => {
    const own = await createModerator(app);
    expect((await api.post('/profiles', profileBody(own.userId, { name: 'Marta' }), own.token)).status).toBe(201);
    expect((await api.upload(own.userId, [{ data: await profilePhoto() }], own.token)).status).toBe(200);
    await verify.request(own);
    const item = await verify.pendingOf(own.token, own.userId);
    const self = await approve(item.id, item.photoKeys, own.token);
    expect(self.status).toBe(403);
    expect(self.body.message).toBe('Otra persona del equipo de moderación debe revisar tu propia solicitud');
    expect((await api.post(`/moderation/verifications/${item.id}/reject`, { reason: 'pose' }, own.token)).status).toBe(
      403,
    );
    expect(await verify.state(own.token)).toMatchObject({ status: 'pending' });
    expect((await approve(item.id, item.photoKeys)).status).toBe(200);
  });

  it('refuses an approval when the profile shows photos the moderator did not see', async () => {
    const user = await verify.userWithPhoto('Inés');
    await verify.request(user);
    const item = await verify.pendingOf(moderator.token, user.userId);
    await api.upload(user.userId, [{ data: await profilePhoto('#118855') }], user.token);
    const stale = await approve(item.id, item.photoKeys);
    expect(stale.status).toBe(409);
    expect(stale.body.message).toBe(
      'Las fotos del perfil han cambiado. Vuelve a cargar la solicitud antes de decidir.',
    );
    expect(await verify.state(user.token)).toMatchObject({ status: 'pending' });
    const fresh = await verify.pendingOf(moderator.token, user.userId);
    expect((await approve(fresh.id, fresh.photoKeys)).status).toBe(200);
  });

  it('rejects with a reason the person reads, then lets them retry with a new pose', async () => {
    const user = await verify.userWithPhoto('Lola');
    await verify.request(user);
    const item = await verify.pendingOf(moderator.token, user.userId);
    const badReason = await api.post(
      `/moderation/verifications/${item.id}/reject`,
      { reason: 'porque sí' },
      moderator.token,
    );
    expect(badReason.status).toBe(400);
    const noNote = await api.post(`/moderation/verifications/${item.id}/reject`, { reason: 'other' }, moderator.token);
    expect(noNote.status).toBe(400);
    expect(noNote.body.message).toBe('Explica el motivo del rechazo');

    const rejected = await api.post(
      `/moderation/verifications/${item.id}/reject`,
      { reason: 'pose', note: 'Levanta la mano junto a la cara' },
      moderator.token,
    );
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    const reason = 'La pose del selfie no es la que te pedimos. Levanta la mano junto a la cara.';
    expect(await verify.state(user.token)).toMatchObject({ status: 'rejected', reason });
    const [notice] = await notificationsOf(user);
    expect(notice).toMatchObject({ title: 'Verificación no aprobada' });
    expect(notice?.body).toContain(reason);
    expect(await verify.selfiesOf(user.userId)).toHaveLength(0);
    expect(await auditActions(user.userId)).toMatchObject([{ action: 'verification_rejected', reason }]);

    // Retry: a new pose (never the one refused), a new request.
    const retry = await api.post('/verification/challenge', {}, user.token);
    expect(retry.status).toBe(200);
    expect(retry.body.pose).not.toBe(item.pose);
    expect(POSE_INSTRUCTIONS[retry.body.pose as keyof typeof POSE_INSTRUCTIONS]).toBeDefined();
    const sent = await verify.submit(user.token, { data: await taggedSelfie('#335577') });
    expect(sent.status).toBe(201);
    expect(await verify.state(user.token)).toMatchObject({ status: 'pending', reason: null });
  });

  it('a rejected re-check takes the badge away', async () => {
    const user = await verify.userWithPhoto('Sara');
    await verify.request(user);
    const item = await verify.pendingOf(moderator.token, user.userId);
    expect((await approve(item.id, item.photoKeys)).status).toBe(200);
    await api.upload(user.userId, [{ data: await profilePhoto('#552299') }], user.token);
    const recheck = await verify.pendingOf(moderator.token, user.userId);
    const rejected = await api.post(
      `/moderation/verifications/${recheck.id}/reject`,
      { reason: 'mismatch' },
      moderator.token,
    );
    expect(rejected.status).toBe(200);
    expect(await verify.state(user.token)).toMatchObject({
      status: 'rejected',
      reason: 'La persona del selfie no parece la de tus fotos de perfil.',
    });
    const viewer = await api.userWithProfile({}, 'Tomás');
    expect((await publicProfile(viewer, user)).verified).toBe(false);
  });

  it('exports the state and the requests, never the selfie; deletes all of it with the account', async () => {
    const user = await verify.userWithPhoto('Olga');
    await verify.request(user);
    expect(await verify.selfiesOf(user.userId)).toHaveLength(1);
    const exported = await api.get('/account/export', user.token);
    expect(exported.status).toBe(200);
    expect(exported.body.verification).toMatchObject({
      status: 'pending',
      requests: [{ kind: 'selfie', status: 'pending' }],
    });
    const [exportedRequest] = (exported.body.verification as { requests: object[] }).requests;
    expect(Object.keys(exportedRequest ?? {}).sort()).toEqual([
      'createdAt',
      'kind',
      'pose',
      'reason',
      'reviewedAt',
      'status',
    ]);
    const deleted = await api.call('DELETE', '/account', { body: { confirmation: 'ELIMINAR' }, token: user.token });
    expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
    expect(await verify.selfiesOf(user.userId)).toHaveLength(0);
    expect(await verify.countRows('verification_requests', user.userId)).toBe(0);
    expect(await verify.countRows('profile_verifications', user.userId)).toBe(0);
    expect((await verify.queue(moderator.token)).some((entry) => entry.userId === user.userId)).toBe(false);
  });
});
