// The simulator's state: executions created through the API, overlays on generated ones, and the
// engine that moves executions through INITIATED -> ACQUIRED -> PROCESSED (or an expiry).
import { createHash, randomUUID } from 'node:crypto';
import {
  COUNTRY_BY_CODE,
  DEFINITION_BY_KEY,
  HIGH_RISK_COUNTRIES,
  type Category,
  type DecisionType,
  type WorkflowStatus,
} from './catalog';
import { CallbackDispatcher } from './callbacks';
import { bad, notFound } from './errors';
import { generateExecution, seedModel, type SeedModel } from './generator';
import type { Regions } from './image-regions';
import { Kind } from './ids';
import { imageFor } from './images';
import { ageAt, makePerson, type Person } from './person';
import { Rng } from './prng';
import { buildExecution, wipeResult, type Built, type CredentialIn, type Failure, type Signals } from './results';
import type { AccountRequest, PreparedData } from './schemas';
import type { FaultKnobs } from './types';
import type { ContentFinding } from './uploads';

export interface StoredPart {
  id: string;
  classifier: string;
  bytes: Buffer;
  contentType: string;
  width?: number;
  height?: number;
  grayscale?: boolean;
  sha: string;
  uploadedAt: Date;
  /** Where the document or face is in the picture, when it says (image-regions.ts). */
  regions?: Regions;
  /** A content rule of the Limits table the picture breaks: a usability result once processed. */
  finding?: ContentFinding;
}
/** The capture client of a journey (the result's captureClient): the API, the web page or an SDK. */
export interface CaptureClient {
  client: string;
  platform: string;
  version: string;
  osName: string;
}
export interface ApiCredential {
  id: string;
  category: Category;
  label: string;
  country?: { predefinedType?: string; values: string[] };
  type?: { predefinedType?: string; values: string[] };
  allowedChannels: string[];
  parts: Map<string, StoredPart>;
  pages: StoredPart[];
  preparedData?: PreparedData;
  preparedDataPartId?: string;
}
export interface ApiExecution {
  id: string;
  accountId: string;
  createdAt: Date;
  status: WorkflowStatus;
  definitionKey: string;
  request: AccountRequest;
  credentials: ApiCredential[];
  token: string;
  sdkToken: string;
  tokenExpiresAt: number;
  lastUploadAt?: number;
  startedAt?: Date;
  processAt?: number;
  completedAt?: Date;
  wipedOutAt?: Date;
  deleted?: boolean;
  feedback?: { status: string; reason?: string; providedAt: string };
  callbackUrl?: string;
  built?: Built;
  captureState: string[];
  captureDetails: string[];
  /** Set by the first web or SDK capture; API journeys report the API client. */
  capture?: CaptureClient;
  /** Consent the web page or the SDK collected from the end user (spec, What the service does 9). */
  captureConsent?: { obtained: string; obtainedAt: string };
  clientIp: string;
  userAgent: string;
  parentId?: string;
  childIds: string[];
}
export interface ApiAccount {
  id: string;
  createdAt: Date;
  executions: string[];
  deleted?: boolean;
  /** A generated account that received an update (A2) keeps its generated executions too. */
  seedIndex?: number;
}
interface SeedOverlay {
  feedback?: { status: string; reason?: string; providedAt: string };
  wipedOutAt?: Date;
}

/** One execution, wherever it lives. */
export type ExecutionRef = { kind: 'api'; exec: ApiExecution } | { kind: 'seed'; index: number };

export interface EngineOptions {
  seed: string | number;
  count: number;
  days: number;
  anchor: Date;
  baseUrl: () => string;
  processingDelayMs: number;
  sessionTimeoutMs: number;
  retentionMs?: number;
  defaultCallbackUrl?: string;
  faults: () => FaultKnobs;
  callbacks: CallbackDispatcher;
}

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

