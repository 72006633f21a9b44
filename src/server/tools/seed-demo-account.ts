import { and, eq, like, ne, sql } from 'drizzle-orm';
import { matchesPreferences } from '#shared/discovery/preferences';
import { NOTIFICATION_MESSAGES } from '#shared/notifications/notification-messages';
import { ageFromBirthDate } from '#shared/profile/age';
import { instantToMadridLocal, madridLocalToInstant } from '#shared/quedadas/quedada-time';
import type { Gender, GenderPreference } from '#shared/profile/options';
import type { Database } from '../db/client.ts';
import {
  conversationParticipants,
  conversations,
  matches,
  messages,
  notifications,
  profiles,
  quedadas,
  swipes,
  users,
} from '../db/schema/index.ts';

export const DEMO_ACCOUNT_EMAIL = 'demo@demo.entreno.app';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** The instant of `time` ("18:30") in Madrid on the Madrid day of `dayOf`. */
function madridAt(dayOf: number, time: string): Date {
  return madridLocalToInstant(instantToMadridLocal(new Date(dayOf)).day, time) ?? new Date(dayOf);
}

type Partner = { id: string; name: string; gym: string; sport: string };

/** What decides whether two people could have matched: both ways, as the deck filters them. */
const PREFERENCE_COLUMNS = {
  birthDate: profiles.birthDate,
  gender: profiles.gender,
  genderPreference: profiles.genderPreference,
  ageMin: profiles.ageMin,
  ageMax: profiles.ageMax,
};
type Person = { id: string; name: string; birthDate: string; gender: string | null } & Pick<
  typeof profiles.$inferSelect,
  'genderPreference' | 'ageMin' | 'ageMax'
>;

/** Demo people looked at when choosing the four partners (Madrid first). */
const CANDIDATE_POOL = 80;

function accepts(viewer: Person, candidate: Person, now: Date): boolean {
  return matchesPreferences(
    {
      preferences: {
        gender_preference: viewer.genderPreference as GenderPreference,
        age_range: { min: viewer.ageMin, max: viewer.ageMax },
      },
    },
    { gender: candidate.gender as Gender | null, age: ageFromBirthDate(candidate.birthDate, now) },
  );
}

/**
 * Four partners a person would believe: each could have met the demo account in the deck (age
 * and gender fit both ways), no two share a first name, the closest in age first. Falls back to
 * the rest of the pool when too few fit, so a small demo set still comes alive.
 */
export function choosePartners<TPerson extends Person>(demo: Person, pool: readonly TPerson[], now: Date): TPerson[] {
  const demoAge = ageFromBirthDate(demo.birthDate, now);
  const byAge = (a: TPerson, b: TPerson) =>
    Math.abs(ageFromBirthDate(a.birthDate, now) - demoAge) - Math.abs(ageFromBirthDate(b.birthDate, now) - demoAge);
  const fitting = pool.filter((person) => accepts(demo, person, now) && accepts(person, demo, now)).sort(byAge);
  const rest = pool.filter((person) => !fitting.includes(person));
  const chosen: TPerson[] = [];
  const names = new Set<string>();
  for (const person of [...fitting, ...rest]) {
    if (chosen.length === 4) break;
    if (names.has(person.name)) continue;
    names.add(person.name);
    chosen.push(person);
  }
  for (const person of [...fitting, ...rest]) {
    if (chosen.length === 4) break;
    if (!chosen.includes(person)) chosen.push(person);
  }
  return chosen;
}
/** One line of a seeded chat: who says it (`me` is the demo account), and how long ago. */
type Line = { from: 'me' | 'them'; text: string; agoMs: number };

