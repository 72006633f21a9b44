import { proxy } from 'valtio';

/**
 * The toast queue: any module calls `toast.success(...)`, `toast.error(...)` or `showToast(...)`,
 * and the single <Toaster/> at the root shows them. Errors are announced assertively, the rest
 * politely.
 */
export type ToastTone = 'success' | 'error' | 'info';

export type ToastAction = { label: string; onClick: () => void };

export type Toast = {
  id: number;
  tone: ToastTone;
  message: string;
  /** Optional button, e.g. 'Actualizar' for a new version (QUALITY 21). */
  action?: ToastAction;
  /** Milliseconds before it hides itself; null keeps it until dismissed. */
  durationMs: number | null;
};

export type ShowToastOptions = { tone?: ToastTone; action?: ToastAction; durationMs?: number | null };

/** At most this many are visible; older ones give way. */
export const MAX_VISIBLE_TOASTS = 3;
const DEFAULT_DURATION_MS: Record<ToastTone, number> = { success: 4000, info: 5000, error: 7000 };

export const toastState = proxy<{ toasts: Toast[] }>({ toasts: [] });

let nextId = 1;
const timers = new Map<number, ReturnType<typeof setTimeout>>();

export function dismissToast(id: number): void {
  const timer = timers.get(id);
  if (timer !== undefined) clearTimeout(timer);
  timers.delete(id);
  const index = toastState.toasts.findIndex((toast) => toast.id === id);
  if (index >= 0) toastState.toasts.splice(index, 1);
}

/** Shows a toast and returns its id (to dismiss it early). */
export function showToast(message: string, options: ShowToastOptions = {}): number {
  const tone = options.tone ?? 'info';
  const durationMs = options.durationMs === undefined ? DEFAULT_DURATION_MS[tone] : options.durationMs;
  const id = nextId++;
  toastState.toasts.push({ id, tone, message, action: options.action, durationMs });
  while (toastState.toasts.length > MAX_VISIBLE_TOASTS) {
    const oldest = toastState.toasts[0];
    if (oldest) dismissToast(oldest.id);
  }
  if (durationMs !== null)
    timers.set(
      id,
      setTimeout(() => dismissToast(id), durationMs),
    );
  return id;
}

export const toast = {
  success: (message: string, options?: Omit<ShowToastOptions, 'tone'>) =>
    showToast(message, { ...options, tone: 'success' }),
  error: (message: string, options?: Omit<ShowToastOptions, 'tone'>) =>
    showToast(message, { ...options, tone: 'error' }),
  info: (message: string, options?: Omit<ShowToastOptions, 'tone'>) => showToast(message, { ...options, tone: 'info' }),
};
