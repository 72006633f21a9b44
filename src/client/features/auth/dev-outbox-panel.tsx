import { useEffect, useMemo, useState } from 'react';
import type { OutboxEntry, OutboxResponse } from '#shared/dev-outbox';
import { LOCALE, TIME_ZONE } from '#shared/time/madrid-calendar';
import { ApiRequestError, requestJson } from '../../services/http.ts';
import { cx } from '../../ui/cx.ts';
import { InboxIcon, InfoIcon, MailIcon, MessageIcon } from '../../ui/icons.tsx';
import { Spinner } from '../../ui/spinner.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { usePageTitle } from '../../ui/use-page-title.ts';

/** How often the list refreshes itself. */
export const OUTBOX_REFRESH_MS = 3000;

type OutboxView =
  | { status: 'loading' }
  | { status: 'ready'; entries: OutboxEntry[] }
  | { status: 'unavailable' }
  | { status: 'error' };

const dateFormat = new Intl.DateTimeFormat(LOCALE, {
  timeZone: TIME_ZONE,
  day: 'numeric',
  month: 'short',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** Newest first, whatever order the server used. */
export function sortOutbox(entries: readonly OutboxEntry[]): OutboxEntry[] {
  return [...entries].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id - a.id);
}

function useOutbox(): OutboxView {
  const [view, setView] = useState<OutboxView>({ status: 'loading' });
  useEffect(() => {
    let isCancelled = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      try {
        const answer = await requestJson<OutboxResponse>('dev/outbox', { timeout: 8000 });
        if (!isCancelled) setView({ status: 'ready', entries: sortOutbox(answer.data) });
      } catch (error) {
        if (isCancelled) return;
        // Production servers do not register the route at all.
        if (error instanceof ApiRequestError && error.status === 404) {
          setView({ status: 'unavailable' });
          return;
        }
        setView((current) => (current.status === 'ready' ? current : { status: 'error' }));
      }
      if (!isCancelled) timer = setTimeout(load, OUTBOX_REFRESH_MS);
    };
    void load();
    return () => {
      isCancelled = true;
      clearTimeout(timer);
    };
  }, []);
  return view;
}

function OutboxItem({ entry }: { entry: OutboxEntry }) {
  const isSms = entry.channel === 'sms';
  return (
    <li className="rounded-3xl bg-white p-5 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:ring-white/8">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1.5">
        <span
          className={cx(
            'inline-flex items-center gap-1.5 rounded-full px-2.5 py-1 text-xs font-bold uppercase tracking-wide',
            isSms
              ? 'bg-sky-50 text-sky-800 ring-1 ring-inset ring-sky-200 dark:bg-sky-500/12 dark:text-sky-200 dark:ring-sky-400/25'
              : 'bg-violet-50 text-violet-800 ring-1 ring-inset ring-violet-200 dark:bg-violet-500/12 dark:text-violet-200 dark:ring-violet-400/25',
          )}
        >
          {isSms ? <MessageIcon className="size-3.5" /> : <MailIcon className="size-3.5" />}
          {isSms ? 'SMS' : 'Correo'}
        </span>
        <span className="min-w-0 break-all font-semibold text-stone-900 dark:text-white">{entry.to}</span>
        <time dateTime={entry.createdAt} className="ml-auto text-sm text-stone-600 dark:text-stone-400">
          {dateFormat.format(new Date(entry.createdAt))}
        </time>
      </div>
      {entry.subject !== null && (
        <p className="mt-3 font-semibold text-stone-900 dark:text-stone-100">{entry.subject}</p>
      )}
      <p className="mt-2 whitespace-pre-wrap break-words text-sm leading-relaxed text-stone-700 dark:text-stone-300">
        {entry.text}
      </p>
      {(entry.code !== null || entry.link !== null) && (
        <div className="mt-4 flex flex-wrap items-center gap-3">
          {entry.code !== null && (
            <span className="inline-flex items-center gap-2 rounded-2xl bg-stone-100 px-3.5 py-2 dark:bg-stone-800">
              <span className="text-xs font-semibold uppercase tracking-wide text-stone-600 dark:text-stone-400">
                Código
              </span>
              <span className="font-mono text-xl font-bold tracking-[0.3em] text-stone-900 dark:text-white">
                {entry.code}
              </span>
            </span>
          )}
          {entry.link !== null && (
            <a
              href={entry.link}
              className="break-all rounded font-semibold text-brand-700 underline underline-offset-4 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-brand-400"
            >
              {entry.link}
            </a>
          )}
        </div>
      )}
    </li>
  );
}

