import { z } from 'zod';
import { LINK_KINDS } from './kinds';
import { idempotencyField, noteField, reasonField, versionField } from '@/lib/feedback/schema';

/** The inputs of the ring actions, one schema each, shared by the forms and the actions. */
const ringId = z.coerce.number({ error: 'Unknown ring.' }).int('Unknown ring.').positive('Unknown ring.');

export const ringIdSchema = z.object({ ringId });
export type RingIdInput = z.output<typeof ringIdSchema>;

export const dismissRingSchema = z.object({
  ringId,
  reason: z
    .string({ error: 'Say why this is not a ring to act on.' })
    .trim()
    .min(3, 'Say why this is not a ring to act on.')
    .max(500, 'At most 500 characters.'),
});
export type DismissRingInput = z.output<typeof dismissRingSchema>;

/** FRAUD for every member: the reason the service demands with FRAUD, as for one label. */
export const labelRingSchema = z.object({
  ringId,
  reason: reasonField.refine((r) => r !== undefined && r !== 'NA', 'A reason is required for Fraud.'),
  note: noteField,
  versions: z.record(z.string(), versionField, { error: 'Reload the page: the form is out of date.' }),
  idempotencyKey: idempotencyField,
});
export type LabelRingInput = z.output<typeof labelRingSchema>;

/** One attribute of a ring's graph to expand: its kind and the short id the graph names it by (never a value). */
export const expandAttributeSchema = z.object({
  ringId,
  attributeId: z
    .string({ error: 'Unknown attribute.' })
    .regex(new RegExp(`^(${LINK_KINDS.join('|')}):[A-Za-z0-9_-]{10}$`), 'Unknown attribute.'),
});
