import { z } from 'zod';
import { NOTIFICATION_KINDS } from './kinds';

/** Mark read: some ids (the page's checkboxes or one link) or every unread one. */
export const markReadSchema = z.union([
  z.object({ all: z.literal(true) }),
  z.object({ ids: z.array(z.coerce.number().int().positive()).min(1).max(200) }),
]);

const checkbox = z.preprocess((v) => v === true || v === 'on' || v === 'true', z.boolean());

/**
 * The preferences form: one pair of checkboxes per kind, named `<kind>.inApp` and `<kind>.email`.
 * An unchecked box is not sent, so every kind is read (absent = off).
 */
export const preferencesSchema = z.preprocess(
  (v) => {
    const o = (v ?? {}) as Record<string, unknown>;
    return {
      choices: NOTIFICATION_KINDS.map((kind) => ({ kind, inApp: o[`${kind}.inApp`], email: o[`${kind}.email`] })),
    };
  },
  z.object({
    choices: z.array(z.object({ kind: z.enum(NOTIFICATION_KINDS), inApp: checkbox, email: checkbox })),
  }),
);
