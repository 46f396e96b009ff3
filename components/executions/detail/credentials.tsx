import { Lock } from 'lucide-react';
import type { ComparisonRow, ImagePart } from '@/lib/executions/detail';
import { comparisonSummary } from '@/lib/executions/comparison';
import { cn } from '@/lib/utils';
import { humanizeKey, Scalar } from './data-view';
import { ImageViewer } from './image-viewer';
import { Field, Section } from '@/components/ui/section';

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

const PART_LABEL: Record<string, string> = { FRONT: 'Document front', BACK: 'Document back', FACE: 'Selfie' };

/**
 * What a masked image looks like: a drawn silhouette of a card or a face, never the image itself
 * (the proxy route refuses to send it until the execution is revealed).
 */
export function MaskedImage({ classifier }: { classifier: string }) {
  const face = classifier === 'FACE';
  return (
    <figure className="flex flex-col gap-2">
      <div className="relative flex h-56 items-center justify-center overflow-hidden rounded-md border border-dashed border-border bg-muted/40">
        <svg
          aria-hidden
          viewBox={face ? '0 0 120 160' : '0 0 190 120'}
          className={cn('text-muted-fg/20', face ? 'h-48' : 'h-40')}
        >
          {face ? (
            <g fill="currentColor">
              <circle cx="60" cy="58" r="28" />
              <path d="M14 158c4-34 24-52 46-52s42 18 46 52z" />
            </g>
          ) : (
            <g fill="currentColor">
              <rect x="2" y="2" width="186" height="116" rx="10" fill="none" stroke="currentColor" strokeWidth="4" />
              <rect x="16" y="26" width="48" height="62" rx="4" />
              <rect x="76" y="30" width="90" height="8" rx="4" />
              <rect x="76" y="48" width="70" height="8" rx="4" />
              <rect x="76" y="66" width="80" height="8" rx="4" />
              <rect x="16" y="98" width="158" height="6" rx="3" />
            </g>
          )}
        </svg>
        <div className="absolute inset-x-4 flex flex-col items-center gap-1 rounded-lg bg-card/95 px-3 py-2.5 text-center shadow-sm ring-1 ring-border">
          <span className="flex items-center gap-1.5 text-xs font-semibold">
            <Lock aria-hidden className="h-3.5 w-3.5" /> Masked
          </span>
          <span className="text-[11px] leading-snug text-muted-fg">Reveal personal data to view this image.</span>
        </div>
      </div>
      <figcaption className="text-xs font-medium">{PART_LABEL[classifier] ?? classifier}</figcaption>
    </figure>
  );
}

