import { requireRole } from '@/lib/auth/guards';

// The role check sits in the layout, above the loading boundary (see queues/layout.tsx). The pages check again.
export default async function QualityLayout({ children }: { children: React.ReactNode }) {
  await requireRole('manager');
  return children;
}
