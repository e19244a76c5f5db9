// Which record payloads a consumer may take over (transfer to a worker thread, detaching them
// here) instead of copying. A payload qualifies when its whole ArrayBuffer was made for the
// reader alone (a gzip member inflated in one call) and the reader has moved past it, having
// taken exactly one record body out of it; or when the reader copied the body into a buffer of
// its own. Either way nothing in the reader or another record can see that buffer.

/** Pieces that a source made for the reader alone. */
const exclusive = new WeakSet<ArrayBufferLike>();
/** Exclusive pieces the reader is done with, which held exactly one record's body. */
const released = new WeakSet<ArrayBufferLike>();

/**
 * Marks a piece as the reader's alone. Only for buffers that no one else holds and that are not
 * slices of Node's shared allocation pool.
 */
export function markExclusive(piece: Buffer): void {
  exclusive.add(piece.buffer);
}

/**
 * A copy the reader made of one record body, into a buffer of its own: the consumer may take it
 * over at once. Copies under half Buffer.poolSize may be slices of Node's shared pool and are
 * left alone.
 */
export function releaseCopy(copy: Buffer): void {
  if (copy.byteOffset === 0 && copy.byteLength === copy.buffer.byteLength && copy.byteLength >= Buffer.poolSize >>> 1) {
    released.add(copy.buffer);
  }
}

/** Called by the reader when it lets go of a piece out of which it took `takes` record bodies. */
export function releasePiece(piece: Buffer, takes: number): void {
  if (takes === 1 && exclusive.has(piece.buffer)) released.add(piece.buffer);
}

/**
 * The ArrayBuffer under a record's body when the consumer may transfer it (detach it here)
 * without copying: it holds this record's bytes and nothing the reader or any other record
 * still reads. Otherwise null, and the body must be copied to be moved. A buffer may also hold
 * the record's WARC and HTTP heads; the body is the view.
 */
export function transferableBuffer(body: Uint8Array): ArrayBuffer | null {
  const buffer = body.buffer;
  return released.has(buffer) && buffer instanceof ArrayBuffer && buffer.byteLength > 0 ? buffer : null;
}
