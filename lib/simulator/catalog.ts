// Value sets the simulator draws from: countries, names, labels, rules, workflow definitions.
// Labels and dependencies follow ../shared/reference/service-facts.md.
import {
  CAPABILITY_LABELS,
  type DECISION_TYPES,
  type DOCUMENT_TYPES,
  type WORKFLOW_STATUSES,
} from '@/lib/spec/vocabulary';

export interface CountryInfo {
  code: string;
  name: string;
  weight: number;
  region: keyof typeof NAMES;
  cities: string[];
  states?: string[];
  highRisk?: boolean;
  /** Document types issued and commonly used, with weights. */
  docs: Array<[DocType, number]>;
  phonePrefix: string;
}
export type DocType = (typeof DOCUMENT_TYPES)[number];

const EU_DOCS: Array<[DocType, number]> = [
  ['ID_CARD', 55],
  ['PASSPORT', 30],
  ['DRIVING_LICENSE', 15],
];
const ANGLO_DOCS: Array<[DocType, number]> = [
  ['DRIVING_LICENSE', 55],
  ['PASSPORT', 40],
  ['ID_CARD', 5],
];
const PASS_DOCS: Array<[DocType, number]> = [
  ['PASSPORT', 60],
  ['ID_CARD', 25],
  ['DRIVING_LICENSE', 15],
];