export function CredentialsSection({
  executionId,
  credentials,
  images,
  revealed,
  wiped,
}: {
  executionId: string;
  credentials: Json[];
  images: ImagePart[];
  revealed: boolean;
  wiped: boolean;
}) {
  return (
    <Section
      id="credentials"
      title="Credentials and images"
      description="Images load through Verdict (never cached by your browser); every view is in the audit log."
    >
      <div className="flex flex-col gap-4">
        {images.length ? (
          <div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
            {images.map((img) =>
              revealed ? (
                <ImageViewer
                  key={`${img.credentialId}-${img.classifier}`}
                  src={`/api/executions/${executionId}/parts/${img.credentialId}/${img.classifier}`}
                  label={`${PART_LABEL[img.classifier] ?? img.classifier} (${img.category ?? 'credential'})`}
                />
              ) : (
                <MaskedImage key={`${img.credentialId}-${img.classifier}`} classifier={img.classifier} />
              ),
            )}
          </div>
        ) : (
          <p className="text-sm text-muted-fg">
            {wiped
              ? 'The images were deleted with the personal data of this execution.'
              : 'No document or selfie images in this execution.'}
          </p>
        )}
        <div className="grid gap-3 md:grid-cols-2">
          {credentials.filter(isObject).map((c, i) => {
            const parts = Array.isArray(c.parts) ? c.parts.filter(isObject) : [];
            return (
              <article
                key={String(c.id ?? i)}
                className="rounded-md border border-border p-3"
                aria-label={`Credential ${String(c.category ?? i + 1)}`}
              >
                <h3 className="mb-2 flex items-center gap-2 text-sm font-medium">
                  {String(c.category ?? 'Credential')}
                  {c.label && c.label !== c.category ? (
                    <span className="text-xs text-muted-fg">{String(c.label)}</span>
                  ) : null}
                  <span className="ml-auto font-mono text-[10px] text-muted-fg">{String(c.id ?? '')}</span>
                </h3>
                <dl className="grid grid-cols-2 gap-2">
                  <Field label="Client IP">
                    <Scalar value={c.clientIp} />
                  </Field>
                  <Field label="Parts">
                    {parts.length
                      ? parts.map((p, k) => (
                          <span key={k} className="mr-2 inline-block text-xs">
                            <span className="font-mono">{String(p.classifier ?? '?')}</span>
                            {p.captureType ? <span className="text-muted-fg"> · {String(p.captureType)}</span> : null}
                          </span>
                        ))
                      : '—'}
                  </Field>
                  {isObject(c.reusableIdentity) ? (
                    <Field label="Reusable identity">
                      <Scalar
                        value={[c.reusableIdentity.status, c.reusableIdentity.source].filter(Boolean).join(' · ')}
                      />
                    </Field>
                  ) : null}
                  {isObject(c.consent) ? (
                    <Field label="Consent">
                      <Scalar
                        value={`${c.consent.decisionAccepted === true ? 'accepted' : c.consent.decisionAccepted === false ? 'not accepted' : '—'}${c.consent.collectedBy ? ` · by ${String(c.consent.collectedBy)}` : ''}`}
                      />
                    </Field>
                  ) : null}
                </dl>
              </article>
            );
          })}
        </div>
      </div>
    </Section>
  );
}

/** Extracted data beside what the customer supplied, differences highlighted. */
export function ComparisonSection({ rows }: { rows: ComparisonRow[] }) {
  const { supplied, extracted, description } = comparisonSummary(rows);
  return (
    <Section id="data" title="Extracted and supplied data" description={description}>
      {rows.length ? (
        <div tabIndex={0} className="overflow-x-auto">
          <table className="w-full text-sm">
            <caption className="sr-only">
              {[extracted && 'Extracted data', supplied && 'supplied data'].filter(Boolean).join(' and ')}
            </caption>
            <thead className="text-left text-xs uppercase tracking-wide text-muted-fg">
              <tr>
                <th scope="col" className="py-1 pr-3 font-medium">
                  Field
                </th>
                {extracted ? (
                  <th scope="col" className="py-1 pr-3 font-medium">
                    From the document
                  </th>
                ) : null}
                {supplied ? (
                  <th scope="col" className="py-1 font-medium">
                    Supplied by the customer
                  </th>
                ) : null}
              </tr>
            </thead>
            <tbody>
              {rows.map((r) => (
                <tr key={r.field} className={cn('border-t border-border align-top', r.mismatch && 'bg-warn/10')}>
                  <th scope="row" className="py-1 pr-3 text-left font-normal text-muted-fg">
                    {r.field.split('.').map(humanizeKey).join(' › ')}
                    {r.mismatch ? (
                      <span className="ml-2 rounded bg-warn/20 px-1 text-[10px] font-semibold uppercase text-warn">
                        differs
                      </span>
                    ) : null}
                  </th>
                  {extracted ? (
                    <td className="py-1 pr-3">
                      <Scalar value={r.extracted} />
                    </td>
                  ) : null}
                  {supplied ? (
                    <td className="py-1">
                      <Scalar value={r.supplied} />
                    </td>
                  ) : null}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      ) : (
        <p className="text-sm text-muted-fg">No extracted data in this result.</p>
      )}
    </Section>
  );
}