export class Engine {
  readonly model: SeedModel;
  readonly accounts = new Map<string, ApiAccount>();
  readonly executions = new Map<string, ApiExecution>();
  /** API executions in creation order (oldest first), for R12. */
  readonly order: ApiExecution[] = [];
  readonly credentialIndex = new Map<string, { exec: ApiExecution; cred: ApiCredential }>();
  private readonly active = new Set<ApiExecution>();
  private readonly seedOverlay = new Map<number, SeedOverlay>();
  private readonly deletedSeedAccounts = new Set<number>();
  /** Identity keys reported as FRAUD (the service applies it to later transactions of the same document). */
  private readonly fraudIdentities = new Set<string>();
  /** Face image hash -> executions (for repeated-face findings among API executions). */
  private readonly faces = new Map<string, string[]>();

  constructor(readonly o: EngineOptions) {
    this.model = seedModel(o.seed, { count: o.count, days: o.days, anchor: o.anchor });
  }

  reset() {
    this.accounts.clear();
    this.executions.clear();
    this.order.length = 0;
    this.credentialIndex.clear();
    this.active.clear();
    this.seedOverlay.clear();
    this.deletedSeedAccounts.clear();
    this.fraudIdentities.clear();
    this.faces.clear();
  }

  // ---------- lookups ----------
  findExecution(id: string): ExecutionRef | null {
    const api = this.executions.get(id.toLowerCase());
    if (api) return { kind: 'api', exec: api };
    const d = this.model.codec.decode(id);
    if (d && d.kind === Kind.execution && d.slot === 0 && d.index < this.o.count)
      return { kind: 'seed', index: d.index };
    return null;
  }
  accountIdOf(ref: ExecutionRef): string {
    return ref.kind === 'api' ? ref.exec.accountId : this.model.codec.account(this.model.accountIndexOf(ref.index));
  }
  executionIdOf(ref: ExecutionRef): string {
    return ref.kind === 'api' ? ref.exec.id : this.model.codec.execution(ref.index);
  }
  /** Account: API-created, or a generated one (by index). Deleted accounts are not found. */
  findAccount(id: string): { kind: 'api'; acc: ApiAccount } | { kind: 'seed'; index: number } | null {
    const api = this.accounts.get(id.toLowerCase());
    if (api) return api.deleted ? null : { kind: 'api', acc: api };
    const d = this.model.codec.decode(id);
    if (
      d &&
      d.kind === Kind.account &&
      d.slot === 0 &&
      this.model.isAccountIndex(d.index) &&
      !this.deletedSeedAccounts.has(d.index)
    )
      return { kind: 'seed', index: d.index };
    return null;
  }
  seedAccountExecutions(index: number): number[] {
    return [index, ...this.model.childrenOf(index)].sort((a, b) => a - b);
  }

  // ---------- results ----------
  generated(index: number) {
    return generateExecution(this.o.seed, index, {
      count: this.o.count,
      days: this.o.days,
      anchor: this.o.anchor,
      baseUrl: this.o.baseUrl(),
    });
  }

  /** Full view of an execution: R2 body, steps and rules (null when not available), image parts. */
  view(ref: ExecutionRef): {
    result: Record<string, any>;
    steps: any | null;
    rules: any | null;
    wiped: boolean;
    status: string;
    definitionKey: string;
  } {
    if (ref.kind === 'seed') {
      const g = this.generated(ref.index);
      let result = g.result;
      const ov = this.seedOverlay.get(ref.index);
      let wiped = !!result.wipedOutAt;
      if (ov?.feedback) result.feedback = ov.feedback;
      const retentionWipe = this.retentionWipeAt(result.completedAt);
      const wipeAt = ov?.wipedOutAt ?? (retentionWipe && !wiped ? retentionWipe : undefined);
      if (wipeAt && !wiped) {
        result = wipeResult(result, wipeAt);
        wiped = true;
      }
      const processed = result.workflow.status === 'PROCESSED' && !wiped;
      return {
        result,
        steps: processed ? g.steps : null,
        rules: processed ? g.rules : null,
        wiped,
        status: result.workflow.status,
        definitionKey: result.workflow.definitionKey,
      };
    }
    const e = ref.exec;
    this.advance(e, Date.now());
    const built = e.built ?? this.buildPartial(e);
    let result = built.result;
    if (e.feedback) result = { ...result, feedback: e.feedback };
    if (e.wipedOutAt) result = wipeResult(result, e.wipedOutAt);
    const available = e.status === 'PROCESSED' && !e.wipedOutAt;
    return {
      result,
      steps: available ? built.steps : null,
      rules: available ? built.rules : null,
      wiped: !!e.wipedOutAt,
      status: e.status,
      definitionKey: e.definitionKey,
    };
  }

