import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { ExecutionsView } from '@/components/executions/list/executions-view';
import { PageHeader } from '@/components/shell/page-header';
import { requireRole } from '@/lib/auth/guards';
import { getCaseChipNames, listAssignees, listQueues } from '@/lib/cases/queries';
import { getListFacets } from '@/lib/executions/facets';
import { parseListParams, type RawSearchParams } from '@/lib/executions/list-params';
import { getHiddenColumns } from '@/lib/executions/preferences';
import { listSavedViews } from '@/lib/executions/saved-views';
import { findExecutionJump, listExecutions } from '@/lib/executions/queries';
import { adoptSearchTerm, saveSearchTerm, SearchRateLimited } from '@/lib/executions/search-terms';
import { listHref } from '@/lib/executions/list-params';

export const metadata: Metadata = { title: 'Executions' };

export default async function ExecutionsPage({ searchParams }: { searchParams: Promise<RawSearchParams> }) {
  const user = await requireRole('analyst');
  const raw = await searchParams;
  const params = parseListParams(raw);
  if (params.q) {
    // An exact execution id goes straight to it (a shared link); an account id filters the list.
    const id = await findExecutionJump(params.q);
    if (id) redirect(`/executions/${id}`);
  } else if (typeof raw.q === 'string' && raw.q.trim()) {
    // Free text typed into the address bar: keep the search, move it out of the URL.
    const st = await saveSearchTerm(user, raw.q).catch((err) => {
      if (err instanceof SearchRateLimited) return null;
      throw err;
    });
    redirect(listHref(st ? { ...params, st } : params));
  }
  // A search link saved by someone else runs as this user's own search: counted against their
  // limit and audited under their name, with a token of their own (lib/executions/search-terms.ts).
  let refused = false;
  if (params.st) {
    const own = await adoptSearchTerm(user, params.st).catch((err) => {
      if (err instanceof SearchRateLimited) return 'rate_limited' as const;
      throw err;
    });
    if (own === 'rate_limited') refused = true;
    else if (own && own !== params.st) redirect(listHref({ ...params, st: own }));
  }
  const [list, facets, hiddenColumns, queues, people, names, views] = await Promise.all([
    listExecutions(params, user.id),
    getListFacets(),
    getHiddenColumns(user.id),
    listQueues(),
    listAssignees(),
    getCaseChipNames(),
    listSavedViews(user.id),
  ]);
  return (
    <>
      <PageHeader
        title="Executions"
        description="Verification results from the service, newest first. Personal data is masked until you reveal it on an execution."
      />
      <ExecutionsView
        params={params}
        rows={list.rows}
        next={list.next}
        prev={list.prev}
        total={list.total}
        hiddenColumns={hiddenColumns}
        facets={facets}
        searchTerm={list.searchTerm}
        searchNotice={refused ? 'rate_limited' : list.searchNotice}
        role={user.role}
        savedViews={views}
        caseWork={{
          queues: queues.map((q) => ({ id: q.id, name: q.name })),
          people: people.map((p) => ({ id: p.id, name: p.name })),
          names,
        }}
      />
    </>
  );
}
