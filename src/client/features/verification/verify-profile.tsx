import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { POSE_INSTRUCTIONS, posePictureUrl, type VerificationPose } from '#shared/verification/verification-poses';
import type { VerificationState } from '#shared/verification/verification-schemas';
import type { VerificationStatus } from '#shared/verification/verification-state';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { AlertCircleIcon, CheckCircleIcon, ShieldCheckIcon } from '../../ui/icons.tsx';
import { SelfieCapture } from './selfie-capture.tsx';
import { verificationStore } from './verification-live.ts';
import type { SelfieFlow } from './verification-store.ts';

/** Spec 001 §9: "Verification review promise 24-48 hours". */
export const VERIFICATION_REVIEW = '24-48 horas';

const FIELD_LABEL = 'text-[0.9375rem] font-medium text-stone-900 dark:text-stone-100';
const CHIP = 'inline-flex shrink-0 items-center gap-1.5 rounded-full px-3 py-1 text-xs font-bold ring-1 ring-inset';
const CHIPS: Partial<Record<VerificationStatus, { label: string; className: string }>> = {
  pending: {
    label: 'En revisión',
    className:
      'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/12 dark:text-amber-200 dark:ring-amber-500/25',
  },
  recheck: {
    label: 'Pendiente de revisión',
    className:
      'bg-amber-50 text-amber-900 ring-amber-200 dark:bg-amber-500/12 dark:text-amber-200 dark:ring-amber-500/25',
  },
  verified: {
    label: 'Verificado',
    className:
      'bg-emerald-50 text-emerald-800 ring-emerald-200 dark:bg-emerald-500/12 dark:text-emerald-300 dark:ring-emerald-500/25',
  },
};

/** The row's line under "Verificar perfil", for each state. */
function summary(state: VerificationState | undefined): string {
  switch (state?.status) {
    case 'pending':
      return `Solicitud enviada. La revisaremos en ${VERIFICATION_REVIEW}.`;
    case 'verified':
      return 'Tu perfil muestra la insignia de verificado.';
    case 'recheck':
      return `Has añadido fotos nuevas: tu insignia no se mostrará hasta que las revisemos (${VERIFICATION_REVIEW}).`;
    case 'rejected':
      return `No hemos podido verificar tu perfil. ${state.reason ?? ''}`.trim();
    default:
      return 'Muestra a los demás que tu perfil es real.';
  }
}

function Requirements({ reason }: { reason: string | null }) {
  return (
    <>
      {reason && (
        <p
          role="alert"
          className="mb-3 flex gap-2 rounded-2xl bg-red-50 p-3 text-sm text-red-900 dark:bg-red-500/10 dark:text-red-200"
        >
          <AlertCircleIcon className="mt-0.5 size-4.5 shrink-0" />
          <span>
            <strong className="font-semibold">Tu última solicitud no se aprobó:</strong> {reason}
          </span>
        </p>
      )}
      <p className="text-sm font-semibold">Para verificar tu perfil necesitas:</p>
      <ul className="mt-2 flex list-disc flex-col gap-1.5 pl-5 text-sm leading-relaxed">
        <li>Al menos una foto de perfil en la que se te vea la cara con claridad.</li>
        <li>Tu perfil completo: nombre, fecha de nacimiento, gimnasio y preferencias de entrenamiento.</li>
        <li>Ser mayor de 18 años.</li>
        <li>Un selfie copiando la pose que te mostraremos, hecho en ese momento con la cámara.</li>
      </ul>
      <p className="mt-3 text-sm leading-relaxed">
        {`Revisaremos tu solicitud en un plazo de ${VERIFICATION_REVIEW}.`} Solo el equipo de moderación verá tu selfie,
        sin datos de ubicación, y lo borraremos en cuanto lo revisemos.
      </p>
    </>
  );
}

function PoseStep({
  pose,
  problem,
  isSending,
  percent,
}: {
  pose: VerificationPose;
  problem?: string;
  isSending: boolean;
  percent: number;
}) {
  return (
    <div className="flex flex-col gap-4">
      <figure className="flex items-center gap-4 rounded-2xl bg-stone-100 p-3 dark:bg-stone-800">
        <img
          src={posePictureUrl(pose)}
          alt={POSE_INSTRUCTIONS[pose]}
          width={96}
          height={96}
          className="size-24 shrink-0 rounded-xl"
        />
        <figcaption className="text-sm">
          <span className="block font-semibold text-stone-900 dark:text-white">Copia esta pose</span>
          <span data-testid="pose-instruction">{POSE_INSTRUCTIONS[pose]}</span>. Que se te vea bien la cara.
        </figcaption>
      </figure>
      {problem && (
        <p role="alert" className="text-sm font-medium text-red-800 dark:text-red-300">
          {problem}
        </p>
      )}
      <SelfieCapture isSending={isSending} onSend={(selfie) => void verificationStore.send(selfie)} />
      {isSending && (
        <p role="status" className="text-center text-sm text-stone-600 dark:text-stone-400">
          {`Enviando selfie... ${percent}%`}
        </p>
      )}
    </div>
  );
}

