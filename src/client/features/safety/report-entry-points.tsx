import { useId, useState } from 'react';
import { Button } from '../../ui/button.tsx';
import { cx } from '../../ui/cx.ts';
import { Dialog } from '../../ui/dialog.tsx';
import { FlagIcon } from '../../ui/icons.tsx';
import { safetyActions } from './safety-actions.ts';
import { ReportDialog } from './safety-dialogs.tsx';
import { ReportBlockMenu } from './safety-menu.tsx';

/**
 * The report entry points of open sessions and their group chats (docs/decisions/0056, amendment
 * of session 17): the same sheet as a person's report, sent through the outbox.
 */

/** «Denunciar este entreno», on a session's screen for anyone but its host. */
export function ReportSessionButton({
  session,
  onBlocked,
}: {
  session: { id: string; hostName: string };
  /** The host was blocked with the report: the session is gone for this person. */
  onBlocked: () => void;
}) {
  const [isOpen, setIsOpen] = useState(false);
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        className="self-center"
        iconStart={<FlagIcon className="size-4" />}
        onClick={() => setIsOpen(true)}
        aria-haspopup="dialog"
      >
        Denunciar este entreno
      </Button>
      <ReportDialog
        target={{ name: session.hostName, openSessionId: session.id }}
        title="Denunciar este entreno"
        description={`Cuéntanos qué pasa con el entreno de ${session.hostName}. Tu denuncia es anónima: no le diremos quién la ha hecho.`}
        open={isOpen}
        onClose={() => setIsOpen(false)}
        onReported={(isBlocked) => {
          setIsOpen(false);
          if (isBlocked) onBlocked();
        }}
      />
    </>
  );
}

/** Someone in a group other than the viewer, and what they wrote in the thread loaded. */
export type GroupPerson = { userId: string; name: string };
export type GroupLine = { id: string; senderId: string; text: string };

const MESSAGE_CHOICES = 10;
const excerpt = (text: string) => (text.length > 60 ? `${text.slice(0, 59)}…` : text);