  private retentionWipeAt(completedAt?: string): Date | undefined {
    if (this.o.retentionMs === undefined || !completedAt) return undefined;
    const t = Date.parse(completedAt) + this.o.retentionMs;
    return t <= Date.now() ? new Date(t) : undefined;
  }

  /** Image bytes of a part (R1). */
  partContent(
    credentialId: string,
    classifier: string,
  ): { accountId: string; bytes: Buffer; contentType: string } | null {
    const api = this.credentialIndex.get(credentialId.toLowerCase());
    if (api) {
      const { exec, cred } = api;
      if (exec.wipedOutAt) return null;
      const p = classifier === 'DOCUMENT' ? cred.pages[0] : cred.parts.get(classifier);
      return p ? { accountId: exec.accountId, bytes: p.bytes, contentType: p.contentType } : null;
    }
    const d = this.model.codec.decode(credentialId);
    if (!d || d.kind !== Kind.credential || d.index >= this.o.count) return null;
    const v = this.view({ kind: 'seed', index: d.index });
    if (v.wiped) return null;
    const g = this.generated(d.index);
    const part = g.parts.find((p) => p.credentialId === credentialId.toLowerCase() && p.classifier === classifier);
    if (!part) return null;
    return {
      accountId: this.model.codec.account(this.model.accountIndexOf(d.index)),
      ...imageFor(part.kind, part.variant),
    };
  }

  // ---------- R12 ----------
  list(page: number, size: number): Record<string, any>[] {
    const m = this.order.length,
      n = this.o.count;
    const offset = (page - 1) * size;
    if (offset >= m + n) return [];
    // merged position of each API execution (newest first): k + seeded executions newer than it
    const positions: number[] = [];
    for (let k = 0; k < m; k++) {
      const e = this.order[m - 1 - k];
      positions.push(k + this.model.countNewerThan(e.createdAt.getTime()));
    }
    const out: Record<string, any>[] = [];
    let k = 0;
    while (k < m && positions[k] < offset) k++;
    for (let p = offset; p < Math.min(offset + size, m + n); p++) {
      if (k < m && positions[k] === p) {
        out.push(this.view({ kind: 'api', exec: this.order[m - 1 - k] }).result);
        k++;
      } else out.push(this.view({ kind: 'seed', index: p - k }).result);
    }
    return out;
  }

  // ---------- mutations ----------
  createExecution(args: {
    account: ApiAccount;
    request: AccountRequest;
    credentials: ApiCredential[];
    tokenExpiresAt: number;
    token: string;
    sdkToken: string;
    id: string;
    clientIp: string;
    userAgent: string;
    callbackUrl?: string;
  }): ApiExecution {
    const prev = args.account.executions.at(-1);
    const e: ApiExecution = {
      id: args.id,
      accountId: args.account.id,
      createdAt: new Date(),
      status: 'INITIATED',
      definitionKey: args.request.workflowDefinition.key,
      request: args.request,
      credentials: args.credentials,
      token: args.token,
      sdkToken: args.sdkToken,
      tokenExpiresAt: args.tokenExpiresAt,
      callbackUrl: args.callbackUrl,
      captureState: ['started'],
      captureDetails: [],
      clientIp: args.clientIp,
      userAgent: args.userAgent,
      parentId: prev,
      childIds: [],
    };
    if (prev) this.executions.get(prev)?.childIds.push(e.id);
    this.executions.set(e.id, e);
    this.order.push(e);
    args.account.executions.push(e.id);
    for (const c of e.credentials) this.credentialIndex.set(c.id, { exec: e, cred: c });
    this.active.add(e);
    return e;
  }

  touchUpload(e: ApiExecution, event: string, detail?: string) {
    e.lastUploadAt = Date.now();
    if (!e.captureState.includes(event)) e.captureState.push(event);
    if (detail) {
      const key = detail.split(':')[0];
      e.captureDetails = e.captureDetails.filter((d) => !d.startsWith(key + ':'));
      e.captureDetails.push(detail);
    }
  }

