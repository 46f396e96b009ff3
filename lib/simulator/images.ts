// Placeholder pictures for generated executions: an ID card (front and back) and a face.
// Pure functions of (kind, variant); encoded once and cached so serving them is cheap. Each
// carries where its document or face is (image-regions.ts), so the content rules can be measured.
import { PNG } from 'pngjs';
import jpeg from 'jpeg-js';
import { withRegions, type Box, type RegionType } from './image-regions';
import { Rng } from './prng';

export type ImageKind = 'document-front' | 'document-back' | 'face';

export const DOC_WIDTH = 640;
export const DOC_HEIGHT = 404;
export const FACE_WIDTH = 480;
export const FACE_HEIGHT = 640;
/** How many distinct pictures exist per kind; variants wrap around. */
export const VARIANTS: Record<ImageKind, number> = { 'document-front': 48, 'document-back': 48, face: 96 };

type RGB = [number, number, number];

class Canvas {
  readonly data: Buffer;
  constructor(
    readonly width: number,
    readonly height: number,
    bg: RGB,
  ) {
    this.data = Buffer.alloc(width * height * 4);
    this.rect(0, 0, width, height, bg);
  }
  px(x: number, y: number, c: RGB) {
    if (x < 0 || y < 0 || x >= this.width || y >= this.height) return;
    const o = (y * this.width + x) * 4;
    this.data[o] = c[0];
    this.data[o + 1] = c[1];
    this.data[o + 2] = c[2];
    this.data[o + 3] = 255;
  }
  rect(x: number, y: number, w: number, h: number, c: RGB) {
    const x0 = Math.max(0, Math.floor(x)),
      y0 = Math.max(0, Math.floor(y));
    const x1 = Math.min(this.width, Math.floor(x + w)),
      y1 = Math.min(this.height, Math.floor(y + h));
    for (let yy = y0; yy < y1; yy++) for (let xx = x0; xx < x1; xx++) this.px(xx, yy, c);
  }
  ellipse(cx: number, cy: number, rx: number, ry: number, c: RGB) {
    for (let yy = Math.floor(cy - ry); yy <= cy + ry; yy++) {
      const dy = (yy - cy) / ry;
      if (dy * dy > 1) continue;
      const half = rx * Math.sqrt(1 - dy * dy);
      for (let xx = Math.ceil(cx - half); xx <= cx + half; xx++) this.px(xx, yy, c);
    }
  }
  /** Vertical gradient between two colours. */
  gradient(x: number, y: number, w: number, h: number, a: RGB, b: RGB) {
    for (let i = 0; i < h; i++) {
      const t = i / Math.max(1, h - 1);
      this.rect(x, y + i, w, 1, [0, 1, 2].map((k) => Math.round(a[k] + (b[k] - a[k]) * t)) as RGB);
    }
  }
  text(s: string, x: number, y: number, scale: number, c: RGB) {
    let cx = x;
    for (const ch of s.toUpperCase()) {
      const glyph = FONT[ch] ?? FONT['?'];
      for (let row = 0; row < 7; row++) {
        const bits = glyph[row];
        for (let col = 0; col < 5; col++)
          if (bits & (1 << (4 - col))) this.rect(cx + col * scale, y + row * scale, scale, scale, c);
      }
      cx += 6 * scale;
    }
  }
}

