/**
 * Wire schemas of the identity-verification service (spec: shared/spec/identity-verification-service.md,
 * quirks: shared/reference/service-facts.md).
 *
 * Two kinds of schema live here:
 * - Outgoing bodies we build ourselves (account request, prepared data, feedback) are strict:
 *   a typo or an over-long reference is our bug and must fail before anything is sent.
 * - Incoming bodies are tolerant, because the real service adds fields, enum values and labels
 *   over time and older results lack parts of the shape:
 *   - unknown keys are kept (`z.looseObject`), unknown enum values are kept as strings;
 *   - a known optional field is coerced when that is safe (number -> string such as a numeric
 *     `definitionKey`, numeric string -> number, "true"/"false" -> boolean); if it still has the
 *     wrong type it becomes `undefined` instead of failing the record;
 *   - arrays drop items that are not objects (never an entry that merely has an unknown label);
 *   - only what makes a record unusable fails: the execution id (`workflow.id`) and the account
 *     id, named by their path in the error (see `parseOrThrow`).
 *
 * No server-only marker: the constants and types are safe for the browser.
 */
import { z } from 'zod';
import {
  CAPABILITY_LABELS,
  CAPABILITY_NAMES,
  DECISION_TYPES,
  FEEDBACK_REASONS,
  FEEDBACK_STATUSES,
  GOVT_ID_MATCH_FIELDS,
  TERMINAL_WORKFLOW_STATUSES,
} from '@/lib/spec/vocabulary';
import { IdvParseError } from './errors';

// ---------------------------------------------------------------------------------------------
// Known value sets (kept as plain strings on the wire; these are for display, filters, checks)
// ---------------------------------------------------------------------------------------------

// Where the client's importers find them (the browser-safe value sets of this module).
export * from '@/lib/spec/vocabulary';

export type DecisionType = (typeof DECISION_TYPES)[number];
export type FeedbackStatus = (typeof FEEDBACK_STATUSES)[number];
export type FeedbackReason = (typeof FEEDBACK_REASONS)[number];
export type CapabilityName = (typeof CAPABILITY_NAMES)[number];

export function isTerminalWorkflowStatus(v: unknown): boolean {
  return typeof v === 'string' && (TERMINAL_WORKFLOW_STATUSES as readonly string[]).includes(v);
}
export function isKnownCapabilityName(v: unknown): v is CapabilityName {
  return typeof v === 'string' && (CAPABILITY_NAMES as readonly string[]).includes(v);
}
/** True when the label is documented for this capability and decision type. */
export function isKnownCapabilityLabel(capability: string, decisionType: string, label: string): boolean {
  const table = CAPABILITY_LABELS[capability as CapabilityName];
  return Boolean(table?.[decisionType as DecisionType]?.includes(label));
}

// ---------------------------------------------------------------------------------------------
// Tolerant building blocks
// ---------------------------------------------------------------------------------------------

const toStr = (v: unknown) => (typeof v === 'number' || typeof v === 'boolean' ? String(v) : v);
const toNum = (v: unknown) => (typeof v === 'string' && v.trim() !== '' && Number.isFinite(Number(v)) ? Number(v) : v);
const toBool = (v: unknown) => (v === 'true' ? true : v === 'false' ? false : v);

/** Optional, and `undefined` instead of a failure when the value has the wrong type. */
export function lenient<T extends z.ZodType>(schema: T) {
  return schema.optional().catch(undefined);
}
const strValue = z.preprocess(toStr, z.string());
const str = () => lenient(strValue);
const num = () => lenient(z.preprocess(toNum, z.number()));
const bool = () => lenient(z.preprocess(toBool, z.boolean()));
/** A value whose type the spec leaves open (e.g. `statusCode` 0/1): kept as it came. */
const scalar = () => lenient(z.union([z.string(), z.number(), z.boolean()]));
const anyObject = () => lenient(z.looseObject({}));

/** An array that drops items failing `item` (only non-objects fail the loose item schemas). */
export function tolerantArrayOf<T extends z.ZodType>(item: T) {
  return z.array(z.unknown()).transform((xs) =>
    xs.flatMap((x) => {
      const r = item.safeParse(x);
      return r.success ? [r.data as z.output<T>] : [];
    }),
  );
}
const arr = <T extends z.ZodType>(item: T) => lenient(tolerantArrayOf(item));
/** Like `arr` but always an array (missing or not an array -> []). */
const list = <T extends z.ZodType>(item: T) => z.preprocess((v) => (Array.isArray(v) ? v : []), tolerantArrayOf(item));
const strArr = () => arr(strValue);
const obj = <S extends z.core.$ZodLooseShape>(shape: S) => lenient(z.looseObject(shape));

function fields<const K extends readonly string[], S extends z.ZodType>(
  names: K,
  make: () => S,
): { [P in K[number]]: S } {
  return Object.fromEntries(names.map((n) => [n, make()])) as { [P in K[number]]: S };
}

/** A required identifier: the only thing that makes a record unusable when missing. */
const requiredId = z
  .string({ error: (iss) => (iss.input === undefined ? 'is required' : 'must be a string') })
  .min(1, 'must not be empty');

// ---------------------------------------------------------------------------------------------
// Common pieces
// ---------------------------------------------------------------------------------------------

