import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEMO_INITIAL_DELAY_MS,
  DEMO_INTERVAL_MS,
  LOGIN_FORM_DELAY_MS,
} from '../../src/client/features/auth/demo-cycle.ts';
import {
  CHAT_SCREEN_PAGE_SIZE,
  CONVERSATION_LIST_PAGE_SIZE,
} from '../../src/client/features/chat/conversations-store.ts';
import { TYPING_IDLE_MS } from '../../src/client/features/chat/typing-signal.ts';
import {
  GOOGLE_BACKOFF_FACTOR,
  GOOGLE_BACKOFF_INITIAL_MS,
  GOOGLE_BACKOFF_MAX_MS,
  GOOGLE_SIGN_IN_MAX_ATTEMPTS,
  GOOGLE_SIGN_IN_TIMEOUT_MS,
} from '../../src/client/features/google-sign-in/google-sign-in-call.ts';
import { NOTIFICATION_BODY_PREVIEW_LENGTH } from '../../src/client/features/notifications/notification-list.ts';
import { NOTIFICATION_SOUND_URL } from '../../src/client/features/notifications/notification-sound.ts';
import { BELL_RING_MS } from '../../src/client/features/notifications/use-bell-ring.ts';
import { FALLBACK_LOCATION, LOCATION_TIMEOUT_MS } from '../../src/client/services/geolocation.ts';
import { SESSION_CHECK_INTERVAL_MS } from '../../src/client/services/session.ts';
import {
  JOIN_BATCH_SIZE,
  MAX_JOINED_ROOMS,
  SOCKET_CONNECT_TIMEOUT_MS,
  SOCKET_RECONNECT_DELAY_MAX_MS,
  SOCKET_RECONNECT_DELAY_MS,
} from '../../src/client/services/socket.ts';
import * as auth from '../../src/shared/auth/auth-constants.ts';
import { CONVERSATIONS_PAGE_SIZE, MESSAGES_PAGE_SIZE } from '../../src/shared/chat/chat-schemas.ts';
import { NOTIFICATIONS_PAGE_SIZE } from '../../src/shared/notifications/notification-schemas.ts';
import * as profile from '../../src/shared/profile/options.ts';
import {
  SEARCH_MAX_DISTANCE_DEFAULT,
  SEARCH_MAX_DISTANCE_MAX,
  SEARCH_MAX_DISTANCE_MIN,
} from '../../src/shared/settings/settings-schema.ts';
import { MESSAGE_GROUP_WINDOW_MS } from '../../src/shared/time/message-groups.ts';

/**
 * The business constants and limits of both specs (000 §9, 001 §9), each against the constant the
 * code uses: a change to any of them must be a change to the spec first (docs/spec-conformance.md).
 */
describe('spec 000 §9 constants', () => {
  it('SMS code: 6 digits, valid 10 minutes, resend after 60 s, limit lock 180 s', () => {
    expect(auth.SMS_CODE_LENGTH).toBe(6);
    expect(auth.SMS_CODE_TTL_S).toBe(600);
    expect(auth.SMS_RESEND_COOLDOWN_S).toBe(60);
    expect(auth.SMS_LIMIT_LOCK_S).toBe(180);
  });

  it('name max 20, surname max 30', () => {
    expect(auth.NAME_MAX_LENGTH).toBe(20);
    expect(auth.LAST_NAME_MAX_LENGTH).toBe(30);
  });

  it('reset link valid 1 hour; remember-me session 30 days', () => {
    expect(auth.RESET_LINK_TTL_S).toBe(3600);
    expect(auth.REMEMBER_ME_SESSION_DAYS).toBe(30);
  });

  it('login location: 5000 ms time-out, fallback about 40.4168, -3.7038', () => {
    expect(LOCATION_TIMEOUT_MS).toBe(5000);
    expect(FALLBACK_LOCATION.latitude).toBeCloseTo(40.4168, 1);
    expect(FALLBACK_LOCATION.longitude).toBeCloseTo(-3.7038, 1);
  });

  it('Google login: 20 s time-out, at most 4 attempts, backoff from 1500 ms × 1.5 capped at 4500 ms', () => {
    expect(GOOGLE_SIGN_IN_TIMEOUT_MS).toBe(20_000);
    expect(GOOGLE_SIGN_IN_MAX_ATTEMPTS).toBe(4);
    expect(GOOGLE_BACKOFF_INITIAL_MS).toBe(1500);
    expect(GOOGLE_BACKOFF_FACTOR).toBe(1.5);
    expect(GOOGLE_BACKOFF_MAX_MS).toBe(4500);
  });

  it('session check every 30 seconds', () => {
    expect(SESSION_CHECK_INTERVAL_MS).toBe(30_000);
  });

  it('demo carousel 3 s per profile after 800 ms; login form shown after 600 ms', () => {
    expect(DEMO_INTERVAL_MS).toBe(3000);
    expect(DEMO_INITIAL_DELAY_MS).toBe(800);
    expect(LOGIN_FORM_DELAY_MS).toBe(600);
  });
});

