/**
 * The interface's own words: the value sets the spec names (statuses, decision types, feedback
 * statuses and reasons, classifiers, document types, the 34 capability arrays), written once.
 *
 * Both the client (lib/idv) and the simulator import these. The simulator otherwise shares no
 * code with the client, so that a bug in behaviour cannot agree with itself; a name is not
 * behaviour, and the contract tests spell the spec's lists out literally, so a typo here still
 * fails there. Browser-safe: plain constants.
 */

/** `workflow.status` values (service-facts). Terminal: PROCESSED, SESSION_EXPIRED, TOKEN_EXPIRED. */
export const WORKFLOW_STATUSES = ['INITIATED', 'ACQUIRED', 'PROCESSED', 'SESSION_EXPIRED', 'TOKEN_EXPIRED'] as const;
export const TERMINAL_WORKFLOW_STATUSES = ['PROCESSED', 'SESSION_EXPIRED', 'TOKEN_EXPIRED'] as const;
/** `decision.type`, top level and per capability. */
export const DECISION_TYPES = ['PASSED', 'WARNING', 'REJECTED', 'NOT_EXECUTED'] as const;
export const FEEDBACK_STATUSES = ['NA', 'FRAUD', 'NOT_FRAUD'] as const;
export const FEEDBACK_REASONS = [
  'NA',
  'ACCOUNT_TAKEOVER',
  'COMPANY_POLICY',
  'FIRST_PARTY_FRAUD',
  'GOVERNMENT_REGULATIONS',
  'IDENTITY_FRAUD',
  'INSIDER_FRAUD',
  'MONEY_LAUNDERING',
  'PAYMENT_FRAUD',
  'PHISHING',
  'SYNTHETIC_ID_FRAUD',
  'THIRD_PARTY_FRAUD',
] as const;
/** Classifiers accepted by the upload operations C1, C2, C6 and the part fetch R1. */
export const PART_CLASSIFIERS = ['FRONT', 'BACK', 'FACE'] as const;
export const DOCUMENT_TYPES = ['PASSPORT', 'DRIVING_LICENSE', 'ID_CARD', 'VISA', 'UNSUPPORTED'] as const;

/** The 34 capability arrays of a result, in the spec's order. */
export const CAPABILITY_NAMES = [
  'extraction',
  'classification',
  'similarity',
  'liveness',
  'dataChecks',
  'imageChecks',
  'usability',
  'authentication',
  'watchlistScreening',
  'advancedWatchlist',
  'addressValidation',
  'proofOfResidency',
  'drivingLicenseVerification',
  'ekycVerification',
  'globalIdentityCheck',
  'deviceRiskVerification',
  'braCpfValidation',
  'biometricVerification',
  'govtIdVerification',
  'kycCheck',
  'bankCheck',
  'binCheck',
  'searchBusiness',
  'emailVerification',
  'phoneVerification',
  'geoIpVerification',
  'businessInfo',
  'ekycSsnVerification',
  'ekycAdvancedVerification',
  'ekycGlobalVerification',
  'lookups',
  'riskAnalytics',
  'ekycCheck',
  'masking',
] as const;

type LabelTable = Partial<Record<(typeof DECISION_TYPES)[number], readonly string[]>>;
const NOT_EXECUTED_COMMON = ['PRECONDITION_NOT_FULFILLED', 'TECHNICAL_ERROR'] as const;

/**
 * Documented labels per capability and decision type (service-facts, "Capability labels"); an
 * empty list: none is documented. New labels appear over time: the client shows an unknown label
 * as it is, never dropped, and the simulator draws generic ones where none is documented.
 */