export const DecisionSchema = z.looseObject({ type: str(), details: obj({ label: str() }) });
export const TopDecisionSchema = z.looseObject({
  type: str(),
  details: obj({ label: str() }),
  risk: obj({ score: num() }),
});
const CountryOrTypeSchema = z.looseObject({ predefinedType: str(), values: strArr() });
const AddressSchema = z.looseObject(
  fields(
    [
      'line1',
      'line2',
      'line3',
      'line4',
      'line5',
      'country',
      'postalCode',
      'subdivision',
      'city',
      'formattedAddress',
    ] as const,
    str,
  ),
);
const DatePartsSchema = z.looseObject({ year: num(), month: num(), day: num() });
const CapabilityCredentialRefSchema = z.looseObject({ id: str(), category: str(), label: str() });
const AdditionalInformationSchema = z.looseObject({
  vendor: obj({ response: z.unknown().optional(), name: str() }),
});

/** `data` of a capability entry: typed when it is an object, otherwise kept as it came. */
function dataOf<T extends z.ZodType>(typed: T) {
  return lenient(z.union([typed, z.string(), z.number(), z.boolean(), z.array(z.unknown()), z.null()]));
}

const entryBase = {
  /** The entry's own id; a UUID except for bankCheck and binCheck. */
  id: str(),
  credentials: arr(CapabilityCredentialRefSchema),
  decision: lenient(DecisionSchema),
  additionalInformation: lenient(AdditionalInformationSchema),
};

function entryWith<T extends z.ZodType, E extends z.core.$ZodLooseShape = Record<never, never>>(data: T, extra?: E) {
  return z.looseObject({ ...entryBase, data: dataOf(data), ...(extra ?? ({} as E)) });
}

/** A capability entry of any capability, `data` untyped. Every typed entry is assignable to it. */
export const CapabilityEntrySchema = z.looseObject({ ...entryBase, data: z.unknown().optional() });
export type CapabilityEntry = z.infer<typeof CapabilityEntrySchema>;

// ---------------------------------------------------------------------------------------------
// Capability data, per capability
// ---------------------------------------------------------------------------------------------

const ADDITIONAL_LANGUAGE = z.looseObject({
  ...fields(
    [
      'documentNumber',
      'firstName',
      'lastName',
      'dateOfBirth',
      'expiryDate',
      'issuingDate',
      'gender',
      'language',
    ] as const,
    str,
  ),
  address: lenient(AddressSchema),
});

export const ExtractionDataSchema = z.looseObject({
  ...fields(
    [
      'type',
      'subType',
      'issuingCountry',
      'firstName',
      'lastName',
      'middleName',
      'dateOfBirth',
      'expiryDate',
      'issuingDate',
      'dueDate',
      'documentFirstIssuingDate',
      'accountNumber',
      'iban',
      'swiftCode',
      'documentType',
      'documentNumber',
      'socialSecurityNumber',
      'state',
      'personalNumber',
      'optionalMrzField1',
      'optionalMrzField2',
      'issuingAuthority',
      'issuingPlace',
      'curp',
      'gender',
      'nationality',
      'placeOfBirth',
      'taxNumber',
      'cpf',
      'registrationNumber',
      'mothersName',
      'fathersName',
      'spousesName',
      'personalIdentificationNumber',
      'rgNumber',
      'dlEndorsements',
      'voterIdNumber',
      'issuingNumber',
      'passportNumber',
      'durationOfStay',
      'numberOfEntries',
      'visaCategory',
      'dni',
      'pesel',
      'residentPermitType',
      'residentPermitRemarks',
      'residentPermitNumber',
      'profession',
      'citizenship',
      'maritalStatus',
      'religion',
      'documentIdentificationNumber',
      'workPermitNumber',
      'laborIdentificationNumber',
      'documentCopy',
      'lastNameAtBirth',
      'remarks',
      'disabilities',
      'employer',
      'militaryNumber',
      'militaryStatus',
      'salutation',
      'academicDegree',
      'eyeColor',
      'hairColor',
      'bodyHeight',
      'bodyWeight',
      'ethnicity',
      'bloodGroup',
      'rhesusFactor',
      'controlNumber',
      'petitioner',
      'serialNumber',
      'panNumber',
      'monthYearExpiry',
      'currentAge',
      'additionalInfo',
      'ageRestriction',
    ] as const,
    str,
  ),
  ...fields(['dateOfBirthParts', 'expiryDateParts', 'issuingDateParts', 'dueDateParts'] as const, () =>
    lenient(DatePartsSchema),
  ),
  signatureAvailable: bool(),
  address: lenient(AddressSchema),
  dlCategories: arr(
    z.looseObject({ category: str(), issueDate: str(), expiryDate: str(), isReadable: scalar(), availability: str() }),
  ),
  dlRestrictions: arr(z.looseObject({ restriction: str(), availability: str() })),
  cardNumberLastFourDigits: scalar(),
  customExtractionPoints: anyObject(),
  additionalLanguage: lenient(ADDITIONAL_LANGUAGE),
  mrz: obj({ line1: str(), line2: str(), line3: str() }),
});

