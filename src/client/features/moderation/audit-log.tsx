import { useCallback, useEffect, useState } from 'react';
import { AUDIT_ACTION_LABELS, type AuditRecord } from '#shared/moderation/moderation-schemas';
import { Button } from '../../ui/button.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';
import { moderationApi } from './moderation-api.ts';
import { formatModerationDate } from './moderation-format.ts';

type State =
  | { status: 'loading' }
  | { status: 'ready'; entries: AuditRecord[]; nextBefore: number | null; isLoadingMore: boolean }
  | { status: 'error'; message: string };

/** The audit log: every moderator action, newest first, read-only. */
export function AuditLog() {
  usePageTitle('Registro de moderación');
  const [state, setState] = useState<State>({ status: 'loading' });
  const load = useCallback(async (before?: number) => {
    try {
      const page = await moderationApi.audit(before);
      setState((current) => ({
        status: 'ready',
        entries:
          before !== undefined && current.status === 'ready' ? [...current.entries, ...page.entries] : page.entries,
        nextBefore: page.nextBefore,
        isLoadingMore: false,
      }));
    } catch (error) {
      setState({ status: 'error', message: error instanceof Error ? error.message : 'No se pudo cargar el registro' });
    }
  }, []);
  useEffect(() => {
    void load();
  }, [load]);

  return (
    <section aria-labelledby="registro-titulo" className="space-y-4">
      <div>
        <h1 id="registro-titulo" className="text-2xl font-bold text-stone-900 dark:text-stone-50">
          Registro de moderación
        </h1>
        <p className="text-sm text-stone-600 dark:text-stone-300">
          Quién hizo qué, cuándo y por qué. Nadie puede modificarlo ni borrarlo.
        </p>
      </div>
      {state.status === 'loading' && <Spinner label="Cargando el registro" />}
      {state.status === 'error' && (
        <p role="alert" className="text-red-700 dark:text-red-400">
          {state.message}
        </p>
      )}
      {state.status === 'ready' && state.entries.length === 0 && (
        <p className="text-stone-600 dark:text-stone-300">Todavía no hay ninguna acción registrada.</p>
      )}
      {state.status === 'ready' && state.entries.length > 0 && (
        <div className="overflow-x-auto rounded-2xl ring-1 ring-stone-200 dark:ring-white/10">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Acciones de moderación, de la más reciente a la más antigua</caption>
            <thead className="bg-stone-100 text-stone-700 dark:bg-stone-800 dark:text-stone-200">
              <tr>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Cuándo
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Quién
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Qué
                </th>
                <th scope="col" className="px-3 py-2 font-semibold">
                  Por qué
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-stone-200 dark:divide-white/10">
              {state.entries.map((entry) => (
                <tr key={entry.id} className="align-top text-stone-800 dark:text-stone-100">
                  <td className="whitespace-nowrap px-3 py-2">
                    <time dateTime={entry.createdAt}>{formatModerationDate(entry.createdAt)}</time>
                  </td>
                  <td className="px-3 py-2">{entry.moderator}</td>
                  <td className="px-3 py-2">{AUDIT_ACTION_LABELS[entry.action] ?? entry.action}</td>
                  <td className="px-3 py-2 whitespace-pre-line">{entry.reason}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {state.status === 'ready' && state.nextBefore !== null && (
        <Button
          variant="secondary"
          isLoading={state.isLoadingMore}
          onClick={() => {
            const before = state.nextBefore ?? undefined;
            setState({ ...state, isLoadingMore: true });
            void load(before);
          }}
        >
          Cargar más
        </Button>
      )}
    </section>
  );
}
