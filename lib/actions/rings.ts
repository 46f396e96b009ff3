'use server';
import { revalidatePath } from 'next/cache';
import { audit } from '@/lib/audit';
import { defineAction, type ActionResult } from '@/lib/auth/guards';
import { dismissRing, labelRing, openRingCases } from '@/lib/rings/commands';
import { listAttributeHolders, type AttributeHolders } from '@/lib/rings/queries';
import { dismissRingSchema, expandAttributeSchema, labelRingSchema, ringIdSchema } from '@/lib/rings/schema';

// A label, cases or a dismissal changes what every rings page shows (the list and each ring's).
async function refreshingRings<R>(change: Promise<R>): Promise<R> {
  const r = await change;
  revalidatePath('/rings', 'layout');
  return r;
}

/** Label every member of a ring FRAUD (through the feedback pipeline). */
export const labelRingAction = defineAction(
  { name: 'rings.label', role: 'analyst', schema: labelRingSchema },
  async (input, user) => refreshingRings(labelRing(user, input)),
);

/** Open a case in the Rings queue for each unreviewed member. */
export const openRingCasesAction = defineAction(
  { name: 'rings.open_cases', role: 'analyst', schema: ringIdSchema },
  async (input, user) => refreshingRings(openRingCases(user, input)),
);

/** Dismiss a ring with a reason; it returns once it grows. */
export const dismissRingAction = defineAction(
  { name: 'rings.dismiss', role: 'analyst', schema: dismissRingSchema },
  async (input, user) => refreshingRings(dismissRing(user, input)),
);

/** The other executions holding one of the ring's attributes (expand-on-click on the graph). */
export const expandRingAttributeAction = defineAction(
  { name: 'rings.expand', role: 'analyst', schema: expandAttributeSchema },
  async (input, user): Promise<ActionResult<AttributeHolders>> => {
    const r = await listAttributeHolders(input.ringId, input.attributeId, user.id);
    if (!r)
      return {
        ok: false as const,
        code: 'INVALID' as const,
        error: 'This attribute is no longer in the ring: it merged or fell apart. Reload the page.',
      };
    // Which executions an analyst looked at through a ring: ids only, as the page's own view is audited.
    await audit({
      action: 'ring.expand',
      actor: user,
      targetType: 'ring',
      targetId: String(input.ringId),
      outcome: 'success',
      details: { attribute: input.attributeId, shown: r.holders.length, executions: r.executions },
    });
    return { ok: true, data: r };
  },
);
