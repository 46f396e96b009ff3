export { riskBandOf } from '@/lib/executions/risk';

/**
 * Plain words for the service's capabilities and labels, and the order the checks depend on each
 * other. Labels not listed here are shown as they came (the service adds new ones over time).
 * Sources: the spec's capability list and the vendor's documented labels (service-facts.md).
 */

/**
 * Dependency order (service-facts "Capability dependencies"): usability feeds image checks,
 * extraction and the face checks; extraction feeds the data checks and screenings. Capabilities
 * not named here follow in the spec's order, unknown ones last.
 */
export const CAPABILITY_ORDER = [
  'usability',
  'imageChecks',
  'classification',
  'extraction',
  'dataChecks',
  'similarity',
  'liveness',
  'authentication',
  'watchlistScreening',
  'advancedWatchlist',
  'addressValidation',
  'proofOfResidency',
  'drivingLicenseVerification',
  'lookups',
  'riskAnalytics',
] as const;

/** What each check depends on, for "did not run because ..." explanations. */
export const CAPABILITY_PARENTS: Record<string, string[]> = {
  imageChecks: ['usability'],
  classification: ['usability'],
  extraction: ['imageChecks', 'usability'],
  dataChecks: ['extraction'],
  watchlistScreening: ['extraction'],
  addressValidation: ['extraction'],
  proofOfResidency: ['extraction'],
  drivingLicenseVerification: ['extraction'],
  similarity: ['usability'],
  liveness: ['usability'],
  authentication: ['usability'],
};

interface CapabilityInfo {
  title: string;
  what: string;
  /** Words that tie a rule (by its name or id) to this check. */
  ruleHints?: RegExp;
}