export const COUNTRIES: CountryInfo[] = [
  {
    code: 'USA',
    name: 'United States',
    weight: 18,
    region: 'anglo',
    cities: ['New York', 'Austin', 'Chicago', 'San Diego', 'Seattle'],
    states: ['NY', 'TX', 'IL', 'CA', 'WA', 'FL'],
    docs: ANGLO_DOCS,
    phonePrefix: '+1',
  },
  {
    code: 'GBR',
    name: 'United Kingdom',
    weight: 10,
    region: 'anglo',
    cities: ['London', 'Manchester', 'Leeds', 'Bristol'],
    docs: ANGLO_DOCS,
    phonePrefix: '+44',
  },
  {
    code: 'DEU',
    name: 'Germany',
    weight: 9,
    region: 'german',
    cities: ['Berlin', 'Hamburg', 'München', 'Köln'],
    docs: EU_DOCS,
    phonePrefix: '+49',
  },
  {
    code: 'FRA',
    name: 'France',
    weight: 7,
    region: 'french',
    cities: ['Paris', 'Lyon', 'Marseille', 'Lille'],
    docs: EU_DOCS,
    phonePrefix: '+33',
  },
  {
    code: 'ESP',
    name: 'Spain',
    weight: 6,
    region: 'spanish',
    cities: ['Madrid', 'Barcelona', 'Valencia', 'Sevilla'],
    docs: EU_DOCS,
    phonePrefix: '+34',
  },
  {
    code: 'ITA',
    name: 'Italy',
    weight: 6,
    region: 'italian',
    cities: ['Roma', 'Milano', 'Napoli', 'Torino'],
    docs: EU_DOCS,
    phonePrefix: '+39',
  },
  {
    code: 'NLD',
    name: 'Netherlands',
    weight: 4,
    region: 'dutch',
    cities: ['Amsterdam', 'Rotterdam', 'Utrecht'],
    docs: EU_DOCS,
    phonePrefix: '+31',
  },
  {
    code: 'POL',
    name: 'Poland',
    weight: 4,
    region: 'polish',
    cities: ['Warszawa', 'Kraków', 'Gdańsk', 'Wrocław'],
    docs: EU_DOCS,
    phonePrefix: '+48',
  },
  {
    code: 'BRA',
    name: 'Brazil',
    weight: 5,
    region: 'portuguese',
    cities: ['São Paulo', 'Rio de Janeiro', 'Belo Horizonte'],
    states: ['SP', 'RJ', 'MG'],
    docs: PASS_DOCS,
    phonePrefix: '+55',
  },
  {
    code: 'MEX',
    name: 'Mexico',
    weight: 4,
    region: 'spanish',
    cities: ['Ciudad de México', 'Guadalajara', 'Monterrey'],
    docs: PASS_DOCS,
    phonePrefix: '+52',
  },
  {
    code: 'IND',
    name: 'India',
    weight: 5,
    region: 'indian',
    cities: ['Mumbai', 'Delhi', 'Bengaluru', 'Chennai'],
    states: ['MH', 'DL', 'KA', 'TN'],
    docs: PASS_DOCS,
    phonePrefix: '+91',
  },
  {
    code: 'CAN',
    name: 'Canada',
    weight: 3,
    region: 'anglo',
    cities: ['Toronto', 'Vancouver', 'Montréal'],
    states: ['ON', 'BC', 'QC'],
    docs: ANGLO_DOCS,
    phonePrefix: '+1',
  },
  {
    code: 'AUS',
    name: 'Australia',
    weight: 2,
    region: 'anglo',
    cities: ['Sydney', 'Melbourne', 'Brisbane'],
    states: ['NSW', 'VIC', 'QLD'],
    docs: ANGLO_DOCS,
    phonePrefix: '+61',
  },
  {
    code: 'IRL',
    name: 'Ireland',
    weight: 1.5,
    region: 'anglo',
    cities: ['Dublin', 'Cork'],
    docs: PASS_DOCS,
    phonePrefix: '+353',
  },
  {
    code: 'PRT',
    name: 'Portugal',
    weight: 1.5,
    region: 'portuguese',
    cities: ['Lisboa', 'Porto'],
    docs: EU_DOCS,
    phonePrefix: '+351',
  },
  {
    code: 'BEL',
    name: 'Belgium',
    weight: 1.5,
    region: 'french',
    cities: ['Bruxelles', 'Antwerpen'],
    docs: EU_DOCS,
    phonePrefix: '+32',
  },
  {
    code: 'AUT',
    name: 'Austria',
    weight: 1,
    region: 'german',
    cities: ['Wien', 'Graz'],
    docs: EU_DOCS,
    phonePrefix: '+43',
  },
  {
    code: 'CHE',
    name: 'Switzerland',
    weight: 1,
    region: 'german',
    cities: ['Zürich', 'Genève', 'Basel'],
    docs: EU_DOCS,
    phonePrefix: '+41',
  },
  {
    code: 'SWE',
    name: 'Sweden',
    weight: 1,
    region: 'nordic',
    cities: ['Stockholm', 'Göteborg'],
    docs: EU_DOCS,
    phonePrefix: '+46',
  },
  {
    code: 'ROU',
    name: 'Romania',
    weight: 1.5,
    region: 'romanian',
    cities: ['București', 'Cluj-Napoca'],
    docs: EU_DOCS,
    phonePrefix: '+40',
  },
  {
    code: 'TUR',
    name: 'Türkiye',
    weight: 1.5,
    region: 'turkish',
    cities: ['İstanbul', 'Ankara', 'İzmir'],
    docs: PASS_DOCS,
    phonePrefix: '+90',
  },
  {
    code: 'NGA',
    name: 'Nigeria',
    weight: 1.5,
    region: 'nigerian',
    cities: ['Lagos', 'Abuja'],
    highRisk: true,
    docs: PASS_DOCS,
    phonePrefix: '+234',
  },
  {
    code: 'PHL',
    name: 'Philippines',
    weight: 1.5,
    region: 'filipino',
    cities: ['Manila', 'Cebu'],
    docs: PASS_DOCS,
    phonePrefix: '+63',
  },
  {
    code: 'JPN',
    name: 'Japan',
    weight: 1,
    region: 'japanese',
    cities: ['Tokyo', 'Osaka'],
    docs: PASS_DOCS,
    phonePrefix: '+81',
  },
  {
    code: 'ZAF',
    name: 'South Africa',
    weight: 1,
    region: 'anglo',
    cities: ['Johannesburg', 'Cape Town'],
    docs: PASS_DOCS,
    phonePrefix: '+27',
  },
  {
    code: 'ARG',
    name: 'Argentina',
    weight: 1,
    region: 'spanish',
    cities: ['Buenos Aires', 'Córdoba'],
    docs: PASS_DOCS,
    phonePrefix: '+54',
  },
  {
    code: 'COL',
    name: 'Colombia',
    weight: 1,
    region: 'spanish',
    cities: ['Bogotá', 'Medellín'],
    highRisk: true,
    docs: PASS_DOCS,
    phonePrefix: '+57',
  },
];
export const COUNTRY_BY_CODE = new Map(COUNTRIES.map((c) => [c.code, c]));
export const COUNTRY_WEIGHTS = COUNTRIES.map((c) => [c, c.weight] as const);
export const HIGH_RISK_COUNTRIES = new Set(
  COUNTRIES.filter((c) => c.highRisk)
    .map((c) => c.code)
    .concat(['IRN', 'PRK', 'SYR', 'AFG']),
);

