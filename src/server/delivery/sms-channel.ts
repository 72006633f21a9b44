import type { Outbox } from './outbox.ts';

export type SmsMessage = {
  /** E.164, e.g. +34612398745. */
  to: string;
  text: string;
  /** The code the text carries, kept apart so the dev outbox can show it. */
  code?: string;
};

/** Sends a text message. Implementations throw when the message could not be handed over. */
export interface SmsChannel {
  readonly kind: 'outbox' | 'twilio';
  send(message: SmsMessage): Promise<void>;
}

/** Texts written to the dev outbox instead of sent. */
export function createOutboxSmsChannel(outbox: Outbox): SmsChannel {
  return {
    kind: 'outbox',
    async send(message) {
      await outbox.record({ channel: 'sms', to: message.to, text: message.text, code: message.code });
    },
  };
}

export type TwilioSettings = { accountSid: string; authToken: string; from: string; apiUrl: string };

const PROVIDER_TIMEOUT_MS = 10_000;

/** Texts sent through Twilio's Messages API (the adapter seam for any other provider). */
export function createTwilioSmsChannel(settings: TwilioSettings, fetchImpl: typeof fetch = fetch): SmsChannel {
  const url = `${settings.apiUrl}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    kind: 'twilio',
    async send(message) {
      const response = await fetchImpl(url, {
        method: 'POST',
        headers: { authorization, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ To: message.to, From: settings.from, Body: message.text }),
        signal: AbortSignal.timeout(PROVIDER_TIMEOUT_MS),
      });
      if (!response.ok) {
        // The provider's body may echo the number and text; the status is enough to act on.
        await response.body?.cancel();
        throw new Error(`SMS provider answered HTTP ${response.status}`);
      }
      await response.body?.cancel();
    },
  };
}
