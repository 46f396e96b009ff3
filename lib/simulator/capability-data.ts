// Realistic `data` members for every capability array of the spec, shaped as the spec's tables say.
import { GOVT_ID_MATCH_FIELDS } from '@/lib/spec/vocabulary';
import { COUNTRY_BY_CODE, type DecisionType } from './catalog';
import { ageAt, dateParts, mrzFor, type Person } from './person';
import type { Rng } from './prng';

export interface DataContext {
  rng: Rng;
  person?: Person;
  type: DecisionType;
  label: string;
  at: Date;
  faceMatches: string[];
  docMatches: string[];
  /** A device (and its address) shared with other executions: an attack crew's phone or laptop. */
  device?: { alias: string; ip: string };
  newId: () => string;
  createdAt: Date;
}

const MATCH = (ok: boolean) => (ok ? 'MATCH' : 'NOT_MATCH');
const iso = (d: Date) => d.toISOString();

export function extractionData(ctx: DataContext, source: 'document' | 'data') {
  const p = ctx.person;
  if (!p) return {};
  const base: Record<string, unknown> = {
    type: p.docType,
    issuingCountry: p.country,
    firstName: p.firstName,
    lastName: p.lastName,
    ...(p.middleName ? { middleName: p.middleName } : {}),
    dateOfBirth: p.dateOfBirth,
    ...(p.dateOfBirth ? { dateOfBirthParts: dateParts(p.dateOfBirth) } : {}),
    gender: p.sex,
    nationality: p.nationality,
  };
  if (source === 'data') {
    if (p.docNumber) base.documentNumber = p.docNumber;
    if (p.address) base.address = p.address;
    if (p.ssn) base.socialSecurityNumber = p.ssn;
    if (p.expiryDate) base.expiryDate = p.expiryDate;
    if (p.issuingDate) base.issuingDate = p.issuingDate;
    return stripUndefined(base);
  }
  Object.assign(base, {
    subType:
      p.docType === 'DRIVING_LICENSE'
        ? 'REGULAR_DRIVING_LICENSE'
        : p.docType === 'ID_CARD'
          ? 'NATIONAL_ID'
          : p.docType === 'PASSPORT'
            ? 'E_PASSPORT'
            : undefined,
    documentNumber: p.docNumber,
    expiryDate: p.expiryDate,
    expiryDateParts: dateParts(p.expiryDate),
    issuingDate: p.issuingDate,
    issuingDateParts: dateParts(p.issuingDate),
    signatureAvailable: true,
    issuingAuthority: p.docType === 'DRIVING_LICENSE' ? 'Motor Vehicle Authority' : 'Ministry of Interior',
    placeOfBirth: p.placeOfBirth,
    currentAge: String(ageAt(p.dateOfBirth, ctx.at) ?? ''),
  });
  if (p.personalNumber) base.personalNumber = p.personalNumber;
  if (p.docType === 'PASSPORT') base.passportNumber = p.docNumber;
  if (p.docType === 'ID_CARD' || p.docType === 'DRIVING_LICENSE') base.address = p.address;
  if (p.state) base.state = p.state;
  if (p.cpf) base.cpf = p.cpf;
  if (p.country === 'POL' && p.personalNumber) base.pesel = p.personalNumber;
  if (p.country === 'ESP') base.dni = p.docNumber;
  if (p.docType === 'DRIVING_LICENSE') {
    base.dlCategories = [
      {
        category: 'B',
        issueDate: p.issuingDate,
        expiryDate: p.expiryDate,
        isReadable: true,
        availability: 'AVAILABLE',
      },
      ...(ctx.rng.chance(0.2)
        ? [
            {
              category: 'A',
              issueDate: p.issuingDate,
              expiryDate: p.expiryDate,
              isReadable: true,
              availability: 'AVAILABLE',
            },
          ]
        : []),
    ];
    base.dlRestrictions = ctx.rng.chance(0.3) ? [{ restriction: 'CORRECTIVE_LENSES', availability: 'AVAILABLE' }] : [];
  }
  if (p.docType === 'VISA') Object.assign(base, { visaCategory: 'C', durationOfStay: '90', numberOfEntries: 'MULT' });
  const mrz = mrzFor(p);
  if (mrz) base.mrz = mrz;
  return stripUndefined(base);
}

