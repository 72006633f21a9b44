/**
 * The console's navigation, in order. A queue of another feature (verification requests) adds
 * its entry here and its route under `/moderacion/…` in app/router.tsx (and HIDDEN_ROUTE_PATTERNS).
 */
export type ConsoleSection = {
  to: '/moderacion' | '/moderacion/verificaciones' | '/moderacion/registro';
  label: string;
  description: string;
};

export const CONSOLE_SECTIONS: readonly ConsoleSection[] = [
  { to: '/moderacion', label: 'Denuncias y apelaciones', description: 'Lo que espera una decisión' },
  { to: '/moderacion/verificaciones', label: 'Verificaciones', description: 'Selfies y fotos nuevas por revisar' },
  { to: '/moderacion/registro', label: 'Registro', description: 'Cada acción de moderación' },
];