interface NameSet {
  male: string[];
  female: string[];
  last: string[];
}
export const NAMES = {
  anglo: {
    male: [
      'James',
      'John',
      'Michael',
      'David',
      'Daniel',
      'Matthew',
      'Christopher',
      'Andrew',
      'Joshua',
      'Ryan',
      'Thomas',
      'William',
      'Oliver',
      'Liam',
      'Ethan',
    ],
    female: [
      'Mary',
      'Jennifer',
      'Sarah',
      'Jessica',
      'Emily',
      'Emma',
      'Olivia',
      'Sophie',
      'Hannah',
      'Charlotte',
      'Grace',
      'Megan',
      'Laura',
      'Rachel',
      'Amelia',
    ],
    last: [
      'Smith',
      'Johnson',
      'Williams',
      'Brown',
      'Jones',
      'Miller',
      'Davis',
      'Wilson',
      'Taylor',
      'Anderson',
      'Thomas',
      'Moore',
      'Walker',
      'Wright',
      'Evans',
      'Clarke',
      'Hughes',
      'Robinson',
      'Murphy',
      'Kelly',
    ],
  },
  german: {
    male: [
      'Lukas',
      'Jonas',
      'Felix',
      'Maximilian',
      'Paul',
      'Leon',
      'Tobias',
      'Stefan',
      'Andreas',
      'Matthias',
      'Jan',
      'Florian',
    ],
    female: [
      'Anna',
      'Lena',
      'Laura',
      'Julia',
      'Sophie',
      'Katharina',
      'Sarah',
      'Marie',
      'Lea',
      'Hannah',
      'Johanna',
      'Sabine',
    ],
    last: [
      'Müller',
      'Schmidt',
      'Schneider',
      'Fischer',
      'Weber',
      'Meyer',
      'Wagner',
      'Becker',
      'Schulz',
      'Hoffmann',
      'Koch',
      'Richter',
      'Klein',
      'Wolf',
    ],
  },
  french: {
    male: ['Louis', 'Gabriel', 'Hugo', 'Lucas', 'Jules', 'Thomas', 'Nicolas', 'Antoine', 'Pierre', 'Julien', 'Maxime'],
    female: ['Emma', 'Chloé', 'Camille', 'Léa', 'Manon', 'Inès', 'Juliette', 'Claire', 'Sophie', 'Marion', 'Élise'],
    last: [
      'Martin',
      'Bernard',
      'Dubois',
      'Thomas',
      'Robert',
      'Richard',
      'Petit',
      'Durand',
      'Leroy',
      'Moreau',
      'Simon',
      'Laurent',
      'Lefebvre',
      'Michel',
    ],
  },
  spanish: {
    male: [
      'Alejandro',
      'Daniel',
      'Pablo',
      'Javier',
      'Carlos',
      'Diego',
      'Miguel',
      'Sergio',
      'Jorge',
      'Luis',
      'Andrés',
      'Mateo',
    ],
    female: [
      'Lucía',
      'María',
      'Paula',
      'Sofía',
      'Carmen',
      'Laura',
      'Ana',
      'Valentina',
      'Isabel',
      'Elena',
      'Camila',
      'Gabriela',
    ],
    last: [
      'García',
      'Rodríguez',
      'González',
      'Fernández',
      'López',
      'Martínez',
      'Sánchez',
      'Pérez',
      'Gómez',
      'Díaz',
      'Hernández',
      'Ruiz',
      'Torres',
      'Ramírez',
    ],
  },
  portuguese: {
    male: ['João', 'Pedro', 'Gabriel', 'Lucas', 'Rafael', 'Miguel', 'Tiago', 'Bruno', 'Felipe', 'Gustavo'],
    female: ['Maria', 'Ana', 'Beatriz', 'Mariana', 'Juliana', 'Camila', 'Larissa', 'Inês', 'Fernanda', 'Letícia'],
    last: [
      'Silva',
      'Santos',
      'Oliveira',
      'Souza',
      'Pereira',
      'Costa',
      'Rodrigues',
      'Almeida',
      'Ferreira',
      'Carvalho',
      'Gomes',
      'Ribeiro',
    ],
  },
  italian: {
    male: ['Francesco', 'Alessandro', 'Lorenzo', 'Matteo', 'Andrea', 'Marco', 'Giuseppe', 'Luca', 'Davide', 'Riccardo'],
    female: ['Giulia', 'Sofia', 'Aurora', 'Alice', 'Chiara', 'Francesca', 'Martina', 'Elena', 'Valentina', 'Sara'],
    last: [
      'Rossi',
      'Russo',
      'Ferrari',
      'Esposito',
      'Bianchi',
      'Romano',
      'Colombo',
      'Ricci',
      'Marino',
      'Greco',
      'Bruno',
      'Gallo',
    ],
  },
  dutch: {
    male: ['Daan', 'Sem', 'Lucas', 'Bram', 'Thijs', 'Jesse', 'Ruben', 'Lars', 'Sander'],
    female: ['Emma', 'Julia', 'Sanne', 'Lotte', 'Fleur', 'Anouk', 'Iris', 'Eva', 'Noor'],
    last: [
      'de Jong',
      'Jansen',
      'de Vries',
      'van den Berg',
      'van Dijk',
      'Bakker',
      'Visser',
      'Smit',
      'Meijer',
      'de Boer',
      'Mulder',
    ],
  },
  polish: {
    male: ['Jakub', 'Kacper', 'Szymon', 'Mateusz', 'Piotr', 'Tomasz', 'Paweł', 'Michał', 'Krzysztof'],
    female: ['Zuzanna', 'Julia', 'Maja', 'Anna', 'Katarzyna', 'Agnieszka', 'Magdalena', 'Natalia', 'Ewa'],
    last: [
      'Nowak',
      'Kowalski',
      'Wiśniewski',
      'Wójcik',
      'Kowalczyk',
      'Kamiński',
      'Lewandowski',
      'Zieliński',
      'Szymański',
    ],
  },
  indian: {
    male: ['Aarav', 'Vivaan', 'Aditya', 'Arjun', 'Rohan', 'Rahul', 'Vikram', 'Sanjay', 'Amit', 'Karan'],
    female: ['Priya', 'Ananya', 'Diya', 'Aisha', 'Kavya', 'Neha', 'Pooja', 'Sneha', 'Isha', 'Meera'],
    last: ['Sharma', 'Verma', 'Patel', 'Gupta', 'Singh', 'Kumar', 'Reddy', 'Iyer', 'Nair', 'Mehta', 'Joshi', 'Rao'],
  },
  nordic: {
    male: ['Erik', 'Lars', 'Oskar', 'William', 'Hugo', 'Axel', 'Nils'],
    female: ['Astrid', 'Elsa', 'Maja', 'Ingrid', 'Alva', 'Saga', 'Linnea'],
    last: ['Andersson', 'Johansson', 'Karlsson', 'Nilsson', 'Eriksson', 'Larsson', 'Olsson', 'Persson'],
  },
  romanian: {
    male: ['Andrei', 'Alexandru', 'Mihai', 'Ionuț', 'Gabriel', 'Florin', 'Cristian'],
    female: ['Ioana', 'Maria', 'Elena', 'Andreea', 'Alexandra', 'Cristina', 'Mihaela'],
    last: ['Popescu', 'Ionescu', 'Popa', 'Dumitru', 'Stan', 'Stoica', 'Gheorghe', 'Matei'],
  },
  turkish: {
    male: ['Mehmet', 'Mustafa', 'Ahmet', 'Emre', 'Burak', 'Can', 'Murat'],
    female: ['Zeynep', 'Elif', 'Ayşe', 'Fatma', 'Merve', 'Esra', 'Deniz'],
    last: ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Aydın', 'Öztürk'],
  },
  nigerian: {
    male: ['Chinedu', 'Emeka', 'Oluwaseun', 'Tunde', 'Ibrahim', 'Obinna', 'Segun'],
    female: ['Ngozi', 'Chiamaka', 'Funmilayo', 'Aisha', 'Adaeze', 'Yetunde', 'Blessing'],
    last: ['Okafor', 'Adeyemi', 'Okonkwo', 'Balogun', 'Eze', 'Abubakar', 'Nwosu', 'Ogunleye'],
  },
  filipino: {
    male: ['Jose', 'Mark', 'John Paul', 'Angelo', 'Carlo', 'Miguel'],
    female: ['Maria', 'Angelica', 'Kristine', 'Jasmine', 'Patricia', 'Nicole'],
    last: ['Santos', 'Reyes', 'Cruz', 'Bautista', 'Ocampo', 'Garcia', 'Mendoza', 'Villanueva'],
  },
  japanese: {
    male: ['Haruto', 'Yuto', 'Sota', 'Takumi', 'Kenji', 'Hiroshi'],
    female: ['Yui', 'Sakura', 'Hina', 'Aoi', 'Yuki', 'Emi'],
    last: ['Sato', 'Suzuki', 'Takahashi', 'Tanaka', 'Watanabe', 'Ito', 'Yamamoto', 'Nakamura'],
  },
} satisfies Record<string, NameSet>;