function FlowBody({ flow, state }: { flow: SelfieFlow; state: VerificationState | undefined }) {
  switch (flow.step) {
    case 'intro':
      return <Requirements reason={state?.status === 'rejected' ? state.reason : null} />;
    case 'pose':
      return <PoseStep pose={flow.pose} problem={flow.problem} isSending={false} percent={0} />;
    case 'sending':
      return <PoseStep pose={flow.pose} isSending percent={flow.percent} />;
    case 'sent':
      return (
        <p role="status" className="flex gap-2 text-sm leading-relaxed">
          <CheckCircleIcon className="mt-0.5 size-5 shrink-0 text-emerald-700 dark:text-emerald-400" />
          {`Solicitud enviada. La revisaremos en ${VERIFICATION_REVIEW}.`} Te avisaremos con una notificación.
        </p>
      );
    case 'error':
      return (
        <p role="alert" className="flex gap-2 text-sm font-medium text-red-800 dark:text-red-300">
          <AlertCircleIcon className="mt-0.5 size-5 shrink-0" />
          {flow.message}
        </p>
      );
  }
}

/**
 * "Verificar perfil" in Configuración (spec 001 §2, issue #23 part 2): the state of the request,
 * and the dialog that explains the requirements, shows the pose and takes the selfie.
 */
export function VerifyProfile() {
  const snap = useSnapshot(verificationStore.state);
  const [isOpen, setIsOpen] = useState(false);
  useEffect(() => {
    void verificationStore.load();
  }, []);

  const state = snap.view.status === 'ready' ? (snap.view.state as VerificationState) : undefined;
  const flow = snap.flow as SelfieFlow;
  const chip = state ? CHIPS[state.status] : undefined;
  const canStart = state?.status === 'none' || state?.status === 'rejected';
  const close = () => setIsOpen(false);

  return (
    <div className="flex flex-col gap-2">
      <div className="flex items-center justify-between gap-4">
        <span className="flex min-w-0 flex-col">
          <span className={FIELD_LABEL}>Verificar perfil</span>
          <span data-testid="verification-summary" className="text-sm text-stone-600 dark:text-stone-400">
            {snap.view.status === 'error' ? snap.view.message : summary(state)}
          </span>
        </span>
        {chip && (
          <span className={cx(CHIP, chip.className)}>
            <ShieldCheckIcon className="size-4" />
            {chip.label}
          </span>
        )}
        {/* While the state loads, the usual button stands in place, disabled: appearing only then,
            it narrowed the text beside it, which wrapped and pushed the screen down (issue #33). */}
        {snap.view.status === 'loading' && (
          <Button size="sm" variant="secondary" disabled>
            Verificar perfil
          </Button>
        )}
        {canStart && (
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              verificationStore.open();
              setIsOpen(true);
            }}
          >
            {state?.status === 'rejected' ? 'Volver a intentarlo' : 'Verificar perfil'}
          </Button>
        )}
      </div>
      <Dialog
        open={isOpen}
        onClose={close}
        title="Verificar perfil"
        description="Un perfil verificado da confianza a tus futuros compañeros de entrenamiento."
        actions={
          flow.step === 'intro' ? (
            <>
              <Button variant="secondary" onClick={close}>
                Cancelar
              </Button>
              <Button onClick={() => void verificationStore.start()}>Iniciar verificación</Button>
            </>
          ) : flow.step === 'error' && flow.canRetry ? (
            <>
              <Button variant="secondary" onClick={close}>
                Cerrar
              </Button>
              <Button onClick={() => void verificationStore.start()}>Reintentar</Button>
            </>
          ) : flow.step === 'pose' || flow.step === 'sending' ? (
            <Button variant="secondary" onClick={close} disabled={flow.step === 'sending'}>
              Cancelar
            </Button>
          ) : (
            <Button onClick={close}>Entendido</Button>
          )
        }
      >
        {isOpen && <FlowBody flow={flow} state={state} />}
      </Dialog>
    </div>
  );
}
