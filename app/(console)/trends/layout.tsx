import { requireRole } from '@/lib/auth/guards';

/** Trends are for managers and admins: the check sits above loading.tsx so analysts get a real 403. */
export default async function TrendsLayout({ children }: { children: React.ReactNode }) {
  await requireRole('manager');
  return children;
}
