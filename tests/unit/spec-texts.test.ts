import { describe, expect, it } from 'vitest';
import { AUTH_SCREEN_TEXTS } from '../../src/client/features/auth/auth-texts.ts';
import { PROFILES_LOAD_FAILED } from '../../src/client/features/discovery/deck-store.ts';
import { MATCHES_LOAD_FAILED } from '../../src/client/features/matches/matches-store.ts';
import { UPDATE_FAILED_MESSAGE } from '../../src/client/features/profile/editor-store.ts';
import { PROFILE_LOAD_FAILED } from '../../src/client/features/profile/own-profile-store.ts';
import { SAVE_FAILED_MESSAGE } from '../../src/client/features/profile/wizard-store.ts';
import { DISTANCE_SAVE_FAILED } from '../../src/client/routes/config-search-preferences.ts';
import { CHAT_MESSAGES } from '../../src/shared/chat/chat-messages.ts';

/**
 * The error catalogue of spec 001 §8, verbatim, in the catalogues the screens read from: a
 * reworded text must be a change to the spec first (docs/spec-conformance.md).
 */
describe('spec 001 §8 texts', () => {
  it('messaging: the load, send, read and action failures and the empty list', () => {
    expect(CHAT_MESSAGES).toMatchObject({
      loadConversationsFailed: 'Error al cargar las conversaciones',
      loadMessagesFailed: 'Error al cargar los mensajes',
      getConversationsFailed: 'Error al obtener conversaciones',
      getMessagesFailed: 'Error al obtener mensajes',
      sendFailed: 'Error al enviar mensaje',
      markReadFailed: 'Error al marcar mensajes como leídos',
      actionFailed: 'Error al realizar la acción',
      noConversations: 'No tienes conversaciones activas',
    });
  });

  it('the super-entreno toggle explains itself on a conversation without a superlike', () => {
    expect(CHAT_MESSAGES.superlikeOnly).toBe(
      'Solo puedes marcar como súper entreno las conversaciones que iniciaste con un súper like',
    );
  });

  it('profile: save, load, update and preference failures', () => {
    expect(SAVE_FAILED_MESSAGE).toBe('Error al guardar el perfil. Por favor, inténtalo de nuevo.');
    expect(PROFILE_LOAD_FAILED).toBe('Error al obtener el perfil');
    expect(UPDATE_FAILED_MESSAGE).toBe('Error al actualizar el perfil');
    expect(PROFILES_LOAD_FAILED).toBe('Error al obtener perfiles');
    expect(DISTANCE_SAVE_FAILED).toBe('Error al actualizar preferencias');
    expect(MATCHES_LOAD_FAILED).toBe('Error al obtener matches');
  });
});

describe('spec 000 §2 and §8 texts of the access screens', () => {
  it('login, forgot-password and reset texts, with the defaults when the server gives no message', () => {
    expect(AUTH_SCREEN_TEXTS).toMatchObject({
      loginDefaultError: 'Error en el login',
      connectionError: 'Error de conexión. Por favor, verifica tu conexión a internet e intenta de nuevo.',
      forgotFailed: 'No se pudo enviar el correo de recuperación. Por favor, inténtalo de nuevo.',
      resetDefaultError: 'Error al restablecer la contraseña',
      resendSucceeded: 'Se ha enviado un nuevo enlace a tu correo electrónico',
      resendFailed: 'Error al enviar el nuevo enlace. Por favor, inténtalo más tarde.',
      resetSucceeded: '¡Contraseña actualizada correctamente! Redirigiendo...',
      validatingLink: 'Validando enlace...',
      sendingEmail: 'Enviando correo...',
    });
  });
});
