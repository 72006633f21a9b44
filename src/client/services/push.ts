/**
 * Web push for the page (QUALITY 22, 23): whether the browser can do it, the permission, and
 * subscribing or unsubscribing this browser. `subscribeToPush` asks for permission, so call it
 * only from a user gesture (a button in settings); `unsubscribeFromPush` is for logout and the
 * settings switch. The server decides what is pushed and to whom (docs/decisions/0007).
 */
import type {
  PushPublicKeyResponse,
  PushSubscriptionRequest,
  PushSubscriptionResponse,
} from '#shared/notifications/push-schemas';
import { requestJson } from './http.ts';
import { onSignOut } from './session.ts';

export type PushPermission = NotificationPermission | 'unsupported';

export type SubscribeResult =
  | { status: 'subscribed' }
  | { status: 'unsupported' }
  | { status: 'denied' }
  | { status: 'dismissed' };

/** Service workers, the Push API and notifications, in a secure context. */
export function isPushSupported(): boolean {
  return (
    typeof window !== 'undefined' &&
    window.isSecureContext &&
    'serviceWorker' in navigator &&
    'PushManager' in window &&
    'Notification' in window
  );
}

export function getPushPermission(): PushPermission {
  return isPushSupported() ? Notification.permission : 'unsupported';
}

/** The page's visibility as the socket reports it (`presence:visible` / `presence:hidden`). */
export function isPageVisible(): boolean {
  return typeof document === 'undefined' || document.visibilityState === 'visible';
}

/** Calls `listener` with the page's visibility whenever it changes; returns the unsubscribe. */
export function onVisibilityChange(listener: (isVisible: boolean) => void): () => void {
  const handler = () => listener(isPageVisible());
  document.addEventListener('visibilitychange', handler);
  return () => document.removeEventListener('visibilitychange', handler);
}

function base64UrlToBytes(value: string): Uint8Array<ArrayBuffer> {
  const base64 = value
    .replace(/-/g, '+')
    .replace(/_/g, '/')
    .padEnd(Math.ceil(value.length / 4) * 4, '=');
  const binary = atob(base64);
  const bytes = new Uint8Array(new ArrayBuffer(binary.length));
  for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

function bytesToBase64Url(buffer: ArrayBuffer | null): string {
  if (!buffer) return '';
  let binary = '';
  for (const byte of new Uint8Array(buffer)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function toRequest(subscription: PushSubscription): PushSubscriptionRequest {
  return {
    endpoint: subscription.endpoint,
    keys: {
      p256dh: bytesToBase64Url(subscription.getKey('p256dh')),
      auth: bytesToBase64Url(subscription.getKey('auth')),
    },
    expirationTime: subscription.expirationTime,
  };
}

function sameKey(current: ArrayBuffer | null, expected: Uint8Array): boolean {
  if (!current || current.byteLength !== expected.byteLength) return false;
  const bytes = new Uint8Array(current);
  return bytes.every((byte, index) => byte === expected[index]);
}

/**
 * Asks for permission (call from a user gesture), subscribes this browser with the server's VAPID
 * key and saves the subscription on the server. An existing subscription made with another key
 * (the server's keys changed) is replaced.
 */
export async function subscribeToPush(): Promise<SubscribeResult> {
  if (!isPushSupported()) return { status: 'unsupported' };
  const permission =
    Notification.permission === 'default' ? await Notification.requestPermission() : Notification.permission;
  if (permission === 'denied') return { status: 'denied' };
  if (permission !== 'granted') return { status: 'dismissed' };
  const { publicKey } = await requestJson<PushPublicKeyResponse>('push/public-key');
  const applicationServerKey = base64UrlToBytes(publicKey);
  const registration = await navigator.serviceWorker.ready;
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && !sameKey(subscription.options.applicationServerKey, applicationServerKey)) {
    await subscription.unsubscribe();
    subscription = null;
  }
  subscription ??= await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey });
  await requestJson<PushSubscriptionResponse>('push/subscriptions', { method: 'POST', json: toRequest(subscription) });
  return { status: 'subscribed' };
}

/**
 * Forgets this browser's subscription on the server, then in the browser (logout: QUALITY 23).
 * Best effort: the browser side is removed even when the server cannot be reached.
 */
export async function unsubscribeFromPush(): Promise<void> {
  if (!isPushSupported()) return;
  const registration = await navigator.serviceWorker.getRegistration();
  const subscription = await registration?.pushManager.getSubscription();
  if (!subscription) return;
  try {
    await requestJson<PushSubscriptionResponse>('push/subscriptions', {
      method: 'DELETE',
      json: { endpoint: subscription.endpoint },
    });
  } finally {
    await subscription.unsubscribe().catch(() => false);
  }
}

/** Whether this browser currently has a push subscription. */
export async function hasPushSubscription(): Promise<boolean> {
  if (!isPushSupported()) return false;
  const registration = await navigator.serviceWorker.getRegistration();
  return !!(await registration?.pushManager.getSubscription());
}

let isCleanupStarted = false;

/**
 * Logout drops this browser's push subscription (QUALITY 23). The session runs its `onSignOut`
 * listeners while the token is still stored, so the server call is still authenticated.
 */
export function startPushCleanup(): void {
  if (isCleanupStarted) return;
  isCleanupStarted = true;
  onSignOut(() => unsubscribeFromPush());
}
