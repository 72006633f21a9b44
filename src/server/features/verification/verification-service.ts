import { randomInt } from 'node:crypto';
import { ageFromBirthDate } from '#shared/profile/age';
import { choosePose, isVerificationPose, type VerificationPose } from '#shared/verification/verification-poses';
import {
  ApproveVerificationSchema,
  POSE_CHALLENGE_TTL_MS,
  RejectVerificationSchema,
  rejectionText,
  VERIFICATION_MESSAGES,
  type VerificationQueueItem,
  type VerificationState,
} from '#shared/verification/verification-schemas';
import { type VerificationRecord, type VerificationStatus, transition } from '#shared/verification/verification-state';
import type { Clock } from '../../infra/clock.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../errors.ts';
import type { Logger } from '../../logger.ts';
import { enforceRateLimits, type RateLimiter, type RateLimitRule } from '../../infra/rate-limit.ts';
import { parseInput } from '../../validation.ts';
import { PhotoRejectedError } from '../photos/index.ts';
import type { AuditExecutor, VerificationRepository, VerificationSubject } from './verification-repository.ts';

/** Selfies per user: a few retries a day, not a stream of re-encodes. */
export const SELFIE_SUBMIT_LIMIT: RateLimitRule = {
  name: 'verification-selfie-user',
  limit: 5,
  windowMs: 24 * 3600_000,
};
/** How many pending requests the console lists at once. */
export const QUEUE_PAGE = 50;

/** A moderator action, for the moderation audit log (who, what, when, why). */
export type VerificationAuditEntry = {
  moderator: { userId: string; email: string };
  action: 'verification_approved' | 'verification_rejected';
  targetUserId: string;
  requestId: string;
  kind: 'selfie' | 'recheck';
  /** Why: the text the person reads (a rejection), or what the approval covered. */
  reason: string;
  /** The profile photos compared. */
  photoKeys: string[];
};

/** What the verification feature needs from the others (ports, so tests pass fakes). */
export type VerificationServiceDeps = {
  repository: VerificationRepository;
  /** Re-encodes a selfie without metadata (selfie-processor.ts). */
  process(data: Buffer): Promise<Buffer>;
  notify(userId: string, notice: { title: string; body: string }): Promise<void>;
  /** Writes to the moderation audit log with `executor` (the review's transaction). */
  audit(entry: VerificationAuditEntry, executor: AuditExecutor): Promise<void>;
  limiter: RateLimiter;
  clock: Clock;
  logger: Logger;
  /** A number in [0, 1) for the pose; crypto-backed by default. */
  random?: () => number;
};

/** The moderator acting (the console's guard has checked the role). */
export type Moderator = { userId: string; email: string };

export type VerificationService = ReturnType<typeof createVerificationService>;

const secureRandom = () => randomInt(0, 1_000_000) / 1_000_000;

function recordOf(subject: VerificationSubject): VerificationRecord {
  return { status: (subject.record?.status ?? 'none') as VerificationStatus, reason: subject.record?.reason ?? null };
}

function validChallenge(subject: VerificationSubject, now: Date): VerificationPose | null {
  const pose = subject.record?.challengePose;
  const issuedAt = subject.record?.challengeIssuedAt;
  if (!isVerificationPose(pose) || !issuedAt) return null;
  return now.getTime() - issuedAt.getTime() < POSE_CHALLENGE_TTL_MS ? pose : null;
}

/** Why a new selfie cannot be asked for now, as the 4xx to answer (undefined: it can). */
function refusal(subject: VerificationSubject): AppError | undefined {
  const { status } = recordOf(subject);
  if (status === 'pending' || status === 'recheck')
    return conflict(VERIFICATION_MESSAGES.alreadyPending, 'ALREADY_PENDING');
  if (status === 'verified') return conflict(VERIFICATION_MESSAGES.alreadyVerified, 'ALREADY_VERIFIED');
  if (subject.photos.length === 0) return badRequest(VERIFICATION_MESSAGES.noPhotos, 'NO_PHOTOS');
  return undefined;
}

/**
 * Verified profiles reviewed by people (issue #23 part 2, docs/decisions/0034): a selfie copying
 * a random pose, queued for moderators, who approve it against the profile's photos or reject it
 * with a reason; new photos on a verified profile pause the badge until a re-check.
 */
