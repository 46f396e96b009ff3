// Builds a workflow execution result (R2), its steps (R7) and rule executions (R8) from what was
// uploaded, the capabilities requested and a few signals. Used by both the demo generator and
// executions created through the API, so the two are always consistent.
import {
  CAPABILITY_ORDER,
  CAPABILITY_PARENT,
  DECISION_SEVERITY,
  LABEL_RULESET,
  RISK_RULESET,
  RULES,
  bandOf,
  labelsFor,
  stepOf,
  type Category,
  type DecisionType,
  type RuleDef,
  type WorkflowStatus,
} from './catalog';
import * as D from './capability-data';
import type { Person } from './person';
import type { Rng } from './prng';

export interface CredentialIn {
  id: string;
  category: Category;
  label: string;
  parts: Array<{ classifier: string; captureType: string }>;
  clientIp?: string;
}
export interface Failure {
  capability: string;
  type: DecisionType;
  label: string;
  /** usability only: which credential */ category?: Category;
}
export interface Signals {
  highRiskCountry?: boolean;
  repeatedDocument?: boolean;
  young?: boolean;
  night?: boolean;
  documentExpired?: boolean;
  /** Other executions whose face matches this one (imageChecks findings, lookups). */
  faceMatches?: string[];
  /** Other executions with the same document. */
  docMatches?: string[];
  /** Score of the behaviour rule (0 = not matched). */
  behaviourScore?: number;
  /** The device this execution ran on when an attack crew shares it. */
  device?: { alias: string; ip: string };
}
export interface BuildInput {
  rng: Rng;
  newId: (n: number) => string;
  baseUrl: string;
  executionId: string;
  accountId: string;
  status: WorkflowStatus;
  definitionKey: string;
  originalDefinitionKey?: string;
  userReference?: string;
  customerInternalReference?: string;
  reportingCriteria?: string;
  parentId?: string;
  childIds?: string[];
  createdAt: Date;
  startedAt?: Date;
  completedAt?: Date;
  credentials: CredentialIn[];
  capabilities: string[];
  person?: Person;
  extractionSource?: 'document' | 'data';
  failures?: Failure[];
  signals?: Signals;
  feedback?: { status: string; reason?: string; providedAt: string };
  consent?: { obtained: string; obtainedAt: string };
  captureClient?: Record<string, unknown>;
  customRulesetIds?: string[];
  /** Older results carry only capabilityIds in steps. */
  legacySteps?: boolean;
  /** Older behaviour: an expired execution comes back REJECTED with score 100. */
  legacyExpiredRejected?: boolean;
  /** Exercise tolerant clients: an unknown label and/or an unknown capability. */
  unknownLabel?: boolean;
  unknownCapability?: boolean;
  /** Top-level label OK for PASSED (seen on screening-only workflows). */
  passedLabelOk?: boolean;
}

export interface Entry {
  id: string;
  credentials: Array<{ id: string; category: string; label: string }>;
  decision: { type: DecisionType | string; details: { label: string } };
  data?: unknown;
  additionalInformation?: unknown;
  nfcValidationResult?: string;
  validFaceMapForAuthentication?: string;
}
export interface Built {
  result: Record<string, any>;
  steps: { steps: any[] } | null;
  rules: { executions: any[] } | null;
}

const GROUP: Record<string, string> = {
  watchlistScreening: 'watchlist',
  advancedWatchlist: 'watchlist',
  addressValidation: 'address',
  proofOfResidency: 'address',
  drivingLicenseVerification: 'address',
  ekycCheck: 'ekyc',
  ekycVerification: 'ekyc',
  globalIdentityCheck: 'ekyc',
  ekycSsnVerification: 'ekyc',
  ekycAdvancedVerification: 'ekyc',
  ekycGlobalVerification: 'ekyc',
  kycCheck: 'ekyc',
  braCpfValidation: 'ekyc',
  govtIdVerification: 'ekyc',
  biometricVerification: 'ekyc',
  emailVerification: 'ekyc',
  phoneVerification: 'ekyc',
  geoIpVerification: 'ekyc',
  deviceRiskVerification: 'ekyc',
  searchBusiness: 'ekyc',
  businessInfo: 'ekyc',
  bankCheck: 'ekyc',
  binCheck: 'ekyc',
};
const NO_DATA = new Set(['dataChecks', 'usability', 'masking']);
const failed = (t?: string) => t === 'REJECTED' || t === 'NOT_EXECUTED';

