import { requireRole } from '@/lib/auth/guards';

// The role check sits in the layout, above the loading boundary, so the 403 page is sent with
// status 403 before streaming starts. The pages check again for themselves.
export default async function RingsLayout({ children }: { children: React.ReactNode }) {
  await requireRole('analyst');
  return children;
}