export const ClassificationDataSchema = z.looseObject({
  ...fields(
    [
      'country',
      'state',
      'type',
      'subType',
      'printedDocumentName',
      'firstIssueDate',
      'lastIssueDate',
      'notValidAfter',
      'layout',
      'material',
    ] as const,
    str,
  ),
  ...fields(['hasCryptoChip', 'isFoldable', 'isHandwritten', 'usaRealIDCompliant'] as const, bool),
});

export const SimilarityDataSchema = z.looseObject({ similarity: str(), score: num() });
export const LivenessDataSchema = z.looseObject({ type: str(), predictedAge: num(), ageConfidenceRange: str() });
export const AuthenticationDataSchema = z.looseObject({ type: str() });
export const ImageChecksDataSchema = z.looseObject({
  faceSearchFindings: obj({ status: str(), findings: strArr() }),
  raiDecisionDetails: str(),
  raiDecisionDetailsDescription: str(),
});
export const WatchlistScreeningDataSchema = z.looseObject({
  ...fields(['searchDate', 'searchId', 'searchReference', 'searchStatus'] as const, str),
  searchResults: num(),
  searchResultsFromInternalList: num(),
});
export const AdvancedWatchlistDataSchema = z.looseObject(
  fields(['screeningResult', 'matchCategories', 'customerIdentifier', 'screeningDate'] as const, str),
);
export const ReasonMessageDataSchema = z.looseObject({ reasonMessage: str() });
export const DrivingLicenseVerificationDataSchema = z.looseObject(
  fields(
    [
      'completeNameMatch',
      'nameMatch',
      'firstNameMatch',
      'middleNameMatch',
      'lastNameMatch',
      'addressMatch',
      'addressLine1Match',
      'addressLine2Match',
      'cityMatch',
      'stateMatch',
      'postalCodeMatch',
      'dobMatch',
      'idNumberMatch',
      'expiryDateMatch',
      'issuingDateMatch',
    ] as const,
    str,
  ),
);
export const EkycVerificationDataSchema = z.looseObject({
  ...fields(['emailValid', 'phoneValid', 'ipRisk'] as const, bool),
  ...fields(
    [
      'emailMatchToName',
      'phoneMatchToName',
      'addressValidityLevel',
      'addressMatchToName',
      'phoneLineType',
      'phoneMatchToAddress',
      'emailDomainCreationDate',
      'phoneCountry',
      'phoneCarrier',
      'ipGeoLocationCountry',
      'ipGeoLocationState',
    ] as const,
    str,
  ),
  ...fields(
    [
      'emailFirstSeenDays',
      'ipLastSeenDays',
      'ipToAddressDistance',
      'phoneLastSeenDays',
      'identityRiskScore',
      'phoneEmailFirstSeenDays',
      'ipPhoneDistance',
      'identityNetworkScore',
      'ipRiskScore',
    ] as const,
    num,
  ),
});
export const DeviceRiskVerificationDataSchema = z.looseObject({
  ...fields(
    [
      'remoteSoftwareUsed',
      'rootedDeviceUsed',
      'emulatorUsed',
      'browserCookiesEnabled',
      'flashEnabled',
      'deviceIsNew',
    ] as const,
    bool,
  ),
  ...fields(
    [
      'suspectedProxyUsedRisk',
      'suspectedOSAnomalyRisk',
      'suspectedRemoteSessionRisk',
      'suspectedVPNUsedRisk',
      'deviceModel',
      'deviceOS',
      'browser',
      'ipType',
      'trueIP',
      'ipLocationCity',
      'ipLocationCountry',
      'ipLocationLatitude',
      'ipLocationLongitude',
      'ipLocationRegion',
      'metaDataAge',
      'browserLanguage',
      'browserVersion',
      'deviceFirstSeen',
      'deviceScreen',
      'isp',
      'browserTimezone',
      'deviceIdAlias',
    ] as const,
    str,
  ),
  sessionIPCount: num(),
  deviceAlerts: strArr(),
  statedIp: obj({
    ip: str(),
    isp: str(),
    ipLocation: obj(fields(['city', 'country', 'latitude', 'longitude', 'region'] as const, str)),
  }),
});
export const BraCpfValidationDataSchema = z.looseObject({
  ...fields(['nameMatch', 'cpfMatch', 'dateOfBirthMatch', 'cancellationReason'] as const, str),
  ...fields(['suspended', 'deceased', 'cancelled', 'regularizationPending'] as const, bool),
});
export const BiometricVerificationDataSchema = z.looseObject(
  fields(
    [
      'nameMatch',
      'dobMatch',
      'stateMatch',
      'pincodeMatch',
      'cityMatch',
      'faceMatch',
      'ocrMatch',
      'issuingNumberMatch',
      'registrationYearMatch',
      'issuingYearMatch',
      'electorKeyMatch',
      'paternalSurnameMatch',
      'maternalSurnameMatch',
      'idNumberMatch',
      'genderMatch',
      'code',
      'description',
    ] as const,
    str,
  ),
);
export const GovtIdVerificationDataSchema = z.looseObject({
  ...fields(
    [
      'country',
      'type',
      ...GOVT_ID_MATCH_FIELDS,
      'registrationYearMatch',
      'score',
      'reasonMessage',
      'message',
      'cardType',
      'cancellationReason',
    ] as const,
    str,
  ),
  ...fields(
    ['laserIdMatch', 'idDeactivated', 'suspended', 'deceased', 'cancelled', 'regularizationPending'] as const,
    bool,
  ),
  statusCode: scalar(),
  statusDescription: strArr(),
});
export const KycCheckDataSchema = z.looseObject(
  fields(['emailVerificationStatus', 'phoneType', 'watchlistVerificationStatus'] as const, str),
);
export const SearchBusinessDataSchema = z.looseObject({
  results: arr(
    z.looseObject({
      ...fields(['registrationNumber', 'name', 'country', 'state', 'city', 'address'] as const, str),
      kybCapabilities: lenient(z.union([z.string(), z.array(z.string())])),
      searchId: scalar(),
    }),
  ),
});
export const BusinessInfoDataSchema = z.looseObject({
  results: arr(z.looseObject({ kyb_source: str(), data: z.unknown().optional() })),
});
export const EmailVerificationDataSchema = z.looseObject({
  ...fields(
    [
      'emailVerificationStatus',
      'firstVerifiedAt',
      'totalHits',
      'domainName',
      'domainCompany',
      'advice',
      'domainCountry',
      'domainCategory',
      'reason',
      'emailDeterminedStatus',
      'domainDeterminedStatus',
      'countryForReason',
      'domainRiskLevel',
      'domainCreationDate',
    ] as const,
    str,
  ),
  ...fields(['emailExists', 'domainExists', 'domainCorporate'] as const, bool),
  countForReason: num(),
});
export const PhoneVerificationDataSchema = z.looseObject({
  phoneType: str(),
  carrier: str(),
  blocked: bool(),
  riskInsights: obj(
    fields(['relativeRisk', 'applicationToPersonTraffic', 'personToPersonTraffic', 'numberType'] as const, strArr),
  ),
});
export const GeoIpVerificationDataSchema = z.looseObject({
  ...fields(['country', 'state', 'city', 'isp', 'organization', 'proxyType', 'userType'] as const, str),
  accuracyRadius: num(),
  latitude: num(),
  longitude: num(),
  ...fields(
    [
      'torExitNode',
      'anonymous',
      'anonymousVpn',
      'highBillingPostalCodeVelocity',
      'highEmailVelocity',
      'highIssuerIdVelocity',
      'highRiskDevicesActivity',
      'highRiskEmailsActivity',
      'highRiskNetworkActivity',
    ] as const,
    bool,
  ),
});
export const EkycSsnVerificationDataSchema = z.looseObject({
  ...fields(
    [
      'addressVerificationResult',
      'ssnResult',
      'dobVerification',
      'addressDescription',
      'ssnDescription',
      'dobDescription',
      'addressResultRisk',
      'phoneResultRisk',
      'deceased',
      'addressType',
      'addressMatch',
      'nameMatchToSsn',
      'nameMatchToAddress',
      'phoneMatch',
      'ssnMatch',
      'dateOfBirthMatch',
    ] as const,
    str,
  ),
  ...fields(['isDeceased', 'isSSNIssuedPriorYOB'] as const, bool),
});
export const EkycAdvancedVerificationDataSchema = z.looseObject(
  fields(
    [
      'verificationResult',
      'nameMatch',
      'addressMatch',
      'nationalIdMatch',
      'dobMatch',
      'dobDayMatch',
      'dobMonthMatch',
      'dobYearMatch',
      'phoneMatch',
    ] as const,
    str,
  ),
);
export const EkycCheckDataSchema = z.looseObject({
  ...fields(
    [
      'completeNameMatch',
      'initialNameMatch',
      'firstNameMatch',
      'lastNameMatch',
      'addressMatch',
      'addressLine1Match',
      'addressLine2Match',
      'houseNumberMatch',
      'thoroughfareMatch',
      'cityMatch',
      'stateMatch',
      'zipOrPinCodeMatch',
      'nationalIdMatch',
      'dateOfBirthMatch',
      'dateOfBirthDayMatch',
      'dateOfBirthMonthMatch',
      'dateOfBirthYearMatch',
      'phoneMatch',
      'datasourceType',
      'searchType',
      'matchType',
      'source',
    ] as const,
    str,
  ),
  datasourceSummary: arr(z.looseObject({})),
});