export function createVerificationService(deps: VerificationServiceDeps) {
  const { repository, clock } = deps;
  const random = deps.random ?? secureRandom;

  const stateOf = (subject: VerificationSubject): VerificationState => {
    const { status, reason } = recordOf(subject);
    const record = subject.record;
    return {
      status,
      reason: status === 'rejected' ? reason : null,
      pose: status === 'none' || status === 'rejected' ? validChallenge(subject, clock.now()) : null,
      verifiedAt: status === 'verified' && record?.verifiedAt ? record.verifiedAt.toISOString() : null,
      updatedAt: record ? record.updatedAt.toISOString() : null,
    };
  };

  const requireSubject = async (userId: string) => {
    const subject = await repository.findSubject(userId);
    if (!subject) throw notFound(VERIFICATION_MESSAGES.noProfile);
    return subject;
  };

  return {
    /** `GET /api/verification`: the owner's own state (never the selfie). */
    async state(userId: string): Promise<VerificationState> {
      return stateOf(await requireSubject(userId));
    },

    /**
     * `POST /api/verification/challenge`: the pose for the next selfie. A pose still valid is
     * kept (asking again does not shop for an easier one); otherwise a new one, never the last.
     */
    async challenge(userId: string): Promise<VerificationState> {
      const now = clock.now();
      const pose = await repository.issueChallenge(
        userId,
        (subject) => {
          const refused = refusal(subject);
          if (refused) throw refused;
          const current = validChallenge(subject, now);
          if (current) return { pose: current, isNew: false };
          const previous = subject.record?.challengePose;
          return { pose: choosePose(random, isVerificationPose(previous) ? previous : null), isNew: true };
        },
        now,
      );
      if (!pose) throw notFound(VERIFICATION_MESSAGES.noProfile);
      return stateOf(await requireSubject(userId));
    },

    /** Everything that can refuse a selfie before its bytes are read. */
    async beginSubmit(userId: string): Promise<void> {
      const subject = await requireSubject(userId);
      const refused = refusal(subject);
      if (refused) throw refused;
      if (!validChallenge(subject, clock.now()))
        throw conflict(VERIFICATION_MESSAGES.challengeMissing, 'CHALLENGE_EXPIRED');
      await enforceRateLimits(
        deps.limiter,
        [{ rule: SELFIE_SUBMIT_LIMIT, key: userId }],
        VERIFICATION_MESSAGES.rateLimited,
        'RATE_LIMIT',
      );
    },

    /** `POST /api/verification/requests`: re-encodes the selfie and queues it with its pose. */
    async submit(userId: string, file: Buffer | undefined): Promise<VerificationState> {
      if (!file || file.length === 0) throw badRequest(VERIFICATION_MESSAGES.selfieMissing, 'VALIDATION');
      let selfie: Buffer;
      try {
        selfie = await deps.process(file);
      } catch (error) {
        if (error instanceof PhotoRejectedError) {
          throw error.reason === 'too-many-pixels'
            ? new AppError(422, VERIFICATION_MESSAGES.selfieTooManyPixels, 'IMAGE_DIMENSIONS')
            : new AppError(415, VERIFICATION_MESSAGES.selfieFormat, 'FILE_FORMAT');
        }
        throw error;
      }
      const now = clock.now();
      const request = await repository.submitSelfie(
        userId,
        selfie,
        (subject) => {
          const refused = refusal(subject);
          if (refused) throw refused;
          const pose = validChallenge(subject, now);
          if (!pose) throw conflict(VERIFICATION_MESSAGES.challengeMissing, 'CHALLENGE_EXPIRED');
          const record = transition(recordOf(subject), { type: 'submit' });
          if (!record) throw conflict(VERIFICATION_MESSAGES.alreadyPending, 'ALREADY_PENDING');
          return { record, pose };
        },
        now,
      );
      if (!request) throw notFound(VERIFICATION_MESSAGES.noProfile);
      return stateOf(await requireSubject(userId));
    },

    /**
     * Photos were added to `userId`'s profile: a verified profile showing a photo no moderator
     * compared loses its badge until a re-check, queued here. Never throws (the upload is done).
     */
    async photosAdded(userId: string): Promise<void> {
      try {
        await repository.suspendForRecheck(
          userId,
          (subject) => {
            const approved = new Set(subject.record?.approvedPhotoKeys ?? []);
            if (subject.photos.every((key) => approved.has(key))) return null;
            return transition(recordOf(subject), { type: 'photos-added' });
          },
          clock.now(),
        );
      } catch (error) {
        deps.logger.error({ err: error, userId }, 'verification: could not queue the re-check after new photos');
      }
    },

    /** The moderators' queue: pending requests, oldest first. */
    async queue(): Promise<VerificationQueueItem[]> {
      const now = clock.now();
      const rows = await repository.queue(QUEUE_PAGE);
      return rows.map((row) => ({
        id: row.id,
        kind: row.kind === 'recheck' ? 'recheck' : 'selfie',
        userId: row.userId,
        name: row.name,
        age: ageFromBirthDate(row.birthDate, now),
        pose: isVerificationPose(row.pose) ? row.pose : null,
        createdAt: row.createdAt.toISOString(),
        photoKeys: row.currentPhotos,
        approvedPhotoKeys: row.approvedPhotoKeys,
        hasSelfie: row.hasSelfie,
      }));
    },

    /** A pending request's selfie, for a moderator (reviewed ones are deleted: 404). */
    async selfie(requestId: string): Promise<Buffer> {
      const data = await repository.readSelfie(requestId);
      if (!data) throw notFound(VERIFICATION_MESSAGES.requestNotFound);
      return data;
    },

    /** Approves against the photos the moderator saw: if the profile shows others now, 409. */
    async approve(moderator: Moderator, requestId: string, body: unknown): Promise<{ success: true; message: string }> {
      const { photoKeys } = parseInput(ApproveVerificationSchema, body ?? {});
      const seen = new Set(photoKeys);
      const reviewed = await repository.review(
        requestId,
        moderator.userId,
        (request, subject) => {
          if (request.status !== 'pending') throw conflict(VERIFICATION_MESSAGES.alreadyReviewed, 'ALREADY_REVIEWED');
          if (request.userId === moderator.userId) throw forbidden(VERIFICATION_MESSAGES.ownRequest);
          if (subject.photos.length === 0 || !subject.photos.every((key) => seen.has(key))) {
            throw conflict(VERIFICATION_MESSAGES.photosChanged, 'PHOTOS_CHANGED');
          }
          const record = transition(recordOf(subject), { type: 'approve' });
          if (!record) throw conflict(VERIFICATION_MESSAGES.alreadyReviewed, 'ALREADY_REVIEWED');
          return { record, requestStatus: 'approved', approvedPhotoKeys: [...subject.photos] };
        },
        clock.now(),
        (executor, request, outcome) =>
          deps.audit(
            {
              moderator,
              action: 'verification_approved',
              targetUserId: request.userId,
              requestId,
              kind: request.kind === 'recheck' ? 'recheck' : 'selfie',
              reason:
                request.kind === 'recheck'
                  ? VERIFICATION_MESSAGES.auditRecheckApproved
                  : VERIFICATION_MESSAGES.auditSelfieApproved,
              photoKeys: outcome.approvedPhotoKeys,
            },
            executor,
          ),
      );
      if (!reviewed) throw notFound(VERIFICATION_MESSAGES.requestNotFound);
      const { request } = reviewed;
      await deps.notify(request.userId, {
        title: VERIFICATION_MESSAGES.approvedTitle,
        body:
          request.kind === 'recheck' ? VERIFICATION_MESSAGES.recheckApprovedBody : VERIFICATION_MESSAGES.approvedBody,
      });
      return { success: true, message: VERIFICATION_MESSAGES.approved };
    },

    /** Rejects with a reason the person reads; the badge goes, and they may send a new selfie. */
    async reject(moderator: Moderator, requestId: string, body: unknown): Promise<{ success: true; message: string }> {
      const input = parseInput(RejectVerificationSchema, body ?? {});
      const reason = rejectionText(input.reason, input.note);
      const reviewed = await repository.review(
        requestId,
        moderator.userId,
        (request, subject) => {
          if (request.status !== 'pending') throw conflict(VERIFICATION_MESSAGES.alreadyReviewed, 'ALREADY_REVIEWED');
          if (request.userId === moderator.userId) throw forbidden(VERIFICATION_MESSAGES.ownRequest);
          const record = transition(recordOf(subject), { type: 'reject', reason });
          if (!record) throw conflict(VERIFICATION_MESSAGES.alreadyReviewed, 'ALREADY_REVIEWED');
          return { record, requestStatus: 'rejected', approvedPhotoKeys: [] };
        },
        clock.now(),
        (executor, request) =>
          deps.audit(
            {
              moderator,
              action: 'verification_rejected',
              targetUserId: request.userId,
              requestId,
              kind: request.kind === 'recheck' ? 'recheck' : 'selfie',
              reason,
              photoKeys: request.photoKeys,
            },
            executor,
          ),
      );
      if (!reviewed) throw notFound(VERIFICATION_MESSAGES.requestNotFound);
      await deps.notify(reviewed.request.userId, {
        title: VERIFICATION_MESSAGES.rejectedTitle,
        body: VERIFICATION_MESSAGES.rejectedBody(reason),
      });
      return { success: true, message: VERIFICATION_MESSAGES.rejected };
    },
  };
}