/** The demo account's conversations, written for each partner's gym and first sport. */
function scripts(partner: Partner): Line[][] {
  return [
    [
      {
        from: 'them',
        text: `¡Hola! He visto que entrenas en ${partner.gym}, yo también 💪`,
        agoMs: 2 * DAY + 3 * HOUR,
      },
      { from: 'me', text: '¡Qué casualidad! Suelo ir por las mañanas, antes del trabajo.', agoMs: 2 * DAY + 2 * HOUR },
      {
        from: 'them',
        text: `Yo igual. Estoy preparando una rutina de ${partner.sport.toLowerCase()}, ¿te animas?`,
        agoMs: 2 * DAY + HOUR,
      },
      { from: 'me', text: 'Me apunto. ¿El jueves a las 7:30 te viene bien?', agoMs: DAY + 5 * HOUR },
      { from: 'them', text: 'Perfecto, allí nos vemos. Llevo la cinta para las sentadillas 😄', agoMs: 40 * MINUTE },
      { from: 'them', text: '¿Calentamos juntos en la zona de cardio?', agoMs: 35 * MINUTE },
    ],
    [
      {
        from: 'me',
        text: `¡Buenas! Me encanta el ${partner.sport.toLowerCase()}, ¿cuánto tiempo llevas?`,
        agoMs: 3 * DAY,
      },
      { from: 'them', text: 'Unos tres años ya. Ahora quiero mejorar la resistencia.', agoMs: 3 * DAY - 2 * HOUR },
      { from: 'me', text: 'Yo busco compañero para los fines de semana, entre semana voy justo.', agoMs: 2 * DAY },
      { from: 'them', text: 'El sábado por la mañana suelo estar libre. ¡Hablamos!', agoMs: 5 * HOUR },
    ],
    [
      { from: 'them', text: '¡Hola! ¿Qué tal el entreno de ayer?', agoMs: 6 * HOUR },
      { from: 'me', text: 'Duro pero bien, hoy tengo agujetas 😅', agoMs: 5 * HOUR },
      { from: 'them', text: 'Jaja, es buena señal. La próxima vez hacemos piernas juntos.', agoMs: 2 * HOUR },
    ],
  ];
}

/**
 * A living demo account (#19 §4): the README's `demo@demo.entreno.app` opens to matches, chats in
 * both directions with unread messages, notifications and training sessions (quedadas), all with
 * other demo people (`@demo.entreno.app`), so no real account is ever touched. Does nothing when
 * the demo account is missing or already has matches: reseeding is idempotent.
 */
