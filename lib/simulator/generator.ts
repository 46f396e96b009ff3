// Demo data generator: execution `index` of a seeded data set is a pure function of
// (seed, index, count, days, anchor). Nothing is held per execution, so generating index 999_999
// costs the same as index 0. Index 0 is the newest execution; times decrease with the index.
import {
  DEFINITION_BY_KEY,
  HIGH_RISK_COUNTRIES,
  REPORTING_CRITERIA,
  WORKFLOW_DEFINITIONS,
  type KnownCategory,
  type DecisionType,
  type WorkflowDefinitionInfo,
  type WorkflowStatus,
} from './catalog';
import { FEEDBACK_REASONS } from '@/lib/spec/vocabulary';
import { IdCodec, Kind } from './ids';
import { VARIANTS } from './images';
import { ageAt, isoDate, makePerson, type Person } from './person';
import { Rng, mix } from './prng';
import { buildExecution, wipeResult, type CredentialIn, type Failure, type Signals } from './results';

export interface GenerateOptions {
  count: number;
  days: number;
  anchor: Date;
  /** Base URL used in hrefs (steps.href); defaults to the simulator's default address. */
  baseUrl?: string;
}
export interface GeneratedPart {
  credentialId: string;
  classifier: string;
  kind: 'document-front' | 'document-back' | 'face';
  variant: number;
}
export interface GeneratedExecution {
  index: number;
  result: Record<string, any>;
  steps: { steps: any[] };
  rules: { executions: any[] };
  parts: GeneratedPart[];
}

const DAY = 86_400_000;
const HOUR = 3_600_000;
const BLOCK = 1000;
/** Diurnal weights per UTC hour (Europe/Americas daytime peaks). */
const HOURLY = [
  0.35, 0.25, 0.2, 0.18, 0.2, 0.3, 0.5, 0.8, 1.1, 1.3, 1.4, 1.45, 1.5, 1.55, 1.6, 1.6, 1.55, 1.5, 1.45, 1.4, 1.3, 1.1,
  0.8, 0.55,
];

interface Cluster {
  kind: 'doc' | 'face';
  members: number[];
  key: number;
  fraud: boolean;
}

/** Everything derived from (seed, count, days, anchor) that is independent of the index. Small. */
export class SeedModel {
  readonly codec: IdCodec;
  readonly seedHash: number;
  readonly start: number;
  readonly end: number;
  readonly attackDays: Set<number>;
  private readonly attackHour = new Map<number, number>();
  /** Cumulative weights per hour bucket over the whole range (days * 24 numbers). */
  private readonly cum: Float64Array;
  private readonly baseW: Float64Array;
  private readonly attackW: Float64Array;
  private readonly blockCache = new Map<number, Map<number, [Cluster, number]>>();

  constructor(
    readonly seed: string | number,
    readonly count: number,
    readonly days: number,
    readonly anchor: Date,
  ) {
    this.codec = new IdCodec(seed);
    this.seedHash = this.codec.seedHash;
    this.end = anchor.getTime() - 20 * 60_000;
    this.start = this.end - days * DAY;
    const r = Rng.of(this.seedHash, 'attack-days');
    const nAttack = days >= 7 ? Math.max(1, Math.round(days / 30)) : 0;
    this.attackDays = new Set<number>();
    while (this.attackDays.size < nAttack) {
      const d = r.int(Math.min(2, days - 1), days - 1);
      this.attackDays.add(d);
      this.attackHour.set(d, r.int(1, 20));
    }
    const buckets = days * 24;
    this.cum = new Float64Array(buckets + 1);
    this.baseW = new Float64Array(buckets);
    this.attackW = new Float64Array(buckets);
    const startDow = new Date(this.start).getUTCDay();
    for (let d = 0; d < days; d++) {
      const dow = (startDow + d) % 7;
      const dayW = (1 + (0.35 * d) / Math.max(1, days)) * (dow === 0 || dow === 6 ? 0.72 : 1);
      const ah = this.attackHour.get(d);
      for (let h = 0; h < 24; h++) {
        const b = d * 24 + h;
        this.baseW[b] = dayW * HOURLY[(h + new Date(this.start).getUTCHours()) % 24];
        this.attackW[b] = ah !== undefined && h >= ah && h < ah + 3 ? 7 : 0;
        this.cum[b + 1] = this.cum[b] + this.baseW[b] + this.attackW[b];
      }
    }
  }

