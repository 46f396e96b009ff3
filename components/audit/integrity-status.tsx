import { Alert } from '@/components/ui/alert';
import { formatNumber } from '@/lib/format';
import { LocalTime } from '@/components/time/local-time';

interface Verification {
  ok: boolean;
  finishedAt: Date;
  entries: number;
  checkpoints: number;
  verifiedSeq: number | null;
  verifiedAt: Date | null;
  failure: { seq: number | null; id: number | null; checkpointId?: number; reason: string } | null;
}

/** Sealing normally follows a commit within seconds; a tail older than this means it has stopped. */
const SEAL_LATE_MS = 60_000;

/**
 * The state of the tamper-evident chain, from the newest recorded verification (the worker's
 * hourly job, "Verify now" or `npm run audit -- verify`): an alarm when it failed, else how far it
 * holds; the entries chained since it ran, counted at this request; and the entries not yet sealed
 * into the chain, which no verification covers.
 */
export function IntegrityStatus({
  last,
  lastOk,
  checkpoint,
  unsealed,
  sinceVerified,
  now = new Date(),
}: {
  last: Verification | null;
  lastOk: Verification | null;
  checkpoint: { seq: number; signedAt: Date } | null;
  unsealed: { count: number; oldestAt: Date | null };
  /** Entries sealed into the chain after the newest verification's end. */
  sinceVerified: number;
  now?: Date;
}) {
  const signed = checkpoint ? (
    <>
      {' '}
      Last signed checkpoint: position {formatNumber(checkpoint.seq)}, <LocalTime value={checkpoint.signedAt} />.
    </>
  ) : (
    ' No signed checkpoint yet.'
  );
  const late = unsealed.oldestAt !== null && now.getTime() - unsealed.oldestAt.getTime() > SEAL_LATE_MS;
  const tail = unsealed.count ? (
    <Alert tone={late ? 'warn' : 'info'} className="mb-4" data-testid="audit-unsealed">
      {formatNumber(unsealed.count)} {unsealed.count === 1 ? 'entry' : 'entries'}{' '}
      {late ? (
        <>
          are not yet sealed into the chain, the oldest from <LocalTime value={unsealed.oldestAt} />: the worker seals
          every second, so check that it runs.
        </>
      ) : (
        'written in the last seconds are not yet sealed into the chain; the worker seals every second.'
      )}
    </Alert>
  ) : null;
  return (
    <>
      <Status last={last} lastOk={lastOk} signed={signed} />
      {last && sinceVerified ? (
        <p className="-mt-2 mb-4 text-sm text-muted-fg" data-testid="audit-since-verified">
          Since then {formatNumber(sinceVerified)} {sinceVerified === 1 ? 'entry has' : 'entries have'} been chained,
          not yet verified: “Verify now” checks them.
        </p>
      ) : null}
      {tail}
    </>
  );
}

function Status({
  last,
  lastOk,
  signed,
}: {
  last: Verification | null;
  lastOk: Verification | null;
  signed: React.ReactNode;
}) {
  if (!last)
    return (
      <Alert tone="info" className="mb-4" data-testid="audit-integrity">
        The audit chain has not been verified yet: the worker verifies it every hour, or run{' '}
        <code>npm run audit -- verify</code>.{signed}
      </Alert>
    );
  if (!last.ok && last.failure)
    return (
      <Alert tone="error" className="mb-4" data-testid="audit-integrity">
        <strong>Audit log verification failed</strong> on <LocalTime value={last.finishedAt} />:{' '}
        {last.failure.id !== null
          ? `entry ${last.failure.id} (position ${formatNumber(last.failure.seq)})`
          : `position ${formatNumber(last.failure.seq)}`}
        {last.failure.checkpointId ? `, checkpoint ${last.failure.checkpointId}` : ''} — {last.failure.reason}. Entries
        before it verify up to <LocalTime value={last.verifiedAt} />.
        {lastOk ? (
          <>
            {' '}
            The last passing verification reached <LocalTime value={lastOk.verifiedAt} />.
          </>
        ) : null}
      </Alert>
    );
  return (
    <Alert tone="success" className="mb-4" data-testid="audit-integrity">
      Verified up to <LocalTime value={last.verifiedAt} />: {formatNumber(last.entries)} entries chained,{' '}
      {last.checkpoints} signed checkpoints hold (checked <LocalTime value={last.finishedAt} />
      ).{signed}
    </Alert>
  );
}
