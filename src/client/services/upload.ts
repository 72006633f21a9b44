/**
 * Multipart uploads with progress (spec 001 §7: photo upload reports a percentage). ky reads no
 * upload progress, so this one call uses XMLHttpRequest with the same bearer token and token
 * renewal as `http.ts`, and fails with the same ApiRequestError.
 */
import { ApiRequestError } from './http.ts';
import { tokenStorage } from './token-storage.ts';

const UPLOAD_TIMEOUT_MS = 120_000;

/** POSTs `body` to `/api/<path>`; `onProgress` receives whole percentages (0-100). */
export function uploadWithProgress<T>(path: string, body: FormData, onProgress: (percent: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `/api/${path}`);
    const stored = tokenStorage.readToken();
    if (stored) xhr.setRequestHeader('authorization', `Bearer ${stored.token}`);
    xhr.timeout = UPLOAD_TIMEOUT_MS;
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      const renewed = xhr.getResponseHeader('x-new-token');
      if (renewed && tokenStorage.readToken()) tokenStorage.replaceToken(renewed);
      let parsed: unknown = null;
      try {
        parsed = JSON.parse(xhr.responseText);
      } catch {
        parsed = null;
      }
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve(parsed as T);
        return;
      }
      const answer = parsed as { message?: unknown; errorType?: unknown } | null;
      reject(
        new ApiRequestError(
          'http',
          typeof answer?.message === 'string' ? answer.message : '',
          xhr.status,
          typeof answer?.errorType === 'string' ? answer.errorType : undefined,
          parsed,
        ),
      );
    };
    xhr.onerror = () => reject(new ApiRequestError('network', ''));
    xhr.ontimeout = () => reject(new ApiRequestError('timeout', ''));
    xhr.send(body);
  });
}