export function classificationData(ctx: DataContext) {
  const p = ctx.person;
  if (!p) return {};
  const c = COUNTRY_BY_CODE.get(p.country);
  return stripUndefined({
    country: p.country,
    state: p.state,
    type: p.docType,
    subType:
      p.docType === 'PASSPORT' ? 'E_PASSPORT' : p.docType === 'ID_CARD' ? 'NATIONAL_ID' : 'REGULAR_DRIVING_LICENSE',
    printedDocumentName: `${c?.name ?? p.country} ${p.docType.replace('_', ' ').toLowerCase()}`,
    firstIssueDate: '2014-11-01',
    lastIssueDate: '2021-06-01',
    notValidAfter: p.expiryDate,
    hasCryptoChip: p.docType !== 'DRIVING_LICENSE',
    isFoldable: p.docType === 'PASSPORT',
    isHandwritten: false,
    layout: p.docType === 'PASSPORT' ? 'TD3' : 'TD1',
    material: p.docType === 'PASSPORT' ? 'PAPER' : 'POLYCARBONATE',
    usaRealIDCompliant: p.country === 'USA' ? true : undefined,
  });
}

export function similarityData(ctx: DataContext) {
  const r = ctx.rng;
  const similarity = ctx.type === 'PASSED' ? 'MATCH' : ctx.type === 'REJECTED' ? 'NO_MATCH' : 'NOT_POSSIBLE';
  const score =
    similarity === 'MATCH' ? 0.85 + r.next() * 0.149 : similarity === 'NO_MATCH' ? 0.05 + r.next() * 0.4 : 0;
  return { similarity, score: Math.round(score * 1000) / 1000 };
}

export function livenessData(ctx: DataContext) {
  const age = ageAt(ctx.person?.dateOfBirth, ctx.at) ?? ctx.rng.int(20, 60);
  const predicted =
    ctx.label === 'AGE_DIFFERENCE'
      ? age + (ctx.rng.chance(0.5) ? 1 : -1) * ctx.rng.int(12, 25)
      : age + ctx.rng.int(-4, 4);
  const lo = Math.max(10, predicted - 4);
  return {
    type: ctx.rng.chance(0.8) ? 'VENDOR_STANDARD' : 'VENDOR_PREMIUM',
    predictedAge: Math.max(12, predicted),
    ageConfidenceRange: `${lo}-${lo + 8}`,
  };
}

export function imageChecksData(ctx: DataContext) {
  // The draw is always made so the generator's sequence stays the same; a search that found
  // matches has finished, so a REPEATED_FACE result always lists them.
  const pending = ctx.rng.chance(0.01);
  const status = pending && ctx.faceMatches.length === 0 ? 'PENDING' : 'DONE';
  const descriptions: Record<string, string> = {
    OK: 'No indication of fraud found',
    DIGITAL_COPY: 'The document is a photo of a screen',
    REPEATED_FACE: 'The face was seen in other transactions with different data',
    DIFFERENT_PERSON: 'The face on the document differs from the selfie',
  };
  return {
    faceSearchFindings: { status, findings: status === 'DONE' ? ctx.faceMatches : [] },
    raiDecisionDetails: ctx.label,
    raiDecisionDetailsDescription:
      descriptions[ctx.label] ??
      (ctx.label.startsWith('MANIPULATED')
        ? 'Signs of manipulation were found on the document'
        : `Image check result: ${ctx.label}`),
  };
}

export function watchlistData(ctx: DataContext) {
  const hits = ctx.type === 'WARNING' ? ctx.rng.int(1, 4) : 0;
  return {
    searchDate: iso(ctx.at),
    searchId: String(ctx.rng.int(100000000, 999999999)),
    searchReference: `${ctx.rng.int(1000000000, 1999999999)}-${ctx.rng.hex(8)}`,
    searchStatus: hits ? 'SUCCESS_POSSIBLE_MATCH' : 'SUCCESS_NO_MATCH',
    searchResults: hits,
    searchResultsFromInternalList: 0,
  };
}

