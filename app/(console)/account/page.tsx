import type { Metadata } from 'next';
import { MOMENT, StaticTable, srOnlyHeader } from '@/components/data-table/static-table';
import { TimeZoneForm } from '@/components/account/time-zone-form';
import { PageHeader } from '@/components/shell/page-header';
import { Badge } from '@/components/ui/badge';
import { Card, CardContent, CardHeader, CardTitle, TitledCard } from '@/components/ui/card';
import {
  AddFactor,
  ChangePasswordForm,
  RemoveFactorButton,
  ReplaceRecoveryCodes,
  SignOutOthersButton,
  SignOutSessionButton,
} from '@/components/account/account-forms';
import { countRecoveryCodesLeft, listFactors } from '@/lib/auth/factors';
import { requireUser } from '@/lib/auth/guards';
import { mfaRequiredFor, stepUpMinutes } from '@/lib/auth/mfa-policy';
import { listLiveSessions, sessionHandle } from '@/lib/auth/sessions';
import { getUser } from '@/lib/auth/users';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Your account' };

/** A short name for a browser from its User-Agent, for the sessions list. */
function device(ua: string | null): string {
  if (!ua) return 'Unknown device';
  const browser = /Edg\//.test(ua)
    ? 'Edge'
    : /Chrome\//.test(ua)
      ? 'Chrome'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Safari\//.test(ua)
          ? 'Safari'
          : 'Browser';
  const os = /Windows/.test(ua)
    ? 'Windows'
    : /Mac OS X/.test(ua)
      ? 'macOS'
      : /Android/.test(ua)
        ? 'Android'
        : /iPhone|iPad/.test(ua)
          ? 'iOS'
          : /Linux/.test(ua)
            ? 'Linux'
            : 'another system';
  return `${browser} on ${os}`;
}

export default async function AccountPage() {
  const user = await requireUser();
  const [factors, codesLeft, sessions, row] = await Promise.all([
    listFactors(user.id),
    countRecoveryCodesLeft(user.id),
    listLiveSessions(user.id),
    getUser(user.id),
  ]);
  const required = mfaRequiredFor(user, false);
  return (
    <>
      <PageHeader
        title="Your account"
        description={`Signed in as ${user.email} (${user.role}). Revealing personal data, keys, webhooks, roles, the audit export and settings ask for your second factor again after ${stepUpMinutes()} minutes.`}
      />
      <div className="grid gap-6 lg:grid-cols-2">
        <Card className="self-start">
          <CardHeader>
            <CardTitle>Second factors</CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {factors.length === 0 ? (
              <p className="text-sm text-muted-fg">
                You sign in with your password alone{required ? '' : ' (allowed for this account)'}. Add an
                authenticator app or a passkey.
              </p>
            ) : (
              <ul className="flex flex-col divide-y divide-border" aria-label="Your second factors">
                {factors.map((f) => (
                  <li key={f.id} className="flex items-center justify-between gap-3 py-2">
                    <div>
                      <div className="text-sm font-medium">
                        {f.label} <Badge tone="neutral">{f.kind === 'totp' ? 'Authenticator app' : 'Passkey'}</Badge>
                      </div>
                      <div className="text-xs text-muted-fg">
                        Added <LocalTime value={f.createdAt} /> · last used <LocalTime value={f.lastUsedAt} />
                      </div>
                    </div>
                    <RemoveFactorButton factorId={f.id} label={f.label} last={factors.length < 2} />
                  </li>
                ))}
              </ul>
            )}
            <AddFactor />
            {factors.length > 0 ? (
              <div className="flex flex-col gap-2 border-t border-border pt-3">
                <p className="text-sm">
                  Recovery codes left: <strong>{codesLeft}</strong> of 10.
                </p>
                <ReplaceRecoveryCodes />
              </div>
            ) : null}
          </CardContent>
        </Card>
        <TitledCard title="Time zone" className="self-start">
          <TimeZoneForm current={row?.timeZone ?? 'UTC'} />
        </TitledCard>
        <TitledCard title="Password" className="self-start">
          {row?.passwordHash ? (
            <ChangePasswordForm needsCode={factors.length > 0} />
          ) : (
            <p className="text-sm text-muted-fg">You sign in through company SSO; your company keeps your password.</p>
          )}
        </TitledCard>
        <Card className="self-start lg:col-span-2">
          <CardHeader className="flex flex-row items-center justify-between">
            <CardTitle>Your sessions</CardTitle>
            {sessions.length > 1 ? <SignOutOthersButton /> : null}
          </CardHeader>
          <StaticTable
            caption="Your sessions"
            rows={sessions}
            rowKey={(s) => s.id}
            columns={[
              {
                header: 'Device',
                cell: (s) => (
                  <>
                    {device(s.userAgent)} {s.id === user.sessionId ? <Badge tone="ok">This session</Badge> : null}
                  </>
                ),
              },
              { header: 'Address', className: 'font-mono text-xs', cell: (s) => s.ip ?? 'unknown' },
              { header: 'Signed in', ...MOMENT, cell: (s) => <LocalTime value={s.createdAt} /> },
              { header: 'Last seen', ...MOMENT, cell: (s) => <LocalTime value={s.lastSeenAt} /> },
              {
                header: srOnlyHeader('Actions'),
                className: 'text-right',
                cell: (s) =>
                  s.id === user.sessionId ? null : (
                    <SignOutSessionButton sessionId={sessionHandle(s.id)} label={device(s.userAgent)} />
                  ),
              },
            ]}
          />
        </Card>
      </div>
    </>
  );
}