// 5x7 bitmap font: each glyph is 7 rows of 5 bits.
const FONT: Record<string, number[]> = {
  A: [14, 17, 17, 31, 17, 17, 17],
  B: [30, 17, 17, 30, 17, 17, 30],
  C: [14, 17, 16, 16, 16, 17, 14],
  D: [30, 17, 17, 17, 17, 17, 30],
  E: [31, 16, 16, 30, 16, 16, 31],
  F: [31, 16, 16, 30, 16, 16, 16],
  G: [14, 17, 16, 23, 17, 17, 15],
  H: [17, 17, 17, 31, 17, 17, 17],
  I: [14, 4, 4, 4, 4, 4, 14],
  J: [7, 2, 2, 2, 2, 18, 12],
  K: [17, 18, 20, 24, 20, 18, 17],
  L: [16, 16, 16, 16, 16, 16, 31],
  M: [17, 27, 21, 21, 17, 17, 17],
  N: [17, 17, 25, 21, 19, 17, 17],
  O: [14, 17, 17, 17, 17, 17, 14],
  P: [30, 17, 17, 30, 16, 16, 16],
  Q: [14, 17, 17, 17, 21, 18, 13],
  R: [30, 17, 17, 30, 20, 18, 17],
  S: [15, 16, 16, 14, 1, 1, 30],
  T: [31, 4, 4, 4, 4, 4, 4],
  U: [17, 17, 17, 17, 17, 17, 14],
  V: [17, 17, 17, 17, 17, 10, 4],
  W: [17, 17, 17, 21, 21, 21, 10],
  X: [17, 17, 10, 4, 10, 17, 17],
  Y: [17, 17, 10, 4, 4, 4, 4],
  Z: [31, 1, 2, 4, 8, 16, 31],
  '0': [14, 17, 19, 21, 25, 17, 14],
  '1': [4, 12, 4, 4, 4, 4, 14],
  '2': [14, 17, 1, 2, 4, 8, 31],
  '3': [31, 2, 4, 2, 1, 17, 14],
  '4': [2, 6, 10, 18, 31, 2, 2],
  '5': [31, 16, 30, 1, 1, 17, 14],
  '6': [6, 8, 16, 30, 17, 17, 14],
  '7': [31, 1, 2, 4, 8, 8, 8],
  '8': [14, 17, 17, 14, 17, 17, 14],
  '9': [14, 17, 17, 15, 1, 2, 12],
  ' ': [0, 0, 0, 0, 0, 0, 0],
  '<': [2, 4, 8, 16, 8, 4, 2],
  '-': [0, 0, 0, 31, 0, 0, 0],
  '.': [0, 0, 0, 0, 0, 12, 12],
  '/': [1, 1, 2, 4, 8, 16, 16],
  ':': [0, 12, 12, 0, 12, 12, 0],
  '?': [14, 17, 1, 2, 4, 0, 4],
};

const CARD_COLOURS: RGB[] = [
  [186, 214, 235],
  [214, 232, 200],
  [238, 221, 190],
  [226, 206, 232],
  [200, 226, 226],
  [240, 214, 214],
];
const SKIN: RGB[] = [
  [241, 205, 177],
  [224, 172, 138],
  [198, 134, 98],
  [161, 102, 72],
  [112, 72, 52],
  [232, 190, 160],
];
const HAIR: RGB[] = [
  [40, 30, 25],
  [90, 60, 35],
  [160, 120, 70],
  [210, 180, 120],
  [120, 120, 120],
  [60, 35, 30],
  [20, 20, 25],
];
const BACKDROP: RGB[] = [
  [222, 226, 232],
  [205, 215, 228],
  [235, 235, 228],
  [214, 222, 214],
];

/** Draws a head and shoulders in the box; returns the head's box (the face the content rules measure). */
function drawFace(c: Canvas, variant: number, x: number, y: number, w: number, h: number): Box {
  const r = Rng.of('face', variant);
  const skin = r.pick(SKIN),
    hair = r.pick(HAIR),
    shirt: RGB = [r.int(20, 200), r.int(20, 200), r.int(40, 220)];
  const cx = x + w / 2;
  // Tall enough that every generated selfie meets the Limits table's 320 px and 15 % face rules.
  const headRx = w * (0.22 + r.next() * 0.05),
    headRy = h * (0.27 + r.next() * 0.03);
  const cy = y + h * 0.44;
  c.ellipse(cx, y + h * 1.02, w * 0.42, h * 0.26, shirt); // shoulders
  c.rect(cx - headRx * 0.35, cy + headRy * 0.7, headRx * 0.7, h * 0.15, skin); // neck
  const hairStyle = r.int(0, 2);
  if (hairStyle > 0) c.ellipse(cx, cy - headRy * 0.15, headRx * 1.12, headRy * (hairStyle === 2 ? 1.15 : 1.0), hair);
  c.ellipse(cx, cy, headRx, headRy, skin);
  c.ellipse(cx, cy - headRy * 0.78, headRx * 0.95, headRy * 0.32, hair); // fringe
  const eyeY = cy - headRy * 0.12,
    eyeDx = headRx * (0.36 + r.next() * 0.08);
  for (const s of [-1, 1]) {
    c.ellipse(cx + s * eyeDx, eyeY, headRx * 0.14, headRy * 0.07, [250, 250, 250]);
    c.ellipse(cx + s * eyeDx, eyeY, headRx * 0.06, headRy * 0.06, [r.int(30, 90), r.int(40, 110), r.int(40, 120)]);
    c.rect(cx + s * eyeDx - headRx * 0.16, eyeY - headRy * 0.17, headRx * 0.32, Math.max(2, headRy * 0.03), hair); // brows
  }
  c.ellipse(cx, cy + headRy * 0.18, headRx * 0.08, headRy * 0.12, skin.map((v) => Math.max(0, v - 25)) as RGB); // nose
  c.ellipse(cx, cy + headRy * 0.5, headRx * (0.25 + r.next() * 0.1), headRy * 0.05, [170, 80, 80]); // mouth
  return { x: cx - headRx, y: cy - headRy, w: 2 * headRx, h: 2 * headRy };
}