export function advancedWatchlistData(ctx: DataContext) {
  return {
    screeningResult: ctx.type === 'WARNING' ? 'POTENTIAL_MATCH' : 'NO_MATCH',
    matchCategories: ctx.type === 'WARNING' ? 'PEP,SANCTIONS' : '',
    customerIdentifier: `cust-${ctx.rng.hex(10)}`,
    screeningDate: iso(ctx.at),
  };
}

export function reasonData(ctx: DataContext) {
  const reasons: Record<string, string> = {
    OK: 'Address verified',
    ALERT: 'Address could only be partially verified',
    DENY: 'Address does not exist',
  };
  return { reasonMessage: reasons[ctx.label] ?? ctx.label };
}

export function drivingLicenseData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  const miss = ok ? '' : ctx.rng.pick(['addressMatch', 'idNumberMatch', 'dobMatch', 'lastNameMatch']);
  const keys = [
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
  ];
  return Object.fromEntries(keys.map((k) => [k, MATCH(k !== miss)]));
}

export function ekycVerificationData(ctx: DataContext) {
  const r = ctx.rng,
    p = ctx.person,
    ok = ctx.type === 'PASSED';
  return {
    emailValid: true,
    phoneValid: ok || r.chance(0.5),
    emailMatchToName: ok ? 'MATCH' : 'NO_MATCH',
    phoneMatchToName: ok ? 'MATCH' : 'PARTIAL_MATCH',
    addressValidityLevel: ok ? 'PREMISE' : 'STREET',
    addressMatchToName: ok ? 'MATCH' : 'NO_MATCH',
    phoneLineType: r.pick(['Mobile', 'Landline', 'NonFixedVOIP']),
    phoneMatchToAddress: ok ? 'MATCH' : 'NO_MATCH',
    emailDomainCreationDate: '1997-09-15',
    phoneCountry: p?.country ?? 'USA',
    phoneCarrier: r.pick(['Vodafone', 'T-Mobile', 'Orange', 'Verizon', 'Telefonica']),
    ipGeoLocationCountry: p?.country ?? 'USA',
    ipGeoLocationState: p?.state ?? '',
    emailFirstSeenDays: r.int(30, 4000),
    ipLastSeenDays: r.int(0, 200),
    ipToAddressDistance: r.int(0, 300),
    phoneLastSeenDays: r.int(0, 100),
    identityRiskScore: ok ? r.int(0, 300) : r.int(500, 900),
    phoneEmailFirstSeenDays: r.int(10, 3000),
    ipPhoneDistance: r.int(0, 500),
    ipRisk: !ok && r.chance(0.5),
    identityNetworkScore: Math.round(r.next() * 1000) / 1000,
    ipRiskScore: Math.round(r.next() * (ok ? 30 : 90)),
  };
}

export function deviceRiskData(ctx: DataContext) {
  const r = ctx.rng,
    ok = ctx.type === 'PASSED',
    country = ctx.person?.country ?? 'USA';
  const city = COUNTRY_BY_CODE.get(country)?.cities[0] ?? 'Unknown';
  // Shared carrier space (RFC 6598): wide enough that two strangers rarely get the same address.
  const ip = ctx.device?.ip ?? `100.${r.int(64, 127)}.${r.int(0, 255)}.${r.int(1, 254)}`;
  const risk = (bad: boolean) => (bad ? r.pick(['HIGH', 'MEDIUM']) : 'LOW');
  return {
    remoteSoftwareUsed: !ok && r.chance(0.3),
    rootedDeviceUsed: false,
    emulatorUsed: !ok && r.chance(0.3),
    browserCookiesEnabled: true,
    flashEnabled: false,
    deviceIsNew: r.chance(0.4),
    suspectedProxyUsedRisk: risk(!ok),
    suspectedOSAnomalyRisk: 'LOW',
    suspectedRemoteSessionRisk: risk(!ok && r.chance(0.5)),
    suspectedVPNUsedRisk: risk(!ok),
    deviceModel: r.pick(['iPhone 14', 'Pixel 7', 'Galaxy S23', 'MacBook Pro', 'Windows PC']),
    deviceOS: r.pick(['iOS 17.4', 'Android 14', 'macOS 14.3', 'Windows 11']),
    browser: r.pick(['Chrome', 'Safari', 'Firefox', 'Edge']),
    ipType: r.pick(['RESIDENTIAL', 'MOBILE', 'BUSINESS']),
    trueIP: ip,
    ipLocationCity: city,
    ipLocationCountry: country,
    ipLocationLatitude: String(40 + r.next() * 10).slice(0, 7),
    ipLocationLongitude: String(-3 + r.next() * 20).slice(0, 7),
    ipLocationRegion: ctx.person?.state ?? '',
    metaDataAge: String(r.int(1, 900)),
    browserLanguage: r.pick(['en-US', 'en-GB', 'de-DE', 'fr-FR', 'es-ES']),
    browserVersion: `${r.int(100, 124)}.0`,
    deviceFirstSeen: iso(new Date(ctx.at.getTime() - r.int(0, 400) * 86_400_000)),
    deviceScreen: r.pick(['390x844', '1920x1080', '1440x900']),
    isp: r.pick(['Comcast', 'BT', 'Deutsche Telekom', 'Orange', 'Vodafone']),
    browserTimezone: 'UTC',
    deviceIdAlias: ctx.device?.alias ?? r.hex(16),
    sessionIPCount: r.int(1, ok ? 2 : 9),
    deviceAlerts: ok ? [] : ['VELOCITY_HIGH'],
    statedIp: {
      ip,
      isp: 'Example ISP',
      ipLocation: { city, country, latitude: '48.1', longitude: '11.5', region: '' },
    },
  };
}

