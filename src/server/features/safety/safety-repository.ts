import { and, asc, desc, eq, or, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Database } from '../../db/client.ts';
import {
  blocks,
  conversationParticipants,
  DELETED_ACCOUNT_EMAIL_DOMAIN,
  isDeletedAccount,
  conversations,
  matches,
  messages,
  notifications,
  profiles,
  pushSubscriptions,
  reports,
  sessions,
  swipes,
  profileVerifications,
  userSettings,
  users,
  verificationRequests,
} from '../../db/schema/index.ts';
import { rowsOf } from '../../db/rows.ts';

/** The name a deleted account keeps in the other users' ended conversations. */
export const DELETED_USER_NAME = 'Usuario eliminado';

export type ConversationOfPair = { conversationId: string; userA: string; userB: string };
export type EndedConversation = { conversationId: string; otherUserId: string; status: 'blocked' | 'unmatched' };

export type SafetyRepository = ReturnType<typeof createSafetyRepository>;

/** Blocks, reports, the data export and account deletion: the only drizzle user of the safety feature. */
export function createSafetyRepository(db: Database) {
  /** The report this reporter stored with this clientId (an outbox replay), if any. */
  const findReportByClientId = async (reporterId: string, clientId: string): Promise<string | undefined> => {
    const [row] = await db
      .select({ id: reports.id })
      .from(reports)
      .where(and(eq(reports.reporterId, reporterId), eq(reports.clientId, clientId)));
    return row?.id;
  };

  return {
    /** The account's sign-in facts, or undefined for an unknown or deleted account. */
    async findAccount(userId: string): Promise<{ passwordHash: string | null } | undefined> {
      const [row] = await db
        .select({ passwordHash: users.passwordHash, email: users.email })
        .from(users)
        .where(eq(users.id, userId));
      if (!row || isDeletedAccount(row)) return undefined;
      return { passwordHash: row.passwordHash };
    },

    /**
     * Blocks `blockedId` for `blockerId` and closes their conversations ('blocked', which outlives
     * an unblock); both users' sync hears of it. Returns the conversations that changed.
     */
    async block(blockerId: string, blockedId: string, now: Date): Promise<ConversationOfPair[]> {
      return db.transaction(async (tx) => {
        await tx.insert(blocks).values({ blockerId, blockedId, createdAt: now }).onConflictDoNothing();
        const changed = rowsOf<{ id: string; user_a: string; user_b: string }>(
          await tx.execute(sql`update conversations set status = 'blocked', updated_at = ${now},
              changed_xid = pg_current_xact_id()
            where ((user_a = ${blockerId}::uuid and user_b = ${blockedId}::uuid)
               or (user_a = ${blockedId}::uuid and user_b = ${blockerId}::uuid))
              and status <> 'blocked'
            returning id, user_a, user_b`),
        );
        // A cached deck page must not bring the other back (the deck query honours blocks when built).
        await tx.execute(
          sql`delete from recommendation_decks where viewer_id in (${blockerId}::uuid, ${blockedId}::uuid)`,
        );
        return changed.map((row) => ({ conversationId: row.id, userA: row.user_a, userB: row.user_b }));
      });
    },

    /** The group conversations both are current members of (whose membership caches hold their blocks). */
    async sharedGroups(a: string, b: string): Promise<string[]> {
      return rowsOf<{ conversation_id: string }>(
        await db.execute(sql`select p.conversation_id from conversation_participants p
          join conversation_participants q on q.conversation_id = p.conversation_id and q.user_id = ${b}::uuid
            and q.left_at is null
          join conversations c on c.id = p.conversation_id and c.kind = 'group'
          where p.user_id = ${a}::uuid and p.left_at is null`),
      ).map((row) => row.conversation_id);
    },

    /** True when there was a block to remove. The conversations stay ended. */
    async unblock(blockerId: string, blockedId: string): Promise<boolean> {
      const removed = await db
        .delete(blocks)
        .where(and(eq(blocks.blockerId, blockerId), eq(blocks.blockedId, blockedId)))
        .returning({ blockedId: blocks.blockedId });
      return removed.length > 0;
    },

    async listBlocks(blockerId: string) {
      return db
        .select({
          userId: blocks.blockedId,
          accountName: users.name,
          profileName: profiles.name,
          photos: profiles.photos,
          blockedAt: blocks.createdAt,
        })
        .from(blocks)
        .innerJoin(users, eq(users.id, blocks.blockedId))
        .leftJoin(profiles, eq(profiles.userId, blocks.blockedId))
        .where(eq(blocks.blockerId, blockerId))
        .orderBy(desc(blocks.createdAt));
    },

    findReportByClientId,

    /** Stores a report; with a clientId already used by this reporter, answers that report instead. */
    async insertReport(report: {
      reporterId: string;
      reportedId: string;
      reason: string;
      details: string | null;
      conversationId: string | null;
      openSessionId: string | null;
      messageId: string | null;
      messageText: string | null;
      clientId: string | null;
      now: Date;
    }): Promise<{ id: string; isNew: boolean }> {
      const [row] = await db
        .insert(reports)
        .values({
          reporterId: report.reporterId,
          reportedId: report.reportedId,
          reason: report.reason,
          details: report.details,
          conversationId: report.conversationId,
          openSessionId: report.openSessionId,
          messageId: report.messageId,
          messageText: report.messageText,
          clientId: report.clientId,
          status: 'open',
          createdAt: report.now,
        })
        .onConflictDoNothing({
          target: [reports.reporterId, reports.clientId],
          where: sql`${reports.clientId} is not null`,
        })
        .returning({ id: reports.id });
      if (row) return { id: row.id, isNew: true };
      // Two deliveries of one clientId at once: the other stored it.
      const earlier = report.clientId ? await findReportByClientId(report.reporterId, report.clientId) : undefined;
      if (!earlier) throw new Error('report not stored');
      return { id: earlier, isNew: false };
    },

    /** Everything stored about one user, in their own rows only (docs/decisions/0012). */
    async exportData(userId: string) {
      const [account] = await db.select().from(users).where(eq(users.id, userId));
      const { passwordHash: _hidden, ...user } = account ?? { passwordHash: null };
      const involves = (a: AnyPgColumn, b: AnyPgColumn) => or(eq(a, userId), eq(b, userId));
      const [
        sessionRows,
        profileRows,
        swipeRows,
        matchRows,
        conversationRows,
        participantRows,
        messageRows,
        notificationRows,
        settingsRows,
        pushRows,
        blockRows,
        reportRows,
        verificationRows,
        verificationRequestRows,
        moderationRows,
      ] = await Promise.all([
        db
          .select({
            id: sessions.id,
            rememberMe: sessions.rememberMe,
            createdAt: sessions.createdAt,
            expiresAt: sessions.expiresAt,
            revokedAt: sessions.revokedAt,
          })
          .from(sessions)
          .where(eq(sessions.userId, userId))
          .orderBy(asc(sessions.createdAt)),
        db.select().from(profiles).where(eq(profiles.userId, userId)),
        db
          .select({ targetUserId: swipes.targetId, action: swipes.action, createdAt: swipes.createdAt })
          .from(swipes)
          .where(eq(swipes.swiperId, userId))
          .orderBy(asc(swipes.createdAt)),
        db.select().from(matches).where(involves(matches.userLow, matches.userHigh)),
        db
          .select({
            id: conversations.id,
            matchId: conversations.matchId,
            userA: conversations.userA,
            userB: conversations.userB,
            status: conversations.status,
            createdAt: conversations.createdAt,
            updatedAt: conversations.updatedAt,
          })
          .from(conversations)
          .where(involves(conversations.userA, conversations.userB)),
        db.select().from(conversationParticipants).where(eq(conversationParticipants.userId, userId)),
        db
          .select({
            id: messages.id,
            conversationId: messages.conversationId,
            senderId: messages.senderId,
            receiverId: messages.receiverId,
            text: messages.text,
            createdAt: messages.createdAt,
            // The receiver's cursors (docs/decisions/0041).
            isDelivered: sql<boolean>`exists (select 1 from conversation_participants p
              where p.conversation_id = ${messages.conversationId} and p.user_id = ${messages.receiverId}
                and greatest(p.delivered_seq, p.last_read_seq) >= ${messages.seq})`,
            isRead: sql<boolean>`exists (select 1 from conversation_participants p
              where p.conversation_id = ${messages.conversationId} and p.user_id = ${messages.receiverId}
                and p.last_read_seq >= ${messages.seq})`,
          })
          .from(messages)
          .where(or(eq(messages.senderId, userId), eq(messages.receiverId, userId)))
          .orderBy(asc(messages.createdAt)),
        db.select().from(notifications).where(eq(notifications.userId, userId)).orderBy(asc(notifications.createdAt)),
        db.select().from(userSettings).where(eq(userSettings.userId, userId)),
        db
          .select({ endpoint: pushSubscriptions.endpoint, createdAt: pushSubscriptions.createdAt })
          .from(pushSubscriptions)
          .where(eq(pushSubscriptions.userId, userId)),
        db
          .select({ blockedUserId: blocks.blockedId, createdAt: blocks.createdAt })
          .from(blocks)
          .where(eq(blocks.blockerId, userId)),
        db
          .select({
            id: reports.id,
            reportedUserId: reports.reportedId,
            reason: reports.reason,
            details: reports.details,
            conversationId: reports.conversationId,
            openSessionId: reports.openSessionId,
            messageId: reports.messageId,
            messageText: reports.messageText,
            status: reports.status,
            createdAt: reports.createdAt,
          })
          .from(reports)
          .where(eq(reports.reporterId, userId)),
        // Verification (docs/decisions/0034): the state and the requests, never a selfie nor who reviewed.
        db
          .select({
            status: profileVerifications.status,
            reason: profileVerifications.reason,
            verifiedAt: profileVerifications.verifiedAt,
            approvedPhotoKeys: profileVerifications.approvedPhotoKeys,
          })
          .from(profileVerifications)
          .where(eq(profileVerifications.userId, userId)),
        db
          .select({
            kind: verificationRequests.kind,
            pose: verificationRequests.pose,
            status: verificationRequests.status,
            reason: verificationRequests.reason,
            createdAt: verificationRequests.createdAt,
            reviewedAt: verificationRequests.reviewedAt,
          })
          .from(verificationRequests)
          .where(eq(verificationRequests.userId, userId))
          .orderBy(asc(verificationRequests.createdAt)),
        // Moderation (docs/decisions/0033): what the person was told and their appeal; never the
        // moderator's note, who acted, nor the automatic hold (which would hint at reports).
        db.execute(sql`select r.kind, r.reason, r.created_at as "createdAt", r.ends_at as "endsAt",
            r.lifted_at as "liftedAt", a.text as "appealText", a.status as "appealStatus"
          from account_restrictions r left join moderation_appeals a on a.restriction_id = r.id
          where r.user_id = ${userId}::uuid and r.kind <> 'review_hold' order by r.created_at`),
      ]);
      return {
        user: account ? user : undefined,
        sessions: sessionRows,
        profile: profileRows[0] ?? null,
        photos: profileRows[0]?.photos ?? [],
        swipes: swipeRows,
        matches: matchRows.map((row) => ({
          id: row.id,
          otherUserId: row.userLow === userId ? row.userHigh : row.userLow,
          swipeType: row.swipeType,
          createdAt: row.createdAt,
        })),
        conversations: conversationRows.map((row) => {
          const own = participantRows.find((participant) => participant.conversationId === row.id);
          return {
            id: row.id,
            matchId: row.matchId,
            otherUserId: row.userA === userId ? row.userB : row.userA,
            status: row.status,
            createdAt: row.createdAt,
            updatedAt: row.updatedAt,
            isPinned: own?.isPinned ?? false,
            isMuted: own?.isMuted ?? false,
            isArchived: own?.isArchived ?? false,
          };
        }),
        messages: messageRows.map((row) => ({
          id: row.id,
          conversationId: row.conversationId,
          senderId: row.senderId,
          receiverId: row.receiverId,
          text: row.text,
          createdAt: row.createdAt,
          isDelivered: row.isDelivered === true,
          isRead: row.isRead === true,
        })),
        notifications: notificationRows,
        settings: settingsRows[0]?.settings ?? {},
        pushSubscriptions: pushRows,
        blocks: blockRows,
        reports: reportRows,
        verification: verificationRows[0] ? { ...verificationRows[0], requests: verificationRequestRows } : null,
        moderation: rowsOf<Record<string, unknown>>(moderationRows),
      };
    },

    /**
     * Deletes the account's data in one transaction (docs/decisions/0012) and leaves a tombstone
     * users row with no personal data, so the other users' ended conversations still read. Returns
     * the photo keys to remove from the store and the conversations the other users must hear of.
     */
    async deleteAccount(userId: string, now: Date): Promise<{ photoKeys: string[]; ended: EndedConversation[] }> {
      return db.transaction(async (tx) => {
        const [profile] = await tx
          .select({ photos: profiles.photos })
          .from(profiles)
          .where(eq(profiles.userId, userId))
          .for('update');
        const ended = rowsOf<{ id: string; other_id: string; status: string }>(
          await tx.execute(sql`update conversations c
            set status = case when c.status = 'active' then 'unmatched' else c.status end,
              unmatched_by = case when c.status = 'active' then ${userId}::uuid else c.unmatched_by end,
              unmatched_at = case when c.status = 'active' then ${now} else c.unmatched_at end,
              updated_at = ${now}, changed_xid = pg_current_xact_id()
            where c.user_a = ${userId}::uuid or c.user_b = ${userId}::uuid
            returning c.id, case when c.user_a = ${userId}::uuid then c.user_b else c.user_a end as other_id, c.status`),
        );
        await tx.delete(messages).where(eq(messages.senderId, userId));
        if (ended.length > 0) {
          const ids = sql.join(
            ended.map((row) => sql`${row.id}::uuid`),
            sql`, `,
          );
          // The last message shown in the list without the deleted messages (unread counts are derived).
          await tx.execute(sql`update conversations c set
              last_message_id = m.id, last_message_preview = left(m.text, 200),
              last_message_at = m.created_at, last_message_sender_id = m.sender_id
            from (select c2.id as conversation_id, lm.id, lm.text, lm.created_at, lm.sender_id
                  from conversations c2
                  left join lateral (select id, text, created_at, sender_id from messages
                    where conversation_id = c2.id order by seq desc limit 1) lm on true
                  where c2.id in (${ids})) m
            where c.id = m.conversation_id and c.last_message_sender_id = ${userId}::uuid`);
        }
        await tx.delete(conversationParticipants).where(eq(conversationParticipants.userId, userId));
        await tx.delete(profiles).where(eq(profiles.userId, userId));
        await tx.delete(swipes).where(eq(swipes.swiperId, userId));
        await tx.delete(blocks).where(or(eq(blocks.blockerId, userId), eq(blocks.blockedId, userId)));
        await tx.delete(notifications).where(eq(notifications.userId, userId));
        await tx.delete(pushSubscriptions).where(eq(pushSubscriptions.userId, userId));
        await tx.delete(userSettings).where(eq(userSettings.userId, userId));
        await tx.delete(sessions).where(eq(sessions.userId, userId));
        await tx.update(reports).set({ reporterId: null }).where(eq(reports.reporterId, userId));
        // Every way in goes with the account (docs/decisions/0043): passkeys, the second step's
        // secret, recovery codes and remembered devices, and any passkey ceremony under way.
        for (const table of [
          'passkeys',
          'two_factor',
          'recovery_codes',
          'trusted_devices',
          'webauthn_challenges',
          'password_reset_tokens',
          'streak_reminders',
          'recommendation_decks',
        ]) {
          const column = table === 'recommendation_decks' ? 'viewer_id' : 'user_id';
          await tx.execute(sql`delete from ${sql.identifier(table)} where ${sql.identifier(column)} = ${userId}::uuid`);
        }
        await tx
          .update(users)
          .set({
            email: `${userId}@${DELETED_ACCOUNT_EMAIL_DOMAIN}`,
            phone: null,
            name: DELETED_USER_NAME,
            lastName: '',
            passwordHash: null,
            googleSub: null,
            completeProfile: false,
            streak: 0,
            lastLoginDate: null,
            lastLatitude: null,
            lastLongitude: null,
            lastLocationAt: null,
            updatedAt: now,
          })
          .where(eq(users.id, userId));
        return {
          photoKeys: profile?.photos ?? [],
          ended: ended.map((row) => ({
            conversationId: row.id,
            otherUserId: row.other_id,
            status: row.status === 'blocked' ? 'blocked' : 'unmatched',
          })),
        };
      });
    },
  };
}
