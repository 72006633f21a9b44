import { type ComponentPropsWithRef, useEffect, useState } from 'react';
import { nextPhotoFallback, photoSrc } from './photo-url.ts';

export type SafeImageProps = Omit<ComponentPropsWithRef<'img'>, 'src' | 'alt'> & {
  /** A photo key or address; empty shows the default avatar. */
  photo: string | null | undefined;
  alt: string;
  isThumbnail?: boolean;
};

/** An <img> for user photos: a doubled host is corrected, any other failure shows the default avatar. */
export function SafeImage({ photo, alt, isThumbnail = false, onError, ...props }: SafeImageProps) {
  const initial = photoSrc(photo, { thumbnail: isThumbnail });
  const [src, setSrc] = useState(initial);
  useEffect(() => setSrc(initial), [initial]);
  return (
    <img
      {...props}
      src={src}
      alt={alt}
      onError={(event) => {
        const next = nextPhotoFallback(event.currentTarget.src);
        if (next) setSrc(next);
        onError?.(event);
      }}
    />
  );
}
