'use client';
import * as React from 'react';
import { ActionResultNote } from '@/components/ui/alert';
import { Button } from '@/components/ui/button';
import { saveNotificationPreferencesAction } from '@/lib/actions/notifications';
import type { ActionResult } from '@/lib/auth/guards';
import type { NotificationKind } from '@/lib/notifications/kinds';

export interface PreferenceRow {
  kind: NotificationKind;
  label: string;
  describe: string;
  inApp: boolean;
  email: boolean;
}

/** Which kinds a person gets in the app and by e-mail; one form, saved at once. */
export function NotificationPreferences({ rows, mail }: { rows: PreferenceRow[]; mail: boolean }) {
  const [result, setResult] = React.useState<ActionResult<null> | null>(null);
  const [pending, start] = React.useTransition();
  return (
    <form
      aria-label="Notification preferences"
      onSubmit={(e) => {
        e.preventDefault();
        const data = new FormData(e.currentTarget);
        start(async () => setResult(await saveNotificationPreferencesAction(data)));
      }}
      className="flex flex-col gap-3"
    >
      <table className="w-full text-sm">
        <caption className="sr-only">What you are told, and how</caption>
        <thead>
          <tr className="text-left text-xs text-muted-fg">
            <th scope="col" className="py-1 font-medium">
              Kind
            </th>
            <th scope="col" className="w-24 py-1 text-center font-medium">
              In the app
            </th>
            <th scope="col" className="w-24 py-1 text-center font-medium">
              E-mail
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r.kind} className="border-t border-border">
              <th scope="row" className="py-2 text-left font-normal">
                <span className="font-medium">{r.label}</span>
                <span className="block text-xs text-muted-fg">{r.describe}</span>
              </th>
              <td className="text-center">
                <input
                  type="checkbox"
                  name={`${r.kind}.inApp`}
                  defaultChecked={r.inApp}
                  aria-label={`${r.label}: in the app`}
                  className="h-4 w-4"
                />
              </td>
              <td className="text-center">
                <input
                  type="checkbox"
                  name={`${r.kind}.email`}
                  defaultChecked={r.email}
                  aria-label={`${r.label}: by e-mail`}
                  className="h-4 w-4"
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="text-xs text-muted-fg">
        {mail
          ? 'E-mails name the case by its id and link to it; they carry no data of the verified person.'
          : 'E-mail is not configured on this server (SMTP_URL): only the in-app choices take effect for now.'}
      </p>
      <div className="flex items-center gap-3">
        <Button type="submit" size="sm" disabled={pending}>
          Save preferences
        </Button>
        <ActionResultNote result={result} />
      </div>
    </form>
  );
}
