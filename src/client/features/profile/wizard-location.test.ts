import { describe, expect, it } from 'vitest';
import { DEFAULT_LOCATION } from '#shared/profile/options';
import { LOCATION_ALERTS, readWizardLocation } from './wizard-location.ts';

/** A geolocation that fails at once with `code` (1 denied, 2 unavailable, 3 time-out, other). */
function failingWith(code: number): Pick<Geolocation, 'getCurrentPosition'> {
  return {
    getCurrentPosition: (_success, error) =>
      error?.({ code, message: '', PERMISSION_DENIED: 1, POSITION_UNAVAILABLE: 2, TIMEOUT: 3 }),
  };
}

describe('the wizard location (spec 001 §4, §8)', () => {
  it('alerts with the spec text of each failure and falls back to about 40.42, -3.70', async () => {
    const cases = [
      [1, 'Necesitamos acceso a tu ubicación para mostrarte compañeros de entrenamiento cercanos...'],
      [2, 'No se pudo determinar tu ubicación...'],
      [3, 'Se agotó el tiempo esperando tu ubicación...'],
      [9, 'Error al obtener tu ubicación...'],
    ] as const;
    for (const [code, text] of cases) {
      const location = await readWizardLocation(failingWith(code));
      expect(location.alert, String(code)).toBe(text);
      expect([location.latitude, location.longitude]).toEqual([DEFAULT_LOCATION.latitude, DEFAULT_LOCATION.longitude]);
    }
    expect(Object.values(LOCATION_ALERTS)).toHaveLength(4);
  });

  it('uses the device position without an alert when it comes', async () => {
    const location = await readWizardLocation({
      getCurrentPosition: (success) =>
        success({ coords: { latitude: 41.39, longitude: 2.17 } } as unknown as GeolocationPosition),
    });
    expect(location).toEqual({ latitude: 41.39, longitude: 2.17, alert: null });
  });

  it('falls back with the "unavailable" text where the browser has no geolocation', async () => {
    const location = await readWizardLocation(null);
    expect(location.alert).toBe(LOCATION_ALERTS.unavailable);
  });
});
