import { requireRole } from '@/lib/auth/guards';

// The role check sits in the layout, above the loading boundary (see queues/layout.tsx). The page checks again.
export default async function QaLayout({ children }: { children: React.ReactNode }) {
  await requireRole('analyst');
  return children;
}