describe('spec 001 §9 constants', () => {
  it('photos: at most 6, 5 MB each', () => {
    expect(profile.MAX_PHOTOS).toBe(6);
    expect(profile.MIN_PHOTOS).toBe(1);
    expect(profile.MAX_PHOTO_BYTES).toBe(5 * 1024 * 1024);
  });

  it('bio 10-500, first name 1-20, last name 1-30, gym name 3-50, minimum age 18', () => {
    expect([profile.BIO_MIN, profile.BIO_MAX]).toEqual([10, 500]);
    expect([profile.NAME_MIN, profile.NAME_MAX]).toEqual([1, 20]);
    expect([profile.LAST_NAME_MIN, profile.LAST_NAME_MAX]).toEqual([1, 30]);
    expect([profile.GYM_NAME_MIN, profile.GYM_NAME_MAX]).toEqual([3, 50]);
    expect(profile.MIN_AGE).toBe(18);
    expect(profile.DEFAULT_AGE).toBe(18);
  });

  it('age range 18-99, default distance 50 km, distance minimum 1; settings slider 1-100 default 25', () => {
    expect([profile.AGE_RANGE_MIN, profile.AGE_RANGE_MAX]).toEqual([18, 99]);
    expect(profile.DEFAULT_DISTANCE_KM).toBe(50);
    expect(profile.DISTANCE_MIN_KM).toBe(1);
    expect([SEARCH_MAX_DISTANCE_MIN, SEARCH_MAX_DISTANCE_MAX, SEARCH_MAX_DISTANCE_DEFAULT]).toEqual([1, 100, 25]);
    expect([
      profile.SEARCH_DISTANCE_SLIDER_MIN_KM,
      profile.SEARCH_DISTANCE_SLIDER_MAX_KM,
      profile.SEARCH_DISTANCE_SLIDER_DEFAULT_KM,
    ]).toEqual([1, 100, 25]);
  });

  it('height 100-250 cm (default 170), weight 30-250 kg (default 70), frequency 1-7 (default 3)', () => {
    expect([profile.HEIGHT_MIN_CM, profile.HEIGHT_MAX_CM, profile.DEFAULT_HEIGHT_CM]).toEqual([100, 250, 170]);
    expect([profile.WEIGHT_MIN_KG, profile.WEIGHT_MAX_KG, profile.DEFAULT_WEIGHT_KG]).toEqual([30, 250, 70]);
    expect([profile.FREQUENCY_MIN_DAYS, profile.FREQUENCY_MAX_DAYS, profile.DEFAULT_FREQUENCY_DAYS]).toEqual([1, 7, 3]);
  });

  it('swipe threshold 50 px; prefetch at 3 or fewer; recommended page size 10; gym search from 3 characters', () => {
    expect(profile.SWIPE_THRESHOLD_PX).toBe(50);
    expect(profile.PREFETCH_THRESHOLD).toBe(3);
    expect(profile.RECOMMENDED_PAGE_SIZE).toBe(10);
    expect(profile.GYM_SEARCH_MIN_CHARS).toBe(3);
  });

  it('conversations page size 20 (list screen 10, chat screen 100); messages page size 50', () => {
    expect(CONVERSATIONS_PAGE_SIZE).toBe(20);
    expect(CONVERSATION_LIST_PAGE_SIZE).toBe(10);
    expect(CHAT_SCREEN_PAGE_SIZE).toBe(100);
    expect(MESSAGES_PAGE_SIZE).toBe(50);
  });

  it('notifications page size 20, bodies cut at 100 characters, the bell animates for 1 s', () => {
    expect(NOTIFICATIONS_PAGE_SIZE).toBe(20);
    expect(NOTIFICATION_BODY_PREVIEW_LENGTH).toBe(100);
    expect(BELL_RING_MS).toBe(1000);
  });

  it('messages grouped under 5 minutes; typing stops after 1000 ms without typing', () => {
    expect(MESSAGE_GROUP_WINDOW_MS).toBe(300_000);
    expect(TYPING_IDLE_MS).toBe(1000);
  });

  it('socket: connect time-out 60 s, reconnection delay 1 to 5 s, at most 20 rooms, joined in batches of 5', () => {
    expect(SOCKET_CONNECT_TIMEOUT_MS).toBe(60_000);
    expect([SOCKET_RECONNECT_DELAY_MS, SOCKET_RECONNECT_DELAY_MAX_MS]).toEqual([1000, 5000]);
    expect(MAX_JOINED_ROOMS).toBe(20);
    expect(JOIN_BATCH_SIZE).toBe(5);
  });

  it('matches of the last 7 days are recent; the default location is about 40.42, -3.70', () => {
    expect(profile.RECENT_MATCH_DAYS).toBe(7);
    expect(profile.DEFAULT_LOCATION.latitude).toBeCloseTo(40.42, 2);
    expect(profile.DEFAULT_LOCATION.longitude).toBeCloseTo(-3.7, 2);
  });

  it('a notification sound file ships with the app (the alerts play it)', () => {
    expect(NOTIFICATION_SOUND_URL).toMatch(/^\/sounds\/.+\.(wav|mp3|ogg)$/);
    expect(existsSync(new URL(`../../public${NOTIFICATION_SOUND_URL}`, import.meta.url))).toBe(true);
  });
});
