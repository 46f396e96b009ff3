import { cn } from '@/lib/utils';

/** Verdict's mark: a check on the primary colour. Decorative; the name beside it is the text. */
export function Logo({ className }: { className?: string }) {
  return (
    <svg aria-hidden viewBox="0 0 32 32" className={cn('h-6 w-6', className)}>
      <rect width="32" height="32" rx="7" fill="var(--primary)" />
      <path
        d="M9 16.5l4.5 4.5L23 11"
        stroke="#fff"
        strokeWidth="3.2"
        fill="none"
        strokeLinecap="round"
        strokeLinejoin="round"
      />
    </svg>
  );
}