  newPart(
    classifier: string,
    bytes: Buffer,
    contentType: string,
    info?: { width: number; height: number; grayscale: boolean },
  ): StoredPart {
    return {
      id: randomUUID(),
      classifier,
      bytes,
      contentType,
      ...(info ?? {}),
      sha: sha(bytes),
      uploadedAt: new Date(),
    };
  }

  /** The end user's consent: given in the account request, or collected by the web page or the SDK. */
  consentOf(e: ApiExecution): { obtained: string; obtainedAt: string } | undefined {
    const c = e.request.userConsent?.consent;
    if (c && c.obtained.toLowerCase() === 'yes')
      return { obtained: c.obtained, obtainedAt: new Date(c.obtainedAt).toISOString() };
    return e.captureConsent;
  }

  finalize(e: ApiExecution) {
    e.status = 'ACQUIRED';
    e.startedAt = new Date();
    e.processAt = Date.now() + this.o.processingDelayMs;
    if (!e.captureState.includes('finalized')) e.captureState.push('finalized');
  }

  /** R11: feedback on a PROCESSED execution whose data still exists. */
  setFeedback(ref: ExecutionRef, fb: { status: string; reason?: string }) {
    const v = this.view(ref);
    if (v.wiped) throw notFound('The execution data was deleted; feedback cannot be set');
    if (v.status !== 'PROCESSED')
      throw bad(`Feedback can be set only on a PROCESSED workflow execution; it is ${v.status}`);
    const feedback = {
      status: fb.status,
      ...(fb.reason ? { reason: fb.reason } : {}),
      providedAt: new Date().toISOString(),
    };
    if (ref.kind === 'api') ref.exec.feedback = feedback;
    else this.seedOverlay.set(ref.index, { ...this.seedOverlay.get(ref.index), feedback });
    if (fb.status === 'FRAUD') {
      const key = identityKeyOfResult(this.view(ref).result);
      if (key) this.fraudIdentities.add(key);
    }
    return feedback;
  }

  wipe(ref: ExecutionRef, at = new Date()) {
    if (ref.kind === 'api') {
      const e = ref.exec;
      if (e.wipedOutAt) return;
      e.wipedOutAt = at;
      e.deleted = true;
      for (const c of e.credentials) {
        c.parts.clear();
        c.pages = [];
        c.preparedData = undefined;
      }
      this.active.delete(e);
    } else {
      const ov = this.seedOverlay.get(ref.index) ?? {};
      if (!ov.wipedOutAt) ov.wipedOutAt = at;
      this.seedOverlay.set(ref.index, ov);
    }
  }

  deleteAccount(acc: { kind: 'api'; acc: ApiAccount } | { kind: 'seed'; index: number }) {
    if (acc.kind === 'api') {
      acc.acc.deleted = true;
      if (acc.acc.seedIndex !== undefined) this.deleteAccount({ kind: 'seed', index: acc.acc.seedIndex });
      for (const id of acc.acc.executions) {
        const e = this.executions.get(id);
        if (e) this.wipe({ kind: 'api', exec: e });
      }
    } else {
      this.deletedSeedAccounts.add(acc.index);
      for (const i of this.seedAccountExecutions(acc.index)) this.wipe({ kind: 'seed', index: i });
    }
  }

  // ---------- the clock ----------
  sweep(now = Date.now()) {
    for (const e of [...this.active]) this.advance(e, now);
  }

  advance(e: ApiExecution, now: number) {
    if (e.deleted) return;
    if (e.status === 'INITIATED') {
      const sessionEnd = e.lastUploadAt !== undefined ? e.lastUploadAt + this.o.sessionTimeoutMs : Infinity;
      if (now >= e.tokenExpiresAt && e.tokenExpiresAt <= sessionEnd)
        this.complete(e, 'TOKEN_EXPIRED', new Date(e.tokenExpiresAt));
      else if (now >= sessionEnd) this.complete(e, 'SESSION_EXPIRED', new Date(sessionEnd));
    } else if (e.status === 'ACQUIRED') {
      if (!this.o.faults().stallProcessing && now >= (e.processAt ?? 0))
        this.complete(e, 'PROCESSED', new Date(Math.max(e.processAt ?? now, e.startedAt?.getTime() ?? now)));
    } else if (e.status === 'PROCESSED' && this.o.retentionMs !== undefined && e.completedAt && !e.wipedOutAt) {
      if (now >= e.completedAt.getTime() + this.o.retentionMs)
        this.wipe({ kind: 'api', exec: e }, new Date(e.completedAt.getTime() + this.o.retentionMs));
    }
  }

