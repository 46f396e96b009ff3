// Synthetic identities: names, dates, document numbers and MRZ lines that look and check like real ones.
import { COUNTRY_BY_CODE, COUNTRY_WEIGHTS, NAMES, STREETS, type CountryInfo, type DocType } from './catalog';
import { Rng } from './prng';

export interface Address {
  line1?: string;
  line2?: string;
  line3?: string;
  line4?: string;
  line5?: string;
  postalCode?: string;
  city?: string;
  subdivision?: string;
  country?: string;
  formattedAddress?: string;
}
export interface Person {
  firstName?: string;
  middleName?: string;
  lastName?: string;
  sex?: 'M' | 'F';
  dateOfBirth?: string;
  nationality?: string;
  /** Issuing country of the document (three letters). */
  country: string;
  docType: DocType;
  docNumber?: string;
  personalNumber?: string;
  issuingDate?: string;
  expiryDate?: string;
  address?: Address;
  email?: string;
  phone?: string;
  ssn?: string;
  cpf?: string;
  state?: string;
  placeOfBirth?: string;
}

export const isoDate = (d: Date) => d.toISOString().slice(0, 10);
const DAY = 86_400_000;

function ascii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ß/g, 'SS')
    .replace(/ı/g, 'I')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L');
}

export function pickCountry(r: Rng): CountryInfo {
  return r.weighted(COUNTRY_WEIGHTS);
}

function docNumber(r: Rng, country: string, type: DocType): string {
  if (type === 'PASSPORT') return country === 'USA' ? r.digits(9) : r.letters(2) + r.digits(7);
  if (type === 'DRIVING_LICENSE')
    return country === 'GBR'
      ? r.letters(5) + r.digits(6) + r.letters(2) + r.digits(3)
      : r.letters(1) + r.digits(7 + r.int(0, 4));
  if (type === 'VISA') return r.letters(1) + r.digits(8);
  return r.letters(1) + r.digits(2) + r.letters(1) + r.digits(5);
}

/** A full synthetic person for a country (or a weighted random one), as of `asOf`. */
export function makePerson(r: Rng, asOf: Date, countryCode?: string, docType?: DocType): Person {
  const c = (countryCode && COUNTRY_BY_CODE.get(countryCode)) || pickCountry(r);
  const names = NAMES[c.region];
  const sex: 'M' | 'F' = r.chance(0.5) ? 'M' : 'F';
  const firstName = r.pick(sex === 'M' ? names.male : names.female);
  const middleName = r.chance(0.15) ? r.pick(sex === 'M' ? names.male : names.female) : undefined;
  const lastName = r.pick(names.last);
  const age = r.chance(0.08)
    ? r.int(18, 20)
    : r.weighted([
        [r.int(21, 30), 35],
        [r.int(31, 45), 35],
        [r.int(46, 60), 20],
        [r.int(61, 80), 10],
      ] as const);
  const dob = new Date(asOf.getTime() - age * 365.25 * DAY - r.int(0, 364) * DAY);
  const type = docType ?? r.weighted(c.docs);
  const validityYears = type === 'DRIVING_LICENSE' ? r.pick([5, 10, 15]) : 10;
  const issued = new Date(asOf.getTime() - r.int(30, validityYears * 365 - 30) * DAY);
  const expiry = new Date(issued.getTime() + validityYears * 365 * DAY);
  const city = r.pick(c.cities);
  const state = c.states ? r.pick(c.states) : undefined;
  const street = `${r.int(1, 240)} ${r.pick(STREETS)}`;
  const postalCode =
    c.code === 'GBR'
      ? `${r.letters(2)}${r.int(1, 20)} ${r.int(1, 9)}${r.letters(2)}`
      : r.digits(c.code === 'USA' ? 5 : c.code === 'NLD' ? 4 : 5);
  const address: Address = {
    line1: street,
    city,
    postalCode,
    country: c.code,
    ...(state ? { subdivision: state } : {}),
  };
  address.formattedAddress = [street, `${postalCode} ${city}`, state, c.name].filter(Boolean).join(', ');
  const emailUser = ascii(`${firstName}.${lastName}`)
    .toLowerCase()
    .replace(/[^a-z.]/g, '');
  return {
    firstName,
    middleName,
    lastName,
    sex,
    dateOfBirth: isoDate(dob),
    nationality: c.code,
    country: c.code,
    docType: type,
    docNumber: docNumber(r, c.code, type),
    personalNumber: r.chance(0.3) ? r.digits(11) : undefined,
    issuingDate: isoDate(issued),
    expiryDate: isoDate(expiry),
    address,
    email: `${emailUser}${r.int(1, 99)}@${r.pick(['example.com', 'mail.example', 'post.example.org'])}`,
    phone: `${c.phonePrefix}${r.digits(9)}`,
    ssn: c.code === 'USA' ? `${r.int(100, 665)}-${r.digits(2)}-${r.digits(4)}` : undefined,
    cpf: c.code === 'BRA' ? `${r.digits(3)}.${r.digits(3)}.${r.digits(3)}-${r.digits(2)}` : undefined,
    state,
    placeOfBirth: r.pick(c.cities),
  };
}

