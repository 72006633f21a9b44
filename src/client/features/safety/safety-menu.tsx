import { Menu, MenuButton, MenuItem, MenuItems } from '@headlessui/react';
import { useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { BanIcon, DotsIcon, FlagIcon } from '../../ui/icons.tsx';
import type { SafetyTarget } from './safety-actions.ts';
import { BlockDialog, ReportDialog } from './safety-dialogs.tsx';

type Open = 'block' | 'report' | null;

export type SafetyActionsProps = {
  target: SafetyTarget;
  /** The person is blocked (by "Bloquear" or a report with "Bloquear también"): the host moves on. */
  onBlocked: () => void;
};

/** The two dialogs, shared by both presentations. Rendered inside the host, so a host dialog nests them. */
function SafetyDialogs({
  target,
  open,
  setOpen,
  onBlocked,
}: SafetyActionsProps & { open: Open; setOpen: (open: Open) => void }) {
  return (
    <>
      <BlockDialog
        target={target}
        open={open === 'block'}
        onClose={() => setOpen(null)}
        onBlocked={() => {
          setOpen(null);
          onBlocked();
        }}
      />
      <ReportDialog
        target={target}
        open={open === 'report'}
        onClose={() => setOpen(null)}
        onReported={(isBlocked) => {
          setOpen(null);
          if (isBlocked) onBlocked();
        }}
      />
    </>
  );
}

/** "Denunciar" and "Bloquear" as a row of quiet buttons (the foot of the profile modal). */
export function SafetyButtons({ target, onBlocked }: SafetyActionsProps) {
  const [open, setOpen] = useState<Open>(null);
  return (
    <div className="flex flex-wrap items-center justify-end gap-2">
      <Button
        variant="ghost"
        size="sm"
        iconStart={<FlagIcon className="size-4" />}
        onClick={() => setOpen('report')}
        aria-haspopup="dialog"
      >
        Denunciar
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="!text-red-700 dark:!text-red-400"
        iconStart={<BanIcon className="size-4" />}
        onClick={() => setOpen('block')}
        aria-haspopup="dialog"
      >
        Bloquear
      </Button>
      <SafetyDialogs target={target} open={open} setOpen={setOpen} onBlocked={onBlocked} />
    </div>
  );
}

export const MENU_ITEM =
  'flex w-full items-center gap-2.5 rounded-lg px-3 py-2 text-left text-sm font-medium text-stone-700 data-[focus]:bg-stone-100 dark:text-stone-200 dark:data-[focus]:bg-white/8';

/**
 * The "more" button and its two entries, «Denunciar» and a block entry (`blockText`): the chat
 * header's, and a group chat's (report-entry-points.tsx). `onPick` opens the caller's dialog.
 */
export function ReportBlockMenu({
  label,
  blockText,
  widthClass,
  onPick,
}: {
  label: string;
  blockText: string;
  widthClass: string;
  onPick: (dialog: 'report' | 'block') => void;
}) {
  return (
    <Menu>
      <MenuButton
        aria-label={label}
        className="grid size-10 shrink-0 place-items-center rounded-full text-stone-700 hover:bg-stone-100 focus-visible:outline-2 focus-visible:outline-brand-600 dark:text-stone-200 dark:hover:bg-white/8 dark:focus-visible:outline-brand-400"
      >
        <DotsIcon className="size-5" />
      </MenuButton>
      <MenuItems
        anchor="bottom end"
        className={cx(
          'z-40 rounded-xl border border-stone-200 bg-white p-1 shadow-lg outline-none dark:border-white/10 dark:bg-stone-900',
          widthClass,
        )}
      >
        <MenuItem>
          <button type="button" className={MENU_ITEM} onClick={() => onPick('report')}>
            <FlagIcon className="size-4" />
            Denunciar
          </button>
        </MenuItem>
        <MenuItem>
          <button
            type="button"
            className={cx(MENU_ITEM, '!text-red-700 dark:!text-red-400')}
            onClick={() => onPick('block')}
          >
            <BanIcon className="size-4" />
            {blockText}
          </button>
        </MenuItem>
      </MenuItems>
    </Menu>
  );
}

/** "Denunciar" and "Bloquear" behind a "more" button (the chat header). */
export function SafetyMenu({ target, onBlocked }: SafetyActionsProps) {
  const [open, setOpen] = useState<Open>(null);
  return (
    <>
      <ReportBlockMenu
        label={`Más opciones para ${target.name}`}
        blockText="Bloquear"
        widthClass="w-52"
        onPick={setOpen}
      />
      <SafetyDialogs target={target} open={open} setOpen={setOpen} onBlocked={onBlocked} />
    </>
  );
}