  private jitter(index: number) {
    return mix(this.seedHash, index, 0x7177) / 4294967296;
  }
  /** Creation time of execution `index` (strictly decreasing in index). */
  timeOf(index: number): number {
    const u = 1 - (index + this.jitter(index)) / this.count;
    const target = u * this.cum[this.cum.length - 1];
    let lo = 0,
      hi = this.cum.length - 2;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.cum[mid] <= target) lo = mid;
      else hi = mid - 1;
    }
    const w = this.cum[lo + 1] - this.cum[lo];
    const frac = w > 0 ? (target - this.cum[lo]) / w : 0;
    return Math.floor(this.start + lo * HOUR + Math.min(0.999999, frac) * HOUR);
  }
  /** How many seeded executions were created strictly after `t`. */
  countNewerThan(t: number): number {
    let lo = 0,
      hi = this.count; // first index with timeOf(index) <= t
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.timeOf(mid) <= t) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
  bucketOf(t: number) {
    return Math.min(this.days * 24 - 1, Math.max(0, Math.floor((t - this.start) / HOUR)));
  }
  /** Attack-wave membership: inside an attack window, a share of executions are attackers. */
  attackInfo(index: number): { day: number; face: number } | null {
    if (!this.attackDays.size) return null;
    const b = this.bucketOf(this.timeOf(index));
    const a = this.attackW[b];
    if (!a) return null;
    const p = a / (a + this.baseW[b]);
    if (mix(this.seedHash, index, 0xa77a) / 4294967296 >= p) return null;
    const day = Math.floor(b / 24);
    return { day, face: 1000 + day * 8 + (mix(this.seedHash, index, 0xfa) % 3) };
  }
  /**
   * Six in ten attackers come through the data-only flow with the crew's gear: one of two devices
   * per wave day, one of four e-mail addresses and the crew's drop address, shared across waves
   * (the same crew returns), the way organised sign-up fraud reuses what it has.
   */
  isDataOnlyAttacker(index: number): boolean {
    return this.attackInfo(index) !== null && mix(this.seedHash, index, 0xd0d0) % 10 < 6;
  }
  crewGear(index: number, day: number) {
    const k = mix(this.seedHash, index, 0xde71) % 2;
    const h = (salt: number) =>
      mix(this.seedHash, day * 2 + k, salt)
        .toString(16)
        .padStart(8, '0');
    const n = mix(this.seedHash, index, 0xe4a1) % 4;
    return {
      device: {
        alias: `${h(0xd1)}${h(0xd2)}`,
        ip: `100.${64 + (mix(this.seedHash, day * 2 + k, 0x1b) % 64)}.${mix(this.seedHash, day * 2 + k, 0x1c) % 256}.${1 + (mix(this.seedHash, day * 2 + k, 0x1d) % 254)}`,
      },
      email: `${['orders', 'sales', 'info', 'team'][n]}.${h(0xe1).slice(0, 4)}@mail.example`,
      crew: Rng.of(this.seedHash, 'crew'),
    };
  }
  /** Repeated-document and repeated-face clusters, computed per block of indices. */
  clusterOf(index: number): [Cluster, number] | null {
    const block = Math.floor(index / BLOCK);
    let map = this.blockCache.get(block);
    if (!map) {
      map = new Map();
      const lo = block * BLOCK,
        size = Math.min(BLOCK, this.count - lo);
      const k = Math.max(size >= 6 ? 1 : 0, Math.round((size * 0.03) / 3));
      const r = Rng.of(this.seedHash, 'clusters', block);
      for (let c = 0; c < k; c++) {
        const kind: 'doc' | 'face' = r.chance(0.65) ? 'doc' : 'face';
        const want = r.int(2, 5);
        const members: number[] = [];
        for (let t = 0; t < want * 3 && members.length < want; t++) {
          const idx = lo + r.int(0, size - 1);
          if (!map.has(idx) && !members.includes(idx) && !this.attackInfo(idx)) members.push(idx);
        }
        if (members.length < 2) continue;
        members.sort((a, b) => a - b);
        const cl: Cluster = { kind, members, key: r.uint32(), fraud: kind === 'doc' && r.chance(0.35) };
        members.forEach((m, i) => map!.set(m, [cl, i]));
      }
      if (this.blockCache.size > 64) this.blockCache.clear();
      this.blockCache.set(block, map);
    }
    return map.get(index) ?? null;
  }
  cachedBlocks() {
    return this.blockCache.size;
  }
  private isChildRaw(i: number) {
    return mix(this.seedHash, i, 0xc41d) % 100 === 0 && this.parentIndexRaw(i) < this.count;
  }
  private parentIndexRaw(i: number) {
    return i + 1 + (mix(this.seedHash, i, 0xc41e) % 10);
  }
  /** Re-verifications: about 1% of executions belong to the account of an older execution. */
  parentOf(i: number): number | null {
    if (!this.isChildRaw(i) || this.clusterOf(i) || this.attackInfo(i)) return null;
    const p = this.parentIndexRaw(i);
    return this.isChildRaw(p) ? null : p;
  }
  childrenOf(p: number): number[] {
    const out: number[] = [];
    for (let j = Math.max(0, p - 10); j < p; j++) if (this.parentOf(j) === p) out.push(j);
    return out;
  }
  /** Execution index whose account holds execution `i`. */
  accountIndexOf(i: number): number {
    return this.parentOf(i) ?? i;
  }
  isAccountIndex(i: number): boolean {
    return i >= 0 && i < this.count && this.parentOf(i) === null;
  }
}

