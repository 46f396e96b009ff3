/**
 * The one masking function of the app. The detail page, the list, the CSV export and the raw
 * JSON view all mask through here, on the server, before anything reaches a browser or a file:
 * a masked value is never "hidden with CSS".
 *
 * Two ways of telling personal data apart, by where it sits:
 * - In the parts of a result whose shape the spec fixes (workflow, account, credentials,
 *   decision, consent, rules, steps), personal data is recognised by the key it sits under
 *   (`PII_KEYS`, `PATTERNS`).
 * - In free-form parts (every capability's `data`, which carries vendor responses and prepared
 *   data, and any member of a result the spec does not name), keys are whatever a vendor chose:
 *   officer names, company names built on the subject's surname, geo-IP and device cities sit
 *   under keys no list of personal keys can foresee. There every string is masked unless its
 *   key is on the allow-list of known non-personal keys (`CLEAR_KEYS`, `CLEAR_PATTERNS`: enums,
 *   scores, flags, match outcomes, dates that are not of a person).
 * How much of a value stays visible is decided by its key's style: enough to tell two records
 * apart at a glance (the last four characters of a document number, the first letter of a
 * name), never enough to identify a person.
 */

export type MaskStyle = 'name' | 'tail' | 'date' | 'email' | 'ip' | 'full' | 'address';

/** Keys whose values are personal data, by exact name. */
export const PII_KEYS: Readonly<Record<string, MaskStyle>> = {
  // names
  firstName: 'name',
  lastName: 'name',
  middleName: 'name',
  fullName: 'name',
  givenName: 'name',
  familyName: 'name',
  mothersName: 'name',
  fathersName: 'name',
  spousesName: 'name',
  lastNameAtBirth: 'name',
  salutation: 'full',
  suffix: 'full',
  // dates and places of birth
  dateOfBirth: 'date',
  dob: 'date',
  birthDate: 'date',
  dateOfBirthParts: 'full',
  placeOfBirth: 'name',
  currentAge: 'full',
  // document and personal numbers
  documentNumber: 'tail',
  personalNumber: 'tail',
  idNumber: 'tail',
  passportNumber: 'tail',
  socialSecurityNumber: 'tail',
  ssn: 'tail',
  taxNumber: 'tail',
  cpf: 'tail',
  curp: 'tail',
  dni: 'tail',
  pesel: 'tail',
  rgNumber: 'tail',
  voterIdNumber: 'tail',
  personalIdentificationNumber: 'tail',
  documentIdentificationNumber: 'tail',
  residentPermitNumber: 'tail',
  workPermitNumber: 'tail',
  laborIdentificationNumber: 'tail',
  militaryNumber: 'tail',
  panNumber: 'tail',
  optionalMrzField1: 'tail',
  optionalMrzField2: 'tail',
  accountNumber: 'tail',
  iban: 'tail',
  routingNumber: 'tail',
  cardNumberLastFourDigits: 'full',
  lastDigits: 'full',
  binNumber: 'tail',
  issuingNumber: 'tail',
  serialNumber: 'tail',
  controlNumber: 'tail',
  mrz: 'full',
  line1: 'address',
  line2: 'address',
  line3: 'address',
  line4: 'address',
  line5: 'address',
  // addresses and contact
  address: 'address',
  formattedAddress: 'address',
  postalCode: 'address',
  street: 'address',
  houseNumber: 'address',
  email: 'email',
  emailAddress: 'email',
  phone: 'tail',
  phoneNumber: 'tail',
  phoneNumber2: 'tail',
  mobile: 'tail',
  // network location (an IP identifies a household)
  ip: 'ip',
  clientIp: 'ip',
  userIp: 'ip',
  trueIP: 'ip',
  ipAddress: 'ip',
  registrationIpAddress: 'ip',
  ipLocationLatitude: 'full',
  ipLocationLongitude: 'full',
  latitude: 'full',
  longitude: 'full',
  // body and family
  eyeColor: 'full',
  hairColor: 'full',
  bodyHeight: 'full',
  bodyWeight: 'full',
  ethnicity: 'full',
  religion: 'full',
  bloodGroup: 'full',
  rhesusFactor: 'full',
  disabilities: 'full',
  maritalStatus: 'full',
};

/** Keys that are never personal even though a pattern below would match them. */
const NOT_PII = new Set([
  'printedDocumentName',
  'domainName',
  'rulesetName',
  'ruleName',
  'osName',
  'name_match',
  'nameMatch',
  'kyb_source',
]);

/** Catch-alls for keys a vendor response may carry that the list above does not name. */
const PATTERNS: Array<[RegExp, MaskStyle]> = [
  [/^(first|last|middle|full|given|family|maiden|sur)_?name$/i, 'name'],
  [/(^|_)(date_?of_?birth|birth_?date|dob)$/i, 'date'],
  [/e_?mail(_?address)?$/i, 'email'],
  [/(^|_)phone(_?number)?\d*$/i, 'tail'],
  [/(^|_)(ip|ip_?address|true_?ip)$/i, 'ip'],
  [/(passport|document|personal|national_?id|ssn|social_?security)_?(number|no)$/i, 'tail'],
];

/**
 * Keys whose string values stay visible inside free-form data: they name outcomes, categories
 * and properties of documents, never a person. A key not here (or a pattern below) is masked.
 */