export function braCpfData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  return {
    nameMatch: MATCH(ok),
    cpfMatch: 'MATCH',
    dateOfBirthMatch: MATCH(ok || ctx.rng.chance(0.5)),
    suspended: false,
    deceased: false,
    cancelled: !ok && ctx.rng.chance(0.3),
    regularizationPending: false,
    cancellationReason: '',
  };
}

export function biometricData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  const keys = [
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
  ];
  return {
    ...Object.fromEntries(keys.map((k) => [k, ok || k !== 'faceMatch' ? 'MATCH' : 'NOT_MATCH'])),
    code: ok ? '00' : '410',
    description: ok ? 'Successful verification' : 'Biometric data does not match',
  };
}

export function govtIdData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  const keys = GOVT_ID_MATCH_FIELDS;
  return {
    country: ctx.person?.country ?? 'BRA',
    type: ctx.person?.docType ?? 'PASSPORT',
    ...Object.fromEntries(keys.map((k) => [k, ok || k !== 'dobMatch' ? 'MATCH' : 'NOT_MATCH'])),
    registrationYearMatch: 'MATCH',
    score: ok ? '20' : '10',
    reasonMessage: ok ? 'Verified' : 'Date of birth mismatch',
    message: ok ? 'Valid document' : 'Check failed',
    cardType: ctx.rng.pick(['C', 'D', 'E/F', 'G/H']),
    laserIdMatch: true,
    idDeactivated: false,
    suspended: false,
    deceased: false,
    cancelled: false,
    regularizationPending: false,
    statusCode: ok ? 0 : 1,
    statusDescription: ok ? ['Valid/Active'] : ['Valid with Loss or Suspension of Political Right'],
    cancellationReason: '',
  };
}

export function kycCheckData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  return {
    emailVerificationStatus: ok
      ? ctx.rng.pick(['Certified', 'Verified'])
      : ctx.rng.pick(['EmailInexistent', 'DomainInexistent', 'ValidDomain']),
    phoneType: ok ? ctx.rng.pick(['mobile', 'fixed line']) : ctx.rng.pick(['voip', 'prepaid', 'invalid']),
    watchlistVerificationStatus: ok ? 'false_positive' : ctx.rng.pick(['potential_match', 'unknown']),
  };
}

export function searchBusinessData(ctx: DataContext) {
  const n = ctx.rng.int(1, 3);
  return {
    results: Array.from({ length: n }, (_, i) => ({
      registrationNumber: `HRB ${ctx.rng.int(10000, 99999)}`,
      name: `${ctx.person?.lastName ?? 'Example'} ${ctx.rng.pick(['Holding', 'Trading', 'Services', 'Logistics'])} ${ctx.rng.pick(['GmbH', 'Ltd', 'LLC', 'S.A.'])}`,
      country: ctx.person?.country ?? 'DEU',
      state: ctx.person?.state ?? '',
      city: ctx.person?.address?.city ?? '',
      address: ctx.person?.address?.line1 ?? '',
      kybCapabilities: i % 2 ? 'ADVERSE_MEDIA' : 'COMPLIANCE_WATCHLIST',
      searchId: ctx.rng.int(100000, 999999),
    })),
  };
}

