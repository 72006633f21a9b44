import { and, asc, eq, sql } from 'drizzle-orm';
import type { VerificationPose } from '#shared/verification/verification-poses';
import type { VerificationRecord, VerificationStatus } from '#shared/verification/verification-state';
import type { Database } from '../../db/client.ts';
import {
  type ProfileVerificationRow,
  profiles,
  profileVerifications,
  type VerificationRequestRow,
  verificationRequests,
  verificationSelfies,
} from '../../db/schema/index.ts';
import { isUuid } from '../profiles/profile-repository.ts';

type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** What the audit log writes with: the database or the review's transaction. */
export type AuditExecutor = Pick<Database, 'insert' | 'select'>;

/** A profile's verification row with the profile facts the rules read. */
export type VerificationSubject = {
  userId: string;
  photos: string[];
  birthDate: string;
  name: string;
  record: ProfileVerificationRow | undefined;
};

export type QueueRow = VerificationRequestRow & {
  name: string;
  birthDate: string;
  currentPhotos: string[];
  approvedPhotoKeys: string[];
  hasSelfie: boolean;
};

/** What a review changes, computed by the service from the locked rows. */
export type ReviewOutcome = {
  record: VerificationRecord;
  requestStatus: 'approved' | 'rejected';
  /** The profile photos the verification now covers ([] after a rejection). */
  approvedPhotoKeys: string[];
};

export type VerificationRepository = ReturnType<typeof createVerificationRepository>;

