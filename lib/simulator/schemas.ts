// Request bodies of the spec, validated with zod. Every failure becomes a 400 whose detail names the
// field and the rule ("customerInternalReference: must be 1..100 characters").
import { z } from 'zod';
import { DOCUMENT_TYPES, FEEDBACK_REASONS, FEEDBACK_STATUSES } from '@/lib/spec/vocabulary';
import { CHANNELS, CREDENTIAL_CATEGORIES } from './catalog';
import { bad } from './errors';

const len = (min: number, max: number) =>
  z
    .string({ error: (i) => (i.input === undefined ? 'is required' : 'must be a string') })
    .min(min, { error: `must be ${min}..${max} characters` })
    .max(max, { error: `must be ${min}..${max} characters` });
const optStr = () => z.string({ error: 'must be a string' }).optional();

const isoDate = () =>
  z
    .string({ error: 'must be an ISO 8601 date (YYYY-MM-DD)' })
    .refine(
      (s) =>
        /^\d{4}-\d{2}-\d{2}$/.test(s) &&
        !Number.isNaN(Date.parse(s + 'T00:00:00Z')) &&
        new Date(s + 'T00:00:00Z').toISOString().startsWith(s),
      {
        error: 'must be an ISO 8601 date (YYYY-MM-DD)',
      },
    );
const isoDateTime = () =>
  z
    .string({ error: 'must be an ISO 8601 date-time' })
    .refine(
      (s) =>
        /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/.test(s) && !Number.isNaN(Date.parse(s)),
      {
        error: 'must be an ISO 8601 date-time (e.g. 2024-05-01T12:00:00Z)',
      },
    );

export const TOKEN_LIFETIME_RE = /^[+-]?\d+[smhd]$/;
const UNIT_SEC: Record<string, number> = { s: 1, m: 60, h: 3600, d: 86400 };
/** Seconds of a tokenLifetime value ("30m", "+2h", "7d"). */
export function tokenLifetimeSeconds(v: string): number {
  const m = /^([+-]?)(\d+)([smhd])$/.exec(v);
  if (!m) return NaN;
  return (m[1] === '-' ? -1 : 1) * Number(m[2]) * UNIT_SEC[m[3]];
}
export const MIN_TOKEN_LIFETIME_SEC = 5 * 60;
export const MAX_TOKEN_LIFETIME_SEC = 60 * 86400;

const countryOrType = <T extends z.ZodType<string>>(values: T) =>
  z.strictObject(
    {
      predefinedType: z.string({ error: 'must be a string' }).min(1, { error: 'must not be empty' }).optional(),
      values: z.array(values, { error: 'must be an array of strings' }),
    },
    { error: 'must be an object {predefinedType, values}' },
  );

/**
 * A value of a set the spec leaves open ("values seen", "the complete list is not shown"): the
 * values seen are documented, any other non-empty string is accepted and kept, as the real
 * service may send or accept values nobody has seen yet.
 */
const openSet = <T extends readonly [string, ...string[]]>(seen: T, what: string) =>
  z.union(
    [
      z.enum(seen),
      z
        .string()
        .min(1, { error: `must be a non-empty string (values seen: ${seen.join(', ')})` })
        .max(64, { error: 'must be at most 64 characters' })
        .meta({ description: `Other ${what}: the spec lists the values seen, not all of them.` }),
    ],
    { error: `must be a non-empty string (values seen: ${seen.join(', ')})` },
  );

const credentialRequest = z.object(
  {
    id: z.uuid({ error: 'must be a UUID' }).optional(),
    category: openSet(CREDENTIAL_CATEGORIES, 'categories'),
    country: countryOrType(
      z.string().regex(/^[A-Z]{3}$/, { error: 'must be a three-letter country code (e.g. USA)' }),
    ).optional(),
    type: countryOrType(openSet(DOCUMENT_TYPES, 'document types')).optional(),
    allowedChannels: z
      .array(openSet(CHANNELS, 'channels'), { error: 'must be an array' })
      .min(1, { error: 'must not be empty' })
      .optional(),
  },
  { error: 'must be an object' },
);