export const CAPABILITIES: Record<string, CapabilityInfo> = {
  usability: {
    title: 'Usability',
    what: 'Are the uploaded images usable: sharp, complete, a real document or face?',
    ruleHints: /usab|quality|unusable|blur|glare|unsupported/i,
  },
  imageChecks: {
    title: 'Image checks',
    what: 'Is the document image genuine: not a screen or paper copy, not edited, not a known sample, face not seen before?',
    ruleHints: /image|digital.?copy|manipulat|repeated.?face|fake|sample|watermark/i,
  },
  classification: {
    title: 'Classification',
    what: 'Which document this is: country, type, layout and security features.',
    ruleHints: /classif/i,
  },
  extraction: {
    title: 'Extraction',
    what: 'Reading the data printed on the document (names, dates, numbers, MRZ).',
    ruleHints: /extract/i,
  },
  dataChecks: {
    title: 'Data checks',
    what: 'Is the extracted data consistent: MRZ checksums, printed vs. MRZ data, chip certificate, earlier fraud reports?',
    ruleHints: /data.?(check|mismatch)|inconsistent|mrz|fraud.?feedback|reported as fraud|customer.?feedback/i,
  },
  similarity: {
    title: 'Face similarity',
    what: 'Does the selfie show the same person as the document photo?',
    ruleHints: /similar|face.?(mismatch|match|comparison)|selfie does not match/i,
  },
  liveness: {
    title: 'Liveness',
    what: 'Was the selfie taken of a live person present at capture time?',
    ruleHints: /liveness|age.?mismatch|selfie age/i,
  },
  authentication: {
    title: 'Face authentication',
    what: 'Does a returning user’s face match the face map stored at enrolment?',
    ruleHints: /authenticat/i,
  },
  watchlistScreening: {
    title: 'Watchlist screening',
    what: 'Is the person on a sanctions, PEP or adverse-media list?',
    ruleHints: /watchlist|sanction|pep/i,
  },
  advancedWatchlist: {
    title: 'Advanced watchlist',
    what: 'Extended sanctions and PEP screening with match categories.',
    ruleHints: /watchlist/i,
  },
  addressValidation: {
    title: 'Address validation',
    what: 'Does the address exist and belong to the person?',
    ruleHints: /address/i,
  },
  proofOfResidency: {
    title: 'Proof of residency',
    what: 'Does the supporting document prove the stated address?',
    ruleHints: /residen|address/i,
  },
  drivingLicenseVerification: {
    title: 'Driving licence verification',
    what: 'Do the licence details match the issuing authority’s records?',
    ruleHints: /driving|licen[cs]e|dmv/i,
  },
  ekycVerification: {
    title: 'eKYC verification',
    what: 'Do name, phone, e-mail and address match each other in identity data sources?',
    ruleHints: /ekyc|identity data/i,
  },
  globalIdentityCheck: {
    title: 'Global identity check',
    what: 'Identity data matched against international data sources.',
    ruleHints: /identity data|global/i,
  },
  deviceRiskVerification: {
    title: 'Device risk',
    what: 'Signals from the capture device and network: emulators, VPNs, remote sessions.',
    ruleHints: /device|behaviou?r|vpn|proxy/i,
  },
  braCpfValidation: {
    title: 'Brazil CPF validation',
    what: 'Is the Brazilian CPF number valid and does it match the person?',
    ruleHints: /cpf/i,
  },
  biometricVerification: {
    title: 'Biometric verification',
    what: 'Face and data matched against a government biometric database.',
    ruleHints: /biometric/i,
  },
  govtIdVerification: {
    title: 'Government ID verification',
    what: 'Document data matched against the issuing government’s records.',
    ruleHints: /gov|national id/i,
  },
  kycCheck: { title: 'KYC check', what: 'E-mail, phone and watchlist signals from a KYC provider.', ruleHints: /kyc/i },
  bankCheck: {
    title: 'Bank account check',
    what: 'Does the bank account exist and belong to the person?',
    ruleHints: /bank/i,
  },
  binCheck: {
    title: 'Card BIN check',
    what: 'What the card number’s issuer range says about the card.',
    ruleHints: /\bbin\b|card/i,
  },
  searchBusiness: {
    title: 'Business search',
    what: 'Finding the business in company registers.',
    ruleHints: /business|kyb/i,
  },
  emailVerification: {
    title: 'E-mail verification',
    what: 'Does the e-mail address exist, how old is it, how risky is its domain?',
    ruleHints: /e-?mail/i,
  },
  phoneVerification: {
    title: 'Phone verification',
    what: 'What kind of phone number this is and how risky it looks.',
    ruleHints: /phone/i,
  },
  geoIpVerification: {
    title: 'Geo-IP verification',
    what: 'Where the IP address is and whether it hides the user (Tor, VPN, proxy).',
    ruleHints: /geo|\bip\b|tor/i,
  },
  businessInfo: {
    title: 'Business information',
    what: 'Details about the business from register sources.',
    ruleHints: /business|kyb/i,
  },
  ekycSsnVerification: {
    title: 'SSN verification',
    what: 'Does the US Social Security number match the name, address and date of birth?',
    ruleHints: /ssn|social security/i,
  },
  ekycAdvancedVerification: {
    title: 'Advanced eKYC',
    what: 'Identity data matched in national data sources.',
    ruleHints: /ekyc|identity data/i,
  },
  ekycGlobalVerification: {
    title: 'Global eKYC',
    what: 'Identity data matched in international data sources.',
    ruleHints: /ekyc|identity data/i,
  },
  lookups: {
    title: 'Lookups',
    what: 'Other transactions with the same document, face or images, and how risky they were.',
    ruleHints: /lookup|same document|repeated.?doc|seen before/i,
  },
  riskAnalytics: {
    title: 'Risk analytics',
    what: 'Associations with other risky transactions across the network.',
    ruleHints: /network|association/i,
  },
  ekycCheck: {
    title: 'eKYC check',
    what: 'Name, address, date of birth and phone matched in a data source.',
    ruleHints: /ekyc/i,
  },
  masking: {
    title: 'Masking',
    what: 'Whether the service masked parts of the images (for example a national id number).',
  },
};

/** "Image checks" for known capabilities, a readable form of the key for unknown ones. */
export function capabilityTitle(name: string): string {
  return CAPABILITIES[name]?.title ?? name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/^./, (c) => c.toUpperCase());
}

