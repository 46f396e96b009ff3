import type { Metadata } from 'next';
import { FourEyesForm } from '@/components/feedback/four-eyes-form';
import { PageHeader } from '@/components/shell/page-header';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card';
import { requireRole } from '@/lib/auth/guards';
import { countAwaitingApproval } from '@/lib/feedback/queries';
import { getUser } from '@/lib/auth/users';
import { getFourEyes } from '@/lib/feedback/settings';
import { formatNumber } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

export const metadata: Metadata = { title: 'Settings' };

export default async function SettingsPage() {
  await requireRole('admin');
  const [fourEyes, waiting] = await Promise.all([getFourEyes(), countAwaitingApproval()]);
  const by = fourEyes.updatedBy ? await getUser(fourEyes.updatedBy) : null;
  return (
    <>
      <PageHeader
        title="Settings"
        description="How Verdict behaves for everyone. Every change is recorded in the audit log."
      />
      <div className="grid max-w-3xl gap-6">
        <Card>
          <CardHeader>
            <CardTitle>Feedback</CardTitle>
            <p className="text-xs text-muted-fg">
              A Fraud label follows the identity document to later transactions at the service, so a wrong one hurts a
              real person.
              {fourEyes.updatedAt ? (
                <>
                  {' '}
                  Last changed <LocalTime value={fourEyes.updatedAt} />
                  {by ? ` by ${by.email}` : ''}.
                </>
              ) : null}
              {waiting ? ` ${formatNumber(waiting)} label${waiting === 1 ? '' : 's'} currently await approval.` : ''}
            </p>
          </CardHeader>
          <CardContent>
            <FourEyesForm enabled={fourEyes.enabled} />
          </CardContent>
        </Card>
      </div>
    </>
  );
}