export const STREETS = [
  'Main Street',
  'High Street',
  'Station Road',
  'Park Avenue',
  'Church Lane',
  'Mill Road',
  'Oak Drive',
  'King Street',
  'Victoria Road',
  'Lake View',
];

export type WorkflowStatus = (typeof WORKFLOW_STATUSES)[number];

export type DecisionType = (typeof DECISION_TYPES)[number];
export const DECISION_SEVERITY: Record<string, number> = { PASSED: 0, WARNING: 1, REJECTED: 2, NOT_EXECUTED: -1 };

/** Default risk-score bands. */
export function bandOf(score: number): DecisionType {
  if (score < 0) return 'NOT_EXECUTED';
  if (score <= 30) return 'PASSED';
  if (score <= 70) return 'WARNING';
  return 'REJECTED';
}

export const CREDENTIAL_CATEGORIES = ['ID', 'SELFIE', 'FACEMAP', 'DATA', 'DOCUMENT'] as const;
export type KnownCategory = (typeof CREDENTIAL_CATEGORIES)[number];
/**
 * The spec lists the categories seen and says the list is not complete: a credential of another
 * category is accepted and echoed; it has no API parts the simulator knows and adds no capability.
 */
export type Category = KnownCategory | (string & {});
export const CHANNELS = ['WEB', 'API', 'SDK'] as const;
/** Channels of a category's credential when the request names none (an unknown category: all). */
export const defaultChannels = (c: Category): string[] => DEFAULT_CHANNELS[c as KnownCategory] ?? ['WEB', 'API', 'SDK'];
/** Part classifiers an API upload may use for a category's credential (an unknown category: none). */
export const classifiersOf = (c: Category): string[] => CATEGORY_CLASSIFIERS[c as KnownCategory] ?? [];
const DEFAULT_CHANNELS: Record<KnownCategory, string[]> = {
  ID: ['WEB', 'API', 'SDK'],
  SELFIE: ['WEB', 'API', 'SDK'],
  FACEMAP: ['WEB', 'SDK'],
  DATA: ['API'],
  DOCUMENT: ['WEB', 'API', 'SDK'],
};
/** Part classifiers an API upload may use, per credential category. */
const CATEGORY_CLASSIFIERS: Record<KnownCategory, string[]> = {
  ID: ['FRONT', 'BACK'],
  SELFIE: ['FACE'],
  FACEMAP: [],
  DATA: ['PREPARED_DATA'],
  DOCUMENT: ['DOCUMENT'],
};
/**
 * Parts the web capture page and the SDK take per category (the simulator's choice: the spec names
 * API part names only). A FACEMAP is captured as a face picture; DATA comes through the API only.
 */