type Region = { type: RegionType; box: Box };

function render(kind: ImageKind, variant: number): { c: Canvas; regions: Region[] } {
  const r = Rng.of('doc', kind === 'face' ? 0 : 1, variant);
  if (kind === 'face') {
    const c = new Canvas(FACE_WIDTH, FACE_HEIGHT, BACKDROP[variant % BACKDROP.length]);
    const face = drawFace(c, variant, 0, 40, FACE_WIDTH, FACE_HEIGHT - 40);
    return { c, regions: [{ type: 'Face', box: face }] };
  }
  const base = CARD_COLOURS[variant % CARD_COLOURS.length];
  const c = new Canvas(DOC_WIDTH, DOC_HEIGHT, [60, 60, 64]);
  const m = 14; // the card sits on a dark table
  c.gradient(m, m, DOC_WIDTH - 2 * m, DOC_HEIGHT - 2 * m, base, base.map((v) => Math.max(0, v - 40)) as RGB);
  const ink: RGB = [30, 40, 70];
  if (kind === 'document-front') {
    c.rect(m, m, DOC_WIDTH - 2 * m, 46, base.map((v) => Math.max(0, v - 70)) as RGB);
    c.text(
      variant % 3 === 0 ? 'PASSPORT' : variant % 3 === 1 ? 'IDENTITY CARD' : 'DRIVING LICENCE',
      m + 14,
      m + 12,
      3,
      [255, 255, 255],
    );
    c.text('SPECIMEN', DOC_WIDTH - m - 160, m + 16, 3, [255, 230, 120]);
    c.rect(m + 18, 84, 170, 220, [230, 232, 236]);
    drawFace(c, variant * 7 + 3, m + 18, 84, 170, 220);
    const lx = 220;
    const labels = ['SURNAME', 'GIVEN NAMES', 'DATE OF BIRTH', 'DOCUMENT NO', 'EXPIRY'];
    labels.forEach((l, i) => {
      c.text(l, lx, 90 + i * 44, 1, [80, 90, 110]);
      c.rect(lx, 102 + i * 44, 120 + r.int(40, 200), 12, ink);
    });
    c.text(`NO ${String(100000 + variant * 7919).slice(0, 6)}`, lx, 330, 2, ink);
    c.rect(m + 18, 318, 170, 30, [255, 255, 255]);
    c.rect(m + 30, 330, 60 + r.int(0, 80), 3, ink); // signature
  } else {
    for (let i = 0; i < 6; i++) c.rect(40, 40 + i * 26, 300 + r.int(0, 200), 10, [90, 100, 120]);
    for (let x = 40; x < 600; x += 4) c.rect(x, 210, r.int(1, 3), 60, [20, 20, 20]); // barcode
    c.rect(m, 290, DOC_WIDTH - 2 * m, 96, [245, 245, 245]);
    const mrz = [
      'IDUTO' + String(variant).padStart(9, '0') + '<<<<<<<<<<<<<<<',
      '9001017F3001012UTO<<<<<<<<<<<<',
      'SPECIMEN<<SAMPLE<<<<<<<<<<<<<<',
    ];
    mrz.forEach((line, i) => c.text(line, 30, 300 + i * 28, 3, [20, 20, 20]));
  }
  // The card, not the table it lies on. No Face region for its portrait: that face is the
  // document's, not a selfie's.
  return { c, regions: [{ type: 'Document', box: { x: m, y: m, w: DOC_WIDTH - 2 * m, h: DOC_HEIGHT - 2 * m } }] };
}

