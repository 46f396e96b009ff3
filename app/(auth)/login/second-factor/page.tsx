import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { listFactors } from '@/lib/auth/factors';
import { requireSignedIn } from '@/lib/auth/guards';
import { AuthCard } from '../auth-card';
import { SecondFactorStep } from './second-factor-step';

export const metadata: Metadata = { title: 'Second factor' };

/**
 * The second step of a password sign-in, and the only page a session reaches before it: prove the
 * second factor, or (the first time, where one is required) enrol one.
 */
export default async function SecondFactorPage() {
  const user = await requireSignedIn();
  if (!user.pending) redirect('/');
  const factors = user.pending === 'verify' ? await listFactors(user.id) : [];
  return (
    <AuthCard title={user.pending === 'enrol' ? 'Add a second factor' : 'Second factor'} subtitle={user.email}>
      <SecondFactorStep mode={user.pending} hasPasskey={factors.some((f) => f.kind === 'passkey')} />
    </AuthCard>
  );
}
