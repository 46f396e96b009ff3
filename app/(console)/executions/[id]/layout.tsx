import { notFound } from 'next/navigation';
import { requireRole } from '@/lib/auth/guards';
import { executionExists } from '@/lib/executions/queries';
import { UUID_RE } from '@/lib/executions/list-params';

/**
 * Checked here, above the loading boundary, so that an unknown or malformed id answers with a
 * real 404 status (a page inside a Suspense boundary has already sent 200 when it finds out).
 */
export default async function ExecutionLayout({
  children,
  params,
}: {
  children: React.ReactNode;
  params: Promise<{ id: string }>;
}) {
  await requireRole('analyst');
  const { id } = await params;
  if (!UUID_RE.test(id) || !(await executionExists(id))) notFound();
  return children;
}