/** Plain words for labels, by capability (when the same label means something specific) and in general. */
const LABELS_BY_CAPABILITY: Record<string, Record<string, string>> = {
  usability: {
    LIVENESS_UNDETERMINED: 'The image quality did not allow a liveness decision.',
    NOT_UPLOADED: 'This part was never uploaded, so nothing could be checked.',
  },
  liveness: {
    LIVENESS_UNDETERMINED: 'The selfie could not be confirmed as a live person.',
    BAD_QUALITY: 'The selfie quality was too low for a confident liveness result.',
    AGE_DIFFERENCE: 'The estimated age of the selfie differs from the date of birth on the document.',
    PHOTOCOPY: 'The selfie shows a printed photo rather than a live person.',
    DIGITAL_COPY: 'The selfie was taken of a screen rather than a live person.',
    MANIPULATED: 'The selfie appears to have been edited or injected.',
  },
  similarity: {
    MATCH: 'The selfie and the document photo show the same person.',
    NO_MATCH: 'The selfie and the document photo show different people.',
    NOT_POSSIBLE: 'The faces could not be compared (for example a poor photo on the document).',
  },
  authentication: {
    OK: 'The face matches the enrolled face map.',
    FAILED: 'The face does not match the enrolled face map.',
  },
  watchlistScreening: {
    ALERT: 'A possible match on a sanctions, PEP or adverse-media list needs review.',
    OK: 'No match on the screened lists.',
  },
  advancedWatchlist: { ALERT: 'A possible list match needs review.' },
  addressValidation: {
    DENY: 'The address could not be confirmed, or belongs to someone else.',
    ALERT: 'The address is only partly confirmed.',
  },
  proofOfResidency: {
    DENY: 'The document does not prove the stated address.',
    ALERT: 'The proof of address is incomplete or unclear.',
  },
  drivingLicenseVerification: {
    DENY: 'The licence details contradict the authority’s records.',
    ALERT: 'Some licence details could not be confirmed.',
  },
  dataChecks: {
    CUSTOMER_FEEDBACK:
      'This document was reported as fraud earlier (feedback on another transaction with the same document).',
  },
};

