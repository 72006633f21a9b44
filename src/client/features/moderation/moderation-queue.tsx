import { usePageTitle } from '../../ui/use-page-title.ts';

/** The queue: open reports and appeals, oldest first. */
export function ModerationQueue() {
  usePageTitle('Moderación');
  return (
    <section aria-labelledby="cola-titulo" className="space-y-4">
      <h1 id="cola-titulo" className="text-2xl font-bold text-stone-900 dark:text-stone-50">
        Denuncias y apelaciones
      </h1>
      <p className="text-stone-600 dark:text-stone-300">No hay nada pendiente de revisar.</p>
    </section>
  );
}