export const captureClassifiersOf = (c: Category): string[] => CAPTURE_CLASSIFIERS[c as KnownCategory] ?? [];
const CAPTURE_CLASSIFIERS: Record<KnownCategory, string[]> = {
  ID: ['FRONT', 'BACK'],
  SELFIE: ['FACE'],
  FACEMAP: ['FACEMAP'],
  DATA: [],
  DOCUMENT: ['DOCUMENT'],
};
/** The part without which a credential is not complete (ID: FRONT; BACK is optional); unknown categories need none. */
export const requiredPartOf = (c: Category): string | undefined => REQUIRED_PART[c as KnownCategory];
const REQUIRED_PART: Record<KnownCategory, string> = {
  ID: 'FRONT',
  SELFIE: 'FACE',
  FACEMAP: 'FACEMAP',
  DATA: 'PREPARED_DATA',
  DOCUMENT: 'DOCUMENT',
};
export const CATEGORY_LABELS: Record<KnownCategory, string> = {
  ID: 'ID',
  SELFIE: 'SELFIE',
  FACEMAP: 'FACEMAP',
  DATA: 'DATA',
  DOCUMENT: 'DOCUMENT',
};

// The documented labels per capability and decision (the spec's words, lib/spec/vocabulary.ts).
export { CAPABILITY_LABELS as LABELS } from '@/lib/spec/vocabulary';
/** Generic labels for capabilities without a documented label set. */
export const GENERIC_LABELS: Record<DecisionType, string[]> = {
  PASSED: ['OK'],
  WARNING: ['ALERT'],
  REJECTED: ['DENY'],
  NOT_EXECUTED: ['PRECONDITION_NOT_FULFILLED', 'TECHNICAL_ERROR'],
};
export function labelsFor(capability: string, type: DecisionType): readonly string[] {
  const documented = CAPABILITY_LABELS[capability as keyof typeof CAPABILITY_LABELS]?.[type];
  return documented?.length ? documented : GENERIC_LABELS[type];
}

