import { useEffect, useId, useRef, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { CameraIcon } from '../../ui/icons.tsx';

/** The camera's state, as the view shows it. */
type Camera =
  | { status: 'starting' }
  | { status: 'live' }
  | { status: 'unavailable'; message: string }
  | { status: 'taken'; blob: Blob; url: string };

const ACCEPTED = 'image/jpeg,image/png,image/webp';
const SELFIE_WIDTH = 1280;

function cameraProblem(error: unknown): string {
  const name = (error as { name?: string } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') {
    return 'No tenemos permiso para usar la cámara. Puedes permitirlo en tu navegador o subir un selfie hecho ahora.';
  }
  if (name === 'NotFoundError' || name === 'OverconstrainedError') {
    return 'No encontramos ninguna cámara. Sube un selfie hecho ahora con la pose.';
  }
  return 'No se pudo abrir la cámara. Sube un selfie hecho ahora con la pose.';
}

/** The current frame of `video` as a JPEG, at most SELFIE_WIDTH wide. */
function captureFrame(video: HTMLVideoElement): Promise<Blob | null> {
  const scale = Math.min(1, SELFIE_WIDTH / (video.videoWidth || SELFIE_WIDTH));
  const canvas = document.createElement('canvas');
  canvas.width = Math.round((video.videoWidth || 640) * scale);
  canvas.height = Math.round((video.videoHeight || 480) * scale);
  canvas.getContext('2d')?.drawImage(video, 0, 0, canvas.width, canvas.height);
  return new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.9));
}

/**
 * The selfie: the front camera (getUserMedia) with a live preview, or, when there is no camera or
 * no permission, a file chosen from the device. The picture is only handed to `onSend`, never
 * stored on the device; the camera stops as soon as a picture is taken or the dialog closes.
 */
export function SelfieCapture({ isSending, onSend }: { isSending: boolean; onSend: (selfie: Blob) => void }) {
  const videoRef = useRef<HTMLVideoElement>(null);
  const streamRef = useRef<MediaStream | null>(null);
  const [camera, setCamera] = useState<Camera>({ status: 'starting' });
  const [attempt, setAttempt] = useState(0);
  const fileId = useId();

  const stopStream = () => {
    for (const track of streamRef.current?.getTracks() ?? []) track.stop();
    streamRef.current = null;
  };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `attempt` restarts the camera ("Repetir").
  useEffect(() => {
    let isCancelled = false;
    const media = typeof navigator === 'undefined' ? undefined : navigator.mediaDevices;
    if (!media?.getUserMedia) {
      setCamera({
        status: 'unavailable',
        message: 'Tu navegador no permite usar la cámara aquí. Sube un selfie hecho ahora.',
      });
      return;
    }
    setCamera({ status: 'starting' });
    media
      .getUserMedia({ video: { facingMode: 'user', width: { ideal: SELFIE_WIDTH } }, audio: false })
      .then((stream) => {
        if (isCancelled) {
          for (const track of stream.getTracks()) track.stop();
          return;
        }
        streamRef.current = stream;
        const video = videoRef.current;
        if (video) {
          video.srcObject = stream;
          void video.play().catch(() => {});
        }
        setCamera({ status: 'live' });
      })
      .catch((error: unknown) => {
        if (!isCancelled) setCamera({ status: 'unavailable', message: cameraProblem(error) });
      });
    return () => {
      isCancelled = true;
      stopStream();
    };
  }, [attempt]);

  useEffect(
    () => () => {
      if (camera.status === 'taken') URL.revokeObjectURL(camera.url);
    },
    [camera],
  );

  const take = async () => {
    const video = videoRef.current;
    if (!video) return;
    const blob = await captureFrame(video);
    if (!blob) return;
    stopStream();
    setCamera({ status: 'taken', blob, url: URL.createObjectURL(blob) });
  };

  const choose = (file: File | undefined) => {
    if (!file) return;
    stopStream();
    setCamera({ status: 'taken', blob: file, url: URL.createObjectURL(file) });
  };

  const frame = 'aspect-[3/4] w-full max-w-64 overflow-hidden rounded-2xl bg-stone-900 ring-1 ring-stone-900/10';
  return (
    <div className="flex flex-col items-center gap-3">
      {camera.status === 'taken' ? (
        <img src={camera.url} alt="Tu selfie" className={`${frame} object-cover`} />
      ) : (
        <div className={`${frame} relative`}>
          {/* Mirrored like a mirror: copying the pose is easier. The photo itself is not mirrored. */}
          <video
            ref={videoRef}
            muted
            playsInline
            aria-label="Vista previa de la cámara"
            className="size-full -scale-x-100 object-cover"
            hidden={camera.status !== 'live'}
          />
          {camera.status === 'starting' && (
            <p role="status" className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-white">
              Abriendo la cámara...
            </p>
          )}
          {camera.status === 'unavailable' && (
            <p role="alert" className="absolute inset-0 grid place-items-center p-4 text-center text-sm text-white">
              {camera.message}
            </p>
          )}
        </div>
      )}
      <div className="flex flex-wrap justify-center gap-2">
        {camera.status === 'live' && (
          <Button onClick={() => void take()} iconStart={<CameraIcon className="size-5" />}>
            Hacer foto
          </Button>
        )}
        {camera.status === 'taken' && (
          <>
            <Button variant="secondary" disabled={isSending} onClick={() => setAttempt((value) => value + 1)}>
              Repetir
            </Button>
            <Button isLoading={isSending} loadingText="Enviando..." onClick={() => onSend(camera.blob)}>
              Enviar selfie
            </Button>
          </>
        )}
        {camera.status !== 'taken' && (
          <label
            htmlFor={fileId}
            className="inline-flex h-11 cursor-pointer items-center rounded-xl px-4 text-[0.9375rem] font-semibold text-brand-800 underline-offset-4 hover:underline focus-within:outline-2 focus-within:outline-brand-600 dark:text-brand-300"
          >
            Subir una foto
            <input
              id={fileId}
              type="file"
              accept={ACCEPTED}
              capture="user"
              className="sr-only"
              onChange={(event) => choose(event.target.files?.[0])}
            />
          </label>
        )}
      </div>
    </div>
  );
}
