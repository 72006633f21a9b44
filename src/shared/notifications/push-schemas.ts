import * as v from 'valibot';
import { NOTIFICATION_MESSAGES } from './notification-messages.ts';
import { NOTIFICATION_TYPES, type NotificationType } from './notification-schemas.ts';

/*
 * Web push (QUALITY 22): the subscription calls and the payload the server encrypts for the
 * service worker. The payload is small — ids, a preview and where a click goes — and both the
 * server (which builds it) and the worker (which parses it) use this file.
 */

/** Longest preview a push carries; the full text stays on the server. */
export const PUSH_BODY_MAX_LENGTH = 120;
export const PUSH_TITLE_MAX_LENGTH = 80;
/** Push services accept endpoints well under this; anything longer is not a real one. */
export const PUSH_ENDPOINT_MAX_LENGTH = 2048;

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** Decoded length of a base64url text (padding ignored); -1 when it is not base64url. */
function base64UrlLength(value: string): number {
  if (!BASE64URL.test(value)) return -1;
  const clean = value.replace(/=+$/, '');
  if (clean.length % 4 === 1) return -1;
  return Math.floor((clean.length * 3) / 4);
}

const keyOfLength = (bytes: number) =>
  v.pipe(
    v.string(NOTIFICATION_MESSAGES.invalidKeys),
    v.maxLength(200, NOTIFICATION_MESSAGES.invalidKeys),
    v.check((value) => base64UrlLength(value) === bytes, NOTIFICATION_MESSAGES.invalidKeys),
  );

const EndpointSchema = v.pipe(
  v.string(NOTIFICATION_MESSAGES.invalidEndpoint),
  v.maxLength(PUSH_ENDPOINT_MAX_LENGTH, NOTIFICATION_MESSAGES.invalidEndpoint),
  v.url(NOTIFICATION_MESSAGES.invalidEndpoint),
);

/** `POST /api/push/subscriptions`: what `PushSubscription.toJSON()` gives. */
export const PushSubscriptionRequestSchema = v.strictObject(
  {
    endpoint: EndpointSchema,
    keys: v.strictObject(
      {
        /** The browser's P-256 public key, uncompressed (65 bytes). */
        p256dh: keyOfLength(65),
        /** The 16-byte authentication secret. */
        auth: keyOfLength(16),
      },
      NOTIFICATION_MESSAGES.invalidKeys,
    ),
    expirationTime: v.optional(
      v.nullable(
        v.pipe(
          v.number(NOTIFICATION_MESSAGES.invalidExpiration),
          v.integer(NOTIFICATION_MESSAGES.invalidExpiration),
          v.minValue(0, NOTIFICATION_MESSAGES.invalidExpiration),
        ),
      ),
    ),
  },
  NOTIFICATION_MESSAGES.invalidEndpoint,
);
export type PushSubscriptionRequest = v.InferOutput<typeof PushSubscriptionRequestSchema>;

/** `DELETE /api/push/subscriptions`. */
export const PushUnsubscribeRequestSchema = v.strictObject(
  { endpoint: EndpointSchema },
  NOTIFICATION_MESSAGES.invalidEndpoint,
);

export type PushPublicKeyResponse = { success: true; publicKey: string };
export type PushSubscriptionResponse = { success: true };

/** What the service worker receives in a push event (JSON, encrypted by the server). */
export type PushPayload = {
  type: NotificationType;
  title: string;
  /** A preview of at most PUSH_BODY_MAX_LENGTH characters. */
  body: string;
  /** A same-origin path: `/messages/<conversationId>` or the notification's target. */
  url: string;
  /** Notifications with the same tag replace each other (one per conversation). */
  tag: string;
  notificationId: string | null;
  /** Unread notifications of the user, for the app badge; absent when unknown. */
  badgeCount?: number;
};

/** Cuts a preview to the push limit on a character (not UTF-16 unit) boundary, with "…". */
export function pushPreview(text: string, max: number = PUSH_BODY_MAX_LENGTH): string {
  const characters = Array.from(text.replace(/\s+/g, ' ').trim());
  if (characters.length <= max) return characters.join('');
  return `${characters.slice(0, max - 1).join('')}…`;
}

/** A path of this app: starts with one `/`, never `//` or `/\` (which browsers read as another host). */
export function isAppPath(value: string): boolean {
  if (!/^\/(?![/\\])/.test(value)) return false;
  // No whitespace or control characters: browsers strip some of them, which can turn `/` + tab + `/` into `//`.
  return !Array.from(value).some((character) => /\s/.test(character) || (character.codePointAt(0) ?? 0) < 0x20);
}

const PushPayloadSchema = v.object({
  type: v.picklist(NOTIFICATION_TYPES),
  title: v.pipe(v.string(), v.maxLength(PUSH_TITLE_MAX_LENGTH * 2)),
  body: v.pipe(v.string(), v.maxLength(PUSH_BODY_MAX_LENGTH * 2)),
  url: v.optional(v.string(), '/notifications'),
  tag: v.pipe(v.string(), v.maxLength(200)),
  notificationId: v.optional(v.nullable(v.string()), null),
  badgeCount: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0))),
});

/**
 * Reads a push payload defensively (the worker runs it on whatever arrives): the JSON text of a
 * push, or its parsed value. Anything unusable becomes null; a url that is not one of our paths
 * becomes `/notifications`, so a click never leaves the app.
 */
export function parsePushPayload(data: unknown): PushPayload | null {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch {
      return null;
    }
  }
  const result = v.safeParse(PushPayloadSchema, value);
  if (!result.success) return null;
  const payload = result.output;
  return {
    type: payload.type,
    title: payload.title,
    body: payload.body,
    url: isAppPath(payload.url) ? payload.url : '/notifications',
    tag: payload.tag,
    notificationId: payload.notificationId,
    ...(payload.badgeCount === undefined ? {} : { badgeCount: payload.badgeCount }),
  };
}

/**
 * Socket events a client sends when its page becomes visible or hidden (`document.visibilityState`);
 * `auth.visible` at connect gives the starting state. Pushes go only to users with no visible client.
 */
export const PRESENCE_VISIBLE_EVENT = 'presence:visible';
export const PRESENCE_HIDDEN_EVENT = 'presence:hidden';

/**
 * What the worker posts to an open window when a notification is tapped (issue #22): the app path
 * to show. The page answers `{ ok: true }` on the message's port once its router took it, so the
 * page navigates in place (drafts, scroll and everything in memory survive); without that answer
 * the worker falls back to reloading the window there.
 */
export const NAVIGATE_MESSAGE = 'ENTRENO_NAVIGATE';
export type NavigateMessage = { type: typeof NAVIGATE_MESSAGE; url: string };
