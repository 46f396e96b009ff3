/**
 * Issuing countries as people type them: the service reports an ISO 3166-1 alpha-3 code (DEU), an
 * analyst types "Germany", "germ" or "DE". One table, browser-safe and dependency-free, so the
 * filter's suggestions, the URL's parse and the chips all read the same names.
 *
 * The table is ISO 3166-1 from Debian's iso-codes 4.15 (`/usr/share/iso-codes/json/iso_3166-1.json`):
 * alpha-3, alpha-2, then the English short name and any common and official names.
 */
const TABLE = `ABW|AW|Aruba
AFG|AF|Afghanistan|Islamic Republic of Afghanistan
AGO|AO|Angola|Republic of Angola
AIA|AI|Anguilla
ALA|AX|Åland Islands
ALB|AL|Albania|Republic of Albania
AND|AD|Andorra|Principality of Andorra
ARE|AE|United Arab Emirates
ARG|AR|Argentina|Argentine Republic
ARM|AM|Armenia|Republic of Armenia
ASM|AS|American Samoa
ATA|AQ|Antarctica
ATF|TF|French Southern Territories
ATG|AG|Antigua and Barbuda
AUS|AU|Australia
AUT|AT|Austria|Republic of Austria
AZE|AZ|Azerbaijan|Republic of Azerbaijan
BDI|BI|Burundi|Republic of Burundi
BEL|BE|Belgium|Kingdom of Belgium
BEN|BJ|Benin|Republic of Benin
BES|BQ|Bonaire, Sint Eustatius and Saba
BFA|BF|Burkina Faso
BGD|BD|Bangladesh|People's Republic of Bangladesh
BGR|BG|Bulgaria|Republic of Bulgaria
BHR|BH|Bahrain|Kingdom of Bahrain
BHS|BS|Bahamas|Commonwealth of the Bahamas
BIH|BA|Bosnia and Herzegovina|Republic of Bosnia and Herzegovina
BLM|BL|Saint Barthélemy
BLR|BY|Belarus|Republic of Belarus
BLZ|BZ|Belize
BMU|BM|Bermuda
BOL|BO|Bolivia, Plurinational State of|Bolivia|Plurinational State of Bolivia
BRA|BR|Brazil|Federative Republic of Brazil
BRB|BB|Barbados
BRN|BN|Brunei Darussalam
BTN|BT|Bhutan|Kingdom of Bhutan
BVT|BV|Bouvet Island
BWA|BW|Botswana|Republic of Botswana
CAF|CF|Central African Republic
CAN|CA|Canada
CCK|CC|Cocos (Keeling) Islands
CHE|CH|Switzerland|Swiss Confederation
CHL|CL|Chile|Republic of Chile
CHN|CN|China|People's Republic of China
CIV|CI|Côte d'Ivoire|Republic of Côte d'Ivoire
CMR|CM|Cameroon|Republic of Cameroon
COD|CD|Congo, The Democratic Republic of the
COG|CG|Congo|Republic of the Congo
COK|CK|Cook Islands
COL|CO|Colombia|Republic of Colombia
COM|KM|Comoros|Union of the Comoros
CPV|CV|Cabo Verde|Republic of Cabo Verde
CRI|CR|Costa Rica|Republic of Costa Rica
CUB|CU|Cuba|Republic of Cuba
CUW|CW|Curaçao
CXR|CX|Christmas Island
CYM|KY|Cayman Islands
CYP|CY|Cyprus|Republic of Cyprus
CZE|CZ|Czechia|Czech Republic
DEU|DE|Germany|Federal Republic of Germany
DJI|DJ|Djibouti|Republic of Djibouti
DMA|DM|Dominica|Commonwealth of Dominica
DNK|DK|Denmark|Kingdom of Denmark
DOM|DO|Dominican Republic
DZA|DZ|Algeria|People's Democratic Republic of Algeria
ECU|EC|Ecuador|Republic of Ecuador
EGY|EG|Egypt|Arab Republic of Egypt
ERI|ER|Eritrea|the State of Eritrea
ESH|EH|Western Sahara
ESP|ES|Spain|Kingdom of Spain
EST|EE|Estonia|Republic of Estonia
ETH|ET|Ethiopia|Federal Democratic Republic of Ethiopia
FIN|FI|Finland|Republic of Finland
FJI|FJ|Fiji|Republic of Fiji
FLK|FK|Falkland Islands (Malvinas)
FRA|FR|France|French Republic
FRO|FO|Faroe Islands
FSM|FM|Micronesia, Federated States of|Federated States of Micronesia
GAB|GA|Gabon|Gabonese Republic
GBR|GB|United Kingdom|United Kingdom of Great Britain and Northern Ireland
GEO|GE|Georgia
GGY|GG|Guernsey
GHA|GH|Ghana|Republic of Ghana
GIB|GI|Gibraltar
GIN|GN|Guinea|Republic of Guinea
GLP|GP|Guadeloupe
GMB|GM|Gambia|Republic of the Gambia
GNB|GW|Guinea-Bissau|Republic of Guinea-Bissau
GNQ|GQ|Equatorial Guinea|Republic of Equatorial Guinea
GRC|GR|Greece|Hellenic Republic
GRD|GD|Grenada
GRL|GL|Greenland
GTM|GT|Guatemala|Republic of Guatemala
GUF|GF|French Guiana
GUM|GU|Guam
GUY|GY|Guyana|Republic of Guyana
HKG|HK|Hong Kong|Hong Kong Special Administrative Region of China
HMD|HM|Heard Island and McDonald Islands
HND|HN|Honduras|Republic of Honduras
HRV|HR|Croatia|Republic of Croatia
HTI|HT|Haiti|Republic of Haiti
HUN|HU|Hungary
IDN|ID|Indonesia|Republic of Indonesia
IMN|IM|Isle of Man
IND|IN|India|Republic of India
IOT|IO|British Indian Ocean Territory
IRL|IE|Ireland
IRN|IR|Iran, Islamic Republic of|Iran|Islamic Republic of Iran
IRQ|IQ|Iraq|Republic of Iraq
ISL|IS|Iceland|Republic of Iceland
ISR|IL|Israel|State of Israel
ITA|IT|Italy|Italian Republic
JAM|JM|Jamaica
JEY|JE|Jersey
JOR|JO|Jordan|Hashemite Kingdom of Jordan
JPN|JP|Japan
KAZ|KZ|Kazakhstan|Republic of Kazakhstan
KEN|KE|Kenya|Republic of Kenya
KGZ|KG|Kyrgyzstan|Kyrgyz Republic
KHM|KH|Cambodia|Kingdom of Cambodia
KIR|KI|Kiribati|Republic of Kiribati
KNA|KN|Saint Kitts and Nevis
KOR|KR|Korea, Republic of|South Korea
KWT|KW|Kuwait|State of Kuwait
LAO|LA|Lao People's Democratic Republic|Laos
LBN|LB|Lebanon|Lebanese Republic
LBR|LR|Liberia|Republic of Liberia
LBY|LY|Libya
LCA|LC|Saint Lucia
LIE|LI|Liechtenstein|Principality of Liechtenstein
LKA|LK|Sri Lanka|Democratic Socialist Republic of Sri Lanka
LSO|LS|Lesotho|Kingdom of Lesotho
LTU|LT|Lithuania|Republic of Lithuania
LUX|LU|Luxembourg|Grand Duchy of Luxembourg
LVA|LV|Latvia|Republic of Latvia
MAC|MO|Macao|Macao Special Administrative Region of China
MAF|MF|Saint Martin (French part)
MAR|MA|Morocco|Kingdom of Morocco
MCO|MC|Monaco|Principality of Monaco
MDA|MD|Moldova, Republic of|Moldova|Republic of Moldova
MDG|MG|Madagascar|Republic of Madagascar
MDV|MV|Maldives|Republic of Maldives
MEX|MX|Mexico|United Mexican States
MHL|MH|Marshall Islands|Republic of the Marshall Islands
MKD|MK|North Macedonia|Republic of North Macedonia
MLI|ML|Mali|Republic of Mali
MLT|MT|Malta|Republic of Malta
MMR|MM|Myanmar|Republic of Myanmar
MNE|ME|Montenegro
MNG|MN|Mongolia
MNP|MP|Northern Mariana Islands|Commonwealth of the Northern Mariana Islands
MOZ|MZ|Mozambique|Republic of Mozambique
MRT|MR|Mauritania|Islamic Republic of Mauritania
MSR|MS|Montserrat
MTQ|MQ|Martinique
MUS|MU|Mauritius|Republic of Mauritius
MWI|MW|Malawi|Republic of Malawi
MYS|MY|Malaysia
MYT|YT|Mayotte
NAM|NA|Namibia|Republic of Namibia
NCL|NC|New Caledonia
NER|NE|Niger|Republic of the Niger
NFK|NF|Norfolk Island
NGA|NG|Nigeria|Federal Republic of Nigeria
NIC|NI|Nicaragua|Republic of Nicaragua
NIU|NU|Niue
NLD|NL|Netherlands|Kingdom of the Netherlands
NOR|NO|Norway|Kingdom of Norway
NPL|NP|Nepal|Federal Democratic Republic of Nepal
NRU|NR|Nauru|Republic of Nauru
NZL|NZ|New Zealand
OMN|OM|Oman|Sultanate of Oman
PAK|PK|Pakistan|Islamic Republic of Pakistan
PAN|PA|Panama|Republic of Panama
PCN|PN|Pitcairn
PER|PE|Peru|Republic of Peru
PHL|PH|Philippines|Republic of the Philippines
PLW|PW|Palau|Republic of Palau
PNG|PG|Papua New Guinea|Independent State of Papua New Guinea
POL|PL|Poland|Republic of Poland
PRI|PR|Puerto Rico
PRK|KP|Korea, Democratic People's Republic of|North Korea|Democratic People's Republic of Korea
PRT|PT|Portugal|Portuguese Republic
PRY|PY|Paraguay|Republic of Paraguay
PSE|PS|Palestine, State of|the State of Palestine
PYF|PF|French Polynesia
QAT|QA|Qatar|State of Qatar
REU|RE|Réunion
ROU|RO|Romania
RUS|RU|Russian Federation
RWA|RW|Rwanda|Rwandese Republic
SAU|SA|Saudi Arabia|Kingdom of Saudi Arabia
SDN|SD|Sudan|Republic of the Sudan
SEN|SN|Senegal|Republic of Senegal
SGP|SG|Singapore|Republic of Singapore
SGS|GS|South Georgia and the South Sandwich Islands
SHN|SH|Saint Helena, Ascension and Tristan da Cunha
SJM|SJ|Svalbard and Jan Mayen
SLB|SB|Solomon Islands
SLE|SL|Sierra Leone|Republic of Sierra Leone
SLV|SV|El Salvador|Republic of El Salvador
SMR|SM|San Marino|Republic of San Marino
SOM|SO|Somalia|Federal Republic of Somalia
SPM|PM|Saint Pierre and Miquelon
SRB|RS|Serbia|Republic of Serbia
SSD|SS|South Sudan|Republic of South Sudan
STP|ST|Sao Tome and Principe|Democratic Republic of Sao Tome and Principe
SUR|SR|Suriname|Republic of Suriname
SVK|SK|Slovakia|Slovak Republic
SVN|SI|Slovenia|Republic of Slovenia
SWE|SE|Sweden|Kingdom of Sweden
SWZ|SZ|Eswatini|Kingdom of Eswatini
SXM|SX|Sint Maarten (Dutch part)
SYC|SC|Seychelles|Republic of Seychelles
SYR|SY|Syrian Arab Republic|Syria
TCA|TC|Turks and Caicos Islands
TCD|TD|Chad|Republic of Chad
TGO|TG|Togo|Togolese Republic
THA|TH|Thailand|Kingdom of Thailand
TJK|TJ|Tajikistan|Republic of Tajikistan
TKL|TK|Tokelau
TKM|TM|Turkmenistan
TLS|TL|Timor-Leste|Democratic Republic of Timor-Leste
TON|TO|Tonga|Kingdom of Tonga
TTO|TT|Trinidad and Tobago|Republic of Trinidad and Tobago
TUN|TN|Tunisia|Republic of Tunisia
TUR|TR|Türkiye|Republic of Türkiye
TUV|TV|Tuvalu
TWN|TW|Taiwan, Province of China|Taiwan
TZA|TZ|Tanzania, United Republic of|Tanzania|United Republic of Tanzania
UGA|UG|Uganda|Republic of Uganda
UKR|UA|Ukraine
UMI|UM|United States Minor Outlying Islands
URY|UY|Uruguay|Eastern Republic of Uruguay
USA|US|United States|United States of America
UZB|UZ|Uzbekistan|Republic of Uzbekistan
VAT|VA|Holy See (Vatican City State)
VCT|VC|Saint Vincent and the Grenadines
VEN|VE|Venezuela, Bolivarian Republic of|Venezuela|Bolivarian Republic of Venezuela
VGB|VG|Virgin Islands, British|British Virgin Islands
VIR|VI|Virgin Islands, U.S.|Virgin Islands of the United States
VNM|VN|Viet Nam|Vietnam|Socialist Republic of Viet Nam
VUT|VU|Vanuatu|Republic of Vanuatu
WLF|WF|Wallis and Futuna
WSM|WS|Samoa|Independent State of Samoa
YEM|YE|Yemen|Republic of Yemen
ZAF|ZA|South Africa|Republic of South Africa
ZMB|ZM|Zambia|Republic of Zambia
ZWE|ZW|Zimbabwe|Republic of Zimbabwe`;