/** «¿A quién?» as radio cards: the group's other members. */
function PersonChoice({
  people,
  chosen,
  onChoose,
  name,
}: {
  people: readonly GroupPerson[];
  chosen: string | null;
  onChoose: (userId: string) => void;
  name: string;
}) {
  return (
    <fieldset className="flex flex-col gap-2">
      <legend className="mb-2 text-sm font-semibold text-stone-900 dark:text-stone-100">¿A quién?</legend>
      <div className="flex flex-wrap gap-2">
        {people.map((person) => (
          <label
            key={person.userId}
            className={cx(
              'flex cursor-pointer items-center gap-2 rounded-full px-3 py-1.5 text-sm font-semibold ring-1 ring-inset',
              'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-brand-600 dark:has-[:focus-visible]:outline-brand-400',
              chosen === person.userId
                ? 'bg-red-50 text-red-900 ring-red-300 dark:bg-red-500/10 dark:text-red-100 dark:ring-red-400/40'
                : 'text-stone-800 ring-stone-200 hover:bg-stone-50 dark:text-stone-100 dark:ring-stone-700 dark:hover:bg-white/4',
            )}
          >
            <input
              type="radio"
              name={name}
              value={person.userId}
              checked={chosen === person.userId}
              onChange={() => onChoose(person.userId)}
              className="size-4 accent-red-700 focus:outline-none dark:accent-red-500"
            />
            {person.name}
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The report sheet for a group: whom, optionally which of their messages, then the usual reasons. */
function GroupReportDialog({
  groupId,
  people,
  lines,
  open,
  onClose,
  onReported,
}: {
  groupId: string;
  people: readonly GroupPerson[];
  lines: readonly GroupLine[];
  open: boolean;
  onClose: () => void;
  onReported: (blocked: GroupPerson | null) => void;
}) {
  const [chosen, setChosen] = useState<string | null>(people.length === 1 ? (people[0]?.userId ?? null) : null);
  const [messageId, setMessageId] = useState('');
  const ids = { people: useId(), message: useId() };
  const person = people.find((candidate) => candidate.userId === chosen) ?? null;
  const theirs = lines
    .filter((line) => line.senderId === chosen)
    .slice(-MESSAGE_CHOICES)
    .reverse();
  const close = () => {
    setMessageId('');
    onClose();
  };
  return (
    <ReportDialog
      target={{
        name: person?.name ?? '',
        groupId,
        ...(person ? { userId: person.userId } : {}),
        ...(messageId ? { messageId } : {}),
      }}
      title="Denunciar en este grupo"
      description="Elige a quién y, si quieres, el mensaje. Tu denuncia es anónima: no le diremos quién la ha hecho."
      missingSubject="Elige a quién denuncias"
      open={open}
      onClose={close}
      onReported={(isBlocked) => {
        setMessageId('');
        onReported(isBlocked ? person : null);
      }}
      subjectFields={
        <>
          <PersonChoice
            people={people}
            chosen={chosen}
            name={ids.people}
            onChoose={(userId) => {
              setChosen(userId);
              setMessageId('');
            }}
          />
          {theirs.length > 0 && (
            <div className="flex flex-col gap-1.5">
              <label htmlFor={ids.message} className="text-sm font-medium text-stone-800 dark:text-stone-200">
                Mensaje (opcional)
              </label>
              <select
                id={ids.message}
                value={messageId}
                onChange={(event) => setMessageId(event.target.value)}
                className="w-full rounded-xl bg-white px-3 py-2.5 text-[0.9375rem] text-stone-900 ring-1 ring-inset ring-stone-300 focus:outline-none focus:ring-2 focus:ring-brand-600 dark:bg-stone-900 dark:text-white dark:ring-stone-700 dark:focus:ring-brand-400"
              >
                <option value="">Ningún mensaje en concreto</option>
                {theirs.map((line) => (
                  <option key={line.id} value={line.id}>
                    {excerpt(line.text)}
                  </option>
                ))}
              </select>
            </div>
          )}
        </>
      }
    />
  );
}

/** «Bloquear a alguien del grupo»: whom, what a block does here, then Bloquear. */
function GroupBlockDialog({
  people,
  open,
  onClose,
  onBlocked,
}: {
  people: readonly GroupPerson[];
  open: boolean;
  onClose: () => void;
  onBlocked: (person: GroupPerson) => void;
}) {
  const [chosen, setChosen] = useState<string | null>(null);
  const [isBlocking, setIsBlocking] = useState(false);
  const name = useId();
  const person = people.find((candidate) => candidate.userId === chosen) ?? null;
  const block = async () => {
    if (!person) return;
    setIsBlocking(true);
    const outcome = await safetyActions.block(person);
    setIsBlocking(false);
    if (outcome.status === 'done') {
      setChosen(null);
      onBlocked(person);
    }
  };
  return (
    <Dialog
      open={open}
      onClose={() => !isBlocking && onClose()}
      title="Bloquear a alguien del grupo"
      description="No volveréis a veros en Conectar ni en tus matches y no verás sus mensajes en este grupo. Si organiza este entreno, saldrás de él; si lo organizas tú, saldrá del entreno y del grupo. No le avisaremos."
      size="sm"
      actions={
        <>
          <Button variant="secondary" onClick={onClose} disabled={isBlocking}>
            Cancelar
          </Button>
          <Button
            variant="danger"
            isLoading={isBlocking}
            loadingText="Bloqueando..."
            disabled={!person}
            onClick={() => void block()}
          >
            {person ? `Bloquear a ${person.name}` : 'Bloquear'}
          </Button>
        </>
      }
    >
      <PersonChoice people={people} chosen={chosen} onChoose={setChosen} name={name} />
    </Dialog>
  );
}

type Open = 'report' | 'block' | null;

/** The group chat's "more" menu: «Denunciar» and «Bloquear a alguien», for a member of the group. */
export function GroupSafetyMenu({
  groupId,
  people,
  lines,
  onBlocked,
}: {
  groupId: string;
  /** The group's members other than the viewer. */
  people: readonly GroupPerson[];
  lines: readonly GroupLine[];
  /** Someone was blocked (by «Bloquear» or a report with «Bloquear también»). */
  onBlocked: (person: GroupPerson) => void;
}) {
  const [open, setOpen] = useState<Open>(null);
  if (people.length === 0) return null;
  return (
    <>
      <ReportBlockMenu
        label="Más opciones del grupo"
        blockText="Bloquear a alguien"
        widthClass="w-56"
        onPick={setOpen}
      />
      <GroupReportDialog
        groupId={groupId}
        people={people}
        lines={lines}
        open={open === 'report'}
        onClose={() => setOpen(null)}
        onReported={(blocked) => {
          setOpen(null);
          if (blocked) onBlocked(blocked);
        }}
      />
      <GroupBlockDialog
        people={people}
        open={open === 'block'}
        onClose={() => setOpen(null)}
        onBlocked={(person) => {
          setOpen(null);
          onBlocked(person);
        }}
      />
    </>
  );
}
