import 'server-only';
import fs from 'node:fs';
import path from 'node:path';
import bidiFactory from 'bidi-js';
import * as fontkit from 'fontkit';

/**
 * The case report's fonts: embedded Unicode faces instead of the standard PDF fonts (which cover
 * Windows-1252 only and printed "Şahin" as "?ahin"). DejaVu Sans (npm `dejavu-fonts-ttf`) draws
 * Latin with every European extension, Greek, Cyrillic, Arabic, Hebrew, Armenian, Georgian and
 * most symbols; Noto Sans CJK draws what it lacks: the Simplified Chinese subset (npm
 * `@embedpdf/fonts-sc`: the Han ideographs of the basic block and extension A, and kana) and the
 * Korean one (`@embedpdf/fonts-kr`: Hangul). pdfkit embeds only the glyphs a report uses.
 * A character no face has is printed as "[unprintable: U+XXXX]", never as "?".
 */

export type Style = 'regular' | 'bold' | 'italic';

const FACES = {
  sans: ['dejavu-fonts-ttf', 'ttf/DejaVuSans.ttf'],
  'sans-bold': ['dejavu-fonts-ttf', 'ttf/DejaVuSans-Bold.ttf'],
  'sans-oblique': ['dejavu-fonts-ttf', 'ttf/DejaVuSans-Oblique.ttf'],
  han: ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Regular.otf'],
  'han-bold': ['@embedpdf/fonts-sc', 'fonts/NotoSansHans-Bold.otf'],
  hangul: ['@embedpdf/fonts-kr', 'fonts/NotoSansKR-Regular.otf'],
  'hangul-bold': ['@embedpdf/fonts-kr', 'fonts/NotoSansKR-Bold.otf'],
} as const;
export type Face = keyof typeof FACES;

/** Each style's faces, first choice first. DejaVu's oblique has no Arabic: the upright face has. */
const CHAINS: Record<Style, Face[]> = {
  regular: ['sans', 'han', 'hangul'],
  bold: ['sans-bold', 'sans', 'han-bold', 'hangul-bold'],
  italic: ['sans-oblique', 'sans', 'han', 'hangul'],
};

/*
 * The font packages are found on disk, not through `require.resolve`: @embedpdf's packages export
 * no subpaths, and the bundler of the console must not try to bundle a font.
 */
function packageDir(name: string): string {
  for (let dir = process.cwd(); ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'node_modules', name);
    if (fs.existsSync(path.join(candidate, 'package.json'))) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`The font package ${name} is not installed (npm install).`);
  }
}

interface Loaded {
  bytes: Buffer;
  font: fontkit.Font;
}
const loaded = new Map<Face, Loaded>();

/** A face's file and its parsed font, read once per process (the CJK faces only when a report needs them). */
export function loadFace(face: Face): Loaded {
  let l = loaded.get(face);
  if (!l) {
    const [pkg, file] = FACES[face];
    const bytes = fs.readFileSync(path.join(packageDir(pkg), file));
    l = { bytes, font: fontkit.create(bytes) as fontkit.Font };
    loaded.set(face, l);
  }
  return l;
}

const has = (face: Face, cp: number) => loadFace(face).font.hasGlyphForCodePoint(cp);

/** A piece of text in one face and one direction. */
export interface TextRun {
  face: Face;
  text: string;
  /** Right-to-left: laid out as one piece so that fontkit shapes and reverses it whole. */
  rtl: boolean;
}

const bidi = bidiFactory();
const hex = (cp: number) => cp.toString(16).toUpperCase().padStart(4, '0');
// Spaces, punctuation, combining marks and joiners follow the run they stand in when its face has them.
const FOLLOWS = /[\p{Z}\p{P}\p{M}\p{Cf}]/u;
// Controls other than line breaks have no glyph anywhere; a tab is drawn as the space it stands for.
const CONTROL = /[\p{Cc}\p{Cs}]/u;