const lookupCounters = {
  ...fields(['highRiskTransactions', 'mediumRiskTransactions', 'lowRiskTransactions'] as const, num),
  earliestTransactionTime: str(),
  latestTransactionTime: str(),
};
const LookupGroupSchema = z.looseObject({
  ...fields(['totalHighRiskTransactions', 'totalMediumRiskTransactions', 'totalLowRiskTransactions'] as const, num),
  earliestTransactionTime: str(),
  latestTransactionTime: str(),
  network: obj({ ...lookupCounters, transactions: strArr() }),
  associatedNetwork: obj({ ...lookupCounters, transactions: lenient(z.record(z.string(), tolerantArrayOf(strValue))) }),
  globalNetwork: obj(lookupCounters),
});
export const LookupsDataSchema = z.looseObject(
  fields(['matchedTransactions', 'faceMatchedTransactions', 'matchedImagesTransactions'] as const, () =>
    lenient(LookupGroupSchema),
  ),
);
const RiskNetworkSchema = z.looseObject({
  totalAssociations: num(),
  totalHighRiskAssociations: num(),
  associatedEntities: arr(
    z.looseObject({ transactionId: str(), highRiskTransaction: bool(), riskScore: num(), entities: strArr() }),
  ),
});
export const RiskAnalyticsDataSchema = z.looseObject({
  associationRisk: obj({
    riskLevel: str(),
    riskScore: num(),
    insights: arr(z.looseObject({ message: str(), value: str(), riskLevel: str(), riskScore: num() })),
  }),
  network: lenient(RiskNetworkSchema),
  globalNetwork: lenient(RiskNetworkSchema),
});
/** bankCheck, binCheck: a plain string in the sample, shape not shown. */
const OpaqueDataSchema = z.looseObject({});

