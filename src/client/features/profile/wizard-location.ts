/**
 * The wizard's position (spec 001 §4, §8): the device's position, or the fixed city centre with
 * the alert text that says why.
 */
import { DEFAULT_LOCATION } from '#shared/profile/options';

export const LOCATION_ALERTS = {
  permissionDenied: 'Necesitamos acceso a tu ubicación para mostrarte compañeros de entrenamiento cercanos...',
  unavailable: 'No se pudo determinar tu ubicación...',
  timeout: 'Se agotó el tiempo esperando tu ubicación...',
  other: 'Error al obtener tu ubicación...',
} as const;

const TIMEOUT_MS = 8000;

export type WizardLocation = { latitude: number; longitude: number; alert: string | null };

const fallback = (alert: string): WizardLocation => ({
  latitude: DEFAULT_LOCATION.latitude,
  longitude: DEFAULT_LOCATION.longitude,
  alert,
});

/** Never rejects: a failure gives the fallback position and its alert. */
export function readWizardLocation(
  geolocation: Pick<Geolocation, 'getCurrentPosition'> | null = typeof navigator !== 'undefined' &&
  'geolocation' in navigator
    ? navigator.geolocation
    : null,
): Promise<WizardLocation> {
  if (!geolocation) return Promise.resolve(fallback(LOCATION_ALERTS.unavailable));
  return new Promise((resolve) => {
    let isSettled = false;
    const settle = (location: WizardLocation) => {
      if (isSettled) return;
      isSettled = true;
      clearTimeout(timer);
      resolve(location);
    };
    // Our own timer: the browser's does not count the time a permission prompt stays open.
    const timer = setTimeout(() => settle(fallback(LOCATION_ALERTS.timeout)), TIMEOUT_MS + 2000);
    try {
      geolocation.getCurrentPosition(
        (position) => settle({ latitude: position.coords.latitude, longitude: position.coords.longitude, alert: null }),
        (error) => {
          if (error.code === 1) settle(fallback(LOCATION_ALERTS.permissionDenied));
          else if (error.code === 2) settle(fallback(LOCATION_ALERTS.unavailable));
          else if (error.code === 3) settle(fallback(LOCATION_ALERTS.timeout));
          else settle(fallback(LOCATION_ALERTS.other));
        },
        { enableHighAccuracy: false, timeout: TIMEOUT_MS, maximumAge: 10 * 60 * 1000 },
      );
    } catch {
      settle(fallback(LOCATION_ALERTS.other));
    }
  });
}