/**
 * Splits text into runs of one face and direction. Each character takes the first face of the
 * style's chain that has it; a character no face has becomes "[unprintable: U+XXXX]".
 * Direction comes from the Unicode bidirectional algorithm (bidi-js) in a left-to-right
 * paragraph, the report's own direction: a right-to-left stretch (Arabic, Hebrew; with the
 * spaces and numbers inside it) is one run, which fontkit shapes (joining forms, ligatures) and
 * lays out right to left. Numbers and Latin words inside such a stretch are reversed beforehand,
 * so that fontkit's reversal of the whole run leaves them reading left to right.
 */
export function textRuns(input: string, style: Style): TextRun[] {
  const chain = CHAINS[style];
  const text = input.replace(/\r\n?/g, '\n').replace(/\t/g, ' ');
  const { levels } = bidi.getEmbeddingLevels(text, 'ltr');
  const runs: TextRun[] = [];
  let face: Face | null = null;
  let chars: string[] = [];
  let charLevels: number[] = [];
  const push = (f: Face, ch: string, level: number) => {
    const rtl = level > 0;
    if (f !== face || rtl !== charLevels.some((l) => l > 0)) {
      if (face && chars.length) runs.push(finish(face, chars, charLevels));
      face = f;
      chars = [];
      charLevels = [];
    }
    chars.push(ch);
    charLevels.push(level);
  };
  let i = 0;
  for (const ch of text) {
    const cp = ch.codePointAt(0)!;
    const level = levels[i];
    i += ch.length;
    if (ch === '\n') {
      push(face ?? chain[0], ch, 0);
      continue;
    }
    const printable = !CONTROL.test(ch);
    const chosen =
      printable && face && FOLLOWS.test(ch) && has(face, cp) ? face : printable ? chain.find((f) => has(f, cp)) : null;
    if (chosen) push(chosen, ch, level);
    else for (const c of `[unprintable: U+${hex(cp)}]`) push(chain[0], c, 0);
  }
  if (face && chars.length) runs.push(finish(face, chars, charLevels));
  return runs;
}

/** Within a right-to-left run, left-to-right pieces (numbers, Latin) are reversed to survive the run's reversal. */
function finish(face: Face, chars: string[], levels: number[]): TextRun {
  if (!levels.some((l) => l > 0)) return { face, text: chars.join(''), rtl: false };
  const out: string[] = [];
  for (let k = 0; k < chars.length;) {
    let end = k + 1;
    const ltr = levels[k] % 2 === 0;
    while (end < chars.length && levels[end] % 2 === levels[k] % 2) end++;
    const piece = chars.slice(k, end);
    out.push(...(ltr && levels[k] > 0 ? piece.reverse() : piece));
    k = end;
  }
  return { face, text: out.join(''), rtl: true };
}

const registered = new WeakMap<PDFKit.PDFDocument, Set<Face>>();

/**
 * Writes text in a style, run by run (`continued` between runs, so pdfkit wraps them as one
 * paragraph); each face is registered on the document the first time it is needed.
 * Right-to-left runs pass `features`, which makes pdfkit lay the run out whole instead of word
 * by word: fontkit then reverses the whole run, not each word with its trailing space.
 */
export function writeText(
  doc: PDFKit.PDFDocument,
  text: string,
  style: Style,
  options: PDFKit.Mixins.TextOptions = {},
): PDFKit.PDFDocument {
  const runs = textRuns(text === '' ? ' ' : text, style);
  let faces = registered.get(doc);
  if (!faces) registered.set(doc, (faces = new Set()));
  runs.forEach((r, k) => {
    if (!faces.has(r.face)) {
      doc.registerFont(r.face, loadFace(r.face).bytes);
      faces.add(r.face);
    }
    doc.font(r.face).text(r.text, {
      ...options,
      continued: k < runs.length - 1 ? true : (options.continued ?? false),
      ...(r.rtl ? { features: [] } : {}),
    });
  });
  return doc;
}
