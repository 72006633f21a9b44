import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../services/http.ts';
import { chatButtonLabel, chatTarget, loadMatches, matchesState } from './matches-store.ts';

describe('matches', () => {
  it('labels the chat button by the last message', () => {
    expect(chatButtonLabel({ lastMessage: null })).toBe('Iniciar chat');
    expect(chatButtonLabel({ lastMessage: { text: 'Hola' } })).toBe('Continuar chat');
  });
  it('links to the conversation, or the match when there is none', () => {
    expect(chatTarget({ conversationId: 'c1', matchId: 'm1' })).toBe('c1');
    expect(chatTarget({ conversationId: '', matchId: 'm1' })).toBe('m1');
  });
  it('loads and reports failures', async () => {
    await loadMatches('me', async () => ({ success: true, message: '', matches: [] }));
    expect(matchesState.current).toEqual({ status: 'ready', matches: [] });
    matchesState.current = { status: 'loading' };
    await loadMatches('me', async () => {
      throw new ApiRequestError('network', '');
    });
    expect(matchesState.current).toEqual({ status: 'error', message: 'Error al obtener matches' });
  });
});
