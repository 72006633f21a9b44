/** The success step's timings (spec 000 §2, §9). */
export const SUCCESS_ITEMS = ['Realizando validaciones', 'Creando cuenta', 'Registro realizado correctamente'] as const;
export const SUCCESS_TICKS_MS = [3000, 6000, 7000] as const;
export const REDIRECT_COUNTDOWN_S = 3;
export const AFTER_COUNTDOWN_MS = 1000;

const LAST_TICK_MS = SUCCESS_TICKS_MS[SUCCESS_TICKS_MS.length - 1] ?? 0;
const COUNTDOWN_END_MS = LAST_TICK_MS + REDIRECT_COUNTDOWN_S * 1000;
/** When the app leaves for /home. */
export const SUCCESS_REDIRECT_AT_MS = COUNTDOWN_END_MS + AFTER_COUNTDOWN_MS;

export type SuccessProgress =
  | { phase: 'checking'; ticked: number }
  | { phase: 'countdown'; ticked: number; secondsLeft: number }
  | { phase: 'redirecting'; ticked: number };

/** Where the success step stands `elapsedMs` after it appeared. */
export function successProgress(elapsedMs: number): SuccessProgress {
  const ticked = SUCCESS_TICKS_MS.filter((at) => elapsedMs >= at).length;
  if (elapsedMs < LAST_TICK_MS) return { phase: 'checking', ticked };
  if (elapsedMs < COUNTDOWN_END_MS) {
    return {
      phase: 'countdown',
      ticked,
      secondsLeft: REDIRECT_COUNTDOWN_S - Math.floor((elapsedMs - LAST_TICK_MS) / 1000),
    };
  }
  return { phase: 'redirecting', ticked };
}

/** 'Serás redirigido en N segundos...' (singular for 1). */
export function redirectMessage(secondsLeft: number): string {
  return `Serás redirigido en ${secondsLeft} ${secondsLeft === 1 ? 'segundo' : 'segundos'}...`;
}