/** The development outbox: SMS and e-mails the server kept instead of sending (ARCHITECTURE.md). */
export function DevOutboxPanel() {
  usePageTitle('Bandeja de salida');
  const view = useOutbox();
  const [filter, setFilter] = useState('');
  const entries = useMemo(() => {
    if (view.status !== 'ready') return [];
    const needle = filter.trim().toLowerCase().replace(/\s+/g, '');
    return needle ? view.entries.filter((entry) => entry.to.toLowerCase().includes(needle)) : view.entries;
  }, [view, filter]);

  return (
    <div className="flex flex-col gap-6">
      <header>
        <h1 className="flex items-center gap-3 text-2xl font-extrabold tracking-tight text-stone-900 sm:text-3xl dark:text-white">
          <InboxIcon className="size-7 text-brand-700 dark:text-brand-400" />
          Bandeja de salida
        </h1>
        <p className="mt-3 flex items-start gap-2 rounded-2xl bg-amber-50 px-4 py-3 text-sm text-amber-950 ring-1 ring-inset ring-amber-200 dark:bg-amber-500/10 dark:text-amber-100 dark:ring-amber-400/25">
          <InfoIcon className="mt-0.5 size-4.5 shrink-0" />
          Solo existe fuera de producción: son los SMS y correos que el servidor habría enviado (códigos de verificación
          y enlaces para restablecer la contraseña), para que puedas registrarte y probar la app sin proveedores. Se
          actualiza sola cada pocos segundos.
        </p>
      </header>

      {view.status === 'ready' && view.entries.length > 0 && (
        <TextField
          label="Filtrar por destinatario"
          type="search"
          placeholder="+34612345678 o ana@example.com"
          value={filter}
          onChange={(event) => setFilter(event.target.value)}
        />
      )}

      <div aria-live="polite" aria-busy={view.status === 'loading'}>
        {view.status === 'loading' && (
          <div className="grid min-h-40 place-items-center text-brand-700 dark:text-brand-400">
            <Spinner size="lg" />
          </div>
        )}
        {view.status === 'unavailable' && (
          <p className="rounded-3xl bg-white p-6 text-stone-700 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:text-stone-300 dark:ring-white/8">
            Este servidor funciona en modo producción: envía los SMS y correos de verdad y no tiene bandeja de salida.
          </p>
        )}
        {view.status === 'error' && (
          <p className="rounded-3xl bg-red-50 p-6 text-red-800 ring-1 ring-inset ring-red-200 dark:bg-red-500/10 dark:text-red-200 dark:ring-red-400/25">
            No se ha podido cargar la bandeja de salida. Volveremos a intentarlo en unos segundos.
          </p>
        )}
        {view.status === 'ready' && view.entries.length === 0 && (
          <p className="rounded-3xl bg-white p-6 text-center text-stone-600 shadow-sm ring-1 ring-stone-900/6 dark:bg-stone-900 dark:text-stone-400 dark:ring-white/8">
            Todavía no hay mensajes. Pide un código de verificación o un enlace de recuperación y aparecerá aquí.
          </p>
        )}
        {view.status === 'ready' && entries.length > 0 && (
          <ol className="flex flex-col gap-4" aria-label="Mensajes enviados, del más reciente al más antiguo">
            {entries.map((entry) => (
              <OutboxItem key={entry.id} entry={entry} />
            ))}
          </ol>
        )}
      </div>
    </div>
  );
}
