import { cx } from '../../ui/cx.ts';
import { ZapIcon } from '../../ui/icons.tsx';
import { SafeImage } from '../../ui/safe-image.tsx';

const AVATAR_SIZES = { header: 'size-10', list: 'size-13' } as const;

/**
 * The other user's photo in a conversation (spec 001 §2: "photo with fallbacks": a doubled host is
 * corrected, anything else shows the default avatar), as the /messages list and the chat header
 * show it. `isSuper` rings it in amber and adds the "Súper entreno" mark (the list's look).
 */
export function ConversationAvatar({
  photo,
  size,
  isSuper = false,
}: {
  photo: string | null | undefined;
  size: keyof typeof AVATAR_SIZES;
  isSuper?: boolean;
}) {
  return (
    <span className="relative shrink-0">
      <SafeImage
        photo={photo}
        alt=""
        isThumbnail
        className={cx(
          AVATAR_SIZES[size],
          'rounded-full bg-stone-200 object-cover dark:bg-stone-800',
          isSuper && 'ring-2 ring-amber-400 ring-offset-2 ring-offset-white dark:ring-offset-stone-950',
        )}
      />
      {isSuper && (
        <span
          className="absolute -bottom-1 -right-1 grid size-5 place-items-center rounded-full bg-amber-400 text-stone-950 ring-2 ring-white dark:ring-stone-950"
          title="Súper entreno"
        >
          <ZapIcon className="size-3" />
          <span className="sr-only">Súper entreno</span>
        </span>
      )}
    </span>
  );
}

/**
 * The amber "Súper entreno" badge of the chat header (spec 001 §2). On a phone it is the ⚡ alone (its
 * name stays for screen readers and as a tooltip), so the name beside it keeps its room (issue #34).
 */
export function SuperEntrenoBadge() {
  return (
    <span
      role="img"
      aria-label="Súper entreno"
      title="Súper entreno"
      data-testid="super-entreno-badge"
      className="inline-flex shrink-0 items-center gap-1 rounded-full bg-amber-100 p-1 text-xs font-bold text-amber-900 ring-1 ring-inset ring-amber-300 sm:px-2.5 dark:bg-amber-400/15 dark:text-amber-200 dark:ring-amber-400/30"
    >
      <ZapIcon className="size-3.5" />
      <span className="hidden sm:inline" aria-hidden="true">
        Súper entreno
      </span>
    </span>
  );
}
