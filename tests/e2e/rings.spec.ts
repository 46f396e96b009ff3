import { randomBytes } from 'node:crypto';
import { expect, test } from '@playwright/test';
import { sql } from 'drizzle-orm';
import { WEAK_LINK_CUTOFF } from '@/lib/rings/kinds';
import { withE2eDb } from '../support/e2e/db';
import { storageState } from '../support/e2e/helpers';

/**
 * The Rings page on the console's own demo data (the simulator's attack crews, repeated
 * documents and faces, as a fresh `npm start` shows them): rings are listed, the largest has ten
 * or more members, its graph draws in Chromium with exactly the members of its table and of the
 * database, those members form one component over shared values (the database's own recursive
 * expansion says so), and names stay masked without a reveal.
 */
test.describe('rings (analyst)', () => {
  test.use({ storageState: storageState('analyst') });
  // A ring of a hundred members drawn on a shared 2-core machine under load can take tens of seconds.
  test.describe.configure({ timeout: 240_000 });
  // The demo's rings are still growing while the start-up backfill runs: read them once it is done.
  test.beforeAll(async () => {
    await expect
      .poll(
        () =>
          withE2eDb(async (db) => {
            const r = await db.execute<{ open: number; done: number }>(sql`
              select count(*) filter (where finished_at is null)::int as open,
                count(*) filter (where finished_at is not null)::int as done
              from sync_runs where kind = 'backfill'`);
            return r.rows[0].done > 0 && r.rows[0].open === 0;
          }),
        { timeout: 200_000, intervals: [2000] },
      )
      .toBe(true);
  });

  test('lists rings; the largest draws with the same members as its table and the database', async ({ page }) => {
    const largest = await withE2eDb(async (db) => {
      const r = await db.execute<{ id: string; size: number }>(
        sql`select id, size from rings order by size desc, id limit 1`,
      );
      return r.rows[0];
    });
    expect(largest, 'the demo data forms rings').toBeTruthy();
    expect(largest.size).toBeGreaterThanOrEqual(10);

    await page.goto('/rings?minSize=10&status=all');
    await expect(page.getByRole('heading', { name: 'Rings', exact: true })).toBeVisible();
    const link = page.getByRole('link', { name: `Ring ${largest.id}`, exact: true });
    await expect(link).toBeVisible();
    await link.click();
    await expect(page.getByRole('heading', { name: `Ring ${largest.id}` })).toBeVisible({ timeout: 30_000 });

    const graph = page.getByTestId('ring-graph');
    // Drawn means Cytoscape has laid out every node; wait for that state, not for a time.
    await expect(graph).toHaveAttribute('data-drawn-members', /.+/, { timeout: 90_000 });
    const drawn = ((await graph.getAttribute('data-drawn-members')) ?? '').split(',').sort();
    const drawMs = Number(await graph.getAttribute('data-draw-ms'));
    console.log(`[rings] ring ${largest.id}: ${drawn.length} members drawn in ${drawMs} ms`);
    const rows = page.getByTestId('ring-members').locator('tbody tr');
    await expect(rows).toHaveCount(largest.size);
    const listed = (await rows.evaluateAll((trs) => trs.map((tr) => tr.getAttribute('data-member-id') ?? ''))).sort();
    expect(drawn).toEqual(listed);

    const { members, component } = await withE2eDb(async (db) => {
      const m = await db.execute<{ id: string }>(
        sql`select execution_id::text as id from ring_members where ring_id = ${largest.id} order by 1`,
      );
      // Every pair is joined through shared values: expanding from one member over the strong
      // links reaches exactly the ring.
      const c = await db.execute<{ id: string }>(sql`
        with recursive comp(id) as (
          select ${m.rows[0].id}::uuid
          union
          select b.execution_id from comp
          join link_keys a on a.execution_id = comp.id
          join link_values v on v.kind = a.kind and v.key_hash = a.key_hash and v.executions between 2 and 200
          join link_keys b on b.kind = a.kind and b.key_hash = a.key_hash
        ) select id::text from comp order by 1`);
      return { members: m.rows.map((r) => r.id), component: c.rows.map((r) => r.id) };
    });
    expect(listed).toEqual(members);
    expect(component).toEqual(members);

    // Without a reveal every name in the table is masked.
    const names = await rows.evaluateAll((trs) => trs.map((tr) => tr.children[2]?.textContent ?? ''));
    for (const n of names) if (n !== '—') expect(n).toContain('••••');
  });

  test('a weak link expands on click into its other executions, loaded on demand and audited', async ({ page }) => {
    // The test's own weak value: an IP address held by one member of the largest ring and by three
    // executions in no ring, counted past the cut-off (so it joins nothing and no ring changes).
    const hash = randomBytes(32).toString('base64url');
    const attributeId = `ip:${hash.slice(0, 10)}`;
    const seeded = await withE2eDb(async (db) => {
      const ring = (
        await db.execute<{ id: string; member: string }>(sql`
          select r.id, (select execution_id::text from ring_members m where m.ring_id = r.id order by 1 limit 1) as member
          from rings r order by r.size desc, r.id limit 1`)
      ).rows[0];
      const outside = (
        await db.execute<{ id: string }>(sql`
          select e.id::text from executions e where not exists (select 1 from ring_members m where m.execution_id = e.id)
          order by e.created_at desc limit 3`)
      ).rows.map((r) => r.id);
      for (const id of [ring.member, ...outside])
        await db.execute(
          sql`insert into link_keys (execution_id, kind, key_hash, evidence) values (${id}, 'ip', ${hash}, 'e2e weak value')`,
        );
      await db.execute(
        sql`insert into link_values (kind, key_hash, executions) values ('ip', ${hash}, ${WEAK_LINK_CUTOFF + 50})`,
      );
      return { ringId: ring.id, outside: outside.sort() };
    });
    try {
      await page.goto(`/rings/${seeded.ringId}`);
      const graph = page.getByTestId('ring-graph');
      await expect(graph).toHaveAttribute('data-drawn-members', /.+/, { timeout: 90_000 });
      expect(await graph.getAttribute('data-drawn-outside')).toBe('');
      const draws = Number(await graph.getAttribute('data-draws'));
      await page.getByRole('button', { name: /^Show \d+ weak links?$/ }).click();
      // Showing weak links redraws the graph: wait for that layout to finish, so that the node is
      // clicked where it stays, not where a layout in progress had it.
      await expect(graph).toHaveAttribute('data-draws', String(draws + 1), { timeout: 90_000 });
      // The weak node is drawn (dashed, with its count); click it where Cytoscape put it on the canvas.
      const nodeId = `a:${attributeId}`;
      const status = page.getByTestId('ring-graph-status');
      // The graph's lower part starts below a 720-pixel viewport: a node drawn there is clicked
      // only once the whole graph is in view (the mouse clicks in viewport coordinates).
      await graph.scrollIntoViewIfNeeded();
      await expect(async () => {
        const at = await graph.evaluate((el, id) => {
          const cy = (el as unknown as { _cyreg?: { cy?: import('cytoscape').Core } })._cyreg?.cy;
          const node = cy?.getElementById(id);
          return node?.length ? node.renderedPosition() : null;
        }, nodeId);
        expect(at, 'the weak node is drawn').not.toBeNull();
        const box = (await graph.boundingBox())!;
        // Inside the border: the canvas starts a pixel in.
        await page.mouse.click(box.x + 1 + at!.x, box.y + 1 + at!.y);
        await expect(status).not.toBeEmpty({ timeout: 3_000 });
      }).toPass({ timeout: 60_000 });

      await expect(status).toContainText(
        `3 other executions outside the ring share this value (of ${WEAK_LINK_CUTOFF + 50} in all)`,
        { timeout: 30_000 },
      );
      await expect(graph).toHaveAttribute('data-drawn-outside', seeded.outside.join(','));
      // The expansion names executions by id only: no hash beyond the graph's short id, no value.
      expect(await page.content()).not.toContain(hash);
      const audited = await withE2eDb(async (db) => {
        const r = await db.execute<{ details: { attribute: string; shown: number } }>(sql`
          select details from audit_log where action = 'ring.expand' and target_id = ${seeded.ringId}
          order by id desc limit 1`);
        return r.rows[0]?.details;
      });
      expect(audited).toMatchObject({ attribute: attributeId, shown: 3 });
    } finally {
      await withE2eDb(async (db) => {
        await db.execute(sql`delete from link_keys where kind = 'ip' and key_hash = ${hash}`);
        await db.execute(sql`delete from link_values where kind = 'ip' and key_hash = ${hash}`);
      });
    }
  });

  test('filters by link kind through the URL and shows an empty state', async ({ page }) => {
    await page.goto('/rings?minSize=100000');
    await expect(page.getByText('No rings match')).toBeVisible();
    await page.goto('/rings?status=all');
    await page.getByLabel('Joined by').selectOption('device');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page).toHaveURL(/kind=device/);
  });
});
