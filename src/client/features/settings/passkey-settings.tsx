import { useState } from 'react';
import type { PasskeySummary } from '#shared/security/security-schemas';
import { arePasskeysSupported, createPasskey, isPasskeyCancelled } from '../../services/passkeys.ts';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { KeyIcon } from '../../ui/icons.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { toast } from '../../ui/toast-store.ts';
import { useFormAction } from '../../ui/use-form-action.ts';
import { securityApi, securityDate, securityErrorMessage } from './security-api.ts';

const DEFAULT_NAME = 'Llave de acceso';

/** A passkey the person cancelled in the browser's sheet is not an error of ours. */
function passkeyErrorMessage(failure: unknown): string {
  return isPasskeyCancelled(failure)
    ? 'No se ha creado la llave de acceso. Vuelve a intentarlo cuando quieras.'
    : securityErrorMessage(failure);
}

/** Names the new passkey, then asks the browser to create it and stores it. */
function AddPasskeyDialog({ open, onClose }: { open: boolean; onClose(added: boolean): void }) {
  const [name, setName] = useState(DEFAULT_NAME);
  const form = useFormAction(passkeyErrorMessage);

  const submit = form.onSubmit(
    async () => {
      form.setError(null);
      const { challengeId, options } = await securityApi.passkeyOptions();
      const response = await createPasskey(options);
      const answer = await securityApi.addPasskey({ challengeId, name: name.trim(), response });
      toast.success(answer.message);
      setName(DEFAULT_NAME);
      onClose(true);
    },
    () => (arePasskeysSupported() ? null : 'Este navegador no admite llaves de acceso.'),
  );

  return (
    <Dialog
      open={open}
      onClose={() => onClose(false)}
      title="Añadir una llave de acceso"
      description="Tu dispositivo guardará una llave para entrar en Entreno con tu huella, tu cara o el bloqueo de pantalla, sin contraseña."
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        <TextField
          label="Nombre de la llave"
          name="passkeyName"
          maxLength={40}
          hint="Por ejemplo, «Móvil» o «Portátil del trabajo»."
          value={name}
          onChange={(event) => form.edits(setName)(event.target.value)}
        />
        <FormAlert message={form.error} />
        <Button type="submit" isLoading={form.isBusy} loadingText="Esperando a tu dispositivo...">
          Crear llave de acceso
        </Button>
      </form>
    </Dialog>
  );
}

/** Seguridad's passkeys: each with its name and dates, a way to remove it, and one to add another. */
export function PasskeySettings({ passkeys, onChanged }: { passkeys: readonly PasskeySummary[]; onChanged(): void }) {
  const [isAdding, setIsAdding] = useState(false);
  const [removing, setRemoving] = useState<PasskeySummary | null>(null);
  const [isBusy, setIsBusy] = useState(false);

  const remove = async () => {
    if (!removing) return;
    setIsBusy(true);
    try {
      const answer = await securityApi.removePasskey(removing.id);
      toast.success(answer.message);
      onChanged();
    } catch (failure) {
      toast.error(securityErrorMessage(failure));
    } finally {
      setIsBusy(false);
      setRemoving(null);
    }
  };

  return (
    <div className="flex flex-col gap-3">
      <span className="flex min-w-0 flex-col">
        <span className="text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100">Llaves de acceso</span>
        <span className="text-sm text-stone-600 dark:text-stone-400">
          Entra sin contraseña con la huella, la cara o el bloqueo de pantalla de tu dispositivo. Una llave de acceso ya
          cuenta como verificación en dos pasos.
        </span>
      </span>
      {passkeys.length > 0 && (
        <ul aria-label="Tus llaves de acceso" className="flex flex-col gap-2">
          {passkeys.map((passkey) => (
            <li
              key={passkey.id}
              className="flex items-center justify-between gap-3 rounded-2xl bg-stone-50 px-4 py-3 ring-1 ring-inset ring-stone-200 dark:bg-white/4 dark:ring-white/8"
            >
              <span className="flex min-w-0 items-start gap-3">
                <KeyIcon className="mt-0.5 size-5 shrink-0 text-brand-700 dark:text-brand-400" />
                <span className="flex min-w-0 flex-col">
                  <span className="truncate font-semibold text-stone-900 dark:text-stone-100">{passkey.name}</span>
                  <span className="text-sm text-stone-600 dark:text-stone-400">
                    Creada el {securityDate(passkey.createdAt)} ·{' '}
                    {passkey.lastUsedAt ? `Último uso: ${securityDate(passkey.lastUsedAt)}` : 'Sin usar todavía'}
                  </span>
                </span>
              </span>
              <Button
                variant="ghost"
                size="sm"
                onClick={() => setRemoving(passkey)}
                aria-label={`Eliminar ${passkey.name}`}
              >
                Eliminar
              </Button>
            </li>
          ))}
        </ul>
      )}
      <Button variant="secondary" onClick={() => setIsAdding(true)} iconStart={<KeyIcon className="size-4.5" />}>
        Añadir llave de acceso
      </Button>
      <AddPasskeyDialog
        open={isAdding}
        onClose={(added) => {
          setIsAdding(false);
          if (added) onChanged();
        }}
      />
      <Dialog
        open={removing !== null}
        onClose={() => setRemoving(null)}
        title="¿Eliminar esta llave de acceso?"
        description={`«${removing?.name ?? ''}» dejará de servir para entrar en Entreno. Tus sesiones abiertas siguen igual.`}
        actions={
          <>
            <Button variant="secondary" onClick={() => setRemoving(null)}>
              Cancelar
            </Button>
            <Button variant="danger" isLoading={isBusy} loadingText="Eliminando..." onClick={() => void remove()}>
              Eliminar
            </Button>
          </>
        }
      />
    </div>
  );
}