  private complete(e: ApiExecution, status: WorkflowStatus, at: Date) {
    e.status = status;
    e.completedAt = at;
    e.built = status === 'PROCESSED' ? this.process(e) : this.buildPartial(e);
    if (this.o.retentionMs === undefined || status !== 'PROCESSED') this.active.delete(e);
    const url = e.callbackUrl ?? this.o.defaultCallbackUrl;
    if (url) {
      const base = this.o.baseUrl();
      this.o.callbacks.enqueue({
        executionId: e.id,
        url,
        body: {
          callbackSentAt: '',
          ...(e.request.userReference ? { userReference: e.request.userReference } : {}),
          workflowExecution: {
            id: e.id,
            href: `${base}/api/v1/workflow-executions/${e.id}`,
            definitionKey: String(e.definitionKey),
            status,
          },
          account: { id: e.accountId, href: `${base}/api/v1/accounts/${e.accountId}` },
        },
      });
    }
  }

  private commonInput(e: ApiExecution) {
    const credentials: CredentialIn[] = e.credentials.map((c) => ({
      id: c.id,
      category: c.category,
      label: c.label,
      clientIp: e.clientIp,
      parts: [
        ...[...c.parts.values()].map((p) => ({ classifier: p.classifier, captureType: 'UPLOAD' })),
        ...c.pages.map(() => ({ classifier: 'DOCUMENT', captureType: 'UPLOAD' })),
        ...(c.preparedData ? [{ classifier: 'PREPARED_DATA', captureType: 'API' }] : []),
      ],
    }));
    const consent = e.request.userConsent?.consent ?? e.captureConsent;
    return {
      newId: () => randomUUID(),
      baseUrl: this.o.baseUrl(),
      executionId: e.id,
      accountId: e.accountId,
      definitionKey: e.definitionKey,
      userReference: e.request.userReference,
      customerInternalReference: e.request.customerInternalReference,
      reportingCriteria: e.request.reportingCriteria,
      parentId: e.parentId,
      childIds: e.childIds,
      createdAt: e.createdAt,
      startedAt: e.startedAt,
      completedAt: e.completedAt,
      credentials,
      consent: consent
        ? { obtained: consent.obtained, obtainedAt: new Date(consent.obtainedAt).toISOString() }
        : undefined,
      captureClient: {
        ...(e.capture ?? { client: 'api', platform: 'server', version: '1.0', osName: e.userAgent.slice(0, 60) }),
        state: [e.captureState],
        captureDetails: [e.captureDetails],
      },
    };
  }

  private buildPartial(e: ApiExecution): Built {
    return buildExecution({ ...this.commonInput(e), rng: Rng.of(e.id), status: e.status, capabilities: [] });
  }