/** Capability dependencies (service-facts.md): child -> parent. */
export const CAPABILITY_PARENT: Record<string, string> = {
  imageChecks: 'usability',
  extraction: 'imageChecks',
  dataChecks: 'extraction',
  watchlistScreening: 'extraction',
  addressValidation: 'extraction',
  proofOfResidency: 'extraction',
  drivingLicenseVerification: 'extraction',
  liveness: 'usability',
  similarity: 'usability',
  authentication: 'usability',
};

// The results' 34 arrays, in the spec's order (the tests walk them under this name).
export { CAPABILITY_NAMES as ALL_CAPABILITIES } from '@/lib/spec/vocabulary';

/** Order in which capabilities are listed and evaluated (parents before children). */
export const CAPABILITY_ORDER: string[] = [
  'usability',
  'imageChecks',
  'extraction',
  'classification',
  'dataChecks',
  'liveness',
  'similarity',
  'authentication',
  'watchlistScreening',
  'advancedWatchlist',
  'addressValidation',
  'proofOfResidency',
  'drivingLicenseVerification',
  'ekycCheck',
  'ekycVerification',
  'globalIdentityCheck',
  'ekycSsnVerification',
  'ekycAdvancedVerification',
  'ekycGlobalVerification',
  'deviceRiskVerification',
  'braCpfValidation',
  'biometricVerification',
  'govtIdVerification',
  'kycCheck',
  'bankCheck',
  'binCheck',
  'searchBusiness',
  'businessInfo',
  'emailVerification',
  'phoneVerification',
  'geoIpVerification',
  'lookups',
  'riskAnalytics',
  'masking',
];

/** Step (R7) each capability belongs to, and the step's capability category name. */
export const CAPABILITY_STEP: Record<string, [step: string, category: string]> = {
  usability: ['ID_IV', 'Usability'],
  imageChecks: ['ID_IV', 'ImageCheck'],
  extraction: ['ID_IV', 'Extraction'],
  classification: ['ID_IV', 'Classification'],
  dataChecks: ['ID_IV', 'DataCheck'],
  liveness: ['ID_IV', 'Liveness'],
  similarity: ['ID_IV', 'Similarity'],
  authentication: ['ID_IV', 'Authentication'],
  masking: ['ID_IV', 'Masking'],
  lookups: ['ID_IV', 'Lookup'],
  riskAnalytics: ['ID_IV', 'RiskAnalytics'],
  watchlistScreening: ['SCREENING', 'WatchlistScreening'],
  advancedWatchlist: ['SCREENING', 'AdvancedWatchlist'],
  addressValidation: ['ADDRESS_VERIFICATION', 'AddressValidation'],
  proofOfResidency: ['ADDRESS_VERIFICATION', 'ProofOfResidency'],
  drivingLicenseVerification: ['DL_VERIFICATION', 'DrivingLicenseVerification'],
};
export function stepOf(capability: string): [string, string] {
  return CAPABILITY_STEP[capability] ?? ['EKYC', capability.charAt(0).toUpperCase() + capability.slice(1)];
}

