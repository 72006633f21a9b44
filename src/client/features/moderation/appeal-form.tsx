import { useState } from 'react';
import type { AppealRequest } from '#shared/moderation/moderation-schemas';
import { Button } from '../../ui/button.tsx';
import { moderationApi } from './moderation-api.ts';
import { ErrorText, failureMessage, NoteField } from './note-field.tsx';

type Status = { status: 'editing'; error: string | null } | { status: 'sending' } | { status: 'sent'; message: string };

/** The one appeal a person may make: a text, sent once; the server's answer replaces the form. */
export function AppealForm({ target }: { target: { appealToken: string } | { restrictionId: string } }) {
  const [text, setText] = useState('');
  const [state, setState] = useState<Status>({ status: 'editing', error: null });
  if (state.status === 'sent') {
    return (
      <p
        role="status"
        className="rounded-xl bg-brand-50 px-3 py-2 text-sm text-brand-900 dark:bg-brand-500/10 dark:text-brand-100"
      >
        {state.message}
      </p>
    );
  }
  return (
    <form
      className="flex flex-col gap-3"
      onSubmit={(event) => {
        event.preventDefault();
        if (state.status === 'sending') return;
        setState({ status: 'sending' });
        const body: AppealRequest = { ...target, text };
        moderationApi
          .appeal(body)
          .then((answer) => setState({ status: 'sent', message: answer.message }))
          .catch((error: unknown) =>
            setState({ status: 'editing', error: failureMessage(error, 'No se ha podido enviar la apelación') }),
          );
      }}
    >
      <NoteField
        label="Apelar la decisión (solo una vez)"
        value={text}
        onChange={setText}
        placeholder="Cuéntanos por qué crees que es un error"
        isRequired
      />
      <ErrorText message={state.status === 'editing' ? state.error : null} />
      <Button type="submit" variant="secondary" isLoading={state.status === 'sending'} disabled={text.trim() === ''}>
        Enviar apelación
      </Button>
    </form>
  );
}