function encode(c: Canvas, format: 'png' | 'jpeg', regions: Region[]): Buffer {
  let bytes: Buffer;
  if (format === 'jpeg') bytes = Buffer.from(jpeg.encode({ data: c.data, width: c.width, height: c.height }, 72).data);
  else {
    const png = new PNG({ width: c.width, height: c.height });
    c.data.copy(png.data);
    bytes = PNG.sync.write(png, { colorType: 2, deflateLevel: 9 });
  }
  return withRegions(bytes, c.width, c.height, regions);
}

const cache = new Map<string, { bytes: Buffer; contentType: string }>();

/** Encoded picture for (kind, variant): documents as PNG, faces as JPEG. */
export function imageFor(kind: ImageKind, variant: number): { bytes: Buffer; contentType: string } {
  const v = ((variant % VARIANTS[kind]) + VARIANTS[kind]) % VARIANTS[kind];
  const key = `${kind}:${v}`;
  let hit = cache.get(key);
  if (!hit) {
    const { c, regions } = render(kind, v);
    hit =
      kind === 'face'
        ? { bytes: encode(c, 'jpeg', regions), contentType: 'image/jpeg' }
        : { bytes: encode(c, 'png', regions), contentType: 'image/png' };
    cache.set(key, hit);
  }
  return hit;
}

/**
 * The picture of (kind, variant) scaled by `scale` and centred in a `width` x `height` frame, as a
 * camera far from (or close to) the subject takes it; its regions scaled with it. For tests and
 * demos of the content rules: a selfie whose face fills 10 % of the frame, a card too small to read.
 */
export function framedImage(
  kind: ImageKind,
  variant: number,
  frame: { width: number; height: number; scale: number },
): { bytes: Buffer; contentType: string; regions: Region[] } {
  const { c: src, regions } = render(kind, variant);
  const bg: RGB = kind === 'face' ? BACKDROP[variant % BACKDROP.length] : [60, 60, 64];
  const out = new Canvas(frame.width, frame.height, bg);
  const w = Math.round(src.width * frame.scale),
    h = Math.round(src.height * frame.scale);
  const ox = Math.round((frame.width - w) / 2),
    oy = Math.round((frame.height - h) / 2);
  for (let y = 0; y < h; y++) {
    const sy = Math.min(src.height - 1, Math.floor(y / frame.scale));
    for (let x = 0; x < w; x++) {
      const sx = Math.min(src.width - 1, Math.floor(x / frame.scale));
      const so = (sy * src.width + sx) * 4;
      out.px(ox + x, oy + y, [src.data[so], src.data[so + 1], src.data[so + 2]]);
    }
  }
  const placed = regions.map(({ type, box }) => ({
    type,
    box: { x: ox + box.x * frame.scale, y: oy + box.y * frame.scale, w: box.w * frame.scale, h: box.h * frame.scale },
  }));
  const format = kind === 'face' ? 'jpeg' : 'png';
  return { bytes: encode(out, format, placed), contentType: `image/${format}`, regions: placed };
}

/** A solid PNG of any size, for tests (e.g. too small, grayscale). */
export function solidPng(width: number, height: number, opts: { gray?: boolean } = {}): Buffer {
  const png = new PNG({ width, height, colorType: opts.gray ? 0 : 2 });
  png.data.fill(200);
  return PNG.sync.write(png, { colorType: opts.gray ? 0 : 2, inputColorType: 6 });
}
/** A solid JPEG of any size, for tests. */
export function solidJpeg(width: number, height: number): Buffer {
  const data = Buffer.alloc(width * height * 4, 180);
  return Buffer.from(jpeg.encode({ data, width, height }, 50).data);
}