/** Profile verification: the only drizzle user of the verification feature (docs/decisions/0034). */
export function createVerificationRepository(db: Database) {
  /** The profile (locked) and its verification row (locked), in `tx`. */
  const lockSubject = async (tx: Transaction, userId: string): Promise<VerificationSubject | undefined> => {
    const [profile] = await tx
      .select({ userId: profiles.userId, photos: profiles.photos, birthDate: profiles.birthDate, name: profiles.name })
      .from(profiles)
      .where(eq(profiles.userId, userId))
      .for('update');
    if (!profile) return undefined;
    const [record] = await tx
      .select()
      .from(profileVerifications)
      .where(eq(profileVerifications.userId, userId))
      .for('update');
    return { ...profile, record };
  };

  /** Writes the record, and the public badge from its status, in `tx`. */
  const writeRecord = async (
    tx: Transaction,
    userId: string,
    values: Partial<typeof profileVerifications.$inferInsert> & { status: VerificationStatus },
    now: Date,
  ) => {
    await tx
      .insert(profileVerifications)
      .values({ userId, ...values, updatedAt: now })
      .onConflictDoUpdate({ target: profileVerifications.userId, set: { ...values, updatedAt: now } });
    // Only when it changes: the deck's change feed wakes on every profile update.
    await tx
      .update(profiles)
      .set({ verified: values.status === 'verified' })
      .where(
        and(eq(profiles.userId, userId), sql`${profiles.verified} is distinct from ${values.status === 'verified'}`),
      );
  };

  return {
    /** The profile and its verification row, unlocked (for reading the owner's state). */
    async findSubject(userId: string): Promise<VerificationSubject | undefined> {
      if (!isUuid(userId)) return undefined;
      const [row] = await db
        .select({
          userId: profiles.userId,
          photos: profiles.photos,
          birthDate: profiles.birthDate,
          name: profiles.name,
          record: profileVerifications,
        })
        .from(profiles)
        .leftJoin(profileVerifications, eq(profileVerifications.userId, profiles.userId))
        .where(eq(profiles.userId, userId));
      return row ? { ...row, record: row.record ?? undefined } : undefined;
    },

    /**
     * Runs `decide` on the locked profile and verification rows; when it returns a pose, stores
     * it as the challenge. One transaction, so two tabs asking at once get the same pose.
     */
    async issueChallenge(
      userId: string,
      decide: (subject: VerificationSubject) => { pose: VerificationPose; isNew: boolean },
      now: Date,
    ): Promise<VerificationPose | undefined> {
      if (!isUuid(userId)) return undefined;
      return db.transaction(async (tx) => {
        const subject = await lockSubject(tx, userId);
        if (!subject) return undefined;
        const { pose, isNew } = decide(subject);
        if (isNew) {
          const status = (subject.record?.status ?? 'none') as VerificationStatus;
          await tx
            .insert(profileVerifications)
            .values({ userId, status, challengePose: pose, challengeIssuedAt: now, updatedAt: now })
            .onConflictDoUpdate({
              target: profileVerifications.userId,
              set: { challengePose: pose, challengeIssuedAt: now, updatedAt: now },
            });
        }
        return pose;
      });
    },

    /**
     * Queues a selfie request: `check` sees the locked rows and throws to refuse; then the request
     * and its selfie are stored, the challenge is used up and the status becomes `record`'s.
     */
    async submitSelfie(
      userId: string,
      selfie: Buffer,
      check: (subject: VerificationSubject) => { record: VerificationRecord; pose: VerificationPose },
      now: Date,
    ): Promise<VerificationRequestRow | undefined> {
      if (!isUuid(userId)) return undefined;
      return db.transaction(async (tx) => {
        const subject = await lockSubject(tx, userId);
        if (!subject) return undefined;
        const { record, pose } = check(subject);
        const [request] = await tx
          .insert(verificationRequests)
          .values({ userId, kind: 'selfie', pose, photoKeys: subject.photos, createdAt: now })
          .returning();
        if (!request) throw new Error('verification request insert returned no row');
        await tx.insert(verificationSelfies).values({ requestId: request.id, data: selfie, createdAt: now });
        await writeRecord(
          tx,
          userId,
          // The pose stays (not valid without its time): the next attempt gets another one.
          { status: record.status, reason: record.reason, challengeIssuedAt: null },
          now,
        );
        return request;
      });
    },

    /**
     * After photos were added: `decide` sees the locked rows and returns the new record when the
     * badge must wait for a re-check, which is then queued. Returns whether it was suspended.
     */
    async suspendForRecheck(
      userId: string,
      decide: (subject: VerificationSubject) => VerificationRecord | null,
      now: Date,
    ): Promise<boolean> {
      if (!isUuid(userId)) return false;
      return db.transaction(async (tx) => {
        const subject = await lockSubject(tx, userId);
        if (!subject) return false;
        const record = decide(subject);
        if (!record) return false;
        await tx
          .insert(verificationRequests)
          .values({ userId, kind: 'recheck', photoKeys: subject.photos, createdAt: now })
          .onConflictDoNothing();
        await writeRecord(tx, userId, { status: record.status, reason: record.reason }, now);
        return true;
      });
    },

    /** Pending requests, oldest first, with what the moderator compares. */
    async queue(limit: number): Promise<QueueRow[]> {
      const rows = await db
        .select({
          request: verificationRequests,
          name: profiles.name,
          birthDate: profiles.birthDate,
          currentPhotos: profiles.photos,
          approvedPhotoKeys: profileVerifications.approvedPhotoKeys,
          hasSelfie: sql<boolean>`exists (select 1 from ${verificationSelfies} s where s.request_id = ${verificationRequests.id})`,
        })
        .from(verificationRequests)
        .innerJoin(profiles, eq(profiles.userId, verificationRequests.userId))
        .leftJoin(profileVerifications, eq(profileVerifications.userId, verificationRequests.userId))
        .where(eq(verificationRequests.status, 'pending'))
        .orderBy(asc(verificationRequests.createdAt), asc(verificationRequests.id))
        .limit(limit);
      return rows.map((row) => ({
        ...row.request,
        name: row.name,
        birthDate: row.birthDate,
        currentPhotos: row.currentPhotos,
        approvedPhotoKeys: row.approvedPhotoKeys ?? [],
        hasSelfie: row.hasSelfie,
      }));
    },

    /** The selfie of a request still under review, or undefined. */
    async readSelfie(requestId: string): Promise<Buffer | undefined> {
      if (!isUuid(requestId)) return undefined;
      const [row] = await db
        .select({ data: verificationSelfies.data })
        .from(verificationSelfies)
        .where(eq(verificationSelfies.requestId, requestId));
      return row ? Buffer.from(row.data) : undefined;
    },

    /**
     * Reviews a pending request: locks it, its profile and its record; `decide` computes the
     * outcome (or throws to refuse); the selfie is deleted in the same transaction.
     */
    async review(
      requestId: string,
      reviewerId: string,
      decide: (request: VerificationRequestRow, subject: VerificationSubject) => ReviewOutcome,
      now: Date,
      /** Written in the same transaction (the audit log): no action without its record. */
      alsoWrite: (executor: AuditExecutor, request: VerificationRequestRow, outcome: ReviewOutcome) => Promise<void>,
    ): Promise<{ request: VerificationRequestRow; outcome: ReviewOutcome } | undefined> {
      if (!isUuid(requestId)) return undefined;
      return db.transaction(async (tx) => {
        const [found] = await tx
          .select({ userId: verificationRequests.userId })
          .from(verificationRequests)
          .where(eq(verificationRequests.id, requestId));
        if (!found) return undefined;
        // The profile first, then the request: the order every other writer locks in.
        const subject = await lockSubject(tx, found.userId);
        const [request] = await tx
          .select()
          .from(verificationRequests)
          .where(eq(verificationRequests.id, requestId))
          .for('update');
        if (!subject || !request) return undefined;
        const outcome = decide(request, subject);
        await tx
          .update(verificationRequests)
          .set({
            status: outcome.requestStatus,
            reason: outcome.record.reason,
            reviewedBy: reviewerId,
            reviewedAt: now,
          })
          .where(eq(verificationRequests.id, requestId));
        await tx.delete(verificationSelfies).where(eq(verificationSelfies.requestId, requestId));
        await writeRecord(
          tx,
          request.userId,
          {
            status: outcome.record.status,
            reason: outcome.record.reason,
            approvedPhotoKeys: outcome.approvedPhotoKeys,
            verifiedAt: outcome.record.status === 'verified' ? now : null,
          },
          now,
        );
        await alsoWrite(tx, request, outcome);
        return { request, outcome };
      });
    },
  };
}
