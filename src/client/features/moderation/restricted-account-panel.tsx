import type { RestrictedAccount } from '#shared/moderation/moderation-schemas';
import { AppealForm } from './appeal-form.tsx';

/** Under a refused sign-in: why, until when, and the one appeal. */
export function RestrictedAccountPanel({ restriction }: { restriction: RestrictedAccount }) {
  return (
    <section
      aria-labelledby="cuenta-restringida"
      className="flex flex-col gap-3 rounded-2xl bg-stone-50 p-4 ring-1 ring-stone-200 dark:bg-stone-800/60 dark:ring-white/10"
    >
      <h2 id="cuenta-restringida" className="text-base font-semibold text-stone-900 dark:text-stone-50">
        {restriction.kind === 'ban' ? 'Cuenta suspendida de forma permanente' : 'Cuenta suspendida temporalmente'}
      </h2>
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Motivo: <strong>{restriction.reason}</strong>. Tus conversaciones están cerradas y tu perfil no aparece en
        Conectar mientras dure.
      </p>
      {restriction.canAppeal && restriction.appealToken ? (
        <AppealForm target={{ appealToken: restriction.appealToken }} />
      ) : (
        <p className="text-sm text-stone-700 dark:text-stone-300">
          Ya has apelado esta decisión. Te avisaremos cuando la revisemos.
        </p>
      )}
    </section>
  );
}
