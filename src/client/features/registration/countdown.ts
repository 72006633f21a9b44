/** Whole seconds left until `deadlineMs` (never negative), rounded up so 0.2 s still reads "0:01". */
export function secondsUntil(deadlineMs: number | null, nowMs: number): number {
  if (deadlineMs === null) return 0;
  return Math.max(0, Math.ceil((deadlineMs - nowMs) / 1000));
}

/** A countdown as the resend timer shows it (spec 000 §4): m:ss, e.g. 60 → "1:00", 9 → "0:09". */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** "2 minutos y 5 segundos", "1 minuto y 1 segundo": the Google flow's limit message (spec 000 §8). */
export function formatMinutesAndSeconds(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} ${minutes === 1 ? 'minuto' : 'minutos'} y ${rest} ${rest === 1 ? 'segundo' : 'segundos'}`;
}
