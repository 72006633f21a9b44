export { InstallCard } from './install-card.tsx';
export { InstallEntry } from './install-entry.tsx';
