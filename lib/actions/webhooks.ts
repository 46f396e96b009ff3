'use server';
import { revalidatePath } from 'next/cache';
import { defineAction, type ActionResult } from '@/lib/auth/guards';
import {
  createEndpoint,
  deleteEndpoint,
  replayDeliveries,
  rotateEndpointSecret,
  sendTestEvent,
  setEndpointEnabled,
  updateEndpoint,
} from '@/lib/webhooks/endpoints';
import { checkEndpointUrl } from '@/lib/webhooks/url';
import {
  createWebhookSchema,
  replayWebhookDeliverySchema,
  replayWebhookRangeSchema,
  rotateWebhookSchema,
  setWebhookEnabledSchema,
  updateWebhookSchema,
  webhookIdSchema,
} from './schemas/webhooks';

/**
 * Outgoing webhook endpoints (admins). The work lives in lib/webhooks/endpoints.ts; a signing
 * secret is returned once, by create and rotate, and never again.
 */

const unknown = { ok: false as const, code: 'INVALID' as const, error: 'This endpoint no longer exists.' };
const refresh = (id?: string) => {
  revalidatePath('/admin/webhooks');
  if (id) revalidatePath(`/admin/webhooks/${id}`);
};

export const createWebhookEndpointAction = defineAction(
  { name: 'webhooks.create', role: 'admin', schema: createWebhookSchema, stepUp: true },
  async (input, user): Promise<ActionResult<{ id: string; secret: string }>> => {
    const problem = await checkEndpointUrl(input.url);
    if (problem) return { ok: false, code: 'INVALID', error: problem, fieldErrors: { url: [problem] } };
    const r = await createEndpoint(user, input);
    refresh();
    return { ok: true, data: r, message: 'Endpoint added. Copy its signing secret now: it is shown only once.' };
  },
);

export const updateWebhookEndpointAction = defineAction(
  { name: 'webhooks.update', role: 'admin', schema: updateWebhookSchema, stepUp: true },
  async ({ endpointId, ...input }, user) => {
    if (!(await updateEndpoint(user, endpointId, input))) return unknown;
    refresh(endpointId);
    return { ok: true as const, data: null, message: 'Saved.' };
  },
);

export const setWebhookEndpointEnabledAction = defineAction(
  { name: 'webhooks.set_enabled', role: 'admin', schema: setWebhookEnabledSchema },
  async ({ endpointId, enabled }, user) => {
    if (!(await setEndpointEnabled(user, endpointId, enabled))) return unknown;
    refresh(endpointId);
    return {
      ok: true as const,
      data: null,
      message: enabled ? 'Enabled: new events go to this endpoint.' : 'Disabled: it receives nothing until enabled.',
    };
  },
);

export const rotateWebhookSecretAction = defineAction(
  { name: 'webhooks.rotate_secret', role: 'admin', schema: rotateWebhookSchema, stepUp: true },
  async ({ endpointId, overlapHours }, user): Promise<ActionResult<{ secret: string }>> => {
    const r = await rotateEndpointSecret(user, endpointId, overlapHours);
    if (!r) return unknown;
    refresh(endpointId);
    return {
      ok: true,
      data: { secret: r.secret },
      message: r.previousUntil
        ? `New secret below (shown once). The previous one also signs for ${overlapHours} h.`
        : 'New secret below (shown once). The previous one no longer signs.',
    };
  },
);

export const deleteWebhookEndpointAction = defineAction(
  { name: 'webhooks.delete', role: 'admin', schema: webhookIdSchema, stepUp: true },
  async ({ endpointId }, user) => {
    if (!(await deleteEndpoint(user, endpointId))) return unknown;
    refresh();
    return { ok: true as const, data: null, message: 'Endpoint deleted with its delivery log.' };
  },
);

export const sendWebhookTestAction = defineAction(
  { name: 'webhooks.test', role: 'admin', schema: webhookIdSchema },
  async ({ endpointId }, user) => {
    const r = await sendTestEvent(user, endpointId);
    if (r === 'unknown') return unknown;
    if (r === 'disabled')
      return { ok: false as const, code: 'CONFLICT' as const, error: 'Enable the endpoint to send it a test event.' };
    refresh(endpointId);
    return { ok: true as const, data: null, message: 'Test event queued: it shows in the log below within seconds.' };
  },
);

export const replayWebhookDeliveryAction = defineAction(
  { name: 'webhooks.replay', role: 'admin', schema: replayWebhookDeliverySchema },
  async ({ endpointId, deliveryId }, user) => {
    const n = await replayDeliveries(user, endpointId, { deliveryId });
    if (n === 'disabled')
      return { ok: false as const, code: 'CONFLICT' as const, error: 'Enable the endpoint to replay to it.' };
    if (n === 0) return { ok: false as const, code: 'INVALID' as const, error: 'This delivery no longer exists.' };
    refresh(endpointId);
    return { ok: true as const, data: { count: n }, message: 'Queued again, with the same webhook-id.' };
  },
);

export const replayWebhookRangeAction = defineAction(
  { name: 'webhooks.replay_range', role: 'admin', schema: replayWebhookRangeSchema },
  async ({ endpointId, from, to, failedOnly }, user) => {
    const n = await replayDeliveries(user, endpointId, { from, to, failedOnly });
    if (n === 'disabled')
      return { ok: false as const, code: 'CONFLICT' as const, error: 'Enable the endpoint to replay to it.' };
    refresh(endpointId);
    return {
      ok: true as const,
      data: { count: n },
      message: n ? `${n} event${n === 1 ? '' : 's'} queued again.` : 'No deliveries in that range.',
    };
  },
);
