import { Outlet } from '@tanstack/react-router';
import { Toaster } from '../../ui/toaster.tsx';

/** The root of every page: the matched route and the single toast region. */
export function RootLayout() {
  return (
    <>
      <Outlet />
      <Toaster />
    </>
  );
}
