import { StatusPage } from '@/components/shell/status-page';

export default function Forbidden() {
  return (
    <StatusPage code="403" title="You do not have access to this page">
      Your role does not include this part of Verdict. If you need it for your work, ask an administrator to change your
      role.
    </StatusPage>
  );
}
