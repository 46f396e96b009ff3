// Where the document and the face are inside a picture, carried in the picture itself as XMP
// image regions (Metadata Working Group, "Guidelines for Handling Image Metadata" 2.0, section
// 5.9 "Image Region Metadata": mwg-rs:Regions with a normalized stArea centre, width and height).
// Cameras and photo tools write Face regions this way; the simulator writes them into every picture
// it generates (a Face region, and a Document region for ID cards: MWG leaves the Type list open)
// and reads them from any upload, so the content rules of the Limits table can be measured.
import zlib from 'node:zlib';
import exifr from 'exifr';

/** A box in pixels: left, top, width, height. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}
export type RegionType = 'Face' | 'Document';
export interface Regions {
  face?: Box;
  document?: Box;
}

const XMP_HEADER_JPEG = 'http://ns.adobe.com/xap/1.0/\0';
const round = (n: number) => Math.round(n * 1e6) / 1e6;

function xmpPacket(width: number, height: number, regions: Array<{ type: RegionType; box: Box }>): string {
  const items = regions
    .map(
      ({ type, box }) =>
        `<rdf:li rdf:parseType="Resource"><mwg-rs:Type>${type}</mwg-rs:Type><mwg-rs:Area stArea:x="${round((box.x + box.w / 2) / width)}" stArea:y="${round((box.y + box.h / 2) / height)}" stArea:w="${round(box.w / width)}" stArea:h="${round(box.h / height)}" stArea:unit="normalized"/></rdf:li>`,
    )
    .join('');
  return (
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?><x:xmpmeta xmlns:x="adobe:ns:meta/">' +
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#"><rdf:Description rdf:about=""' +
    ' xmlns:mwg-rs="http://www.metadataworkinggroup.com/schemas/regions/"' +
    ' xmlns:stDim="http://ns.adobe.com/xap/1.0/sType/Dimensions#" xmlns:stArea="http://ns.adobe.com/xmp/sType/Area#">' +
    `<mwg-rs:Regions rdf:parseType="Resource"><mwg-rs:AppliedToDimensions stDim:w="${width}" stDim:h="${height}" stDim:unit="pixel"/>` +
    `<mwg-rs:RegionList><rdf:Bag>${items}</rdf:Bag></mwg-rs:RegionList></mwg-rs:Regions>` +
    '</rdf:Description></rdf:RDF></x:xmpmeta><?xpacket end="w"?>'
  );
}

/**
 * The picture with its regions as XMP: in a JPEG an APP1 segment right after SOI, in a PNG an
 * iTXt chunk "XML:com.adobe.xmp" right after IHDR (the places XMP's part 3 names for each format).
 */
export function withRegions(
  bytes: Buffer,
  width: number,
  height: number,
  regions: Array<{ type: RegionType; box: Box }>,
): Buffer {
  const xmp = Buffer.from(xmpPacket(width, height, regions), 'utf8');
  if (bytes[0] === 0xff && bytes[1] === 0xd8) {
    const payload = Buffer.concat([Buffer.from(XMP_HEADER_JPEG, 'latin1'), xmp]);
    const len = Buffer.alloc(2);
    len.writeUInt16BE(payload.length + 2);
    return Buffer.concat([bytes.subarray(0, 2), Buffer.from([0xff, 0xe1]), len, payload, bytes.subarray(2)]);
  }
  // keyword, NUL, compression flag 0, method 0, empty language tag, NUL, empty translated keyword, NUL
  const data = Buffer.concat([Buffer.from('XML:com.adobe.xmp\0\0\0\0\0', 'latin1'), xmp]);
  const type = Buffer.from('iTXt', 'latin1');
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(zlib.crc32(Buffer.concat([type, data])));
  const afterIhdr = 8 + 8 + 13 + 4;
  return Buffer.concat([bytes.subarray(0, afterIhdr), len, type, data, crc, bytes.subarray(afterIhdr)]);
}

type XmpArea = { x?: unknown; y?: unknown; w?: unknown; h?: unknown; unit?: unknown };
type XmpRegion = { Type?: unknown; Area?: XmpArea };

/**
 * The largest Face and Document region of a picture, in pixels of a `width` x `height` image;
 * none when the picture carries no (readable) regions. Never throws: metadata is a hint.
 */
export async function readRegions(bytes: Buffer, width: number, height: number): Promise<Regions> {
  let parsed: Record<string, any> | undefined;
  try {
    parsed = await exifr.parse(bytes, {
      xmp: true,
      tiff: false,
      exif: false,
      gps: false,
      interop: false,
      icc: false,
      iptc: false,
      jfif: false,
      ihdr: false,
      multiSegment: true,
      mergeOutput: false,
    });
  } catch {
    return {};
  }
  const list = parsed?.['mwg-rs']?.Regions?.RegionList;
  const regions: XmpRegion[] = Array.isArray(list) ? list : list ? [list] : [];
  const out: Regions = {};
  for (const r of regions) {
    const a = r.Area;
    const nums = [a?.x, a?.y, a?.w, a?.h].map(Number);
    if (!a || (a.unit !== undefined && a.unit !== 'normalized') || nums.some((n) => !Number.isFinite(n) || n < 0))
      continue;
    const [cx, cy, w, h] = nums;
    const box: Box = { x: (cx - w / 2) * width, y: (cy - h / 2) * height, w: w * width, h: h * height };
    const key = r.Type === 'Face' ? 'face' : r.Type === 'Document' ? 'document' : null;
    if (key && (!out[key] || box.w * box.h > out[key].w * out[key].h)) out[key] = box;
  }
  return out;
}