const models = new Map<string, SeedModel>();
export function seedModel(seed: string | number, opts: { count: number; days: number; anchor: Date }): SeedModel {
  const key = `${String(seed)}|${opts.count}|${opts.days}|${opts.anchor.getTime()}`;
  let m = models.get(key);
  if (!m) {
    m = new SeedModel(seed, opts.count, opts.days, opts.anchor);
    if (models.size > 16) models.clear();
    models.set(key, m);
  }
  return m;
}

/** Sizes of the generator's bounded caches (for tests: generating many indices must not grow memory). */
export function generatorCacheStats() {
  let blocks = 0;
  for (const m of models.values()) blocks += m.cachedBlocks();
  return { models: models.size, blocks };
}

const BASE_MIX: ReadonlyArray<readonly [DecisionType, number]> = [
  ['PASSED', 72.5],
  ['WARNING', 20],
  ['REJECTED', 6.3],
  ['NOT_EXECUTED', 1.2],
];
const FRAUD_REASONS = FEEDBACK_REASONS.filter((r) => r !== 'NA');

function warningOptions(def: WorkflowDefinitionInfo): Failure[] {
  const c = new Set(def.capabilities);
  const o: Failure[] = [];
  if (c.has('liveness'))
    o.push(
      { capability: 'liveness', type: 'WARNING', label: 'AGE_DIFFERENCE' },
      { capability: 'liveness', type: 'WARNING', label: 'BAD_QUALITY' },
    );
  if (c.has('similarity')) o.push({ capability: 'similarity', type: 'WARNING', label: 'NOT_POSSIBLE' });
  if (c.has('imageChecks')) o.push({ capability: 'imageChecks', type: 'WARNING', label: 'DIFFERENT_PERSON' });
  if (c.has('watchlistScreening'))
    o.push(
      { capability: 'watchlistScreening', type: 'WARNING', label: 'ALERT' },
      { capability: 'watchlistScreening', type: 'WARNING', label: 'ALERT' },
    );
  if (c.has('usability'))
    o.push(
      { capability: 'usability', type: 'WARNING', label: 'UNSUPPORTED_DOCUMENT_TYPE' },
      { capability: 'usability', type: 'WARNING', label: 'UNSUPPORTED_COUNTRY' },
    );
  for (const cap of ['addressValidation', 'drivingLicenseVerification', 'proofOfResidency', 'advancedWatchlist'])
    if (c.has(cap)) o.push({ capability: cap, type: 'WARNING', label: 'ALERT' });
  for (const cap of [
    'ekycCheck',
    'ekycVerification',
    'kycCheck',
    'emailVerification',
    'geoIpVerification',
    'deviceRiskVerification',
    'braCpfValidation',
    'globalIdentityCheck',
    'searchBusiness',
  ])
    if (c.has(cap)) o.push({ capability: cap, type: 'WARNING', label: 'ALERT' });
  return o;
}
function rejectOptions(def: WorkflowDefinitionInfo, r: Rng): Failure[] {
  const c = new Set(def.capabilities);
  const o: Failure[] = [];
  if (c.has('usability'))
    o.push({
      capability: 'usability',
      type: 'REJECTED',
      label: r.pick([
        'BAD_QUALITY',
        'BLURRED',
        'GLARE',
        'PART_OF_DOCUMENT_MISSING',
        'PHOTOCOPY',
        'BLACK_WHITE',
        'NOT_A_DOCUMENT',
        'DAMAGED_DOCUMENT',
      ]),
    });
  if (c.has('imageChecks'))
    o.push({
      capability: 'imageChecks',
      type: 'REJECTED',
      label: r.pick([
        'DIGITAL_COPY',
        'MANIPULATED_DOCUMENT',
        'MANIPULATED_DOCUMENT_PHOTO',
        'FAKE',
        'SAMPLE',
        'WATERMARK',
        'MISMATCH_FRONT_BACK',
      ]),
    });
  if (c.has('liveness'))
    o.push({
      capability: 'liveness',
      type: 'REJECTED',
      label: r.pick([
        'DIGITAL_COPY',
        'ID_USED_AS_SELFIE',
        'MANIPULATED',
        'NO_FACE_PRESENT',
        'MULTIPLE_PEOPLE',
        'LIVENESS_UNDETERMINED',
      ]),
    });
  if (c.has('similarity')) o.push({ capability: 'similarity', type: 'REJECTED', label: 'NO_MATCH' });
  if (c.has('dataChecks'))
    o.push({
      capability: 'dataChecks',
      type: 'REJECTED',
      label: r.pick(['MRZ_CHECKSUM', 'MISMATCHING_DATAPOINTS', 'MISMATCH_HRZ_MRZ_DATA', 'NFC_CERTIFICATE']),
    });
  if (c.has('authentication')) o.push({ capability: 'authentication', type: 'REJECTED', label: 'FAILED' });
  for (const cap of ['addressValidation', 'drivingLicenseVerification', 'proofOfResidency'])
    if (c.has(cap)) o.push({ capability: cap, type: 'REJECTED', label: 'DENY' });
  for (const cap of [
    'ekycCheck',
    'ekycVerification',
    'ekycSsnVerification',
    'braCpfValidation',
    'govtIdVerification',
    'biometricVerification',
    'phoneVerification',
    'bankCheck',
    'binCheck',
    'businessInfo',
    'ekycAdvancedVerification',
    'ekycGlobalVerification',
  ])
    if (c.has(cap)) o.push({ capability: cap, type: 'REJECTED', label: 'DENY' });
  return o;
}

