'use client';
import { useRouter } from 'next/navigation';
import * as React from 'react';
import { listHref, type ListParams } from '@/lib/executions/list-params';

interface ListNav {
  params: ListParams;
  /** Navigates to the list with these changes; any change but a cursor starts at the first page. */
  go(change: Partial<ListParams>): void;
  pending: boolean;
}

const Ctx = React.createContext<ListNav | null>(null);

/** The list's state is its URL: every control changes the URL, the server renders the page. */
export function ListNavProvider({ params, children }: { params: ListParams; children: React.ReactNode }) {
  const router = useRouter();
  const [pending, start] = React.useTransition();
  const value = React.useMemo<ListNav>(
    () => ({
      params,
      pending,
      go(change) {
        const next: ListParams = { ...params, after: undefined, before: undefined, at: undefined, ...change };
        start(() => router.push(listHref(next)));
      },
    }),
    [params, pending, router],
  );
  return <Ctx.Provider value={value}>{children}</Ctx.Provider>;
}

export function useListNav(): ListNav {
  const v = React.useContext(Ctx);
  if (!v) throw new Error('useListNav outside ListNavProvider');
  return v;
}