export async function seedDemoAccountLife(db: Database, options: { now?: Date } = {}): Promise<string> {
  const now = options.now ?? new Date();
  const [demo] = await db
    .select({ id: users.id, name: profiles.name, ...PREFERENCE_COLUMNS })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(eq(users.email, DEMO_ACCOUNT_EMAIL))
    .limit(1);
  if (!demo) return 'Demo account: not found, nothing to bring to life.';
  const [existing] = await db
    .select({ id: matches.id })
    .from(matches)
    .where(sql`${matches.userLow} = ${demo.id} or ${matches.userHigh} = ${demo.id}`)
    .limit(1);
  if (existing) return 'Demo account: already has its matches and conversations.';

  const pool = await db
    .select({
      id: users.id,
      name: profiles.name,
      gym: profiles.gym,
      training: profiles.training,
      ...PREFERENCE_COLUMNS,
    })
    .from(users)
    .innerJoin(profiles, eq(profiles.userId, users.id))
    .where(and(like(users.email, '%@demo.entreno.app'), ne(users.id, demo.id)))
    .orderBy(sql`${profiles.city} = 'Madrid' desc`, users.email)
    .limit(CANDIDATE_POOL);
  const candidates = choosePartners(demo, pool, now);
  if (candidates.length < 4) return 'Demo account: not enough demo people to match with.';
  const partners: Partner[] = candidates.map((row) => ({
    id: row.id,
    name: row.name,
    gym: row.gym.name,
    sport: row.training.sports[0] ?? 'Musculación',
  }));

  await db.transaction(async (tx) => {
    for (const [index, partner] of partners.entries()) {
      const [low, high] = demo.id < partner.id ? [demo.id, partner.id] : [partner.id, demo.id];
      const matchedAt = new Date(now.getTime() - (4 - index) * DAY);
      const swipeType = index === 0 ? 'superlike' : 'like';
      await tx.insert(swipes).values([
        { swiperId: partner.id, targetId: demo.id, action: swipeType, createdAt: new Date(matchedAt.getTime() - HOUR) },
        { swiperId: demo.id, targetId: partner.id, action: 'like', createdAt: matchedAt },
      ]);
      const [match] = await tx
        .insert(matches)
        .values({ userLow: low, userHigh: high, swipeType, createdAt: matchedAt })
        .returning({ id: matches.id });
      const [conversation] = await tx
        .insert(conversations)
        .values({
          matchId: (match as { id: string }).id,
          userA: low,
          userB: high,
          swipeType,
          createdAt: matchedAt,
          updatedAt: matchedAt,
        })
        .returning({ id: conversations.id });
      const conversationId = (conversation as { id: string }).id;
      // The last partner is a fresh match with nobody having written yet ("Iniciar chat").
      const lines = scripts(partner)[index] ?? [];
      // The newest messages the partner sent are unread in the first and third conversation.
      const unreadFromThem = index === 0 ? 2 : index === 2 ? 1 : 0;
      const theirs = lines.filter((line) => line.from === 'them');
      const unreadLines = new Set(theirs.slice(theirs.length - unreadFromThem));
      let lastId: string | null = null;
      let demoLastReadSeq: number | null = null;
      for (const [seqIndex, line] of lines.entries()) {
        const at = new Date(now.getTime() - line.agoMs);
        const isMine = line.from === 'me';
        const isUnread = unreadLines.has(line);
        const [stored] = await tx
          .insert(messages)
          .values({
            conversationId,
            senderId: isMine ? demo.id : partner.id,
            receiverId: isMine ? partner.id : demo.id,
            text: line.text,
            seq: seqIndex + 1,
            createdAt: at,
          })
          .returning({ id: messages.id });
        lastId = (stored as { id: string }).id;
        // Read and delivered are the members' cursors (docs/decisions/0041): the demo read up to its first unread.
        if (isUnread && demoLastReadSeq === null) demoLastReadSeq = seqIndex;
      }
      const last = lines.at(-1);
      if (last) {
        await tx
          .update(conversations)
          .set({
            lastSeq: lines.length,
            lastMessageId: lastId,
            lastMessagePreview: last.text,
            lastMessageAt: new Date(now.getTime() - last.agoMs),
            lastMessageSenderId: last.from === 'me' ? demo.id : partner.id,
            updatedAt: new Date(now.getTime() - last.agoMs),
          })
          .where(eq(conversations.id, conversationId));
      }
      await tx.insert(conversationParticipants).values([
        {
          conversationId,
          userId: demo.id,
          lastReadSeq: demoLastReadSeq ?? lines.length,
          deliveredSeq: lines.length,
          notifiedSeq: lines.length,
        },
        {
          conversationId,
          userId: partner.id,
          lastReadSeq: lines.length,
          deliveredSeq: lines.length,
          notifiedSeq: lines.length,
        },
      ]);
      const matchNotice = {
        userId: demo.id,
        type: 'match',
        priority: 'high',
        title: NOTIFICATION_MESSAGES.matchTitle,
        body: NOTIFICATION_MESSAGES.matchBody(partner.name),
        referenceId: conversationId,
        referenceType: 'conversation',
      };
      // The two newest matches are still unread notifications; the older ones were seen.
      await tx.insert(notifications).values({ ...matchNotice, isRead: index < 2, createdAt: matchedAt });
      if (unreadFromThem > 0) {
        const newest = theirs.at(-1) as Line;
        await tx.insert(notifications).values({
          userId: demo.id,
          type: 'message',
          priority: 'normal',
          title: NOTIFICATION_MESSAGES.messageTitle(partner.name),
          body:
            unreadFromThem > 1 ? NOTIFICATION_MESSAGES.messagesCollapsed(unreadFromThem, partner.name) : newest.text,
          referenceId: conversationId,
          referenceType: 'conversation',
          collapseKey: `conversation:${conversationId}`,
          collapseCount: unreadFromThem,
          isRead: false,
          createdAt: new Date(now.getTime() - newest.agoMs),
        });
      }
      // Training sessions: an upcoming one with the first partner, a past one with the second.
      if (index < 2) {
        // At hours people train (issue #34: one was seeded at 02:48), Madrid time.
        const startsAt =
          index === 0 ? madridAt(now.getTime() + 2 * DAY, '18:30') : madridAt(now.getTime() - 2 * DAY, '19:00');
        // The upcoming one was proposed a day ago, among the messages, not at the end of the thread.
        const proposedAt =
          index === 0 ? new Date(now.getTime() - DAY - 4 * HOUR) : new Date(startsAt.getTime() - 2 * DAY);
        await tx.insert(quedadas).values({
          conversationId,
          userA: low,
          userB: high,
          proposerId: index === 0 ? partner.id : demo.id,
          proposedBy: index === 0 ? partner.id : demo.id,
          status: index === 0 ? 'accepted' : 'done',
          gymName: partner.gym,
          startsAt,
          durationMin: 60,
          activity: partner.sport,
          note: index === 0 ? 'Calentamos juntos en la zona de cardio' : null,
          confirmations: index === 0 ? {} : { [demo.id]: true, [partner.id]: true },
          clientId: `demo-seed-${index}`,
          createdAt: proposedAt,
          updatedAt: new Date(proposedAt.getTime() + HOUR),
        });
      }
    }
    await tx.insert(notifications).values({
      userId: demo.id,
      type: 'welcome',
      priority: 'normal',
      title: NOTIFICATION_MESSAGES.welcomeTitle,
      body: NOTIFICATION_MESSAGES.welcomeBody(demo.name),
      isRead: true,
      createdAt: new Date(now.getTime() - 5 * DAY),
    });
  });
  return `Demo account: ${partners.length} matches, 3 conversations with unread messages, notifications and quedadas.`;
}
