// @setup embedded
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMatchedPair, eventually, recordEvents } from '../helpers/chat-api.ts';
import { createDiscoveryApi, type DiscoveryApi, type TestUser } from '../helpers/discovery-api.ts';
import { connectSocket } from '../helpers/sockets.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

type Json = Record<string, unknown>;
type Privacy = { showProfile?: boolean; shareLocation?: boolean; showAgeRange?: boolean; showTrainingStats?: boolean };

/** Everything a stranger and a match receive about one person, surface by surface. */
type Seen = {
  profileToStranger: { status: number; body: Json };
  profileToMatch: Json;
  chatPartner: Json;
  deckCard: Json | undefined;
  matchSummary: Json | undefined;
  conversationSummary: Json | undefined;
  notifications: unknown[];
  socketPayloads: unknown[];
};

const SECRET_CITY = 'Villaescondida';

/**
 * #19 §2: each privacy switch changes what the server sends to everyone but its owner, on every
 * surface (REST, deck cards, match and conversation summaries, notifications, socket payloads).
 * A control person with every switch on shows that each assertion can fail.
 */
describe('privacy settings are enforced by the server (docs/decisions/0025)', () => {
  let app: TestApp;
  let api: DiscoveryApi;
  const sockets: Socket[] = [];

  let open: Seen;
  beforeAll(async () => {
    app = await startTestApp({ rateLimitIpFactor: 1000 });
    api = createDiscoveryApi(app);
    open = await observe({});
  });
  afterAll(async () => {
    for (const socket of sockets) socket.close();
    await app?.close();
  });

  /** A person with `privacy`, a stranger who has not matched them, and a match who has, talking. */
  async function observe(privacy: Privacy): Promise<Seen> {
    const person = await api.userWithProfile(
      { location: { latitude: 40.43, longitude: -3.7, city: SECRET_CITY } },
      'Olga',
    );
    const stranger = await api.userWithProfile({}, 'Sara');
    const match: TestUser = await api.userWithProfile({}, 'Marta');
    const socket = await connectSocket(app, { token: match.token });
    sockets.push(socket);
    const events = recordEvents(socket);
    if (Object.keys(privacy).length > 0) {
      const saved = await api.put('/settings', { privacy }, person.token);
      expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    }
    const pair = await createMatchedPair(api, { a: person, b: match });
    const sent = await api.post(
      '/messages/messages',
      { conversationId: pair.conversationId, receiverId: match.userId, text: 'Hola, ¿entrenamos el jueves?' },
      person.token,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBeLessThan(300);
    await eventually(() => events.some((event) => event.name === 'newMessage'));
    const about = (list: unknown, key: (item: Json) => unknown) =>
      ((list ?? []) as Json[]).find((item) => key(item) === person.userId);
    const deck = await api.get(`/profiles/${stranger.userId}/recommended?limit=50`, stranger.token);
    const matches = await api.get(`/swipes/users/${match.userId}/matches`, match.token);
    const conversations = await api.get('/messages/conversations', match.token);
    return {
      profileToStranger: await api.get(`/profiles/${person.userId}`, stranger.token),
      profileToMatch: (await api.get(`/profiles/${person.userId}`, match.token)).body.profile as Json,
      chatPartner: (await api.get(`/messages/conversations/profile/${person.userId}`, match.token)).body
        .profile as Json,
      deckCard: about(deck.body.profiles, (card) => card.userId),
      matchSummary: about(matches.body.matches, (item) => (item.otherUser as Json).userId),
      conversationSummary: about(conversations.body.conversations, (item) => (item.otherUser as Json).userId),
      notifications: (await api.get('/notifications', match.token)).body.notifications as unknown[],
      socketPayloads: events.map((event) => event.payload),
    };
  }

  describe('control: every switch on', () => {
    it('shows city, distance, age and stats where each surface carries them', () => {
      expect(open.profileToStranger.status).toBe(200);
      const profile = open.profileToStranger.body.profile as Json;
      expect(profile).toMatchObject({ location: { city: SECRET_CITY }, age: 30 });
      expect(profile.distanceText).toMatch(/km/);
      expect(profile.distance).toEqual(expect.any(Number));
      expect(profile.stats).toMatchObject({ streak: expect.any(Number) });
      expect(open.deckCard).toMatchObject({ location: { city: SECRET_CITY }, age: 30 });
      expect(open.matchSummary).toMatchObject({ otherUser: { location: { city: SECRET_CITY }, age: 30 } });
      expect(open.chatPartner).toMatchObject({ location: { city: SECRET_CITY }, age: 30 });
    });
  });

  describe('showProfile = false', () => {
    let seen: Seen;
    beforeAll(async () => {
      seen = await observe({ showProfile: false });
    });
    it('REST: 404 to someone who has not matched', () => {
      expect(seen.profileToStranger.status).toBe(404);
      expect(seen.profileToStranger.body).toMatchObject({ success: false, message: 'Perfil no encontrado' });
    });
    it('deck: out of other people’s decks', () => {
      expect(open.deckCard).toBeDefined();
      expect(seen.deckCard).toBeUndefined();
    });
    it('REST, chat partner and match summary: an existing match still sees them', () => {
      expect(seen.profileToMatch).toMatchObject({ name: 'Olga' });
      expect(seen.chatPartner).toMatchObject({ name: 'Olga' });
      expect(seen.matchSummary).toMatchObject({ otherUser: { name: 'Olga' } });
    });
    it('conversation summary, notifications and socket payloads: the match keeps the conversation', () => {
      expect(seen.conversationSummary).toMatchObject({ otherUser: { name: 'Olga' } });
      expect(JSON.stringify(seen.notifications)).toContain('Olga');
      expect(JSON.stringify(seen.socketPayloads)).toContain('entrenamos');
    });
  });

  describe('shareLocation = false', () => {
    let seen: Seen;
    beforeAll(async () => {
      seen = await observe({ shareLocation: false });
    });
    const noLocation = (profile: Json | undefined) => {
      expect(profile).toBeDefined();
      expect((profile as Json).location).toEqual({ city: null });
      expect((profile as Json).distanceText).toBe('');
      expect((profile as Json).distance).toBeNull();
    };
    it('REST: no city, no distance text, no distance', () => noLocation(seen.profileToStranger.body.profile as Json));
    it('REST to a match and chat partner: no city or distance either', () => {
      noLocation(seen.profileToMatch);
      noLocation(seen.chatPartner);
    });
    it('deck card: no city or distance', () => noLocation(seen.deckCard));
    it('match summary: no city ("Ubicación no disponible" on screen)', () => {
      expect(seen.matchSummary).toMatchObject({ otherUser: { location: { city: null } } });
    });
    it('conversation summary, notifications and socket payloads never carry the city', () => {
      expect(JSON.stringify(open.matchSummary)).toContain(SECRET_CITY);
      for (const surface of [seen.conversationSummary, seen.notifications, seen.socketPayloads]) {
        expect(JSON.stringify(surface)).not.toContain(SECRET_CITY);
      }
    });
  });

  describe('showAgeRange = false', () => {
    let seen: Seen;
    beforeAll(async () => {
      seen = await observe({ showAgeRange: false });
    });
    it('REST: no age', () => expect((seen.profileToStranger.body.profile as Json).age).toBeNull());
    it('REST to a match and chat partner: no age', () => {
      expect(seen.profileToMatch.age).toBeNull();
      expect(seen.chatPartner.age).toBeNull();
    });
    it('deck card: no age', () => expect(seen.deckCard?.age).toBeNull());
    it('match summary: no age', () => expect(seen.matchSummary).toMatchObject({ otherUser: { age: null } }));
    it('conversation summary, notifications and socket payloads carry no age or birth date', () => {
      for (const surface of [seen.conversationSummary, seen.notifications, seen.socketPayloads]) {
        const text = JSON.stringify(surface);
        expect(text).not.toMatch(/"age"|birth/i);
      }
    });
  });

  describe('showTrainingStats = false', () => {
    let seen: Seen;
    beforeAll(async () => {
      seen = await observe({ showTrainingStats: false });
    });
    it('REST: no stats', () => expect((seen.profileToStranger.body.profile as Json).stats).toBeNull());
    it('REST to a match and chat partner: no stats', () => {
      expect(seen.profileToMatch.stats).toBeNull();
      expect(seen.chatPartner.stats).toBeNull();
    });
    it('deck card: no stats', () => expect(seen.deckCard?.stats ?? null).toBeNull());
    it('match and conversation summaries, notifications and socket payloads carry no stats', () => {
      for (const surface of [seen.matchSummary, seen.conversationSummary, seen.notifications, seen.socketPayloads]) {
        expect(JSON.stringify(surface)).not.toMatch(/matches_count|streak|last_active/);
      }
    });
  });
});
