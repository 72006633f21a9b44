import webpush from 'web-push';

export type WebPushTarget = { endpoint: string; keys: { p256dh: string; auth: string } };

export type WebPushOptions = {
  /** Seconds the push service keeps the message for an offline device. */
  ttlSeconds: number;
  /** Replaces an undelivered message with the same topic (≤ 32 URL-safe base64 characters). */
  topic?: string;
  urgency: 'very-low' | 'low' | 'normal' | 'high';
};

/** What the push service answered: delivered, gone for good (404/410: delete it), or failed. */
export type WebPushResult =
  | { status: 'sent'; statusCode: number }
  | { status: 'gone'; statusCode: number }
  | { status: 'failed'; statusCode?: number; reason: string };

/** Sends encrypted Web Push messages (RFC 8030/8291/8292); never throws. */
export interface WebPushChannel {
  send(target: WebPushTarget, payload: string, options: WebPushOptions): Promise<WebPushResult>;
}

export type WebPushChannelSettings = {
  vapid: { publicKey: string; privateKey: string; subject: string };
  /** A push service that does not answer within this is abandoned (the message is dropped). */
  timeoutMs: number;
};

/**
 * web-push builds the message (aes128gcm encryption, VAPID JWT with `aud` = the endpoint's
 * origin); the request goes out through fetch with an abort time-out and no redirects, so a
 * slow service costs at most `timeoutMs` and an endpoint cannot bounce us elsewhere.
 */
export function createWebPushChannel(
  settings: WebPushChannelSettings,
  fetchImpl: typeof fetch = fetch,
): WebPushChannel {
  return {
    async send(target, payload, options) {
      let details: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        details = webpush.generateRequestDetails(target, payload, {
          vapidDetails: settings.vapid,
          TTL: options.ttlSeconds,
          urgency: options.urgency,
          ...(options.topic ? { topic: options.topic } : {}),
          contentEncoding: 'aes128gcm',
        });
      } catch (error) {
        return { status: 'failed', reason: `could not build the message: ${(error as Error).message}` };
      }
      const headers: Record<string, string> = {};
      for (const [name, value] of Object.entries(details.headers)) headers[name] = String(value);
      try {
        const response = await fetchImpl(details.endpoint, {
          method: 'POST',
          headers,
          body: details.body ? new Uint8Array(details.body) : null,
          redirect: 'manual',
          signal: AbortSignal.timeout(settings.timeoutMs),
        });
        await response.body?.cancel().catch(() => {});
        if (response.status === 404 || response.status === 410) {
          return { status: 'gone', statusCode: response.status };
        }
        if (response.status >= 200 && response.status < 300) return { status: 'sent', statusCode: response.status };
        return { status: 'failed', statusCode: response.status, reason: `push service answered ${response.status}` };
      } catch (error) {
        const name = (error as Error).name;
        const reason = name === 'TimeoutError' || name === 'AbortError' ? 'timed out' : (error as Error).message;
        return { status: 'failed', reason };
      }
    },
  };
}