const CLEAR_KEYS = new Set([
  'id',
  'ids',
  'capabilityIds',
  'type',
  'subType',
  'status',
  'decision',
  'label',
  'details',
  'category',
  'classifier',
  'captureType',
  'version',
  'score',
  'reason',
  'source',
  'kyb_source',
  'result',
  'verificationResult',
  'availability',
  'similarity',
  'findings',
  'layout',
  'material',
  'country',
  'countryCode',
  'issuingCountry',
  'nationality',
  'gender',
  'sex',
  'expiryDate',
  'issuingDate',
  'firstIssueDate',
  'lastIssueDate',
  'notValidAfter',
  'printedDocumentName',
  'issuingAuthority',
  'visaCategory',
  'durationOfStay',
  'numberOfEntries',
  'restriction',
  'description',
  'code',
  'currency',
  'language',
  'browserTimezone',
  'predictedAge',
  'ageConfidenceRange',
  'domainExists',
  'emailExists',
  'totalHits',
  'href',
  'createdAt',
  'startedAt',
  'completedAt',
  'updatedAt',
  'obtainedAt',
  'collectedBy',
  'transactions',
]);
const CLEAR_PATTERNS: RegExp[] = [
  // Match outcomes: MATCH / NO_MATCH / PARTIAL_MATCH under nameMatch, emailMatchToName, ...
  /Match(es|ed)?(To[A-Z][a-zA-Z]*)?$/,
  // Flags spelled as strings.
  /^(is|has|was|can|should)[A-Z_]/,
  // Outcomes, levels and counters.
  /(Status|Type|Level|Score|Count|Result|Risk|Code|Reason|Category|Velocity|Activity|Alerts?|Transactions)$/,
  /^total/i,
];

function isClearKey(key: string): boolean {
  return CLEAR_KEYS.has(key) || CLEAR_PATTERNS.some((re) => re.test(key));
}

/** Top-level members of a result whose shape the spec fixes; every other member is free-form. */
const STRUCTURED_ROOT = new Set([
  'workflow',
  'account',
  'createdAt',
  'startedAt',
  'completedAt',
  'credentials',
  'decision',
  'consent',
  'captureClient',
  'rules',
  'steps',
  'capabilities',
  'executions',
]);

/** Keys under an address-like object that stay visible: a country is not identifying. */
const ADDRESS_CLEAR = new Set(['country', 'countryCode', 'state', 'subdivision']);

export function maskStyleOf(key: string): MaskStyle | null {
  if (NOT_PII.has(key)) return null;
  const exact = PII_KEYS[key];
  if (exact) return exact;
  for (const [re, style] of PATTERNS) if (re.test(key)) return style;
  return null;
}

const DOT = '•';
// Fixed-length: a mask must not tell how long the hidden part is.
const HIDDEN = DOT.repeat(4);

/** Masks one scalar value. Numbers and booleans become strings: their type is part of the secret. */
export function maskScalar(value: string | number | boolean, style: MaskStyle): string {
  const s = String(value);
  if (s === '') return s;
  switch (style) {
    case 'name':
      // The first letter of each word: "Cristian Gheorghe" -> "C••••••• G•••••••".
      return s
        .split(/(\s+|-)/)
        .map((w) => (/^\s+$|^-$/.test(w) || w === '' ? w : `${[...w][0]}${HIDDEN}`))
        .join('');
    case 'tail': {
      const chars = [...s];
      // Short values show less: a 4-character value shows nothing.
      const keep = chars.length >= 8 ? 4 : chars.length >= 6 ? 2 : 0;
      return `${HIDDEN}${chars.slice(chars.length - keep).join('')}`;
    }
    case 'date':
      return '••••-••-••';
    case 'email': {
      const at = s.lastIndexOf('@');
      return at > 0 ? `${[...s][0]}${HIDDEN}${s.slice(at)}` : HIDDEN;
    }
    case 'ip': {
      if (s.includes('.')) {
        const p = s.split('.');
        return p.length === 4 ? `${p[0]}.${p[1]}.${DOT}.${DOT}` : HIDDEN;
      }
      const p = s.split(':');
      return p.length > 2 ? `${p[0]}:${p[1]}:${DOT}` : HIDDEN;
    }
    case 'address':
    case 'full':
      return `${HIDDEN}${DOT.repeat(2)}`;
  }
}

/**
 * Masks every personal value in a JSON-like document (a result, or with `part` one step, rule
 * execution or field),
 * returning a new one (the input is not changed). Objects and arrays under a personal key are
 * masked leaf by leaf with that key's style, so an `address` keeps its shape and country but
 * loses its lines; free-form parts are masked by the allow-list (see the file comment).
 */
export function maskDeep<T>(value: T, kind: 'result' | 'part' = 'result'): T {
  // Only a whole result has members the spec does not name; a step, a rule execution or one
  // field is masked by its keys, with capability `data` free-form wherever it appears.
  if (kind === 'result' && value && typeof value === 'object' && !Array.isArray(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      out[k] = walk(v, maskStyleOf(k), !STRUCTURED_ROOT.has(k), k);
    return out as T;
  }
  return walk(value, null, false, '') as T;
}

function walk(value: unknown, style: MaskStyle | null, free: boolean, key: string): unknown {
  if (value === null || value === undefined) return value;
  if (Array.isArray(value)) return value.map((v) => walk(v, style, free, key));
  if (typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) {
      if (style === 'address' && ADDRESS_CLEAR.has(k)) out[k] = v;
      // A capability's `data` is where vendors put what they like: free-form from here down.
      else out[k] = walk(v, style ?? maskStyleOf(k), free || k === 'data', k);
    }
    return out;
  }
  if (style && (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'))
    return maskScalar(value, style);
  if (free && typeof value === 'string' && !isClearKey(key)) return maskScalar(value, 'full');
  return value;
}

/** Masks a single named field (for flat rows such as the list and the CSV). */
export function maskField(key: string, value: string | number | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const style = maskStyleOf(key);
  return style ? maskScalar(value, style) : String(value);
}

/** True when a string is a masked value produced here (for rendering hints only). */
export function isMasked(value: unknown): boolean {
  return typeof value === 'string' && value.includes(HIDDEN);
}