type DataFn = (ctx: D.DataContext) => unknown;
const DATA: Record<string, DataFn> = {
  classification: D.classificationData,
  similarity: D.similarityData,
  liveness: D.livenessData,
  imageChecks: D.imageChecksData,
  authentication: (c) => ({ type: c.rng.chance(0.8) ? 'VENDOR_STANDARD' : 'VENDOR_PREMIUM' }),
  watchlistScreening: D.watchlistData,
  advancedWatchlist: D.advancedWatchlistData,
  addressValidation: D.reasonData,
  proofOfResidency: D.reasonData,
  drivingLicenseVerification: D.drivingLicenseData,
  ekycVerification: D.ekycVerificationData,
  globalIdentityCheck: D.ekycVerificationData,
  deviceRiskVerification: D.deviceRiskData,
  braCpfValidation: D.braCpfData,
  biometricVerification: D.biometricData,
  govtIdVerification: D.govtIdData,
  kycCheck: D.kycCheckData,
  bankCheck: (c) => (c.type === 'PASSED' ? 'ACCOUNT_VERIFIED' : 'ACCOUNT_NOT_VERIFIED'),
  binCheck: (c) => (c.type === 'PASSED' ? 'BIN_MATCH' : 'BIN_COUNTRY_MISMATCH'),
  searchBusiness: D.searchBusinessData,
  emailVerification: D.emailVerificationData,
  phoneVerification: D.phoneVerificationData,
  geoIpVerification: D.geoIpData,
  businessInfo: D.businessInfoData,
  ekycSsnVerification: D.ekycSsnData,
  ekycAdvancedVerification: D.ekycAdvancedData,
  ekycGlobalVerification: D.ekycAdvancedData,
  lookups: D.lookupsData,
  riskAnalytics: D.riskAnalyticsData,
  ekycCheck: D.ekycCheckData,
};

function worst(types: string[]): DecisionType {
  let best: DecisionType = 'NOT_EXECUTED',
    sev = -1;
  for (const t of types)
    if ((DECISION_SEVERITY[t] ?? -1) > sev) {
      sev = DECISION_SEVERITY[t];
      best = t as DecisionType;
    }
  return best;
}
function clampToBand(score: number, type: DecisionType): number {
  const [lo, hi] =
    type === 'PASSED' ? [0, 30] : type === 'WARNING' ? [31, 70] : type === 'REJECTED' ? [71, 100] : [-1, -1];
  return Math.min(hi, Math.max(lo, score));
}

