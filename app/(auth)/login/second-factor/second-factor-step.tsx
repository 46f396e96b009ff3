'use client';
import { useRouter } from 'next/navigation';
import { useState } from 'react';
import {
  PasskeyEnrolment,
  ProveFactorForm,
  RecoveryCodes,
  TotpEnrolment,
} from '@/components/account/second-factor-forms';
import { Button } from '@/components/ui/button';
import { signOutAndLeave } from '@/lib/auth/sign-out';

export function SecondFactorStep({ mode, hasPasskey }: { mode: 'verify' | 'enrol'; hasPasskey: boolean }) {
  const router = useRouter();
  const [codes, setCodes] = useState<string[] | null>(null);
  const enter = () => {
    router.replace('/');
    router.refresh();
  };
  const enrolled = (recoveryCodes: string[] | null) => (recoveryCodes ? setCodes(recoveryCodes) : enter());

  return (
    <>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={enter} />
      ) : mode === 'verify' ? (
        <ProveFactorForm hasPasskey={hasPasskey} onProved={enter} />
      ) : (
        <div className="flex flex-col gap-3">
          <p className="text-sm">
            Verdict shows identity documents and personal data: your account needs a second factor besides the password.
            Choose one; you can add more later on your account page.
          </p>
          <TotpEnrolment onEnrolled={enrolled} />
          <PasskeyEnrolment onEnrolled={enrolled} />
        </div>
      )}
      {codes ? null : (
        <Button variant="link" size="sm" className="self-start" onClick={() => void signOutAndLeave('/login')}>
          Cancel and sign out
        </Button>
      )}
    </>
  );
}
