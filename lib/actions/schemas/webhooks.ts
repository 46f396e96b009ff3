import { z } from 'zod';
import { MAX_URL_LENGTH, WEBHOOK_EVENT_TYPES } from '@/lib/webhooks/event-types';

/**
 * Shared by the endpoint forms and the actions. The URL's scheme and length are checked here;
 * that it is not the console itself is checked by the action against the console's own address
 * (lib/webhooks/url.ts), which the browser does not know.
 */
const eventTypes = z
  .array(z.enum(WEBHOOK_EVENT_TYPES, { error: 'Unknown event type.' }))
  .min(1, 'Choose at least one event type.')
  .transform((v) => [...new Set(v)]);
export const DESCRIPTION_MAX = 500;
const description = z
  .string()
  .trim()
  .max(DESCRIPTION_MAX, `Descriptions are at most ${DESCRIPTION_MAX} characters.`)
  .default('');
const endpointId = z.uuid('Unknown endpoint.');

export const createWebhookSchema = z.object({
  url: z
    .string()
    .trim()
    .min(1, 'Enter the URL that receives the webhooks.')
    .max(MAX_URL_LENGTH, `The URL is longer than ${MAX_URL_LENGTH.toLocaleString('en')} characters.`),
  description,
  eventTypes,
});

export const updateWebhookSchema = z.object({ endpointId, description, eventTypes });
export const webhookIdSchema = z.object({ endpointId });
export const setWebhookEnabledSchema = z.object({ endpointId, enabled: z.boolean() });
export const rotateWebhookSchema = z.object({
  endpointId,
  overlapHours: z.coerce.number().int().min(0, 'At least 0 hours.').max(168, 'At most 7 days (168 hours).'),
});
export const replayWebhookDeliverySchema = z.object({ endpointId, deliveryId: z.coerce.number().int().positive() });
export const replayWebhookRangeSchema = z
  .object({
    endpointId,
    // The form sends ISO moments; anything else is refused with the format, never guessed at.
    from: z.iso.datetime({ offset: true, error: 'Enter a start time as YYYY-MM-DD HH:MM.' }).pipe(z.coerce.date()),
    to: z.iso.datetime({ offset: true, error: 'Enter an end time as YYYY-MM-DD HH:MM.' }).pipe(z.coerce.date()),
    failedOnly: z.boolean().default(true),
  })
  .refine((v) => v.from <= v.to, { message: 'The start must be before the end.', path: ['to'] });