export const accountRequestSchema = z.object(
  {
    userReference: len(1, 100).optional(),
    customerInternalReference: len(1, 100),
    reportingCriteria: len(1, 255).optional(),
    callbackUrl: len(1, 255).optional(),
    tokenLifetime: z
      .string({ error: 'must be a string' })
      .regex(TOKEN_LIFETIME_RE, {
        error: 'format is an optional sign, digits, then one unit letter s, m, h or d (e.g. 30m)',
      })
      .refine(
        (v) => {
          if (!TOKEN_LIFETIME_RE.test(v)) return true;
          const s = tokenLifetimeSeconds(v);
          return s >= MIN_TOKEN_LIFETIME_SEC && s <= MAX_TOKEN_LIFETIME_SEC;
        },
        { error: 'must be between 5 minutes and 60 days' },
      )
      .optional(),
    web: z
      .object({ successUrl: optStr(), errorUrl: optStr(), locale: optStr() }, { error: 'must be an object' })
      .optional(),
    workflowDefinition: z.object(
      {
        key: z
          .union([z.string().min(1, { error: 'must not be empty' }), z.number().int().nonnegative()], {
            error: 'is required (a string, e.g. "10013")',
          })
          .transform(String),
        credentials: z.array(credentialRequest, { error: 'must be an array' }).optional(),
        capabilities: z
          .object(
            {
              watchlistScreening: z.object({}, { error: 'must be an object' }).optional(),
              documentVerification: z
                .object(
                  { enableExtraction: z.boolean({ error: 'must be a boolean' }).optional() },
                  { error: 'must be an object' },
                )
                .optional(),
              ekycCheck: z.object({ searchType: optStr() }, { error: 'must be an object' }).optional(),
              workflowDecision: z
                .object(
                  { riskScoreRulesetId: optStr(), decisionLabelRulesetId: optStr() },
                  { error: 'must be an object' },
                )
                .optional(),
              ruleset: z
                .object(
                  { ids: z.array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' }) },
                  { error: 'must be an object' },
                )
                .optional(),
            },
            { error: 'must be an object' },
          )
          .optional(),
      },
      { error: (i) => (i.input === undefined ? 'is required' : 'must be an object') },
    ),
    userConsent: z
      .object(
        {
          userIp: z.union([z.ipv4(), z.ipv6()], { error: 'must be an IP address' }).optional(),
          userLocation: z.object({ country: optStr(), state: optStr() }, { error: 'must be an object' }).optional(),
          consent: z
            .object(
              {
                obtained: z.string({ error: 'is required (e.g. "yes")' }).min(1, { error: 'must not be empty' }),
                obtainedAt: isoDateTime(),
              },
              { error: 'must be an object {obtained, obtainedAt}' },
            )
            .optional(),
        },
        { error: 'must be an object' },
      )
      .optional(),
    overrideSettings: z
      .record(z.string(), z.string({ error: 'values must be strings' }), {
        error: 'must be an object of string values',
      })
      .optional(),
  },
  { error: 'the request body must be a JSON object' },
);
export type AccountRequest = z.infer<typeof accountRequestSchema>;

const address = z.looseObject(
  {
    line1: optStr(),
    line2: optStr(),
    line3: optStr(),
    line4: optStr(),
    line5: optStr(),
    postalCode: optStr(),
    city: optStr(),
    subdivision: optStr(),
    country: optStr(),
  },
  { error: 'must be an object of address strings' },
);

/**
 * The prepared data body: the members the spec lists are checked; members it does not list are
 * kept, as its tables show the members seen, not a closed set.
 */
export const preparedDataSchema = z.looseObject(
  {
    suffix: optStr(),
    firstName: optStr(),
    middleName: optStr(),
    lastName: optStr(),
    sex: z.enum(['M', 'F'], { error: 'must be M or F' }).optional(),
    dateOfBirth: isoDate().optional(),
    socialSecurityNumber: optStr(),
    nationality: z
      .string({ error: 'must be a string' })
      .regex(/^[A-Z]{2,3}$/, { error: 'must be a country code (e.g. DEU)' })
      .optional(),
    email: z.email({ error: 'must be an email address' }).optional(),
    phoneNumber: optStr(),
    phoneNumber2: optStr(),
    personalNumber: optStr(),
    address: address.optional(),
    id: z
      .looseObject(
        {
          issuingDate: isoDate().optional(),
          expiryDate: isoDate().optional(),
          idNumber: optStr(),
          type: optStr(),
          subType: optStr(),
        },
        { error: 'must be an object' },
      )
      .optional(),
    kyc: z
      .looseObject({ registrationDate: optStr(), registrationIpAddress: optStr() }, { error: 'must be an object' })
      .optional(),
    bank: z
      .looseObject(
        {
          paymentMethod: optStr(),
          binNumber: optStr(),
          lastDigits: optStr(),
          accountNumber: optStr(),
          routingNumber: optStr(),
          amount: z.number({ error: 'must be a number' }).optional(),
          currency: optStr(),
          transactionTime: isoDateTime().optional(),
          transactionId: optStr(),
          ipAddress: optStr(),
        },
        { error: 'must be an object' },
      )
      .optional(),
    business: z
      .looseObject(
        {
          name: optStr(),
          city: optStr(),
          address: optStr(),
          state: optStr(),
          country: optStr(),
          registrationNumber: optStr(),
          searchId: optStr(),
          kybCapabilities: z
            .array(z.string({ error: 'must be a string' }), { error: 'must be an array of strings' })
            .optional(),
        },
        { error: 'must be an object' },
      )
      .optional(),
  },
  { error: 'the prepared data body must be a JSON object' },
);
export type PreparedData = z.infer<typeof preparedDataSchema>;

export const feedbackSchema = z
  .object(
    {
      status: z.enum(FEEDBACK_STATUSES, {
        error: (i) =>
          i.input === undefined ? 'is required (NA, FRAUD or NOT_FRAUD)' : 'must be one of NA, FRAUD, NOT_FRAUD',
      }),
      reason: z.enum(FEEDBACK_REASONS, { error: `must be one of ${FEEDBACK_REASONS.join(', ')}` }).optional(),
    },
    { error: 'the feedback body must be a JSON object' },
  )
  .superRefine((v, ctx) => {
    if (v.status === 'FRAUD' && (!v.reason || v.reason === 'NA'))
      ctx.addIssue({
        code: 'custom',
        path: ['reason'],
        message: 'is required when status is FRAUD (a reason other than NA)',
      });
  });

/** The fault knobs of the test tools (`/__sim/faults`): GET answers all of them, PUT takes any subset. */
export const faultKnobsSchema = z
  .strictObject(
    {
      latencyMs: z.number().int().min(0).max(60_000),
      errorRate: z.number().min(0).max(1),
      burst429: z.number().int().min(0).max(1_000_000),
      tokenLifetimeSec: z
        .number()
        .int()
        .min(1)
        .max(86400 * 60)
        .nullable(),
      dropCallbacks: z.number().min(0).max(1),
      duplicateCallbacks: z.boolean(),
      stallProcessing: z.boolean(),
    },
    { error: 'the body must be a JSON object of fault knobs' },
  )
  .meta({ id: 'FaultKnobs' });
export const faultPatchSchema = faultKnobsSchema.partial().meta({ id: 'FaultKnobsPatch' });

/** Parses with a schema, throwing a 400 whose detail names the first failing field. */
export function parseOr400<T>(schema: z.ZodType<T>, input: unknown, what: string): T {
  const r = schema.safeParse(input);
  if (r.success) return r.data;
  const issue = r.error.issues[0];
  let path = issue.path
    .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
    .join('')
    .replace(/^\./, '');
  let msg = issue.message;
  if (issue.code === 'unrecognized_keys') {
    const keys = (issue as { keys?: string[] }).keys ?? [];
    path = [path, keys[0]].filter(Boolean).join('.');
    msg = 'is not a field of the ' + what;
  }
  throw bad(path ? `${path}: ${msg}` : msg);
}