export const CAPABILITY_LABELS: Partial<Record<(typeof CAPABILITY_NAMES)[number], LabelTable>> = {
  usability: {
    NOT_EXECUTED: ['TECHNICAL_ERROR', 'NOT_UPLOADED'],
    PASSED: ['OK'],
    REJECTED: [
      'BAD_QUALITY',
      'BLURRED',
      'BAD_QUALITY_IMAGE',
      'PART_OF_DOCUMENT_MISSING',
      'PART_OF_DOCUMENT_HIDDEN',
      'DAMAGED_DOCUMENT',
      'GLARE',
      'MISSING_MANDATORY_DATAPOINTS',
      'BLACK_WHITE',
      'MISSING_PAGE',
      'MISSING_SIGNATURE',
      'NOT_A_DOCUMENT',
      'PHOTOCOPY',
    ],
    WARNING: ['LIVENESS_UNDETERMINED', 'UNSUPPORTED_COUNTRY', 'UNSUPPORTED_DOCUMENT_TYPE'],
  },
  liveness: {
    NOT_EXECUTED: NOT_EXECUTED_COMMON,
    PASSED: ['OK'],
    REJECTED: [
      'LIVENESS_UNDETERMINED',
      'ID_USED_AS_SELFIE',
      'MULTIPLE_PEOPLE',
      'DIGITAL_COPY',
      'PHOTOCOPY',
      'MANIPULATED',
      'NO_FACE_PRESENT',
      'FACE_NOT_FULLY_VISIBLE',
      'BLACK_WHITE',
    ],
    WARNING: ['AGE_DIFFERENCE', 'BAD_QUALITY'],
  },
  similarity: {
    NOT_EXECUTED: NOT_EXECUTED_COMMON,
    PASSED: ['MATCH'],
    REJECTED: ['NO_MATCH'],
    WARNING: ['NOT_POSSIBLE'],
  },
  authentication: { NOT_EXECUTED: NOT_EXECUTED_COMMON, PASSED: ['OK'], REJECTED: ['FAILED'], WARNING: [] },
  imageChecks: {
    NOT_EXECUTED: NOT_EXECUTED_COMMON,
    PASSED: ['OK'],
    REJECTED: [
      'DIGITAL_COPY',
      'WATERMARK',
      'MANIPULATED_DOCUMENT',
      ...[
        'PHOTO',
        'EXPIRY',
        'NAME',
        'ADDRESS',
        'SECURITY_CHECKS',
        'SIGNATURE',
        'PERSONAL_NUMBER',
        'PLACE_OF_BIRTH',
        'GENDER',
        'ISSUING_DATE',
      ].map((s) => `MANIPULATED_DOCUMENT_${s}`),
      'OTHER_REJECTION',
      'GHOST_IMAGE_DIFFERENT',
      'PUNCHED',
      'SAMPLE',
      'FAKE',
      'CHIP_MISSING',
      'DIGITAL_MANIPULATION',
      'MISMATCH_FRONT_BACK',
    ],
    WARNING: ['DIFFERENT_PERSON', 'REPEATED_FACE'],
  },
  extraction: { NOT_EXECUTED: NOT_EXECUTED_COMMON, PASSED: ['OK'], REJECTED: [], WARNING: [] },
  dataChecks: {
    NOT_EXECUTED: NOT_EXECUTED_COMMON,
    PASSED: ['OK'],
    REJECTED: [
      'NFC_CERTIFICATE',
      'MISMATCHING_DATAPOINTS',
      'MRZ_CHECKSUM',
      'MISMATCHING_DATA_REPEATED_FACE',
      'MISMATCH_HRZ_MRZ_DATA',
      'CUSTOMER_FEEDBACK',
    ],
    WARNING: [],
  },
  watchlistScreening: {
    NOT_EXECUTED: [
      'NOT_ENOUGH_DATA',
      'VALIDATION_FAILED',
      'INVALID_MERCHANT_SETTINGS',
      'TECHNICAL_ERROR',
      'EXTRACTION_NOT_DONE',
      'NO_VALID_ID_CREDENTIAL',
      'PRECONDITION_NOT_FULFILLED',
    ],
    PASSED: ['OK'],
    REJECTED: [],
    WARNING: ['ALERT'],
  },
  addressValidation: {
    NOT_EXECUTED: ['NOT_ENOUGH_DATA', 'TECHNICAL_ERROR', 'UNSUPPORTED_COUNTRY', 'PRECONDITION_NOT_FULFILLED'],
    PASSED: ['OK'],
    REJECTED: ['DENY'],
    WARNING: ['ALERT'],
  },
  proofOfResidency: {
    NOT_EXECUTED: ['NOT_ENOUGH_DATA', 'TECHNICAL_ERROR', 'UNSUPPORTED_COUNTRY', 'PRECONDITION_NOT_FULFILLED'],
    PASSED: ['OK'],
    REJECTED: ['DENY'],
    WARNING: ['ALERT'],
  },
  drivingLicenseVerification: {
    NOT_EXECUTED: [
      'TECHNICAL_ERROR',
      'UNSUPPORTED_COUNTRY',
      'UNSUPPORTED_STATE',
      'PRECONDITION_NOT_FULFILLED',
      'VALIDATION_FAILED',
    ],
    PASSED: ['OK'],
    REJECTED: ['DENY'],
    WARNING: ['ALERT'],
  },
};

/** The per-field match results of the government ID data check (capability data of `govtIdVerification`). */
export const GOVT_ID_MATCH_FIELDS = [
  'completeNameMatch',
  'initialNameMatch',
  'firstNameMatch',
  'lastNameMatch',
  'nationalIdMatch',
  'dobDayMatch',
  'dobMonthMatch',
  'dobYearMatch',
  'dobMatch',
  'phoneMatch',
  'addressMatch',
  'sexMatch',
  'stateMatch',
  'cityMatch',
  'pincodeMatch',
  'issuingDateMatch',
  'personalIdNumberMatch',
  'ocrMatch',
  'cicMatch',
  'issuingNumberMatch',
  'issuingYearMatch',
  'electorKeyMatch',
  'paternalSurnameMatch',
  'maternalSurnameMatch',
] as const;