const validFaceMap = { validFaceMapForAuthentication: str() };

/** Entry schema per capability (the spec's additions on top of the common entry). */
export const CAPABILITY_ENTRY_SCHEMAS = {
  extraction: entryWith(ExtractionDataSchema, { nfcValidationResult: str() }),
  classification: entryWith(ClassificationDataSchema),
  similarity: entryWith(SimilarityDataSchema),
  liveness: entryWith(LivenessDataSchema, validFaceMap),
  dataChecks: CapabilityEntrySchema,
  imageChecks: entryWith(ImageChecksDataSchema),
  usability: CapabilityEntrySchema,
  authentication: entryWith(AuthenticationDataSchema, validFaceMap),
  watchlistScreening: entryWith(WatchlistScreeningDataSchema),
  advancedWatchlist: entryWith(AdvancedWatchlistDataSchema),
  addressValidation: entryWith(ReasonMessageDataSchema),
  proofOfResidency: entryWith(ReasonMessageDataSchema),
  drivingLicenseVerification: entryWith(DrivingLicenseVerificationDataSchema),
  ekycVerification: entryWith(EkycVerificationDataSchema),
  globalIdentityCheck: entryWith(EkycVerificationDataSchema),
  deviceRiskVerification: entryWith(DeviceRiskVerificationDataSchema),
  braCpfValidation: entryWith(BraCpfValidationDataSchema),
  biometricVerification: entryWith(BiometricVerificationDataSchema),
  govtIdVerification: entryWith(GovtIdVerificationDataSchema),
  kycCheck: entryWith(KycCheckDataSchema),
  bankCheck: entryWith(OpaqueDataSchema),
  binCheck: entryWith(OpaqueDataSchema),
  searchBusiness: entryWith(SearchBusinessDataSchema),
  emailVerification: entryWith(EmailVerificationDataSchema),
  phoneVerification: entryWith(PhoneVerificationDataSchema),
  geoIpVerification: entryWith(GeoIpVerificationDataSchema),
  businessInfo: entryWith(BusinessInfoDataSchema),
  ekycSsnVerification: entryWith(EkycSsnVerificationDataSchema),
  ekycAdvancedVerification: entryWith(EkycAdvancedVerificationDataSchema),
  ekycGlobalVerification: entryWith(EkycAdvancedVerificationDataSchema),
  lookups: entryWith(LookupsDataSchema),
  riskAnalytics: entryWith(RiskAnalyticsDataSchema),
  ekycCheck: entryWith(EkycCheckDataSchema),
  masking: CapabilityEntrySchema,
} as const satisfies Record<CapabilityName, z.ZodType>;

type OutputOf<T> = T extends z.ZodType<infer O> ? O : never;
type LenientArrayOf<T> = z.ZodCatch<
  z.ZodOptional<z.ZodPipe<z.ZodArray<z.ZodUnknown>, z.ZodTransform<Array<OutputOf<T>>, unknown[]>>>
>;
type CapabilityShape = { [K in CapabilityName]: LenientArrayOf<(typeof CAPABILITY_ENTRY_SCHEMAS)[K]> };

/**
 * `capabilities` of a result: the 34 known arrays, typed; any other member (a capability added
 * by the service later) is kept as it came. `listCapabilityEntries` walks both.
 */
export const CapabilitiesSchema = z
  .object(Object.fromEntries(CAPABILITY_NAMES.map((n) => [n, arr(CAPABILITY_ENTRY_SCHEMAS[n])])) as CapabilityShape)
  .catchall(z.unknown());
export type Capabilities = z.infer<typeof CapabilitiesSchema>;
export type ExtractionData = z.infer<typeof ExtractionDataSchema>;

/**
 * Every capability array of a result, known ones in spec order, then unknown ones in the order
 * they came (their entries parsed with the common entry schema). Entries are never dropped for
 * an unknown label or decision type.
 */
