import { describe, expect, it } from 'vitest';
import {
  formatDate,
  formatDateTime,
  formatDateTimeCompact,
  formatWallTime,
  isTimeZone,
  parseWallTime,
} from '@/lib/format';

// A winter and a summer moment: Berlin is UTC+1 (CET) in one and UTC+2 (CEST) in the other.
const WINTER = new Date('2026-01-15T23:30:05Z');
const SUMMER = new Date('2026-07-01T08:15:00Z');

describe('the one date-time formatter', () => {
  it('speaks UTC by default and says so', () => {
    expect(formatDateTime(WINTER)).toBe('15 Jan 2026, 23:30:05 UTC');
    expect(formatDateTimeCompact(WINTER)).toBe('15 Jan 2026, 23:30');
    expect(formatDate(WINTER)).toBe('15 Jan 2026');
  });

  it("reads a moment in the reader's zone, with the zone's name, across daylight saving", () => {
    expect(formatDateTime(WINTER, 'Europe/Berlin')).toBe('16 Jan 2026, 00:30:05 CET');
    expect(formatDateTime(SUMMER, 'Europe/Berlin')).toBe('01 Jul 2026, 10:15:00 CEST');
    expect(formatDateTimeCompact(SUMMER, 'Europe/Berlin')).toBe('01 Jul 2026, 10:15 CEST');
    // The day of a moment moves with the zone: 23:30 UTC is already the next day in Berlin.
    expect(formatDate(WINTER, 'Europe/Berlin')).toBe('16 Jan 2026');
    expect(formatDateTime(WINTER, 'Asia/Tokyo')).toBe('16 Jan 2026, 08:30:05 GMT+9');
  });

  it('reads an unknown zone as UTC, never as an error, and refuses it as a preference', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('Mars/Olympus_Mons')).toBe(false);
    expect(formatDateTime(WINTER, 'Mars/Olympus_Mons')).toBe('15 Jan 2026, 23:30:05 UTC');
    expect(formatDateTimeCompact(WINTER, 'Mars/Olympus_Mons')).toBe('15 Jan 2026, 23:30');
  });

  it('keeps what is not a moment as it came, and an empty value as a dash', () => {
    expect(formatDateTime('not a date', 'Europe/Berlin')).toBe('not a date');
    expect(formatDateTime(null, 'Europe/Berlin')).toBe('—');
    expect(formatDateTimeCompact(undefined)).toBe('—');
  });
});

describe('a wall-clock time typed in the reader’s zone', () => {
  it('names the moment in that zone, summer and winter', () => {
    expect(parseWallTime('2026-01-16 00:30', 'Europe/Berlin')?.toISOString()).toBe('2026-01-15T23:30:00.000Z');
    expect(parseWallTime('2026-07-01 10:15', 'Europe/Berlin')?.toISOString()).toBe('2026-07-01T08:15:00.000Z');
    expect(parseWallTime('2026-07-01T10:15')?.toISOString()).toBe('2026-07-01T10:15:00.000Z');
  });
  it('is written as it is read back, in either season and at midnight', () => {
    for (const iso of ['2026-01-15T23:30:00.000Z', '2026-07-01T08:15:00.000Z', '2026-03-29T22:00:00.000Z']) {
      const typed = formatWallTime(new Date(iso), 'Europe/Berlin');
      expect(typed).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}$/);
      expect(parseWallTime(typed, 'Europe/Berlin')?.toISOString()).toBe(iso);
    }
    expect(formatWallTime(new Date('2026-01-15T23:30:00.000Z'), 'Europe/Berlin')).toBe('2026-01-16 00:30');
    expect(formatWallTime(new Date('2026-07-01T08:15:00.000Z'))).toBe('2026-07-01 08:15');
  });
  it('refuses any other shape and days that do not exist', () => {
    expect(parseWallTime('07/01/2026 10:15', 'Europe/Berlin')).toBeNull();
    expect(parseWallTime('2026-02-30 10:00')).toBeNull();
    expect(parseWallTime('2026-02-01 25:00')).toBeNull();
  });
});