export interface WorkflowDefinitionInfo {
  key: string;
  name: string;
  categories: KnownCategory[];
  capabilities: string[];
  weight: number;
}
export const WORKFLOW_DEFINITIONS: WorkflowDefinitionInfo[] = [
  {
    key: '10013',
    name: 'ID + selfie',
    categories: ['ID', 'SELFIE'],
    capabilities: [
      'usability',
      'imageChecks',
      'extraction',
      'classification',
      'dataChecks',
      'liveness',
      'similarity',
      'lookups',
    ],
    weight: 62,
  },
  {
    key: '10020',
    name: 'ID + selfie + screening',
    categories: ['ID', 'SELFIE'],
    capabilities: [
      'usability',
      'imageChecks',
      'extraction',
      'classification',
      'dataChecks',
      'liveness',
      'similarity',
      'watchlistScreening',
      'lookups',
      'riskAnalytics',
      'masking',
    ],
    weight: 22,
  },
  {
    key: '10031',
    name: 'Data-only eKYC',
    categories: ['DATA'],
    capabilities: [
      'extraction',
      'ekycCheck',
      'ekycVerification',
      'emailVerification',
      'phoneVerification',
      'geoIpVerification',
      'deviceRiskVerification',
      'kycCheck',
    ],
    weight: 9,
  },
  {
    key: '10042',
    name: 'US driving licence + SSN',
    categories: ['ID', 'SELFIE', 'DATA'],
    capabilities: [
      'usability',
      'imageChecks',
      'extraction',
      'dataChecks',
      'liveness',
      'similarity',
      'drivingLicenseVerification',
      'addressValidation',
      'ekycSsnVerification',
      'ekycAdvancedVerification',
    ],
    weight: 2.5,
  },
  {
    key: '10055',
    name: 'Brazil CPF + biometrics',
    categories: ['ID', 'SELFIE'],
    capabilities: [
      'usability',
      'imageChecks',
      'extraction',
      'dataChecks',
      'liveness',
      'similarity',
      'braCpfValidation',
      'biometricVerification',
      'govtIdVerification',
    ],
    weight: 1.5,
  },
  {
    key: '10061',
    name: 'Business onboarding (KYB)',
    categories: ['DATA'],
    capabilities: ['extraction', 'searchBusiness', 'businessInfo', 'bankCheck', 'binCheck', 'advancedWatchlist'],
    weight: 1,
  },
  {
    key: '10077',
    name: 'Returning user face authentication',
    categories: ['FACEMAP', 'SELFIE'],
    capabilities: ['usability', 'liveness', 'authentication'],
    weight: 1,
  },
  {
    key: '10088',
    name: 'Global identity + residency',
    categories: ['ID', 'SELFIE', 'DOCUMENT'],
    capabilities: [
      'usability',
      'imageChecks',
      'extraction',
      'dataChecks',
      'liveness',
      'similarity',
      'proofOfResidency',
      'globalIdentityCheck',
      'ekycGlobalVerification',
      'watchlistScreening',
    ],
    weight: 1,
  },
];
export const DEFINITION_BY_KEY = new Map(WORKFLOW_DEFINITIONS.map((d) => [d.key, d]));

export const REPORTING_CRITERIA = [
  'onboarding-web',
  'onboarding-app',
  'high-value-payout',
  'reverification',
  'partner-referral',
];

