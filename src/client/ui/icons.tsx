import { cx } from './cx.ts';

/**
 * Lucide's icons (ISC licence) as CSS: UnoCSS's preset-icons turns each `i-lucide-<name>` class
 * below into a mask over `currentColor` (uno.config.ts), so no icon is JavaScript and none needs a
 * request. The heavier strokes and the filled shapes are the same icons redrawn at build time
 * (`lucide15`, `lucide225`, `lucide25`, `lucide275`, `lucide3`, `lucidefill`). They are decorative: the control that holds
 * one carries the label. Every class must be written out here for UnoCSS to find it.
 */
export type IconProps = {
  /** Size (and any other utility); default `size-5`. */
  className?: string;
  /** Lucide's stroke is 2; a few places draw it heavier. */
  strokeWidth?: 1.5 | 2 | 2.25 | 2.5 | 2.75 | 3;
  /** The shape filled with the text colour (a "like" that happened). */
  filled?: boolean;
  /** An icon that says something on its own (the verified badge): read out as an image. */
  label?: string;
};

type IconClasses = { 2: string } & Partial<Record<1.5 | 2.25 | 2.5 | 2.75 | 3 | 'filled', string>>;

/** One icon: the class of the shape asked for (or the plain one), decorative unless labelled. */
function LucideIcon({
  classes,
  className = 'size-5',
  strokeWidth = 2,
  filled = false,
  label,
}: IconProps & { classes: IconClasses }) {
  const shape = (filled ? classes.filled : classes[strokeWidth]) ?? classes[2];
  if (label) return <span role="img" aria-label={label} className={cx(shape, className)} />;
  return <span aria-hidden="true" className={cx(shape, className)} />;
}

export const FlameIcon = (props: IconProps) => (
  <LucideIcon
    classes={{ 2: 'i-lucide-flame', '1.5': 'i-lucide15-flame', '2.25': 'i-lucide225-flame', '2.5': 'i-lucide25-flame' }}
    {...props}
  />
);
export const DumbbellIcon = (props: IconProps) => (
  <LucideIcon
    classes={{
      2: 'i-lucide-dumbbell',
      '1.5': 'i-lucide15-dumbbell',
      '2.25': 'i-lucide225-dumbbell',
      '2.5': 'i-lucide25-dumbbell',
      '2.75': 'i-lucide275-dumbbell',
    }}
    {...props}
  />
);
export const MessageIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-message-circle' }} {...props} />;
export const BellIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-bell' }} {...props} />;
export const SettingsIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-settings' }} {...props} />;
export const LockIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-lock' }} {...props} />;
export const CompassIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-compass' }} {...props} />;
export const ArrowLeftIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-arrow-left' }} {...props} />;
export const ChevronRightIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-chevron-right' }} {...props} />
);
export const CloseIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-x', '2.5': 'i-lucide25-x', '2.75': 'i-lucide275-x' }} {...props} />
);
export const EyeIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-eye' }} {...props} />;
export const EyeOffIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-eye-off' }} {...props} />;
export const CheckCircleIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-circle-check-big' }} {...props} />
);
export const AlertCircleIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-circle-alert' }} {...props} />;
export const InfoIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-info' }} {...props} />;
export const SunIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-sun' }} {...props} />;
export const MoonIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-moon' }} {...props} />;
export const MonitorIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-monitor' }} {...props} />;
export const MailIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-mail' }} {...props} />;
export const KeyIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-key' }} {...props} />;
export const FileTextIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-file-text' }} {...props} />;
export const InboxIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-inbox' }} {...props} />;
export const UserIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-user' }} {...props} />;
export const UsersIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-users', '2.25': 'i-lucide225-users', '2.5': 'i-lucide25-users' }} {...props} />
);
export const HeartIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-heart', '2.5': 'i-lucide25-heart', filled: 'i-lucidefill-heart' }} {...props} />
);
export const ZapIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-zap', '1.5': 'i-lucide15-zap', filled: 'i-lucidefill-zap' }} {...props} />
);
export const ShieldCheckIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-shield-check' }} {...props} />;
export const LogInIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-log-in' }} {...props} />;
export const MapPinIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-map-pin' }} {...props} />;
export const SparklesIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-sparkles' }} {...props} />;
export const UserPenIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-user-pen' }} {...props} />;
export const ArrowRightIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-arrow-right' }} {...props} />;
export const CheckIcon = (props: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-check', 3: 'i-lucide3-check' }} {...props} />
);
export const PhoneIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-smartphone' }} {...props} />;
export const SendIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-send' }} {...props} />;
export const PinIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-pin' }} {...props} />;
export const MutedIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-volume-x' }} {...props} />;
export const FlagIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-flag' }} {...props} />;
export const BanIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-ban' }} {...props} />;
export const DotsIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-ellipsis-vertical' }} {...props} />;
export const ExpandIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-maximize-2' }} {...props} />;
export const CameraIcon = ({ className = 'size-6', ...props }: IconProps) => (
  <LucideIcon classes={{ 2: 'i-lucide-camera' }} className={className} {...props} />
);
export const CalendarIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-calendar' }} {...props} />;
export const UndoIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-undo-2' }} {...props} />;
export const ShareIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-share' }} {...props} />;
export const SquarePlusIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-square-plus' }} {...props} />;
export const DownloadIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-download' }} {...props} />;
export const CloudOffIcon = (props: IconProps) => <LucideIcon classes={{ 2: 'i-lucide-cloud-off' }} {...props} />;
