import { StatusPage } from '@/components/shell/status-page';

export default function NotFound() {
  return (
    <StatusPage code="404" title="Not found">
      There is nothing at this address, or the record no longer exists.
    </StatusPage>
  );
}
