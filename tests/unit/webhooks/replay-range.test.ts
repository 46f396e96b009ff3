import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { replayWebhookRangeSchema } from '@/lib/actions/schemas/webhooks';
import { parseWallTime } from '@/lib/format';

/**
 * The replay range as the endpoint page sends it: the reader types "YYYY-MM-DD HH:MM" in their
 * zone, the form turns a well-formed moment into an ISO one, and anything else goes as typed so
 * that the action refuses it under its field, with the format, never read as a guess.
 */
const endpointId = randomUUID();
const send = (from: string, to: string) => replayWebhookRangeSchema.safeParse({ endpointId, from, to });
const typed = (v: string, zone: string) => parseWallTime(v, zone)?.toISOString() ?? v;

describe('webhook replay range', () => {
  it('takes the moments a reader in Berlin typed, as the instants they meant', () => {
    const r = send(typed('2026-07-01 10:15', 'Europe/Berlin'), typed('2026-07-01 12:00', 'Europe/Berlin'));
    expect(r.success).toBe(true);
    expect(r.data?.from.toISOString()).toBe('2026-07-01T08:15:00.000Z');
    expect(r.data?.to.toISOString()).toBe('2026-07-01T10:00:00.000Z');
    expect(r.data?.failedOnly).toBe(true);
  });

  it('refuses a day in another shape, or an impossible one, with the format under the field', () => {
    for (const bad of ['07/01/2026 10:15', '2026-02-30 10:00', '2026-07-01 25:00', 'yesterday', '']) {
      const r = send(typed(bad, 'Europe/Berlin'), '2026-07-01T12:00:00.000Z');
      expect(r.success, bad).toBe(false);
      expect(r.error?.issues[0]).toMatchObject({ path: ['from'], message: 'Enter a start time as YYYY-MM-DD HH:MM.' });
    }
  });

  it('refuses a range that ends before it starts, said at the end field', () => {
    const r = send('2026-07-01T12:00:00.000Z', '2026-07-01T10:00:00.000Z');
    expect(r.success).toBe(false);
    expect(r.error?.issues[0]).toMatchObject({ path: ['to'], message: 'The start must be before the end.' });
  });
});