const CAPTURE_MODES = ['auto_capture', 'auto_capture', 'auto_capture', 'manual_capture', 'upload'];

/** Generates execution `index` of the seeded data set. Pure: same inputs, same output. */
export function generateExecution(seed: string | number, index: number, opts: GenerateOptions): GeneratedExecution {
  if (!Number.isInteger(index) || index < 0 || index >= opts.count)
    throw new RangeError(`index must be an integer in 0..${opts.count - 1}`);
  const m = seedModel(seed, opts);
  const codec = m.codec;
  const r = Rng.of(m.seedHash, index, 'execution');
  const createdAt = new Date(m.timeOf(index));
  const attack = m.attackInfo(index);
  const cluster = m.clusterOf(index);
  const parentIdx = m.parentOf(index);
  const executionId = codec.execution(index);
  const accountId = codec.account(m.accountIndexOf(index));

  // ---- workflow definition ----
  let def: WorkflowDefinitionInfo = r.weighted(WORKFLOW_DEFINITIONS.map((d) => [d, d.weight] as const));
  const dataOnlyAttack = m.isDataOnlyAttacker(index);
  if (attack) def = DEFINITION_BY_KEY.get(dataOnlyAttack ? '10031' : r.chance(0.7) ? '10013' : '10020')!;
  if (cluster) def = DEFINITION_BY_KEY.get(cluster[0].key % 4 === 0 ? '10020' : '10013')!;
  const hasId = def.categories.includes('ID');

  // ---- identity ----
  let person: Person;
  let faceVariant = mix(m.seedHash, index, 0xface) % VARIANTS.face;
  if (cluster) {
    const [cl] = cluster;
    const cr = Rng.of(m.seedHash, 'cluster-identity', cl.key);
    if (cl.kind === 'doc') person = makePerson(cr, new Date(m.timeOf(cl.members[cl.members.length - 1])));
    else person = makePerson(r, createdAt);
    faceVariant = cl.key % VARIANTS.face;
  } else if (attack) {
    const ar = Rng.of(m.seedHash, 'attack', attack.day, index % 5);
    person = makePerson(r.chance(0.5) ? ar : r, createdAt, r.pick(['GBR', 'DEU', 'FRA', 'ESP', 'NLD']));
    faceVariant = attack.face;
    if (dataOnlyAttack) {
      const gear = m.crewGear(index, attack.day);
      person.email = gear.email;
      person.address = makePerson(gear.crew, new Date(m.start), 'GBR').address;
    }
  } else person = makePerson(r, createdAt);
  if (!hasId) person.docType = r.chance(0.8) ? 'ID_CARD' : 'PASSPORT';
  if (r.chance(0.004)) person.docType = r.chance(0.5) ? 'VISA' : 'UNSUPPORTED';
  const docVariant =
    mix(
      m.seedHash,
      person.docNumber ? person.docNumber.length * 7 + person.docNumber.charCodeAt(1) : index,
      (person.lastName ?? '').length,
    ) % VARIANTS['document-front'];

  // ---- status ----
  let status: WorkflowStatus = 'PROCESSED';
  if (!attack && !cluster && r.chance(0.015)) status = r.chance(0.6) ? 'SESSION_EXPIRED' : 'TOKEN_EXPIRED';

  // ---- outcome ----
  let target: DecisionType = r.weighted(BASE_MIX);
  const failures: Failure[] = [];
  const signals: Signals = {};
  const clusterIds = cluster ? cluster[0].members.filter((x) => x !== index).map((x) => codec.execution(x)) : [];
  if (attack) {
    target = r.chance(0.82) ? 'REJECTED' : 'WARNING';
    if (dataOnlyAttack) {
      signals.device = m.crewGear(index, attack.day).device;
      failures.push(
        target === 'REJECTED'
          ? { capability: 'deviceRiskVerification', type: 'REJECTED', label: 'DENY' }
          : { capability: 'deviceRiskVerification', type: 'WARNING', label: 'ALERT' },
      );
    } else if (target === 'REJECTED')
      failures.push({
        capability: 'imageChecks',
        type: 'REJECTED',
        label: r.chance(0.55) ? 'DIGITAL_COPY' : 'MANIPULATED_DOCUMENT',
      });
    else failures.push({ capability: 'imageChecks', type: 'WARNING', label: 'REPEATED_FACE' });
    const near: string[] = [];
    for (let d = 1; d <= 40 && near.length < 6; d++)
      for (const j of [index - d, index + d]) {
        if (j < 0 || j >= m.count || near.length >= 6) continue;
        const a = m.attackInfo(j);
        if (a && a.face === attack.face && !m.isDataOnlyAttacker(j)) near.push(codec.execution(j));
      }
    signals.faceMatches = near;
  } else if (cluster) {
    const [cl, rank] = cluster;
    const oldest = rank === cl.members.length - 1;
    signals.faceMatches = clusterIds;
    if (cl.kind === 'doc') {
      signals.docMatches = clusterIds;
      signals.repeatedDocument = !oldest;
      if (cl.fraud && !oldest) {
        target = 'REJECTED';
        failures.push({ capability: 'dataChecks', type: 'REJECTED', label: 'CUSTOMER_FEEDBACK' });
      } else if (!oldest && r.chance(0.3)) {
        target = 'WARNING';
      } else target = 'PASSED';
    } else if (!oldest) {
      target = r.chance(0.75) ? 'WARNING' : 'REJECTED';
      failures.push(
        target === 'WARNING'
          ? { capability: 'imageChecks', type: 'WARNING', label: 'REPEATED_FACE' }
          : { capability: 'dataChecks', type: 'REJECTED', label: 'MISMATCHING_DATA_REPEATED_FACE' },
      );
    } else target = 'PASSED';
  }
  if (target === 'NOT_EXECUTED' && !hasId) target = 'REJECTED';
  if (!failures.length) {
    if (target === 'WARNING') {
      const o = warningOptions(def);
      if (o.length) failures.push(r.pick(o));
    } else if (target === 'REJECTED') {
      if (hasId && r.chance(0.15)) {
        signals.documentExpired = true;
        person.expiryDate = isoDate(new Date(createdAt.getTime() - r.int(3, 700) * DAY));
      } else {
        const o = rejectOptions(def, r);
        if (o.length) failures.push(r.pick(o));
      }
    } else if (target === 'NOT_EXECUTED') {
      failures.push({ capability: 'usability', type: 'NOT_EXECUTED', label: 'TECHNICAL_ERROR' });
    }
  }
  if (failures.some((f) => f.capability === 'liveness' && f.label === 'AGE_DIFFERENCE')) signals.young = false;
  signals.highRiskCountry = HIGH_RISK_COUNTRIES.has(person.country);
  signals.young = (ageAt(person.dateOfBirth, createdAt) ?? 30) < 21;
  const hour = createdAt.getUTCHours();
  signals.night = hour >= 1 && hour < 5;
  const minor =
    (signals.highRiskCountry ? 15 : 0) +
    (signals.repeatedDocument ? 12 : 0) +
    (signals.young ? 8 : 0) +
    (signals.night ? 5 : 0);
  signals.behaviourScore = target === 'PASSED' ? (r.chance(0.6) ? r.int(0, Math.max(0, 30 - minor)) : 0) : r.int(0, 9);

  // ---- credentials and parts ----
  const channel = r.weighted([
    ['web', 55],
    ['ios', 25],
    ['android', 20],
  ] as const);
  const clientIp = `${r.pick(['203.0.113', '198.51.100', '192.0.2'])}.${r.int(1, 254)}`;
  const slot: Record<KnownCategory, number> = { ID: 0, SELFIE: 1, DATA: 2, FACEMAP: 3, DOCUMENT: 4 };
  const credentials: CredentialIn[] = [];
  const parts: GeneratedPart[] = [];
  const modes: string[] = [];
  const wiped = status === 'PROCESSED' && createdAt.getTime() < opts.anchor.getTime() - 30 * DAY && r.chance(0.012);
  for (const cat of def.categories) {
    const id = codec.make(Kind.credential, index, slot[cat]);
    const cred: CredentialIn = { id, category: cat, label: cat, parts: [], clientIp };
    const mode = () => {
      const md = channel === 'web' && r.chance(0.3) ? 'upload' : r.pick(CAPTURE_MODES);
      return md;
    };
    const captureType = (md: string) => md.toUpperCase();
    const uploadedAll = !(status !== 'PROCESSED' && r.chance(0.6));
    if (cat === 'ID' && uploadedAll) {
      const md = mode();
      cred.parts.push({ classifier: 'FRONT', captureType: captureType(md) });
      parts.push({ credentialId: id, classifier: 'FRONT', kind: 'document-front', variant: docVariant });
      modes.push(`front: ${md}`);
      if (person.docType !== 'PASSPORT' && person.docType !== 'VISA') {
        cred.parts.push({ classifier: 'BACK', captureType: captureType(md) });
        parts.push({ credentialId: id, classifier: 'BACK', kind: 'document-back', variant: docVariant });
        modes.push(`back: ${md}`);
      }
    } else if (cat === 'SELFIE' && uploadedAll) {
      const md = r.chance(0.85) ? 'auto_capture' : 'manual_capture';
      cred.parts.push({ classifier: 'FACE', captureType: captureType(md) });
      parts.push({ credentialId: id, classifier: 'FACE', kind: 'face', variant: faceVariant });
      modes.push(`face: ${md}`);
      if (channel !== 'web' && r.chance(0.3))
        for (let k = 1; k <= 2; k++) cred.parts.push({ classifier: `LIVENESS_${k}`, captureType: 'AUTO_CAPTURE' });
    } else if (cat === 'FACEMAP') {
      cred.parts.push({ classifier: 'FACEMAP', captureType: 'AUTO_CAPTURE' });
    } else if (cat === 'DATA') {
      cred.parts.push({ classifier: 'PREPARED_DATA', captureType: 'API' });
    } else if (cat === 'DOCUMENT' && uploadedAll) {
      cred.parts.push({ classifier: 'DOCUMENT', captureType: 'UPLOAD' });
      parts.push({ credentialId: id, classifier: 'DOCUMENT', kind: 'document-back', variant: docVariant + 1 });
    }
    credentials.push(cred);
  }

  // ---- timestamps ----
  const startedAt = status === 'PROCESSED' ? new Date(createdAt.getTime() + r.int(40, 900) * 1000) : undefined;
  const completedAt =
    status === 'PROCESSED'
      ? new Date(startedAt!.getTime() + r.int(4, 90) * 1000)
      : new Date(
          createdAt.getTime() + (status === 'SESSION_EXPIRED' ? 15 * 60_000 + r.int(60, 900) * 1000 : 30 * 60_000),
        );

  // ---- feedback ----
  let feedback: { status: string; reason?: string; providedAt: string } | undefined;
  const old = createdAt.getTime() < opts.anchor.getTime() - 2 * DAY;
  const providedAt = () => new Date(completedAt.getTime() + r.int(1, 72) * HOUR).toISOString();
  if (cluster && cluster[0].fraud && cluster[1] === cluster[0].members.length - 1) {
    feedback = {
      status: 'FRAUD',
      reason: r.pick(['IDENTITY_FRAUD', 'SYNTHETIC_ID_FRAUD', 'THIRD_PARTY_FRAUD']),
      providedAt: providedAt(),
    };
  } else if (status === 'PROCESSED' && old) {
    const p = target === 'REJECTED' ? 0.3 : target === 'WARNING' ? 0.12 : 0.02;
    if (r.chance(p)) {
      const fraud = target === 'REJECTED' ? r.chance(0.75) : target === 'WARNING' ? r.chance(0.45) : r.chance(0.08);
      feedback = fraud
        ? { status: 'FRAUD', reason: attack ? 'IDENTITY_FRAUD' : r.pick(FRAUD_REASONS), providedAt: providedAt() }
        : { status: r.chance(0.9) ? 'NOT_FRAUD' : 'NA', reason: 'NA', providedAt: providedAt() };
    }
  }

  const captureClient = {
    client: channel === 'web' ? 'web' : 'sdk',
    platform: channel,
    version: channel === 'web' ? `4.${r.int(8, 14)}.${r.int(0, 9)}` : `${r.int(3, 4)}.${r.int(0, 19)}.${r.int(0, 5)}`,
    osName: channel === 'web' ? r.pick(['Windows', 'macOS', 'Android', 'iOS']) : channel === 'ios' ? 'iOS' : 'Android',
    state: [
      [
        'started',
        ...(modes.some((x) => x.startsWith('front')) ? ['id-front-uploaded'] : []),
        ...(modes.some((x) => x.startsWith('back')) ? ['id-back-uploaded'] : []),
        ...(modes.some((x) => x.startsWith('face')) ? ['selfie-uploaded'] : []),
        ...(status === 'PROCESSED' ? ['finalized'] : []),
      ],
    ],
    captureDetails: [modes],
  };

  const definitionKey = def.key;
  const built = buildExecution({
    rng: r,
    newId: (n) => codec.make(Kind.capability, index, n),
    baseUrl: opts.baseUrl ?? 'http://127.0.0.1:4010',
    executionId,
    accountId,
    status,
    definitionKey,
    originalDefinitionKey: r.chance(0.02) ? String(Number(definitionKey) - 1) : definitionKey,
    userReference: r.chance(0.8) ? `usr_${r.hex(12)}` : undefined,
    customerInternalReference: `onb-${createdAt.toISOString().slice(0, 10).replace(/-/g, '')}-${(mix(m.seedHash, index, 0xc1) % 1_000_000).toString().padStart(6, '0')}`,
    reportingCriteria: r.chance(0.6) ? r.pick(REPORTING_CRITERIA) : undefined,
    parentId: parentIdx !== null ? codec.execution(parentIdx) : undefined,
    childIds: m.childrenOf(index).map((c) => codec.execution(c)),
    createdAt,
    startedAt,
    completedAt,
    credentials,
    capabilities: def.capabilities,
    person,
    extractionSource: hasId ? 'document' : 'data',
    failures,
    signals,
    feedback,
    consent: { obtained: 'yes', obtainedAt: new Date(createdAt.getTime() - r.int(2, 60) * 1000).toISOString() },
    captureClient: def.categories.includes('DATA') && !hasId ? undefined : captureClient,
    customRulesetIds: r.chance(0.05) ? [`rs-${r.hex(8)}`] : undefined,
    legacySteps: r.chance(0.02),
    legacyExpiredRejected: r.chance(0.1),
    unknownLabel: r.chance(0.005),
    unknownCapability: r.chance(0.005),
    passedLabelOk: def.capabilities.every((c) => c === 'watchlistScreening') || r.chance(0.01),
  });
  let result = built.result;
  let outParts = parts;
  if (wiped) {
    result = wipeResult(result, new Date(completedAt.getTime() + r.int(14, 28) * DAY));
    outParts = [];
  }
  return {
    index,
    result,
    steps: built.steps ?? { steps: [] },
    rules: built.rules ?? { executions: [] },
    parts: outParts,
  };
}
