import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { Suspense } from 'react';
import { Alert } from '@/components/ui/alert';
import { getCurrentUser, SECOND_FACTOR_PAGE } from '@/lib/auth/guards';
import { OIDC_ENABLED } from '@/lib/auth/options';
import { AuthFrame } from './auth-card';
import { LoginForm } from './login-form';

export const metadata: Metadata = { title: 'Sign in' };

const REASONS: Record<string, string> = {
  idle: 'You were signed out after 30 minutes without activity.',
  expired: 'Your session reached its 12-hour limit. Sign in again.',
  revoked: 'Your session has ended. Sign in again.',
  inactive: 'This account is deactivated. Ask an administrator.',
  invalid: 'Your session could not be verified. Sign in again.',
  missing: 'Your session has ended. Sign in again.',
  AccessDenied: 'Your company account has no access to Verdict. Ask an administrator to add you.',
};

export default async function LoginPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const current = await getCurrentUser();
  if (current) redirect(current.pending ? SECOND_FACTOR_PAGE : '/');
  const sp = await searchParams;
  const reason =
    typeof sp.reason === 'string' ? REASONS[sp.reason] : typeof sp.error === 'string' ? REASONS[sp.error] : undefined;
  const demo = process.env.VERDICT_DEMO === '1' || process.env.VERDICT_DEMO === 'true';
  return (
    <AuthFrame title="Sign in to Verdict" subtitle="Identity-verification review console">
      {reason ? (
        <Alert tone="warn" className="mb-4">
          {reason}
        </Alert>
      ) : null}
      <Suspense>
        <LoginForm oidcName={OIDC_ENABLED() ? (process.env.OIDC_NAME ?? 'Company SSO') : null} />
      </Suspense>
      {demo ? (
        <p className="mt-6 text-xs text-muted-fg">
          Demo mode: sign in as <span className="font-mono">analyst@verdict.local</span>,{' '}
          <span className="font-mono">manager@verdict.local</span> or{' '}
          <span className="font-mono">admin@verdict.local</span> with the password printed by{' '}
          <span className="font-mono">npm start</span>.
        </p>
      ) : null}
    </AuthFrame>
  );
}