export function businessInfoData(ctx: DataContext) {
  return {
    results: [
      {
        kyb_source: 'COMPANY_REGISTRY',
        data: {
          status: 'ACTIVE',
          incorporationDate: '2012-03-14',
          officers: [`${ctx.person?.firstName ?? ''} ${ctx.person?.lastName ?? ''}`.trim()],
        },
      },
    ],
  };
}

export function emailVerificationData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED',
    domain = ctx.person?.email?.split('@')[1] ?? 'example.com';
  return {
    emailVerificationStatus: ok ? 'Verified' : 'Unverified',
    firstVerifiedAt: iso(new Date(ctx.at.getTime() - ctx.rng.int(10, 2000) * 86_400_000)),
    totalHits: String(ctx.rng.int(1, 80)),
    emailExists: ok,
    domainExists: true,
    domainName: domain,
    domainCompany: 'Example Mail',
    advice: ok ? 'LOW_RISK' : 'DATA_REVIEW',
    domainCountry: ctx.person?.country ?? 'USA',
    domainCategory: 'Webmail',
    reason: ok ? 'NONE' : 'RISKY_COUNTRY',
    emailDeterminedStatus: ok ? 'Valid' : 'Not Sure',
    domainDeterminedStatus: ok ? 'Valid' : 'Not Sure',
    countryForReason: ctx.person?.country ?? '',
    domainRiskLevel: ok ? 'VERY_LOW' : ctx.rng.pick(['MEDIUM', 'HIGH']),
    domainCreationDate: '1997-09-15T00:00:00.000Z',
    domainCorporate: 'false',
    countForReason: ok ? 0 : ctx.rng.int(1, 5),
  };
}

export function phoneVerificationData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  return {
    phoneType: ok ? 'mobile' : ctx.rng.pick(['voip', 'prepaid']),
    carrier: ctx.rng.pick(['Vodafone', 'T-Mobile', 'Orange', 'Verizon']),
    blocked: false,
    riskInsights: {
      relativeRisk: [ok ? 'LOW_RISK' : 'HIGH_RISK'],
      applicationToPersonTraffic: ['A2P_TRAFFIC_NORMAL'],
      personToPersonTraffic: ['P2P_TRAFFIC_NORMAL'],
      numberType: [ok ? 'MOBILE' : 'NON_FIXED_VOIP'],
    },
  };
}

export function geoIpData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED',
    country = ctx.person?.country ?? 'USA';
  return {
    country,
    state: ctx.person?.state ?? '',
    city: COUNTRY_BY_CODE.get(country)?.cities[0] ?? '',
    isp: 'Example Broadband',
    organization: 'Example Broadband',
    accuracyRadius: ctx.rng.int(5, 200),
    latitude: 48.137,
    longitude: 11.575,
    torExitNode: !ok && ctx.rng.chance(0.3),
    anonymous: !ok,
    anonymousVpn: !ok && ctx.rng.chance(0.5),
    highBillingPostalCodeVelocity: false,
    highEmailVelocity: false,
    highIssuerIdVelocity: false,
    highRiskDevicesActivity: !ok,
    highRiskEmailsActivity: false,
    highRiskNetworkActivity: !ok,
    ...(ok ? { userType: 'RESIDENTIAL' } : { proxyType: 'ANONYMOUS', userType: 'HOSTING' }),
  };
}

export function ekycSsnData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  return {
    addressVerificationResult: ok ? 'VERIFIED' : 'PARTIAL',
    ssnResult: ok ? 'VALID' : 'ISSUED_AFTER_DOB',
    dobVerification: 'VERIFIED',
    addressDescription: ok ? 'Address matches' : 'Address partially matches',
    ssnDescription: ok ? 'SSN valid' : 'SSN mismatch',
    dobDescription: 'Date of birth matches',
    addressResultRisk: ok ? 'LOW' : 'MEDIUM',
    phoneResultRisk: 'LOW',
    deceased: 'NO',
    addressType: 'RESIDENTIAL',
    addressMatch: 'MATCH',
    nameMatchToSsn: 'MATCH',
    nameMatchToAddress: 'MATCH',
    phoneMatch: 'MATCH',
    ssnMatch: ok ? 'MATCH' : 'NOT_MATCH',
    dateOfBirthMatch: 'MATCH',
    isDeceased: false,
    isSSNIssuedPriorYOB: !ok,
  };
}

