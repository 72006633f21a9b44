import { useEffect, useState } from 'react';
import type { TwoFactorSetupResponse } from '#shared/security/security-schemas';
import { Button } from '../../ui/button.tsx';
import { Dialog } from '../../ui/dialog.tsx';
import { FormAlert } from '../../ui/form-alert.tsx';
import { TextField } from '../../ui/text-field.tsx';
import { useFormAction } from '../../ui/use-form-action.ts';
import { securityApi, securityErrorMessage } from './security-api.ts';

/** The six digits the authenticator app shows (setup and new recovery codes). */
function AppCodeField({ value, onChange }: { value: string; onChange(value: string): void }) {
  return (
    <TextField
      label="Código de 6 dígitos"
      name="code"
      autoComplete="one-time-code"
      inputMode="numeric"
      maxLength={12}
      value={value}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

/** The recovery codes, shown once, with a way to copy them. */
export function RecoveryCodeList({ codes }: { codes: readonly string[] }) {
  const [isCopied, setIsCopied] = useState(false);
  return (
    <div className="flex flex-col gap-3">
      <p className="text-sm text-stone-700 dark:text-stone-300">
        Guarda estos códigos en un lugar seguro. Cada uno sirve una vez para entrar si no tienes tu aplicación. No
        volverás a verlos.
      </p>
      <ul
        aria-label="Códigos de recuperación"
        className="grid grid-cols-2 gap-2 rounded-2xl bg-stone-100 p-4 font-mono text-[0.9375rem] text-stone-900 dark:bg-white/6 dark:text-stone-100"
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ul>
      <Button
        variant="secondary"
        size="sm"
        onClick={() =>
          void navigator.clipboard?.writeText(codes.join('\n')).then(
            () => setIsCopied(true),
            () => setIsCopied(false),
          )
        }
      >
        {isCopied ? 'Copiados' : 'Copiar códigos'}
      </Button>
    </div>
  );
}

type SetupStage =
  | { stage: 'loading' }
  | { stage: 'scan'; setup: TwoFactorSetupResponse }
  | { stage: 'codes'; codes: string[] }
  | { stage: 'failed'; message: string };

/** Turning two-step on: scan the QR (or type the key), confirm with a first code, keep the recovery codes. */
export function TwoFactorSetupDialog({ open, onClose }: { open: boolean; onClose(changed: boolean): void }) {
  const [stage, setStage] = useState<SetupStage>({ stage: 'loading' });
  const [code, setCode] = useState('');
  const form = useFormAction(securityErrorMessage);
  const { setError } = form;

  useEffect(() => {
    if (!open) return;
    setStage({ stage: 'loading' });
    setCode('');
    setError(null);
    securityApi.startSetup().then(
      (setup) => setStage({ stage: 'scan', setup }),
      (failure) => setStage({ stage: 'failed', message: securityErrorMessage(failure) }),
    );
  }, [open, setError]);

  const confirm = form.onSubmit(
    async () => {
      const answer = await securityApi.enable(code.trim());
      setStage({ stage: 'codes', codes: answer.recoveryCodes });
    },
    () => (code.trim() === '' ? 'Introduce el código' : null),
  );

  const isDone = stage.stage === 'codes';
  return (
    <Dialog
      open={open}
      onClose={() => onClose(isDone)}
      title={isDone ? 'Verificación en dos pasos activada' : 'Activar la verificación en dos pasos'}
      description={
        isDone
          ? undefined
          : 'Escanea el código QR con tu aplicación de autenticación (Google Authenticator, Microsoft Authenticator, 1Password…) y escribe el código que te muestre.'
      }
      size="md"
    >
      {stage.stage === 'loading' && <p className="text-sm">Preparando…</p>}
      {stage.stage === 'failed' && <FormAlert message={stage.message} />}
      {stage.stage === 'scan' && (
        <form noValidate onSubmit={confirm} className="flex flex-col gap-4">
          <img
            src={`data:image/svg+xml;base64,${btoa(stage.setup.qrSvg)}`}
            alt="Código QR para añadir Entreno a tu aplicación de autenticación"
            width={192}
            height={192}
            className="mx-auto size-48 rounded-xl bg-white p-1"
          />
          <p className="text-sm text-stone-700 dark:text-stone-300">
            ¿No puedes escanearlo? Escribe esta clave en la aplicación:{' '}
            <code data-testid="totp-secret" className="break-all font-mono font-semibold">
              {stage.setup.secret}
            </code>
          </p>
          <AppCodeField value={code} onChange={form.edits(setCode)} />
          <FormAlert message={form.error} />
          <Button type="submit" isLoading={form.isBusy} loadingText="Comprobando...">
            Activar
          </Button>
        </form>
      )}
      {stage.stage === 'codes' && (
        <div className="flex flex-col gap-4">
          <RecoveryCodeList codes={stage.codes} />
          <Button onClick={() => onClose(true)}>He guardado mis códigos</Button>
        </div>
      )}
    </Dialog>
  );
}

/** Turning two-step off: the password (when the account has one) and a code. */
export function TwoFactorDisableDialog({
  open,
  hasPassword,
  onClose,
}: {
  open: boolean;
  hasPassword: boolean;
  onClose(changed: boolean): void;
}) {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  const form = useFormAction(securityErrorMessage);
  const { setError } = form;

  useEffect(() => {
    if (open) {
      setPassword('');
      setCode('');
      setError(null);
    }
  }, [open, setError]);

  const submit = form.onSubmit(
    async () => {
      await securityApi.disable({ ...(hasPassword ? { password } : {}), code: code.trim() });
      onClose(true);
    },
    () => {
      if (hasPassword && password === '') return 'Introduce tu contraseña';
      return code.trim() === '' ? 'Introduce el código' : null;
    },
  );

  return (
    <Dialog
      open={open}
      onClose={() => onClose(false)}
      title="Desactivar la verificación en dos pasos"
      description="Al iniciar sesión ya no te pediremos un código. Tus códigos de recuperación y los dispositivos recordados dejarán de servir."
    >
      <form noValidate onSubmit={submit} className="flex flex-col gap-4">
        {hasPassword && (
          <TextField
            label="Contraseña"
            type="password"
            name="password"
            autoComplete="current-password"
            value={password}
            onChange={(event) => form.edits(setPassword)(event.target.value)}
          />
        )}
        <TextField
          label="Código de la aplicación o de recuperación"
          name="code"
          autoComplete="one-time-code"
          maxLength={32}
          value={code}
          onChange={(event) => form.edits(setCode)(event.target.value)}
        />
        <FormAlert message={form.error} />
        <Button type="submit" variant="danger" isLoading={form.isBusy} loadingText="Desactivando...">
          Desactivar
        </Button>
      </form>
    </Dialog>
  );
}

/**
 * New recovery codes (the old ones stop working): confirmed with a code from the authenticator app,
 * then shown once like the first ones.
 */
export function RecoveryCodesDialog({ open, onClose }: { open: boolean; onClose(changed: boolean): void }) {
  const [code, setCode] = useState('');
  const [codes, setCodes] = useState<string[] | null>(null);
  const form = useFormAction(securityErrorMessage);
  const { setError } = form;

  useEffect(() => {
    if (open) {
      setCode('');
      setCodes(null);
      setError(null);
    }
  }, [open, setError]);

  const submit = form.onSubmit(
    async () => {
      const answer = await securityApi.renewRecoveryCodes(code.trim());
      setCodes(answer.recoveryCodes);
    },
    () => (code.trim() === '' ? 'Introduce el código' : null),
  );

  return (
    <Dialog
      open={open}
      onClose={() => onClose(codes !== null)}
      title={codes ? 'Nuevos códigos de recuperación' : 'Generar nuevos códigos de recuperación'}
      description={
        codes
          ? 'Los códigos anteriores ya no sirven.'
          : 'Los códigos que tienes ahora dejarán de servir. Confírmalo con el código de tu aplicación de autenticación.'
      }
      size="md"
    >
      {codes ? (
        <div className="flex flex-col gap-4">
          <RecoveryCodeList codes={codes} />
          <Button onClick={() => onClose(true)}>He guardado mis códigos</Button>
        </div>
      ) : (
        <form noValidate onSubmit={submit} className="flex flex-col gap-4">
          <AppCodeField value={code} onChange={form.edits(setCode)} />
          <FormAlert message={form.error} />
          <Button type="submit" isLoading={form.isBusy} loadingText="Comprobando...">
            Generar códigos nuevos
          </Button>
        </form>
      )}
    </Dialog>
  );
}
