import { requestJson } from '../../services/http.ts';

/** The part of Google Identity Services' `google.accounts.id` the app uses (the stand-in has the same). */
export type GoogleIdentityApi = {
  initialize(config: {
    client_id: string;
    callback: (response: { credential?: string }) => void;
    ux_mode?: 'popup';
    context?: 'signin' | 'signup' | 'use';
  }): void;
  renderButton(
    parent: HTMLElement,
    options: {
      type?: 'standard';
      theme?: 'outline' | 'filled_blue' | 'filled_black';
      size?: 'large' | 'medium' | 'small';
      text?: GoogleButtonText;
      shape?: 'rectangular' | 'pill';
      logo_alignment?: 'left' | 'center';
      width?: number;
      locale?: string;
    },
  ): void;
};

export type GoogleButtonText = 'signin_with' | 'signup_with' | 'continue_with';

type GoogleConfig = { clientId: string; scriptUrl: string };

declare global {
  interface Window {
    google?: { accounts?: { id?: GoogleIdentityApi } };
  }
}

let pending: Promise<{ api: GoogleIdentityApi; clientId: string }> | null = null;

function injectScript(src: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    // A <script src>, never inline code: the CSP allows script-src 'self' only.
    script.src = src;
    script.async = true;
    script.onload = () => resolve();
    script.onerror = () => {
      script.remove();
      reject(new Error(`Google Identity Services script failed to load: ${src}`));
    };
    document.head.append(script);
  });
}

/**
 * Loads Identity Services once per page: GET /auth/google/config, then the script it names (the
 * local stand-in outside production). A failure is forgotten so that a later mount tries again.
 */
export function loadGoogleIdentity(): Promise<{ api: GoogleIdentityApi; clientId: string }> {
  pending ??= (async () => {
    const config = await requestJson<GoogleConfig>('auth/google/config');
    if (!window.google?.accounts?.id) await injectScript(config.scriptUrl);
    const api = window.google?.accounts?.id;
    if (!api) throw new Error('Google Identity Services did not define google.accounts.id');
    return { api, clientId: config.clientId };
  })().catch((error: unknown) => {
    pending = null;
    throw error;
  });
  return pending;
}
