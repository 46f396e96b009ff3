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