export function ekycAdvancedData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED';
  return {
    verificationResult: ok ? 'VERIFIED' : 'NOT_VERIFIED',
    nameMatch: 'MATCH',
    addressMatch: MATCH(ok),
    nationalIdMatch: 'MATCH',
    dobMatch: 'MATCH',
    dobDayMatch: 'MATCH',
    dobMonthMatch: 'MATCH',
    dobYearMatch: 'MATCH',
    phoneMatch: MATCH(ok),
  };
}

export function ekycCheckData(ctx: DataContext) {
  const ok = ctx.type === 'PASSED',
    r = ctx.rng;
  const v = () => (ok ? (r.chance(0.9) ? 'MATCH' : 'PARTIAL_MATCH') : r.pick(['MATCH', 'PARTIAL_MATCH', 'NOT_MATCH']));
  const keys = [
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
  ];
  const searchType = r.pick(['1+1', '2+2']);
  return {
    ...Object.fromEntries(keys.map((k) => [k, v()])),
    datasourceType: 'CREDIT_BUREAU',
    searchType,
    matchType: searchType,
    source: r.pick(['CRD1', 'TEL1']),
    datasourceSummary: [
      { name: 'Credit bureau', matched: ok },
      { name: 'Telecom', matched: ok || r.chance(0.5) },
    ],
  };
}

function counters(ids: string[], at: Date) {
  const high = ids.length;
  return {
    highRiskTransactions: high,
    mediumRiskTransactions: 0,
    lowRiskTransactions: 0,
    earliestTransactionTime: high ? iso(new Date(at.getTime() - 86_400_000 * 3)) : undefined,
    latestTransactionTime: high ? iso(at) : undefined,
  };
}
function lookupBlock(ids: string[], at: Date) {
  const c = counters(ids, at);
  return stripUndefined({
    totalHighRiskTransactions: ids.length,
    totalMediumRiskTransactions: 0,
    totalLowRiskTransactions: 0,
    earliestTransactionTime: c.earliestTransactionTime,
    latestTransactionTime: c.latestTransactionTime,
    network: stripUndefined({ ...c, transactions: ids }),
    associatedNetwork: stripUndefined({ ...c, transactions: ids.length ? { documentNumber: ids } : {} }),
    globalNetwork: stripUndefined({ ...c }),
  });
}
export function lookupsData(ctx: DataContext) {
  return {
    matchedTransactions: lookupBlock(ctx.docMatches, ctx.at),
    faceMatchedTransactions: lookupBlock(ctx.faceMatches, ctx.at),
    matchedImagesTransactions: lookupBlock([], ctx.at),
  };
}

export function riskAnalyticsData(ctx: DataContext) {
  const ids = [...new Set([...ctx.faceMatches, ...ctx.docMatches])];
  const score = ids.length ? Math.min(100, 40 + ids.length * 12) : ctx.rng.int(0, 20);
  const level = score > 70 ? 'HIGH' : score > 30 ? 'MEDIUM' : 'LOW';
  return {
    associationRisk: {
      riskLevel: level,
      riskScore: score,
      insights: ids.length
        ? [
            {
              message: 'Face or document seen in other transactions',
              value: String(ids.length),
              riskLevel: level,
              riskScore: score,
            },
          ]
        : [],
    },
    network: {
      totalAssociations: ids.length,
      totalHighRiskAssociations: ids.length,
      associatedEntities: ids.map((t) => ({
        transactionId: t,
        highRiskTransaction: true,
        riskScore: score,
        entities: ['FACE'],
      })),
    },
    globalNetwork: { totalAssociations: ids.length, totalHighRiskAssociations: 0, associatedEntities: [] },
  };
}

export function stripUndefined<T extends Record<string, unknown>>(o: T): T {
  for (const k of Object.keys(o)) if (o[k] === undefined) delete o[k];
  return o;
}