export interface Country {
  alpha3: string;
  alpha2: string;
  /** The English short name. */
  name: string;
  /** Every name the country is known by, short name first. */
  names: string[];
}

export const COUNTRIES: readonly Country[] = TABLE.split('\n').map((line) => {
  const [alpha3, alpha2, ...names] = line.split('|');
  return { alpha3, alpha2, name: names[0], names };
});

const BY_ALPHA3 = new Map(COUNTRIES.map((c) => [c.alpha3, c]));
const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();
const EXACT = new Map<string, string>();
for (const c of COUNTRIES) {
  EXACT.set(fold(c.alpha3), c.alpha3);
  EXACT.set(fold(c.alpha2), c.alpha3);
  for (const n of c.names) EXACT.set(fold(n), c.alpha3);
}

/** The country of an alpha-3 code, when ISO knows it (the service may send codes ISO does not). */
export const countryOf = (alpha3: string): Country | undefined => BY_ALPHA3.get(alpha3.toUpperCase());

/** "Germany (DEU)" for a known code, the code itself otherwise. */
export const countryLabel = (code: string) => {
  const c = countryOf(code);
  return c ? `${c.name} (${c.alpha3})` : code;
};

/**
 * The alpha-3 code a person meant: a code (alpha-3 or alpha-2) or a full name, any case, accents
 * optional, or a suggestion as picked ("Germany (DEU)"). An unknown three-letter code is kept as typed (upper-cased): documents may carry
 * codes outside ISO (such as D for Germany on old passports, or UTO in specimens).
 */