const LABELS: Record<string, string> = {
  OK: 'The check passed.',
  PASSED: 'The execution passed.',
  WARNING: 'The execution needs a closer look.',
  REJECTED: 'The execution was rejected.',
  NOT_EXECUTED: 'The execution was not carried out.',
  TECHNICAL_ERROR: 'The check failed for a technical reason at the service; it says nothing about the person.',
  PRECONDITION_NOT_FULFILLED: 'The check did not run because a check it depends on failed or did not run.',
  NOT_UPLOADED: 'A required part was never uploaded.',
  NOT_ENOUGH_DATA: 'There was not enough data to run this check.',
  VALIDATION_FAILED: 'The input data did not pass the service’s validation.',
  INVALID_MERCHANT_SETTINGS: 'The account’s settings do not allow this check.',
  EXTRACTION_NOT_DONE: 'No data was extracted from the document, so nothing could be screened.',
  NO_VALID_ID_CREDENTIAL: 'No usable identity document was provided.',
  UNSUPPORTED_COUNTRY: 'The service does not support documents or checks for this country.',
  UNSUPPORTED_STATE: 'The service does not support this state.',
  UNSUPPORTED_DOCUMENT_TYPE: 'This kind of document is not supported.',
  SESSION_EXPIRED: 'The user did not finish in time: the session expired before all parts were captured.',
  TOKEN_EXPIRED: 'The upload token expired before the workflow was finalized.',
  // usability
  BAD_QUALITY: 'The image quality is too low to check the document.',
  BAD_QUALITY_IMAGE: 'The image quality is too low to check the document.',
  BLURRED: 'The image is blurred.',
  GLARE: 'Glare hides part of the document.',
  PART_OF_DOCUMENT_MISSING: 'Part of the document is cut off in the image.',
  PART_OF_DOCUMENT_HIDDEN: 'Part of the document is covered (a finger, an object).',
  DAMAGED_DOCUMENT: 'The document is physically damaged.',
  MISSING_MANDATORY_DATAPOINTS: 'Data the check needs is not readable on the document.',
  BLACK_WHITE: 'The image is black and white: a copy rather than the original.',
  MISSING_PAGE: 'A required page or side of the document is missing.',
  MISSING_SIGNATURE: 'The document has no signature where one is required.',
  NOT_A_DOCUMENT: 'The image does not show an identity document.',
  PHOTOCOPY: 'The image shows a photocopy of the document, not the original.',
  // liveness
  ID_USED_AS_SELFIE: 'The document photo was used as the selfie.',
  MULTIPLE_PEOPLE: 'More than one person is in the selfie.',
  NO_FACE_PRESENT: 'No face was found in the selfie.',
  FACE_NOT_FULLY_VISIBLE: 'The face is not fully visible in the selfie.',
  AGE_DIFFERENCE: 'The face looks much older or younger than the date of birth says.',
  LIVENESS_UNDETERMINED: 'Liveness could not be determined.',
  MANIPULATED: 'The image appears to have been manipulated.',
  // image checks
  DIGITAL_COPY: 'The document was photographed from a screen, not held in hand.',
  WATERMARK: 'The image carries a watermark (often a stock or sample image).',
  MANIPULATED_DOCUMENT: 'The document image was edited.',
  MANIPULATED_DOCUMENT_PHOTO: 'The photo on the document was replaced or edited.',
  MANIPULATED_DOCUMENT_EXPIRY: 'The expiry date on the document was edited.',
  MANIPULATED_DOCUMENT_NAME: 'The name on the document was edited.',
  MANIPULATED_DOCUMENT_ADDRESS: 'The address on the document was edited.',
  MANIPULATED_DOCUMENT_SECURITY_CHECKS: 'Security features of the document failed the checks.',
  MANIPULATED_DOCUMENT_SIGNATURE: 'The signature on the document was edited.',
  MANIPULATED_DOCUMENT_PERSONAL_NUMBER: 'The personal number on the document was edited.',
  MANIPULATED_DOCUMENT_PLACE_OF_BIRTH: 'The place of birth on the document was edited.',
  MANIPULATED_DOCUMENT_GENDER: 'The gender on the document was edited.',
  MANIPULATED_DOCUMENT_ISSUING_DATE: 'The issuing date on the document was edited.',
  OTHER_REJECTION: 'The document was rejected for another reason found by the image checks.',
  GHOST_IMAGE_DIFFERENT: 'The small secondary (ghost) photo differs from the main photo.',
  PUNCHED: 'The document is punched: it has been cancelled by the issuer.',
  SAMPLE: 'This is a known sample or specimen document.',
  FAKE: 'The document is a fake.',
  CHIP_MISSING: 'The document should have a chip but none was found.',
  DIGITAL_MANIPULATION: 'The image was digitally manipulated.',
  MISMATCH_FRONT_BACK: 'The front and the back belong to different documents.',
  DIFFERENT_PERSON: 'The faces in the images belong to different people.',
  REPEATED_FACE: 'This face was seen before in other transactions with different data.',
  // data checks
  NFC_CERTIFICATE: 'The chip’s certificate is not valid.',
  MISMATCHING_DATAPOINTS: 'Data on the document contradicts itself or the supplied data.',
  MRZ_CHECKSUM: 'The machine-readable zone has a wrong check digit.',
  MISMATCHING_DATA_REPEATED_FACE: 'This face was seen before with different personal data.',
  MISMATCH_HRZ_MRZ_DATA: 'The printed data and the machine-readable zone disagree.',
  CUSTOMER_FEEDBACK: 'This document was reported as fraud before.',
  // screenings and others
  ALERT: 'The check raised an alert that needs review.',
  DENY: 'The check failed.',
  FAILED: 'The check failed.',
  MATCH: 'The data matches.',
  NO_MATCH: 'The data does not match.',
  NOT_POSSIBLE: 'The comparison was not possible.',
};

/** Plain words for a label, or null for a label this app does not know (show it as it came). */
export function explainLabel(label: string | null | undefined, capability?: string): string | null {
  if (!label) return null;
  return (capability ? LABELS_BY_CAPABILITY[capability]?.[label] : undefined) ?? LABELS[label] ?? null;
}

/** Order of capabilities for the "why" pane: dependency order, then the rest as given, unknown last. */
export function orderCapabilities(names: string[], known: readonly string[]): string[] {
  const rank = (n: string) => {
    const i = (CAPABILITY_ORDER as readonly string[]).indexOf(n);
    if (i >= 0) return i;
    const k = known.indexOf(n);
    return k >= 0 ? 100 + k : 1000;
  };
  return [...names].sort((a, b) => rank(a) - rank(b) || a.localeCompare(b));
}

export const DECISION_SEVERITY: Record<string, number> = { PASSED: 0, NOT_EXECUTED: 1, WARNING: 2, REJECTED: 3 };

/** The most severe decision type among entries (unknown types rank like WARNING: they need a look). */
export function worstDecision(types: Array<string | null | undefined>): string | null {
  let worst: string | null = null;
  for (const t of types) {
    if (!t) continue;
    if (worst === null || (DECISION_SEVERITY[t] ?? 2) > (DECISION_SEVERITY[worst] ?? 2)) worst = t;
  }
  return worst;
}
