import { describe, expect, it } from 'vitest';
import { classifySendCodeFailure, SEND_CODE_MESSAGES, wizardSendCodeMessage } from './send-code-errors.ts';

describe('send-code failures', () => {
  it('trusts the errorType the server sends', () => {
    expect(classifySendCodeFailure({ kind: 'http', status: 400, message: 'x', errorType: 'PHONE_BLOCKED' })).toBe(
      'PHONE_BLOCKED',
    );
    expect(classifySendCodeFailure({ kind: 'http', status: 429, message: 'x', errorType: 'MAX_ATTEMPTS' })).toBe(
      'MAX_ATTEMPTS',
    );
  });

  it('reads the type from the message and status when none is sent', () => {
    expect(classifySendCodeFailure({ kind: 'http', status: 400, message: 'Number blocked' })).toBe('PHONE_BLOCKED');
    expect(classifySendCodeFailure({ kind: 'http', status: 429, message: 'Max send attempts reached' })).toBe(
      'MAX_ATTEMPTS',
    );
    expect(
      classifySendCodeFailure({ kind: 'http', status: 500, message: 'Error al enviar el código de verificación' }),
    ).toBe('MULTIPLE');
    expect(classifySendCodeFailure({ kind: 'http', status: 503, message: 'Otra cosa' })).toBe('OTHER');
    expect(classifySendCodeFailure({ kind: 'http', status: 502, message: '' })).toBe('UNKNOWN');
    expect(classifySendCodeFailure({ kind: 'network', message: '' })).toBe('CONNECTION');
    expect(classifySendCodeFailure({ kind: 'timeout', message: '' })).toBe('CONNECTION');
  });

  it('uses the wizard wording', () => {
    expect(wizardSendCodeMessage({ kind: 'http', status: 429, message: 'x', errorType: 'MAX_ATTEMPTS' })).toBe(
      'Por seguridad, has alcanzado el límite de códigos SMS que puedes solicitar. Por favor, espera unos minutos antes de intentarlo de nuevo.',
    );
    expect(wizardSendCodeMessage({ kind: 'http', status: 400, message: 'x', errorType: 'PHONE_BLOCKED' })).toBe(
      'Este número de teléfono ha sido temporalmente bloqueado por motivos de seguridad. Por favor, utiliza un número de teléfono diferente.',
    );
    expect(
      wizardSendCodeMessage({ kind: 'http', status: 500, message: 'Mensaje del servidor', errorType: 'MULTIPLE' }),
    ).toBe('Mensaje del servidor');
    expect(wizardSendCodeMessage({ kind: 'network', message: '' })).toBe(SEND_CODE_MESSAGES.CONNECTION);
    expect(wizardSendCodeMessage({ kind: 'http', status: 502, message: '' })).toBe('Error al enviar el código');
  });
});
