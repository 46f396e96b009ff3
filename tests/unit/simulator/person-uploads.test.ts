import { describe, expect, it } from 'vitest';
import { checkDigit, mrzFor } from '@/lib/simulator/person';
import { checkImageForPart, inspectImage, isPdf } from '@/lib/simulator/uploads';
import { solidJpeg, solidPng } from '@/lib/simulator/images';
import { pdfReport } from '@/lib/simulator/pdf';
import { tokenLifetimeSeconds } from '@/lib/simulator/schemas';

describe('MRZ', () => {
  it('check digits follow ICAO 9303 (7-3-1 weights)', () => {
    expect(checkDigit('L898902C3')).toBe('6');
    expect(checkDigit('740812')).toBe('2');
    expect(checkDigit('120415')).toBe('9');
  });
  it('a passport MRZ has two lines of 44 characters', () => {
    const m = mrzFor({
      country: 'UTO',
      nationality: 'UTO',
      docType: 'PASSPORT',
      docNumber: 'L898902C3',
      firstName: 'Anna María',
      lastName: 'Eriksson',
      sex: 'F',
      dateOfBirth: '1974-08-12',
      expiryDate: '2012-04-15',
    })!;
    expect(m.line1).toBe('P<UTOERIKSSON<<ANNA<MARIA<<<<<<<<<<<<<<<<<<<');
    expect(m.line2.slice(0, 28)).toBe('L898902C36UTO7408122F1204159');
  });
});

describe('upload inspection', () => {
  it('reads PNG and JPEG dimensions by content and flags grayscale', () => {
    expect(inspectImage(solidPng(640, 400))).toMatchObject({
      format: 'png',
      width: 640,
      height: 400,
      grayscale: false,
    });
    expect(inspectImage(solidPng(640, 400, { gray: true })).grayscale).toBe(true);
    expect(inspectImage(solidJpeg(480, 640))).toMatchObject({ format: 'jpeg', width: 480, height: 640 });
  });
  it('refuses other content and applies the per-category minimums', () => {
    expect(() => inspectImage(Buffer.from('GIF89a.........................'))).toThrow(/Image file format/);
    expect(() => checkImageForPart(inspectImage(solidPng(500, 400)), 'ID', 'C2')).toThrow(/Document image resolution/);
    expect(() => checkImageForPart(inspectImage(solidPng(640, 480)), 'SELFIE', 'C2')).not.toThrow();
    expect(() => checkImageForPart(inspectImage(solidPng(300, 300)), 'DOCUMENT', 'C2')).toThrow(/Longest image side/);
    expect(() => checkImageForPart(inspectImage(solidPng(300, 300)), 'DOCUMENT', 'C1')).not.toThrow();
  });
  it('recognises a PDF', () => {
    expect(isPdf(pdfReport('t', ['a']))).toBe(true);
    expect(isPdf(Buffer.from('%PDF-1.4 but never ends'))).toBe(false);
  });
  it('tokenLifetime values convert to seconds', () => {
    expect(tokenLifetimeSeconds('30m')).toBe(1800);
    expect(tokenLifetimeSeconds('+2h')).toBe(7200);
    expect(tokenLifetimeSeconds('-5m')).toBe(-300);
    expect(tokenLifetimeSeconds('60d')).toBe(5_184_000);
    expect(Number.isNaN(tokenLifetimeSeconds('x'))).toBe(true);
  });
});