export function resolveCountry(raw: string): string | undefined {
  // A suggestion as picked: "Germany (DEU)".
  const picked = /\(([A-Za-z]{2,3})\)\s*$/.exec(raw);
  if (picked) return resolveCountry(picked[1]);
  const key = fold(raw);
  if (!key) return undefined;
  const known = EXACT.get(key);
  if (known) return known;
  return /^[a-z]{3}$/.test(key) ? key.toUpperCase() : undefined;
}

/**
 * Suggestions for what has been typed so far: countries whose code or a name starts with it, or
 * (past two letters) whose name contains it, codes in `present` (those in the data) first.
 */
export function suggestCountries(raw: string, present: readonly string[] = [], limit = 8): Country[] {
  const key = fold(raw);
  const have = new Set(present.map((p) => p.toUpperCase()));
  const score = (c: Country) => {
    if (!key) return have.has(c.alpha3) ? 1 : -1;
    const names = c.names.map(fold);
    if (fold(c.alpha3) === key || fold(c.alpha2) === key || names.includes(key)) return 4;
    if (names.some((n) => n.startsWith(key) || n.includes(` ${key}`))) return 3;
    if (fold(c.alpha3).startsWith(key)) return 2;
    return key.length > 2 && names.some((n) => n.includes(key)) ? 1 : -1;
  };
  return COUNTRIES.map((c) => ({ c, s: score(c) + (have.has(c.alpha3) ? 0.5 : 0) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.c.name.localeCompare(b.c.name))
    .slice(0, limit)
    .map((x) => x.c);
}
