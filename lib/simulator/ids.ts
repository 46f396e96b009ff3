// Deterministic, decodable UUIDs for generated (seeded) records.
//
// Layout (v4-looking): SSSSSSSS-KKKK-4LLL-YCCC-IIIIIIIIIIII
//   S = hash of the seed, K = tag of the record kind (derived from the seed),
//   L = slot (e.g. which credential of an execution), Y = 8..b, C = checksum,
//   I = index of the execution (48 bits).
// The server maps an id back to (kind, slot, index) without storing anything; ids created through
// the API are random v4 UUIDs and practically never decode.
import { hashString, mix } from './prng';

export const Kind = {
  execution: 1,
  account: 2,
  credential: 3,
  part: 4,
  capability: 5,
  ruleExecution: 6,
} as const;

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export function isUuid(s: string): boolean {
  return UUID_RE.test(s);
}

const hex = (n: number, width: number) => n.toString(16).padStart(width, '0');

export function seedNumber(seed: string | number): number {
  return hashString(`sim-seed:${String(seed)}`);
}

export class IdCodec {
  readonly seedHash: number;
  private readonly prefix: string;
  private readonly kindTags = new Map<number, string>();
  private readonly tagKinds = new Map<string, number>();
  constructor(seed: string | number) {
    this.seedHash = seedNumber(seed);
    this.prefix = hex(this.seedHash, 8);
    for (const k of Object.values(Kind)) {
      const tag = hex(mix(this.seedHash, k, 0x51) & 0xffff, 4);
      this.kindTags.set(k, tag);
      this.tagKinds.set(tag, k);
    }
  }

  make(kind: number, index: number, slot = 0): string {
    const check = mix(this.seedHash, kind * 4096 + slot, index) & 0x3fff;
    const y = 0x8 | (check >> 12);
    return `${this.prefix}-${this.kindTags.get(kind)}-4${hex(slot & 0xfff, 3)}-${hex(y, 1)}${hex(check & 0xfff, 3)}-${hex(index, 12)}`;
  }

  decode(id: string): { kind: number; slot: number; index: number } | null {
    if (!isUuid(id)) return null;
    const s = id.toLowerCase();
    if (!s.startsWith(this.prefix)) return null;
    const kind = this.tagKinds.get(s.slice(9, 13));
    if (kind === undefined || s[14] !== '4') return null;
    const slot = parseInt(s.slice(15, 18), 16);
    const index = parseInt(s.slice(24), 16);
    return this.make(kind, index, slot) === s ? { kind, slot, index } : null;
  }

  execution(index: number) {
    return this.make(Kind.execution, index);
  }
  account(index: number) {
    return this.make(Kind.account, index);
  }
}
