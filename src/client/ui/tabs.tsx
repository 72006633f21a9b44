import { Tab, TabGroup, TabList, TabPanel, TabPanels } from '@headlessui/react';
import type { ReactNode } from 'react';
import { cx } from './cx.ts';

export type TabItem = { id: string; label: ReactNode; content: ReactNode };

export type TabsProps = {
  tabs: readonly TabItem[];
  /** Names the tab list for screen readers. */
  label: string;
  /** Controlled selection; omit both to let the tabs keep their own. */
  selectedIndex?: number;
  onChange?: (index: number) => void;
  defaultIndex?: number;
  className?: string;
};

/** Segmented tabs (arrow keys move between them) with one panel per tab. */
export function Tabs({ tabs, label, selectedIndex, onChange, defaultIndex, className }: TabsProps) {
  return (
    <TabGroup selectedIndex={selectedIndex} onChange={onChange} defaultIndex={defaultIndex} className={className}>
      <TabList aria-label={label} className="flex gap-1 rounded-2xl bg-stone-200/70 p-1 dark:bg-stone-800">
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            className={cx(
              'flex-1 rounded-xl px-3 py-2 text-sm font-semibold text-stone-700 transition duration-150 motion-reduce:transition-none',
              'hover:text-stone-900 dark:text-stone-300 dark:hover:text-stone-50',
              'data-[selected]:bg-white data-[selected]:text-stone-900 data-[selected]:shadow-sm',
              'dark:data-[selected]:bg-stone-950 dark:data-[selected]:text-stone-50',
              'focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400',
            )}
          >
            {tab.label}
          </Tab>
        ))}
      </TabList>
      <TabPanels className="mt-4">
        {tabs.map((tab) => (
          <TabPanel
            key={tab.id}
            className="rounded-xl focus-visible:outline-2 focus-visible:outline-brand-600 dark:focus-visible:outline-brand-400"
          >
            {tab.content}
          </TabPanel>
        ))}
      </TabPanels>
    </TabGroup>
  );
}
