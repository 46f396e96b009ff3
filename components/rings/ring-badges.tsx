import { Badge } from '@/components/ui/badge';
import { LINK_KIND_LABELS, type LinkKind } from '@/lib/rings/kinds';

export function RingKinds({ kinds }: { kinds: string[] }) {
  if (!kinds.length) return <span className="text-xs text-muted-fg">—</span>;
  return (
    <span className="inline-flex flex-wrap gap-1">
      {kinds.map((k) => (
        <Badge key={k} tone="info">
          {LINK_KIND_LABELS[k as LinkKind] ?? k}
        </Badge>
      ))}
    </span>
  );
}

const STATUS_TEXT: Record<string, string> = { open: 'Open', dismissed: 'Dismissed', labelled: 'Labelled FRAUD' };

export function RingStatusBadge({ status }: { status: string }) {
  return (
    <Badge tone={status === 'labelled' ? 'reject' : status === 'dismissed' ? 'neutral' : 'warn'}>
      {STATUS_TEXT[status] ?? status}
    </Badge>
  );
}