export function listCapabilityEntries(
  capabilities: Capabilities | undefined | null,
): Array<{ capability: string; known: boolean; entries: CapabilityEntry[] }> {
  if (!capabilities) return [];
  const out: Array<{ capability: string; known: boolean; entries: CapabilityEntry[] }> = [];
  for (const name of CAPABILITY_NAMES) {
    const entries = capabilities[name];
    if (Array.isArray(entries)) out.push({ capability: name, known: true, entries: entries as CapabilityEntry[] });
  }
  for (const [name, value] of Object.entries(capabilities)) {
    if (isKnownCapabilityName(name) || !Array.isArray(value)) continue;
    out.push({ capability: name, known: false, entries: tolerantArrayOf(CapabilityEntrySchema).parse(value) });
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Rules and steps
// ---------------------------------------------------------------------------------------------

export const RuleSchema = z.looseObject({ id: str(), name: str(), version: num(), score: num() });
export const RulesetSchema = z.looseObject({
  id: str(),
  name: str(),
  version: num(),
  score: num(),
  rulesMatched: list(RuleSchema),
  rulesNotMatched: list(RuleSchema),
});
export const RuleExecutionSchema = z.looseObject({
  id: str(),
  startedAt: str(),
  completedAt: str(),
  rulesets: list(RulesetSchema),
});
/** R8 GET .../rules */
export const RuleExecutionsResponseSchema = z.looseObject({ executions: list(RuleExecutionSchema) });
export type RuleExecution = z.infer<typeof RuleExecutionSchema>;
export type RuleExecutionsResponse = z.infer<typeof RuleExecutionsResponseSchema>;

export const StepSchema = z.looseObject({
  id: lenient(z.union([z.number(), z.string()])),
  name: str(),
  decision: lenient(DecisionSchema),
  /** Newer results. */
  capabilities: arr(z.looseObject({ id: str(), category: str() })),
  /** Older results carry only these. */
  capabilityIds: strArr(),
});
/** R7 GET .../steps */
export const StepsResponseSchema = z.looseObject({ steps: list(StepSchema) });
export type Step = z.infer<typeof StepSchema>;
export type StepsResponse = z.infer<typeof StepsResponseSchema>;

/** The capability entry ids of a step, from `capabilities[].id` and/or `capabilityIds`, deduplicated. */
export function stepCapabilityIds(step: Step): string[] {
  const ids = [...(step.capabilities ?? []).map((c) => c.id), ...(step.capabilityIds ?? [])];
  return [...new Set(ids.filter((id): id is string => typeof id === 'string' && id.length > 0))];
}

// ---------------------------------------------------------------------------------------------
// Workflow execution result (R2, R4, items of R12)
// ---------------------------------------------------------------------------------------------

export const ResultCredentialSchema = z.looseObject({
  id: str(),
  category: str(),
  label: str(),
  clientIp: str(),
  parts: arr(z.looseObject({ classifier: str(), captureType: str(), href: str() })),
  reusableIdentity: obj({ status: str(), source: str() }),
  consent: obj({ decisionAccepted: bool(), collectedBy: str() }),
});

export const WorkflowExecutionResultSchema = z.looseObject({
  workflow: z.looseObject({
    id: requiredId,
    status: str(),
    definitionKey: str(),
    originalDefinitionKey: str(),
    userReference: str(),
    customerInternalReference: str(),
    reportingCriteria: str(),
    childIds: strArr(),
    parentId: str(),
  }),
  account: z.looseObject({ id: requiredId, href: str() }),
  createdAt: str(),
  startedAt: str(),
  completedAt: str(),
  wipedOutAt: str(),
  credentials: arr(ResultCredentialSchema),
  decision: lenient(TopDecisionSchema),
  feedback: obj({ status: str(), reason: str(), providedAt: str() }),
  capabilities: lenient(CapabilitiesSchema),
  rules: obj({ executions: arr(RuleExecutionSchema), href: str() }),
  /** A link to R7 only (`steps.href`, sometimes with an `accounts/accounts/` typo): never build URLs from it. */
  steps: lenient(z.union([z.looseObject({ href: str() }), z.array(z.unknown())])),
  consent: obj({ obtained: str(), obtainedAt: str() }),
  captureClient: obj({
    client: str(),
    platform: str(),
    version: str(),
    osName: str(),
    state: arr(tolerantArrayOf(strValue)),
    captureDetails: arr(tolerantArrayOf(strValue)),
  }),
});
export type WorkflowExecutionResult = z.infer<typeof WorkflowExecutionResultSchema>;

/** R12 body, every record checked: a record without `workflow.id` fails the page, naming its index. */
export const ListResponseSchema = z.looseObject({
  workflowExecutions: z.preprocess((v) => (v === undefined ? [] : v), z.array(WorkflowExecutionResultSchema)),
});
/** R12 envelope only (records unchecked); `IdvClient.listExecutions` checks each record on its own. */
export const ListEnvelopeSchema = z.looseObject({
  workflowExecutions: z.preprocess((v) => (v === undefined ? [] : v), z.array(z.unknown())),
});

/** R5 GET .../status */
export const StatusResponseSchema = z.looseObject({
  account: obj({ id: str(), href: str() }),
  workflowExecution: z.looseObject({ id: requiredId, href: str(), definitionKey: str(), status: str() }),
});
export type StatusResponse = z.infer<typeof StatusResponseSchema>;

/** R6 GET .../generate: the PDF report link. */
export const ReportResponseSchema = z.looseObject({ workflowId: requiredId, presignedUrl: str() });
export type ReportResponse = z.infer<typeof ReportResponseSchema>;

/**
 * R9 GET /accounts/{a}: shape not public; kept whole. The simulator (and the account's href)
 * also list its executions: read tolerantly, an entry without an id is dropped.
 */
export const AccountDetailsSchema = z.looseObject({
  account: obj({ id: str(), href: str(), createdAt: str() }),
  workflowExecutions: arr(
    z.looseObject({ id: strValue, href: str(), definitionKey: str(), status: str(), createdAt: str() }),
  ),
});
export type AccountDetails = z.infer<typeof AccountDetailsSchema>;

// ---------------------------------------------------------------------------------------------
// Account and credential operations
// ---------------------------------------------------------------------------------------------

const uploadApiSchema = z.looseObject({
  /** Transaction-specific bearer token for uploads and finalize of this credential. */
  token: str(),
  /** Part name (front, back, face, prepared_data, document) -> absolute upload URL. */
  parts: lenient(z.record(z.string(), str())),
  /** Absolute URL of the workflow execution, for finalize (C5). */
  workflowExecution: str(),
});
export const AccountCredentialSchema = z.looseObject({
  id: str(),
  label: str(),
  category: str(),
  country: lenient(CountryOrTypeSchema),
  type: lenient(CountryOrTypeSchema),
  allowedChannels: strArr(),
  /** Only for credentials that allow the API channel. */
  api: lenient(uploadApiSchema),
});
/** A1 / A2 response. */
export const AccountResponseSchema = z.looseObject({
  timestamp: str(),
  account: z.looseObject({ id: requiredId }),
  web: anyObject(),
  sdk: obj({ token: str() }),
  workflowExecution: z.looseObject({ id: requiredId, credentials: list(AccountCredentialSchema) }),
});
export type AccountResponse = z.infer<typeof AccountResponseSchema>;

/** C1-C7 response. Everything optional: finalize returns only timestamp, account and execution ids. */
export const CredentialOperationResponseSchema = z.looseObject({
  timestamp: str(),
  account: obj({ id: str() }),
  workflowExecution: obj({ id: str() }),
  credential: obj({ id: str() }),
  part: obj({ id: str() }),
  api: obj({
    token: str(),
    /** name -> index -> href (`{}` after prepared data). */
    parts: lenient(z.record(z.string(), lenient(z.record(z.string(), str())))),
  }),
});
export type CredentialOperationResponse = z.infer<typeof CredentialOperationResponseSchema>;

// ---------------------------------------------------------------------------------------------
// Outgoing bodies (strict)
// ---------------------------------------------------------------------------------------------

const OutgoingCountryOrTypeSchema = z.strictObject({
  predefinedType: z.string().min(1),
  values: z.array(z.string().min(1)),
});
const OutgoingCountrySchema = z.strictObject({
  predefinedType: z.string().min(1),
  values: z.array(z.string().regex(/^[A-Za-z]{3}$/, 'must be a three-letter country code')),
});

export const AccountRequestSchema = z.strictObject({
  userReference: z.string().min(1).max(100).optional(),
  customerInternalReference: z.string().min(1).max(100),
  reportingCriteria: z.string().min(1).max(255).optional(),
  callbackUrl: z.string().min(1).max(255).optional(),
  tokenLifetime: z
    .string()
    .regex(/^[+-]?\d+[smhd]$/, 'must be digits and one unit of s, m, h or d (e.g. 30m)')
    .optional(),
  web: z
    .strictObject({
      successUrl: z.string().min(1).optional(),
      errorUrl: z.string().min(1).optional(),
      locale: z.string().min(1).optional(),
    })
    .optional(),
  workflowDefinition: z.strictObject({
    // The service accepts a number and echoes it back as a string (service-facts).
    key: z.union([z.string().min(1), z.number().int().nonnegative()]),
    credentials: z
      .array(
        z.strictObject({
          id: z.uuid().optional(),
          category: z.string().min(1),
          country: OutgoingCountrySchema.optional(),
          type: OutgoingCountryOrTypeSchema.optional(),
        }),
      )
      .optional(),
    capabilities: z
      .strictObject({
        watchlistScreening: z.strictObject({}).optional(),
        documentVerification: z.strictObject({ enableExtraction: z.boolean().optional() }).optional(),
        ekycCheck: z.strictObject({ searchType: z.string().min(1).optional() }).optional(),
        workflowDecision: z
          .strictObject({
            riskScoreRulesetId: z.string().min(1).optional(),
            decisionLabelRulesetId: z.string().min(1).optional(),
          })
          .optional(),
        ruleset: z.strictObject({ ids: z.array(z.string().min(1)) }).optional(),
      })
      .optional(),
  }),
  userConsent: z
    .strictObject({
      userIp: z.string().min(1).optional(),
      userLocation: z
        .strictObject({ country: z.string().min(1).optional(), state: z.string().min(1).optional() })
        .optional(),
      consent: z.strictObject({ obtained: z.string().min(1), obtainedAt: z.iso.datetime({ offset: true }) }).optional(),
    })
    .optional(),
  overrideSettings: z.record(z.string(), z.string()).optional(),
});
/** What callers pass to createAccount / updateAccount. */
export type AccountRequest = z.input<typeof AccountRequestSchema>;

const isoDate = z.iso.date();
export const PreparedDataSchema = z.strictObject({
  suffix: z.string().optional(),
  firstName: z.string().optional(),
  middleName: z.string().optional(),
  lastName: z.string().optional(),
  sex: z.enum(['M', 'F']).optional(),
  dateOfBirth: isoDate.optional(),
  socialSecurityNumber: z.string().optional(),
  nationality: z.string().optional(),
  email: z.email().optional(),
  phoneNumber: z.string().optional(),
  phoneNumber2: z.string().optional(),
  personalNumber: z.string().optional(),
  address: z
    .strictObject(
      Object.fromEntries(
        ['line1', 'line2', 'line3', 'line4', 'line5', 'postalCode', 'city', 'subdivision', 'country'].map((k) => [
          k,
          z.string().optional(),
        ]),
      ) as Record<
        'line1' | 'line2' | 'line3' | 'line4' | 'line5' | 'postalCode' | 'city' | 'subdivision' | 'country',
        z.ZodOptional<z.ZodString>
      >,
    )
    .optional(),
  id: z
    .strictObject({
      issuingDate: isoDate.optional(),
      expiryDate: isoDate.optional(),
      idNumber: z.string().optional(),
      type: z.string().optional(),
      subType: z.string().optional(),
    })
    .optional(),
  kyc: z
    .strictObject({ registrationDate: z.string().optional(), registrationIpAddress: z.string().optional() })
    .optional(),
  bank: z
    .strictObject({
      paymentMethod: z.string().optional(),
      binNumber: z.string().optional(),
      lastDigits: z.string().optional(),
      accountNumber: z.string().optional(),
      routingNumber: z.string().optional(),
      amount: z.number().optional(),
      currency: z.string().optional(),
      transactionTime: z.string().optional(),
      transactionId: z.string().optional(),
      ipAddress: z.string().optional(),
    })
    .optional(),
  business: z
    .strictObject({
      name: z.string().optional(),
      city: z.string().optional(),
      address: z.string().optional(),
      state: z.string().optional(),
      country: z.string().optional(),
      registrationNumber: z.string().optional(),
      searchId: z.string().optional(),
      kybCapabilities: z.array(z.string()).optional(),
    })
    .optional(),
});
export type PreparedData = z.input<typeof PreparedDataSchema>;

/**
 * R11 body. The vendor documents `reason` as required with FRAUD; we also refuse reason NA with
 * FRAUD, because a FRAUD label follows the identity document across tenants (service-facts).
 */
export const FeedbackRequestSchema = z
  .strictObject({ status: z.enum(FEEDBACK_STATUSES), reason: z.enum(FEEDBACK_REASONS).optional() })
  .superRefine((v, ctx) => {
    if (v.status === 'FRAUD' && (!v.reason || v.reason === 'NA')) {
      ctx.addIssue({ code: 'custom', path: ['reason'], message: 'a fraud reason is required when status is FRAUD' });
    }
  });
export type FeedbackRequest = z.input<typeof FeedbackRequestSchema>;

/** R12 query. */
export const ListQuerySchema = z.strictObject({
  page: z.number().int().min(1).default(1),
  size: z.number().int().min(1).max(100).default(50),
});
export type ListQuery = z.input<typeof ListQuerySchema>;

// ---------------------------------------------------------------------------------------------
// Token, errors, callback, health
// ---------------------------------------------------------------------------------------------

/** T response: `{access_token, expires_in, token_type}`; the token is a JWT with exp/iat. */
export const TokenResponseSchema = z.looseObject({
  access_token: z.string().min(1),
  expires_in: num(),
  token_type: str(),
});

/**
 * The callback the service POSTs when an execution completes. Never trusted beyond "go and fetch
 * this execution": `definitionKey` may arrive as a number, `href` in either link form, any status.
 */
export const CallbackBodySchema = z.looseObject({
  callbackSentAt: str(),
  userReference: str(),
  workflowExecution: z.looseObject({ id: requiredId, href: str(), definitionKey: str(), status: str() }),
  account: z.looseObject({ id: requiredId, href: str() }),
});

/** GET / on the status host. */
export const HealthResponseSchema = z.looseObject({
  status: str(),
  details: lenient(z.record(z.string(), z.unknown())),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;

// ---------------------------------------------------------------------------------------------

/**
 * Parses `data` or throws an `IdvParseError` whose message and `path` name the failing field
 * (e.g. `R2 workflow execution result: unusable data: workflow.id: is required`).
 */
export function parseOrThrow<T extends z.ZodType>(
  schema: T,
  data: unknown,
  what: string,
  operation?: string,
): z.output<T> {
  const r = schema.safeParse(data);
  if (!r.success) throw new IdvParseError(what, r.error.issues, operation ?? what, { cause: r.error });
  return markParsed(schema, r.data);
}

/**
 * Objects this process got as the output of parsing with a schema (the client's answers), so
 * that `parseOnce` does not parse the same object again: a backfill page spent as long
 * re-validating the R12 items in ingest as the client had spent validating them. The mark is
 * on the object, so it assumes parsed values are not edited in place (nothing does); a caller
 * that edits one should edit a copy (structuredClone), which is parsed again.
 */
const parsedWith = new WeakMap<object, z.ZodType>();
export function markParsed<T>(schema: z.ZodType, value: T): T {
  if (value && typeof value === 'object') parsedWith.set(value, schema);
  return value;
}

/** `parseOrThrow`, except that an object that is itself the output of parsing with `schema` is returned as is. */
export function parseOnce<T extends z.ZodType>(
  schema: T,
  data: unknown,
  what: string,
  operation?: string,
): z.output<T> {
  if (data && typeof data === 'object' && parsedWith.get(data) === schema) return data as z.output<T>;
  return parseOrThrow(schema, data, what, operation);
}
