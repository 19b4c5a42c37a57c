/**
 * Test helpers (no test-runner imports): a PNG's signature and IHDR chunk — what LINE's size checks and ours read —
 * padded to `bytes`. Not a picture a viewer could draw; the rich-menu rules read only its header.
 */
export function pngOf(width: number, height: number, bytes = 64): Uint8Array {
  const out = new Uint8Array(Math.max(bytes, 33));
  out.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  const view = new DataView(out.buffer);
  view.setUint32(16, width);
  view.setUint32(20, height);
  out.set([8, 6, 0, 0, 0], 24);
  return out;
}