  /** Results of an API execution, from what was uploaded and what was requested. */
  private process(e: ApiExecution): Built {
    const r = Rng.of(e.id, 'process');
    const cat = (c: Category) => e.credentials.find((x) => x.category === c);
    const idCred = cat('ID'),
      selfie = cat('SELFIE'),
      data = cat('DATA');
    const front = idCred?.parts.get('FRONT');
    const face = selfie?.parts.get('FACE');
    const def = DEFINITION_BY_KEY.get(e.definitionKey);
    const caps = new Set<string>(def?.capabilities ?? []);
    const cats = new Set(e.credentials.map((c) => c.category));
    if (!def) {
      if (cats.has('ID'))
        ['usability', 'imageChecks', 'extraction', 'classification', 'dataChecks'].forEach((c) => caps.add(c));
      if (cats.has('SELFIE')) ['usability', 'liveness'].forEach((c) => caps.add(c));
      if (cats.has('ID') && cats.has('SELFIE')) caps.add('similarity');
      if (cats.has('FACEMAP')) ['usability', 'authentication'].forEach((c) => caps.add(c));
      if (cats.has('DATA')) caps.add('extraction');
      if (cats.has('DOCUMENT')) ['usability', 'proofOfResidency'].forEach((c) => caps.add(c));
    }
    const requested = e.request.workflowDefinition.capabilities ?? {};
    if (requested.watchlistScreening) caps.add('watchlistScreening');
    if (requested.ekycCheck) caps.add('ekycCheck');
    if (requested.documentVerification?.enableExtraction === false) caps.delete('extraction');
    else if (requested.documentVerification && cats.has('ID')) caps.add('extraction');

    // Who is this? Prepared data wins; otherwise a synthetic identity derived from the document image,
    // so the same image always reads as the same document.
    const country = idCred?.country?.values?.[0] ?? data?.preparedData?.nationality;
    // With several allowed types, the one that fits the uploaded pages (a back side means a card).
    const types = idCred?.type?.values ?? [];
    const hasBack = !!idCred?.parts.get('BACK');
    const docType = (
      types.length
        ? ((hasBack
            ? types.find((t) => t !== 'PASSPORT' && t !== 'VISA')
            : types.find((t) => t === 'PASSPORT' || t === 'VISA')) ?? types[0])
        : idCred
          ? hasBack
            ? 'ID_CARD'
            : 'PASSPORT'
          : undefined
    ) as Person['docType'] | undefined;
    const docSeed = front?.sha ?? data?.preparedData?.id?.idNumber ?? e.id;
    const person = makePerson(
      Rng.of('document', docSeed),
      e.createdAt,
      country && COUNTRY_BY_CODE.has(country) ? country : undefined,
      docType,
    );
    if (country && !COUNTRY_BY_CODE.has(country)) person.country = person.nationality = country;
    const pd = data?.preparedData;
    if (pd) {
      Object.assign(
        person,
        stripU({
          firstName: pd.firstName,
          lastName: pd.lastName,
          middleName: pd.middleName,
          sex: pd.sex,
          dateOfBirth: pd.dateOfBirth,
          nationality: pd.nationality,
          email: pd.email,
          phone: pd.phoneNumber,
          ssn: pd.socialSecurityNumber,
          personalNumber: pd.personalNumber,
          docNumber: pd.id?.idNumber,
          expiryDate: pd.id?.expiryDate,
          issuingDate: pd.id?.issuingDate,
        }),
      );
      if (pd.id?.type && ['PASSPORT', 'DRIVING_LICENSE', 'ID_CARD', 'VISA'].includes(pd.id.type))
        person.docType = pd.id.type as Person['docType'];
      if (pd.address)
        person.address = {
          ...pd.address,
          formattedAddress: [pd.address.line1, pd.address.postalCode, pd.address.city, pd.address.country]
            .filter(Boolean)
            .join(', '),
        };
      if (!pd.middleName) delete person.middleName;
    }

    const failures: Failure[] = [];
    const signals: Signals = {};
    const identity = identityKey(person);
    const faceHash = face?.sha;
    const otherFaces = faceHash ? (this.faces.get(faceHash) ?? []).filter((x) => x !== e.id) : [];
    const sameIdentity = otherFaces.filter(
      (x) => identityKeyOfResult(this.executions.get(x)?.built?.result) === identity,
    );
    const differentIdentity = otherFaces.filter((x) => !sameIdentity.includes(x));
    if (faceHash) this.faces.set(faceHash, [...(this.faces.get(faceHash) ?? []), e.id]);
    signals.faceMatches = otherFaces;
    signals.docMatches = sameIdentity;
    signals.repeatedDocument = sameIdentity.length > 0;

    // Signals from what was actually uploaded.
    if (front?.grayscale)
      failures.push({ capability: 'usability', type: 'REJECTED', label: 'BLACK_WHITE', category: 'ID' });
    else if (face?.grayscale) failures.push({ capability: 'liveness', type: 'REJECTED', label: 'BLACK_WHITE' });
    // The content rules of the Limits table, measured at upload (uploads.ts contentFinding).
    const idFinding = front?.finding ?? idCred?.parts.get('BACK')?.finding;
    if (idFinding) failures.push({ capability: 'usability', type: 'REJECTED', label: idFinding.label, category: 'ID' });
    if (face?.finding)
      failures.push({ capability: 'usability', type: 'REJECTED', label: face.finding.label, category: 'SELFIE' });
    if (front && face && front.sha === face.sha)
      failures.push({ capability: 'liveness', type: 'REJECTED', label: 'ID_USED_AS_SELFIE' });
    if (country && !COUNTRY_BY_CODE.has(country))
      failures.push({ capability: 'usability', type: 'WARNING', label: 'UNSUPPORTED_COUNTRY', category: 'ID' });
    if (this.fraudIdentities.has(identity))
      failures.push({ capability: 'dataChecks', type: 'REJECTED', label: 'CUSTOMER_FEEDBACK' });
    if (differentIdentity.length) failures.push({ capability: 'imageChecks', type: 'WARNING', label: 'REPEATED_FACE' });
    if (
      idCred &&
      front &&
      !idCred.parts.get('BACK') &&
      (person.docType === 'ID_CARD' || person.docType === 'DRIVING_LICENSE')
    )
      failures.push({ capability: 'usability', type: 'REJECTED', label: 'MISSING_PAGE', category: 'ID' });

    // Explicit outcome for tests and demos: overrideSettings {"simulator.outcome": "REJECTED", "simulator.label": "DIGITAL_COPY", "simulator.capability": "imageChecks"}.
    const ov = e.request.overrideSettings ?? {};
    const outcome = ov['simulator.outcome']?.toUpperCase() as DecisionType | undefined;
    if (outcome && outcome !== 'PASSED') {
      const capability =
        ov['simulator.capability'] ??
        (outcome === 'NOT_EXECUTED'
          ? 'usability'
          : caps.has('imageChecks')
            ? 'imageChecks'
            : ([...caps][0] ?? 'extraction'));
      const label =
        ov['simulator.label'] ??
        (outcome === 'NOT_EXECUTED'
          ? 'TECHNICAL_ERROR'
          : outcome === 'REJECTED'
            ? capability === 'imageChecks'
              ? 'DIGITAL_COPY'
              : 'DENY'
            : capability === 'imageChecks'
              ? 'DIFFERENT_PERSON'
              : 'ALERT');
      failures.unshift({ capability, type: outcome, label });
      caps.add(capability);
    } else if (outcome === 'PASSED') failures.length = 0;

    const now = e.completedAt ?? new Date();
    signals.documentExpired = !!person.expiryDate && person.expiryDate < now.toISOString().slice(0, 10);
    signals.highRiskCountry =
      HIGH_RISK_COUNTRIES.has(person.country) || HIGH_RISK_COUNTRIES.has(person.nationality ?? '');
    signals.young = (ageAt(person.dateOfBirth, now) ?? 30) < 21;
    signals.night = now.getUTCHours() >= 1 && now.getUTCHours() < 5;
    signals.behaviourScore = r.int(0, 6);

    const rulesetIds = [
      ...(requested.workflowDecision?.riskScoreRulesetId ? [requested.workflowDecision.riskScoreRulesetId] : []),
      ...(requested.ruleset?.ids ?? []),
    ];
    return buildExecution({
      ...this.commonInput(e),
      rng: r,
      status: 'PROCESSED',
      capabilities: [...caps],
      person,
      extractionSource: idCred && front ? 'document' : 'data',
      failures,
      signals,
      customRulesetIds: rulesetIds.length ? rulesetIds : undefined,
    });
  }
}

function stripU<T extends Record<string, unknown>>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** The service's identity key for feedback: issuing country, type, number, names, date of birth. */
export function identityKey(p: {
  country?: string;
  docType?: string;
  docNumber?: string;
  firstName?: string;
  lastName?: string;
  dateOfBirth?: string;
}): string {
  return [p.country, p.docType, p.docNumber, p.firstName, p.lastName, p.dateOfBirth]
    .map((x) => (x ?? '').toUpperCase())
    .join('|');
}
export function identityKeyOfResult(result?: Record<string, any>): string | null {
  const d = result?.capabilities?.extraction?.[0]?.data;
  if (!d) return null;
  return identityKey({
    country: d.issuingCountry,
    docType: d.type,
    docNumber: d.documentNumber,
    firstName: d.firstName,
    lastName: d.lastName,
    dateOfBirth: d.dateOfBirth,
  });
}