/** Rules of the default rulesets. `trigger` names what makes the rule match (see results.ts). */
export interface RuleDef {
  id: string;
  name: string;
  version: number;
  score: number;
  trigger: string;
  ruleset: 'risk' | 'label';
}
export const RULES: RuleDef[] = [
  { id: 'R-DOC-EXPIRED', name: 'Document expired', version: 3, score: 80, trigger: 'documentExpired', ruleset: 'risk' },
  {
    id: 'R-DIGITAL-COPY',
    name: 'Digital copy of document',
    version: 2,
    score: 90,
    trigger: 'imageChecks:DIGITAL_COPY',
    ruleset: 'risk',
  },
  {
    id: 'R-MANIPULATED',
    name: 'Manipulated document',
    version: 4,
    score: 95,
    trigger: 'imageChecks:MANIPULATED',
    ruleset: 'risk',
  },
  {
    id: 'R-IMAGE-FRAUD',
    name: 'Document image fraud signals',
    version: 1,
    score: 85,
    trigger: 'imageChecks:REJECTED',
    ruleset: 'risk',
  },
  {
    id: 'R-FACE-MISMATCH',
    name: 'Selfie does not match document',
    version: 2,
    score: 85,
    trigger: 'similarity:REJECTED',
    ruleset: 'risk',
  },
  {
    id: 'R-LIVENESS',
    name: 'Liveness check failed',
    version: 5,
    score: 90,
    trigger: 'liveness:REJECTED',
    ruleset: 'risk',
  },
  { id: 'R-QUALITY', name: 'Unusable images', version: 1, score: 75, trigger: 'usability:REJECTED', ruleset: 'risk' },
  {
    id: 'R-DATA-MISMATCH',
    name: 'Inconsistent document data',
    version: 2,
    score: 80,
    trigger: 'dataChecks:REJECTED',
    ruleset: 'risk',
  },
  {
    id: 'R-FRAUD-FEEDBACK',
    name: 'Document reported as fraud',
    version: 1,
    score: 100,
    trigger: 'dataChecks:CUSTOMER_FEEDBACK',
    ruleset: 'risk',
  },
  {
    id: 'R-AUTH-FAILED',
    name: 'Face authentication failed',
    version: 1,
    score: 85,
    trigger: 'authentication:REJECTED',
    ruleset: 'risk',
  },
  { id: 'R-ADDRESS-DENY', name: 'Address denied', version: 1, score: 80, trigger: 'address:REJECTED', ruleset: 'risk' },
  {
    id: 'R-EKYC-DENY',
    name: 'Identity data not verified',
    version: 2,
    score: 78,
    trigger: 'ekyc:REJECTED',
    ruleset: 'risk',
  },
  {
    id: 'R-AGE-MISMATCH',
    name: 'Selfie age mismatch',
    version: 2,
    score: 45,
    trigger: 'liveness:WARNING',
    ruleset: 'risk',
  },
  {
    id: 'R-REPEATED-FACE',
    name: 'Repeated face',
    version: 3,
    score: 50,
    trigger: 'imageChecks:WARNING',
    ruleset: 'risk',
  },
  { id: 'R-WATCHLIST', name: 'Watchlist hit', version: 2, score: 55, trigger: 'watchlist:WARNING', ruleset: 'risk' },
  {
    id: 'R-SIMILARITY-NP',
    name: 'Face comparison not possible',
    version: 1,
    score: 40,
    trigger: 'similarity:WARNING',
    ruleset: 'risk',
  },
  {
    id: 'R-UNSUPPORTED',
    name: 'Unsupported document or country',
    version: 1,
    score: 42,
    trigger: 'usability:WARNING',
    ruleset: 'risk',
  },
  {
    id: 'R-ADDRESS-ALERT',
    name: 'Address not verified',
    version: 1,
    score: 38,
    trigger: 'address:WARNING',
    ruleset: 'risk',
  },
  {
    id: 'R-EKYC-ALERT',
    name: 'Identity data partially verified',
    version: 1,
    score: 36,
    trigger: 'ekyc:WARNING',
    ruleset: 'risk',
  },
  {
    id: 'R-HIGH-RISK-COUNTRY',
    name: 'High-risk country',
    version: 6,
    score: 15,
    trigger: 'highRiskCountry',
    ruleset: 'risk',
  },
  {
    id: 'R-REPEATED-DOC',
    name: 'Same document seen before',
    version: 2,
    score: 12,
    trigger: 'repeatedDocument',
    ruleset: 'risk',
  },
  { id: 'R-YOUNG', name: 'Applicant under 21', version: 1, score: 8, trigger: 'young', ruleset: 'risk' },
  {
    id: 'R-NIGHT',
    name: 'Submitted between 01:00 and 05:00 UTC',
    version: 1,
    score: 5,
    trigger: 'night',
    ruleset: 'risk',
  },
  {
    id: 'L-MANUAL-REVIEW',
    name: 'Route to manual review',
    version: 1,
    score: 0,
    trigger: 'decision:WARNING',
    ruleset: 'label',
  },
  {
    id: 'L-AUTO-REJECT',
    name: 'Automatic rejection',
    version: 1,
    score: 0,
    trigger: 'decision:REJECTED',
    ruleset: 'label',
  },
  {
    id: 'L-AUTO-APPROVE',
    name: 'Automatic approval',
    version: 1,
    score: 0,
    trigger: 'decision:PASSED',
    ruleset: 'label',
  },
];
export const RISK_RULESET = { id: 'rs-default-risk-score', name: 'Default risk score', version: 7 };
export const LABEL_RULESET = { id: 'rs-default-decision-label', name: 'Default decision label', version: 3 };
