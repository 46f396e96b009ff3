// Upload checks of the Limits table: the file is inspected by content, never by name or MIME type.
import { imageSize } from 'image-size';

export const MAX_UPLOAD_BYTES = 15 * 1024 * 1024;
export const MAX_SIDE = 8000;

export interface ImageInfo {
  format: 'jpeg' | 'png';
  width: number;
  height: number;
  grayscale: boolean;
  contentType: string;
}

export class UploadRuleError extends Error {
  constructor(readonly detail: string) {
    super(detail);
  }
}

function isPng(b: Uint8Array) {
  return (
    b.length > 33 &&
    b[0] === 0x89 &&
    b[1] === 0x50 &&
    b[2] === 0x4e &&
    b[3] === 0x47 &&
    b[4] === 0x0d &&
    b[5] === 0x0a &&
    b[6] === 0x1a &&
    b[7] === 0x0a
  );
}
function isJpeg(b: Uint8Array) {
  return b.length > 4 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff;
}
export function isPdf(b: Uint8Array) {
  if (b.length < 16) return false;
  const head = Buffer.from(b.subarray(0, 8)).toString('latin1');
  const tail = Buffer.from(b.subarray(Math.max(0, b.length - 1024))).toString('latin1');
  return head.startsWith('%PDF-') && tail.includes('%%EOF');
}

/** PNG: signature, IHDR first, an IEND chunk; returns the colour type. */
function pngStructure(b: Buffer): { colorType: number } | null {
  if (b.toString('latin1', 12, 16) !== 'IHDR') return null;
  const colorType = b[25];
  let off = 8;
  while (off + 12 <= b.length) {
    const len = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    if (type === 'IEND') return { colorType };
    off += 12 + len;
  }
  return null;
}

/** JPEG: SOI, a start-of-frame segment, and an end-of-image marker; returns the component count. */
function jpegStructure(b: Buffer): { components: number } | null {
  let off = 2;
  let components = -1;
  while (off + 4 <= b.length) {
    if (b[off] !== 0xff) return null;
    const marker = b[off + 1];
    if (marker === 0xff) {
      off++;
      continue;
    }
    if (marker === 0xd9) break;
    if (marker >= 0xd0 && marker <= 0xd7) {
      off += 2;
      continue;
    }
    const len = b.readUInt16BE(off + 2);
    if (len < 2) return null;
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
      components = b[off + 9];
    if (marker === 0xda) {
      // entropy-coded data follows: look for the EOI marker near the end
      const tail = b.subarray(Math.max(off, b.length - 4096));
      for (let i = tail.length - 2; i >= 0; i--)
        if (tail[i] === 0xff && tail[i + 1] === 0xd9) return components > 0 ? { components } : null;
      return null;
    }
    off += 2 + len;
  }
  return components > 0 ? { components } : null;
}

/** Format, size and resolution rules shared by every image upload (C1, C2, C4 images). */
export function inspectImage(bytes: Buffer): ImageInfo {
  if (bytes.length > MAX_UPLOAD_BYTES) throw new UploadRuleError('Image file size: file too large (at most 15 MB)');
  let format: 'png' | 'jpeg';
  let grayscale = false;
  if (isPng(bytes)) {
    const s = pngStructure(bytes);
    if (!s) throw new UploadRuleError('Image file format: the file starts like a PNG but is not a complete PNG image');
    format = 'png';
    grayscale = s.colorType === 0 || s.colorType === 4;
  } else if (isJpeg(bytes)) {
    const s = jpegStructure(bytes);
    if (!s)
      throw new UploadRuleError('Image file format: the file starts like a JPEG but is not a complete JPEG image');
    format = 'jpeg';
    grayscale = s.components === 1;
  } else {
    throw new UploadRuleError('Image file format: only JPEG and PNG images are accepted (checked by content)');
  }
  let width = 0,
    height = 0;
  try {
    const d = imageSize(bytes);
    width = d.width ?? 0;
    height = d.height ?? 0;
    if (d.orientation && d.orientation >= 5) [width, height] = [height, width];
  } catch {
    throw new UploadRuleError(`Image file format: the ${format.toUpperCase()} image cannot be read`);
  }
  if (!width || !height)
    throw new UploadRuleError(`Image file format: the ${format.toUpperCase()} image has no dimensions`);
  if (width > MAX_SIDE || height > MAX_SIDE)
    throw new UploadRuleError(`Image resolution: at most 8000 x 8000 px (got ${width} x ${height})`);
  return { format, width, height, grayscale, contentType: format === 'png' ? 'image/png' : 'image/jpeg' };
}

/** Per-operation and per-category rules on top of inspectImage. */
export function checkImageForPart(info: ImageInfo, category: string, op: 'C1' | 'C2' | 'C4'): void {
  const long = Math.max(info.width, info.height),
    short = Math.min(info.width, info.height);
  if (op === 'C2' && long <= 300)
    throw new UploadRuleError(`Longest image side: must be greater than 300 px (got ${long} px)`);
  if (category === 'ID' && (long < 563 || short < 355))
    throw new UploadRuleError(`Document image resolution: minimum 563 x 355 px (got ${info.width} x ${info.height})`);
  if (category === 'SELFIE' && (long < 640 || short < 480))
    throw new UploadRuleError(`Selfie image resolution: minimum 480 x 640 px (got ${info.width} x ${info.height})`);
}

/**
 * The content rules of the Limits table, which the spec states but names no upload error for:
 * "the document in the image is at least 512 px wide and 323 px high" (ID) and "the face is at
 * least 320 px tall and fills at least 15% of the image" (SELFIE). An upload that breaks one is
 * stored, and processing reports it as a usability result (labels from service-facts' usability
 * set; which label the real service picks here is not documented: BAD_QUALITY_IMAGE for a document
 * too small to read, BAD_QUALITY for a face too small). Measured from the picture's regions
 * (image-regions.ts); a picture without them is not measured.
 */
export interface ContentFinding {
  label: 'BAD_QUALITY_IMAGE' | 'BAD_QUALITY';
  /** The rule broken, with the measured values. */
  detail: string;
}
export const MIN_DOCUMENT_BOX = { long: 512, short: 323 };
export const MIN_FACE_HEIGHT = 320;
export const MIN_FACE_SHARE = 0.15;

export function contentFinding(
  category: string,
  info: { width: number; height: number },
  regions: { face?: { w: number; h: number }; document?: { w: number; h: number } },
): ContentFinding | null {
  if (category === 'ID' && regions.document) {
    const { w, h } = regions.document;
    // Either orientation: a card photographed upright is as readable as one lying down.
    if (Math.max(w, h) < MIN_DOCUMENT_BOX.long || Math.min(w, h) < MIN_DOCUMENT_BOX.short)
      return {
        label: 'BAD_QUALITY_IMAGE',
        detail: `the document in the image is ${Math.round(w)} x ${Math.round(h)} px (at least 512 x 323 px)`,
      };
  }
  if (category === 'SELFIE' && regions.face) {
    const { w, h } = regions.face;
    const share = (w * h) / (info.width * info.height);
    if (h < MIN_FACE_HEIGHT)
      return { label: 'BAD_QUALITY', detail: `the face is ${Math.round(h)} px tall (at least 320 px)` };
    if (share < MIN_FACE_SHARE)
      return {
        label: 'BAD_QUALITY',
        detail: `the face fills ${(share * 100).toFixed(1)} % of the image (at least 15 %)`,
      };
  }
  return null;
}