export function buildExecution(inp: BuildInput): Built {
  const r = inp.rng;
  let idn = 0;
  const nextId = () => inp.newId(++idn);
  const credRef = (c: CredentialIn) => ({ id: c.id, category: c.category, label: c.label });
  const byCat = (cat: Category) => inp.credentials.find((c) => c.category === cat);
  const idCred = byCat('ID'),
    selfie = byCat('SELFIE') ?? byCat('FACEMAP'),
    dataCred = byCat('DATA'),
    docCred = byCat('DOCUMENT'),
    facemap = byCat('FACEMAP');
  const uploaded = (c?: CredentialIn) => !!c && c.parts.length > 0;
  const signals = inp.signals ?? {};
  const at = inp.completedAt ?? inp.createdAt;

  const result: Record<string, any> = {
    workflow: D.stripUndefined({
      id: inp.executionId,
      status: inp.status,
      definitionKey: inp.definitionKey,
      originalDefinitionKey: inp.originalDefinitionKey ?? inp.definitionKey,
      userReference: inp.userReference,
      customerInternalReference: inp.customerInternalReference,
      reportingCriteria: inp.reportingCriteria,
      childIds: inp.childIds?.length ? inp.childIds : undefined,
      parentId: inp.parentId,
    }),
    account: { id: inp.accountId },
    createdAt: inp.createdAt.toISOString(),
    ...(inp.startedAt ? { startedAt: inp.startedAt.toISOString() } : {}),
    ...(inp.completedAt ? { completedAt: inp.completedAt.toISOString() } : {}),
    credentials: inp.credentials.map((c) =>
      D.stripUndefined({
        id: c.id,
        category: c.category,
        label: c.label,
        clientIp: c.clientIp,
        parts: c.parts,
        reusableIdentity: { status: 'ID_NOT_FOUND', source: 'VENDOR' },
        consent: { decisionAccepted: true, collectedBy: 'CUSTOMER' },
      }),
    ),
  };
  if (inp.consent) result.consent = inp.consent;
  if (inp.captureClient) result.captureClient = inp.captureClient;
  const stepsHref = `${inp.baseUrl}/api/v1/accounts/${inp.accountId}/workflow-executions/${inp.executionId}/steps`;

  if (inp.status === 'INITIATED' || inp.status === 'ACQUIRED') {
    result.steps = { href: stepsHref };
    return { result, steps: null, rules: null };
  }
  if (inp.status === 'SESSION_EXPIRED' || inp.status === 'TOKEN_EXPIRED') {
    result.decision = inp.legacyExpiredRejected
      ? { type: 'REJECTED', details: { label: 'REJECTED' }, risk: { score: 100 } }
      : { type: 'NOT_EXECUTED', details: { label: inp.status }, risk: { score: -1 } };
    result.capabilities = {};
    if (inp.feedback) result.feedback = inp.feedback;
    result.steps = { href: stepsHref };
    return { result, steps: null, rules: null };
  }

  // ---- PROCESSED: evaluate capabilities in dependency order ----
  const forced = new Map<string, Failure>();
  for (const f of inp.failures ?? []) if (!forced.has(f.capability)) forced.set(f.capability, f);
  const entries = new Map<string, Array<Entry & { _cred?: string }>>();
  const usabilityOf = new Map<string, string>(); // credential id -> decision type
  const firstType = (cap: string) => entries.get(cap)?.[0]?.decision.type;

  const decide = (cap: string, parentFailed: boolean): [DecisionType, string] => {
    const f = forced.get(cap);
    if (f && (!parentFailed || f.type === 'NOT_EXECUTED')) return [f.type, f.label];
    if (parentFailed) return ['NOT_EXECUTED', 'PRECONDITION_NOT_FULFILLED'];
    return ['PASSED', labelsFor(cap, 'PASSED')[0]];
  };
  const add = (cap: string, creds: CredentialIn[], type: DecisionType, label: string, extra: Partial<Entry> = {}) => {
    const entry: Entry = {
      id: cap === 'bankCheck' || cap === 'binCheck' ? `${cap}-${r.int(100000, 999999)}` : nextId(),
      credentials: creds.map(credRef),
      decision: { type, details: { label } },
      ...extra,
    };
    if (!NO_DATA.has(cap) && type !== 'NOT_EXECUTED') {
      const ctx: D.DataContext = {
        rng: r,
        person: inp.person,
        type,
        label,
        at,
        faceMatches: signals.faceMatches ?? [],
        docMatches: signals.docMatches ?? [],
        device: signals.device,
        newId: nextId,
        createdAt: inp.createdAt,
      };
      entry.data = cap === 'extraction' ? D.extractionData(ctx, inp.extractionSource ?? 'document') : DATA[cap]?.(ctx);
    }
    if (cap === 'watchlistScreening' && type !== 'NOT_EXECUTED')
      entry.additionalInformation = {
        vendor: {
          name: 'ScreeningVendor',
          response: { matchStatus: type === 'WARNING' ? 'potential_match' : 'no_match' },
        },
      };
    // The checked address travels back in the vendor's response, as the e-mail and phone vendors do.
    if (cap === 'emailVerification' && inp.person?.email && type !== 'NOT_EXECUTED')
      entry.additionalInformation = { vendor: { name: 'EmailVendor', response: { email: inp.person.email } } };
    if (cap === 'phoneVerification' && inp.person?.phone && type !== 'NOT_EXECUTED')
      entry.additionalInformation = { vendor: { name: 'PhoneVendor', response: { phoneNumber: inp.person.phone } } };
    const list = entries.get(cap) ?? [];
    list.push(entry);
    entries.set(cap, list);
    return entry;
  };
  const wants = new Set(inp.capabilities);
  for (const cap of CAPABILITY_ORDER) {
    if (!wants.has(cap)) continue;
    switch (cap) {
      case 'usability': {
        // One entry per credential, each with its own finding (a document and a selfie may both fail).
        const byCredential = new Map<CredentialIn, Failure>();
        for (const f of inp.failures ?? []) {
          if (f.capability !== 'usability') continue;
          const target =
            inp.credentials.find((c) => c.category === (f.category ?? 'ID')) ?? idCred ?? selfie ?? docCred;
          if (target && !byCredential.has(target)) byCredential.set(target, f);
        }
        for (const c of [idCred, selfie, docCred]) {
          if (!c) continue;
          const f = byCredential.get(c);
          const [t, l]: [DecisionType, string] =
            !uploaded(c) && c.category !== 'FACEMAP'
              ? ['NOT_EXECUTED', 'NOT_UPLOADED']
              : f
                ? [f.type, f.label]
                : ['PASSED', 'OK'];
          usabilityOf.set(c.id, t);
          add(cap, [c], t, l);
        }
        break;
      }
      case 'imageChecks':
      case 'classification':
        if (idCred) {
          const [t, l] = decide(cap, failed(usabilityOf.get(idCred.id)));
          add(cap, selfie && cap === 'imageChecks' ? [idCred, selfie] : [idCred], t, l);
        }
        break;
      case 'extraction': {
        const src = idCred ?? dataCred ?? docCred;
        if (!src) break;
        const parentFailed = src === idCred ? failed(firstType('imageChecks') ?? usabilityOf.get(idCred.id)) : false;
        const [t, l] = decide(cap, parentFailed);
        add(
          cap,
          [src],
          t,
          l,
          src === idCred && inp.person?.docType === 'PASSPORT' && t === 'PASSED'
            ? { nfcValidationResult: 'READ_VALIDATED' }
            : {},
        );
        break;
      }
      case 'liveness':
      case 'authentication': {
        const c = cap === 'authentication' ? (facemap ?? selfie) : selfie;
        if (!c) break;
        const [t, l] = decide(cap, failed(usabilityOf.get(selfie?.id ?? c.id)));
        add(cap, cap === 'authentication' && facemap && selfie && facemap !== selfie ? [facemap, selfie] : [c], t, l, {
          validFaceMapForAuthentication: t === 'PASSED' ? 'true' : 'false',
        } as any);
        if (cap === 'liveness') delete (entries.get(cap)!.at(-1) as any).validFaceMapForAuthentication;
        break;
      }
      case 'similarity': {
        if (!idCred || !selfie) break;
        const [t, l] = decide(cap, failed(usabilityOf.get(idCred.id)) || failed(usabilityOf.get(selfie.id)));
        add(cap, [idCred, selfie], t, l);
        break;
      }
      default: {
        const parent = CAPABILITY_PARENT[cap];
        const parentType = parent ? firstType(parent) : undefined;
        const src = cap === 'proofOfResidency' ? (docCred ?? idCred) : (idCred ?? dataCred ?? docCred);
        const creds = src ? [src] : [];
        let [t, l] = decide(cap, failed(parentType));
        if (cap === 'watchlistScreening' && !parentType && !forced.has(cap))
          [t, l] = ['NOT_EXECUTED', 'EXTRACTION_NOT_DONE'];
        add(cap, creds, t, l);
      }
    }
  }
  // Anything forced but not requested (e.g. an unknown capability name) is still reported.
  for (const [cap, f] of forced)
    if (!entries.has(cap) && cap !== 'usability' && (inp.unknownCapability || wants.has(cap)))
      add(cap, idCred ? [idCred] : [], f.type, f.label);
  if (inp.unknownLabel) {
    const target = entries.get('imageChecks')?.[0] ?? entries.get('extraction')?.[0];
    if (target && target.decision.type === 'PASSED') target.decision.details.label = 'OK_VERIFIED_EXTENDED';
  }
  if (inp.unknownCapability)
    add('voiceVerification', selfie ? [selfie] : [], 'PASSED', 'OK', { data: { channel: 'PHONE', matchScore: 0.93 } });

  // ---- top-level decision and rules ----
  const all = [...entries.values()].flat();
  const primaryUsability = entries.get('usability')?.[0];
  const executed = all.map((e) => e.decision.type as string).filter((t) => t !== 'NOT_EXECUTED');
  const finalCap: DecisionType =
    primaryUsability?.decision.type === 'NOT_EXECUTED' && !executed.includes('REJECTED')
      ? 'NOT_EXECUTED'
      : executed.length
        ? worst(executed)
        : all.length
          ? 'NOT_EXECUTED'
          : 'PASSED';

  const matched: Array<RuleDef & { score: number }> = [];
  const seen = new Set<string>();
  const match = (rule: RuleDef, score = rule.score) => {
    if (!seen.has(rule.id)) {
      seen.add(rule.id);
      matched.push({ ...rule, score });
    }
  };
  const byTrigger = (t: string) => RULES.find((x) => x.trigger === t);
  for (const [cap, list] of entries)
    for (const e of list) {
      const t = e.decision.type,
        l = e.decision.details.label;
      if (t !== 'WARNING' && t !== 'REJECTED') continue;
      const rule =
        byTrigger(`${cap}:${l}`) ??
        (l.startsWith('MANIPULATED') ? byTrigger(`${cap}:MANIPULATED`) : undefined) ??
        byTrigger(`${cap}:${t}`) ??
        (GROUP[cap] ? byTrigger(`${GROUP[cap]}:${t}`) : undefined);
      match(
        rule ?? {
          id: `R-CHECK-${cap.toUpperCase()}`,
          name: `${cap} check ${t === 'REJECTED' ? 'failed' : 'raised an alert'}`,
          version: 1,
          score: t === 'REJECTED' ? 76 : 35,
          trigger: `${cap}:${t}`,
          ruleset: 'risk',
        },
      );
    }
  if (finalCap !== 'NOT_EXECUTED') {
    for (const s of ['documentExpired', 'highRiskCountry', 'repeatedDocument', 'young', 'night'] as const)
      if (signals[s]) match(byTrigger(s)!);
    if (signals.behaviourScore && signals.behaviourScore > 0)
      match({
        id: 'R-BEHAVIOUR',
        name: 'Device and behaviour risk',
        version: 2,
        score: signals.behaviourScore,
        trigger: 'behaviour',
        ruleset: 'risk',
      });
  }
  const sum = matched.reduce((a, m) => a + m.score, 0);
  let decisionType: DecisionType = finalCap;
  let score = -1;
  if (finalCap !== 'NOT_EXECUTED') {
    const byScore = bandOf(Math.min(100, sum));
    decisionType = DECISION_SEVERITY[byScore] > DECISION_SEVERITY[finalCap] ? byScore : finalCap;
    score = clampToBand(Math.min(100, sum), decisionType);
  }
  const notExecutedLabel =
    primaryUsability?.decision.details.label === 'NOT_UPLOADED' ? 'NOT_UPLOADED' : 'TECHNICAL_ERROR';
  result.decision = {
    type: decisionType,
    details: {
      label:
        decisionType === 'NOT_EXECUTED'
          ? notExecutedLabel
          : decisionType === 'PASSED' && inp.passedLabelOk
            ? 'OK'
            : decisionType,
    },
    risk: { score },
  };
  if (inp.feedback) result.feedback = inp.feedback;
  result.capabilities = Object.fromEntries([...entries].map(([k, v]) => [k, v]));

  const started = new Date(at.getTime() - 1800),
    done = new Date(at.getTime() - 600);
  const riskRules = RULES.filter((x) => x.ruleset === 'risk');
  const rulesets: any[] = [
    {
      id: RISK_RULESET.id,
      name: RISK_RULESET.name,
      version: RISK_RULESET.version,
      score: sum,
      rulesMatched: matched.map(ruleOut),
      rulesNotMatched: riskRules.filter((x) => !seen.has(x.id)).map(ruleOut),
    },
    {
      id: LABEL_RULESET.id,
      name: LABEL_RULESET.name,
      version: LABEL_RULESET.version,
      score: 0,
      rulesMatched: RULES.filter((x) => x.trigger === `decision:${decisionType}`).map(ruleOut),
      rulesNotMatched: RULES.filter((x) => x.ruleset === 'label' && x.trigger !== `decision:${decisionType}`).map(
        ruleOut,
      ),
    },
  ];
  for (const id of inp.customRulesetIds ?? []) {
    rulesets.push({
      id,
      name: `Customer ruleset ${id}`,
      version: 1,
      score: 0,
      rulesMatched: [],
      rulesNotMatched: [{ id: `${id}-1`, name: 'Customer blocklist', version: 1, score: 100 }],
    });
  }
  const rules = {
    executions: [{ id: nextId(), startedAt: started.toISOString(), completedAt: done.toISOString(), rulesets }],
  };
  result.rules = rules;
  result.steps = { href: stepsHref };

  // ---- steps ----
  const groups = new Map<string, Entry[]>();
  const cats = new Map<string, string>();
  for (const [cap, list] of entries) {
    const [step, category] = stepOf(cap);
    for (const e of list) cats.set(e.id, category);
    groups.set(step, [...(groups.get(step) ?? []), ...list]);
  }
  let sid = 0;
  const steps = [...groups].map(([name, list]) => {
    const types = list.map((e) => e.decision.type as string);
    const t = types.every((x) => x === 'NOT_EXECUTED')
      ? 'NOT_EXECUTED'
      : worst(types.filter((x) => x !== 'NOT_EXECUTED'));
    const step: Record<string, unknown> = { id: ++sid, name, decision: { type: t, details: { label: t } } };
    if (!inp.legacySteps) step.capabilities = list.map((e) => ({ id: e.id, category: cats.get(e.id) }));
    step.capabilityIds = list.map((e) => e.id);
    return step;
  });
  return { result, steps: { steps }, rules };
}

function ruleOut(x: { id: string; name: string; version: number; score: number }) {
  return { id: x.id, name: x.name, version: x.version, score: x.score };
}

/** Removes personal data from a result, keeping decision metadata (what a wipe leaves behind). */
export function wipeResult(result: Record<string, any>, wipedOutAt: Date): Record<string, any> {
  const out = structuredClone(result);
  out.wipedOutAt = wipedOutAt.toISOString();
  out.credentials = (out.credentials ?? []).map((c: any) => ({
    id: c.id,
    category: c.category,
    label: c.label,
    parts: [],
  }));
  for (const list of Object.values(out.capabilities ?? {}) as any[])
    for (const e of list) {
      delete e.data;
      delete e.additionalInformation;
    }
  delete out.consent;
  return out;
}
