import type { Metadata } from 'next';
import { AuthCard } from '../auth-card';
import { SetPasswordForm } from './set-password-form';

export const metadata: Metadata = { title: 'Choose your password' };

/** Public: the one-time link's token is in the address's fragment and is checked when the form is sent. */
export default function SetPasswordPage() {
  return (
    <AuthCard title="Choose your password" subtitle="Verdict: identity-verification review console">
      <SetPasswordForm />
    </AuthCard>
  );
}
