import { describe, expect, it } from 'vitest';
import { csvCell, csvLine } from '@/lib/csv';
import { maskDeep, maskField, maskScalar, maskStyleOf } from '@/lib/pii/mask';

describe('masking personal data', () => {
  it('keeps only enough to tell records apart', () => {
    expect(maskScalar('Cristian Gheorghe', 'name')).toBe('C•••• G••••');
    expect(maskScalar('Anne-Marie', 'name')).toBe('A••••-M••••');
    // Fixed length: the mask does not tell how long the value is.
    expect(maskScalar('R67K60079', 'tail')).toBe('••••0079');
    expect(maskScalar('R67K600791234', 'tail')).toBe('••••1234');
    expect(maskScalar('AB12', 'tail')).toBe('••••');
    expect(maskScalar('1995-11-15', 'date')).toBe('••••-••-••');
    expect(maskScalar('ada@example.org', 'email')).toBe('a••••@example.org');
    expect(maskScalar('203.0.113.153', 'ip')).toBe('203.0.•.•');
    expect(maskScalar('2001:db8:85a3::8a2e:370:7334', 'ip')).toBe('2001:db8:•');
    expect(maskScalar(123456789, 'tail')).toBe('••••6789');
  });

  it('masks every string of free-form data unless its key is known not to be personal', () => {
    const doc = {
      capabilities: {
        lookups: [
          {
            id: 'l1',
            decision: { type: 'WARNING', details: { label: 'MISMATCH' } },
            data: {
              results: [
                {
                  kyb_source: 'COMPANY_REGISTRY',
                  data: { status: 'ACTIVE', name: 'Smith Holding GmbH', officers: ['Jane Smith'], city: 'Leeds' },
                },
              ],
              ipLocationCity: 'Leeds',
              deviceModel: 'Pixel 7',
              nameMatch: 'NO_MATCH',
              emailMatchToName: 'MATCH',
              riskLevel: 'HIGH',
              torExitNode: true,
              totalHits: '12',
              someNewVendorField: 'Jane',
            },
          },
        ],
      },
      rules: {
        executions: [
          {
            id: 'r1',
            rulesets: [
              { id: 'rs', name: 'Default risk score', rulesMatched: [{ id: 'R1', name: 'Repeated face', score: 40 }] },
            ],
          },
        ],
      },
      vendorExtra: { anything: 'Jane Smith', score: 3 },
    };
    const m = maskDeep(doc);
    const entry = m.capabilities.lookups[0];
    expect(entry.id).toBe('l1');
    expect(entry.decision).toEqual({ type: 'WARNING', details: { label: 'MISMATCH' } });
    const d = entry.data;
    expect(d.results[0]).toEqual({
      kyb_source: 'COMPANY_REGISTRY',
      data: { status: 'ACTIVE', name: '••••••', officers: ['••••••'], city: '••••••' },
    });
    expect(d.ipLocationCity).toBe('••••••');
    expect(d.deviceModel).toBe('••••••');
    expect(d.someNewVendorField).toBe('••••••');
    expect(d).toMatchObject({
      nameMatch: 'NO_MATCH',
      emailMatchToName: 'MATCH',
      riskLevel: 'HIGH',
      torExitNode: true,
      totalHits: '12',
    });
    // Rule names are the customer's configuration, not personal data.
    expect(m.rules.executions[0].rulesets[0].rulesMatched[0]).toEqual({ id: 'R1', name: 'Repeated face', score: 40 });
    // A member of the result the spec does not name is free-form as a whole.
    expect(m.vendorExtra).toEqual({ anything: '••••••', score: 3 });
  });

  it('recognises personal keys anywhere, including vendor responses, and leaves the rest', () => {
    expect(maskStyleOf('firstName')).toBe('name');
    expect(maskStyleOf('trueIP')).toBe('ip');
    expect(maskStyleOf('customer_email')).toBe('email');
    expect(maskStyleOf('date_of_birth')).toBe('date');
    expect(maskStyleOf('printedDocumentName')).toBeNull();
    expect(maskStyleOf('nameMatch')).toBeNull();
    expect(maskStyleOf('decision')).toBeNull();
    const doc = {
      decision: { type: 'PASSED' },
      credentials: [{ id: 'c1', clientIp: '198.51.100.23' }],
      capabilities: {
        extraction: [
          {
            data: {
              firstName: 'Ada',
              documentNumber: 'P1234567',
              address: { line1: '1 Main St', city: 'York', country: 'GBR' },
              mrz: { line1: 'P<GBR', line2: '123' },
              dateOfBirthParts: { year: 1990, month: 1, day: 2 },
            },
          },
        ],
        deviceRiskVerification: [
          { data: { statedIp: { ip: '198.51.100.23', isp: 'ISP' }, ipLocationLatitude: '53.9' } },
        ],
      },
      additionalInformation: { vendor: { response: { hits: [{ first_name: 'Ada', phone_number: '+441234567890' }] } } },
    };
    const m = maskDeep(doc);
    expect(m.decision).toEqual({ type: 'PASSED' });
    expect(m.credentials[0]).toEqual({ id: 'c1', clientIp: '198.51.•.•' });
    const x = m.capabilities.extraction[0].data;
    expect(x.firstName).toBe('A••••');
    expect(x.documentNumber).toBe('••••4567');
    expect(x.address).toEqual({ line1: '••••••', city: '••••••', country: 'GBR' });
    expect(x.mrz.line1).toMatch(/^•+$/);
    expect(x.dateOfBirthParts).toEqual({ year: '••••••', month: '••••••', day: '••••••' });
    // Free-form vendor data: only allow-listed keys stay in clear.
    expect(m.capabilities.deviceRiskVerification[0].data.statedIp).toEqual({ ip: '198.51.•.•', isp: '••••••' });
    expect(m.additionalInformation.vendor.response.hits[0]).toEqual({ first_name: 'A••••', phone_number: '••••7890' });
    // The input is not changed.
    expect(doc.capabilities.extraction[0].data.firstName).toBe('Ada');
  });

  it('masks a flat field by its name, and leaves unknown ones', () => {
    expect(maskField('lastName', 'Lovelace')).toBe('L••••');
    expect(maskField('status', 'PROCESSED')).toBe('PROCESSED');
    expect(maskField('lastName', null)).toBeNull();
  });
});

describe('CSV cells', () => {
  it('quotes separators and keeps formulas from running', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('=HYPERLINK("http://evil","x")')).toBe('"\'=HYPERLINK(""http://evil"",""x"")"');
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('+1')).toBe("'+1");
    // Another separator in the reader's locale must not start a formula cell either.
    expect(csvCell('a;=1+1')).toBe("a;'=1+1");
    expect(csvCell('x|@SUM(A1)')).toBe("x|'@SUM(A1)");
    expect(csvCell('a,  -2+3')).toBe('"a,  \'-2+3"');
    expect(csvCell(' =1+1')).toBe("' =1+1");
    expect(csvCell('Smith-Jones')).toBe('Smith-Jones');
    expect(csvCell(-1)).toBe('-1');
    expect(csvCell('<img src=x onerror=alert(1)>')).toBe('<img src=x onerror=alert(1)>');
    expect(csvCell(null)).toBe('');
    expect(csvLine(['a', 1, null])).toBe('a,1,\r\n');
  });
});
