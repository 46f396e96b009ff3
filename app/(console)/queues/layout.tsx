import { requireRole } from '@/lib/auth/guards';

// The role check sits in the layout, above the loading boundary, so the 403 page is sent with
// status 403 before streaming starts. The page checks again for itself.
export default async function QueuesLayout({ children }: { children: React.ReactNode }) {
  await requireRole('manager');
  return children;
}