// ---- MRZ (ICAO 9303) ----
function mrzValue(ch: string): number {
  if (ch >= '0' && ch <= '9') return ch.charCodeAt(0) - 48;
  if (ch >= 'A' && ch <= 'Z') return ch.charCodeAt(0) - 55;
  return 0;
}
export function checkDigit(s: string): string {
  const w = [7, 3, 1];
  let sum = 0;
  for (let i = 0; i < s.length; i++) sum += mrzValue(s[i]) * w[i % 3];
  return String(sum % 10);
}
function mrzText(s: string | undefined): string {
  return ascii(s ?? '')
    .toUpperCase()
    .replace(/[^A-Z]+/g, '<');
}
function pad(s: string, n: number) {
  return (s + '<'.repeat(n)).slice(0, n);
}
const yymmdd = (d?: string) => (d ? d.slice(2, 4) + d.slice(5, 7) + d.slice(8, 10) : '<<<<<<');

/** MRZ lines for passports (TD3), ID cards (TD1) and visas (MRV-A); none for driving licences. */
export function mrzFor(p: Person): { line1: string; line2: string; line3?: string } | undefined {
  const names = `${mrzText(p.lastName)}<<${mrzText([p.firstName, p.middleName].filter(Boolean).join(' '))}`;
  const num = (p.docNumber ?? '').replace(/[^A-Z0-9]/g, '');
  const sex = p.sex ?? '<';
  const nat = p.nationality ?? p.country;
  if (p.docType === 'PASSPORT' || p.docType === 'VISA') {
    const code = p.docType === 'PASSPORT' ? 'P<' : 'V<';
    const line1 = pad(code + p.country + names, 44);
    const n9 = pad(num, 9);
    const opt = pad(mrzText(p.personalNumber ?? ''), 14);
    const body =
      n9 +
      checkDigit(n9) +
      nat +
      yymmdd(p.dateOfBirth) +
      checkDigit(yymmdd(p.dateOfBirth)) +
      sex +
      yymmdd(p.expiryDate) +
      checkDigit(yymmdd(p.expiryDate));
    const line2 =
      p.docType === 'PASSPORT'
        ? body +
          opt +
          checkDigit(opt) +
          checkDigit(
            n9 +
              checkDigit(n9) +
              yymmdd(p.dateOfBirth) +
              checkDigit(yymmdd(p.dateOfBirth)) +
              yymmdd(p.expiryDate) +
              checkDigit(yymmdd(p.expiryDate)) +
              opt +
              checkDigit(opt),
          )
        : pad(body, 44);
    return { line1, line2 };
  }
  if (p.docType === 'ID_CARD') {
    const n9 = pad(num, 9);
    const line1 = pad('I<' + p.country + n9 + checkDigit(n9), 30);
    const line2core =
      yymmdd(p.dateOfBirth) +
      checkDigit(yymmdd(p.dateOfBirth)) +
      sex +
      yymmdd(p.expiryDate) +
      checkDigit(yymmdd(p.expiryDate)) +
      nat;
    const line2 = pad(line2core, 29) + checkDigit(line1.slice(5, 30) + line2core.slice(0, 7) + line2core.slice(8, 15));
    return { line1, line2, line3: pad(names, 30) };
  }
  return undefined;
}

export function dateParts(d?: string) {
  if (!d) return undefined;
  return { year: Number(d.slice(0, 4)), month: Number(d.slice(5, 7)), day: Number(d.slice(8, 10)) };
}

export function ageAt(dob: string | undefined, at: Date): number | undefined {
  if (!dob) return undefined;
  const b = new Date(dob + 'T00:00:00Z');
  let a = at.getUTCFullYear() - b.getUTCFullYear();
  if (at.getUTCMonth() < b.getUTCMonth() || (at.getUTCMonth() === b.getUTCMonth() && at.getUTCDate() < b.getUTCDate()))
    a--;
  return a;
}
