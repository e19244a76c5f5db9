/**
 * ModelProto's metadata_props (field 14, StringStringEntryProto key/value pairs) read straight
 * from the bytes, without protobufjs. Why by hand: loading protobufjs and building the ONNX
 * schema by reflection (schema.ts) costs 35-55 ms of CPU in every thread that loads a model,
 * and a cleaning run needs nothing of the file but these pairs (ONNX Runtime reads the graph
 * itself). Writing and fully decoding models (graph.ts: training, export, inspect) keep
 * protobufjs.
 *
 * The reader accepts and refuses exactly what protobufjs 7's decoder of the header that
 * graph.ts used to declare (ir_version, producer_name, producer_version, opset_import,
 * metadata_props; every other field skipped by wire type) accepts and refuses on a Uint8Array,
 * quirks included, so that no model file changes from accepted to refused or back: a
 * differential test (metadata-props.test.ts) holds it to that on every model file in the repo
 * and on truncated, flipped and mislabelled variants. Strings are decoded as Node's Buffer
 * decodes UTF-8, as protobufjs did for a file read from disk (a Buffer), invalid sequences
 * becoming U+FFFD. One difference on purpose: protobufjs's Buffer reader cuts a string that runs
 * past the end of its message short and carries on, where its Uint8Array reader (and this one)
 * refuses the file.
 */
import { Buffer } from "node:buffer";

/** ModelProto's field numbers that the header decode read (onnx.proto); the rest are skipped. */
const IR_VERSION = 1;
const PRODUCER_NAME = 2;
const PRODUCER_VERSION = 3;
const OPSET_IMPORT = 8;
const METADATA_PROPS = 14;

/** protobufjs's limit on nested groups (protoc's default recursion limit). */
const RECURSION_LIMIT = 100;

class MalformedProtobuf extends RangeError {}

/**
 * A position in the bytes and the end of the message being read (protobufjs's Reader: `len`
 * narrows to a sub-message's end while it is read).
 */
class Cursor {
  pos = 0;
  len: number;

  constructor(readonly buf: Uint8Array) {
    this.len = buf.length;
  }

  outOfRange(): never {
    throw new MalformedProtobuf(`index out of range at offset ${this.pos} (message ends at ${this.len})`);
  }

  /** A varint as an unsigned 32-bit number; as protobufjs, bytes six to ten are skipped unread. */
  uint32(): number {
    const { buf } = this;
    if (this.len - this.pos < 5) {
      if (this.pos >= this.len) this.outOfRange();
      if (buf[this.pos] >= 128) return this.#uint32NearEnd();
    }
    let value = 0;
    for (let i = 0; i < 4; i++) {
      const byte = buf[this.pos++];
      value = (value | ((byte & 127) << (i * 7))) >>> 0;
      if (byte < 128) return value;
    }
    const fifth = buf[this.pos++];
    value = (value | ((fifth & 15) << 28)) >>> 0;
    if (fifth < 128) return value;
    this.pos += 5;
    if (this.pos > this.len) {
      this.pos = this.len;
      this.outOfRange();
    }
    return value;
  }

  /** Fewer than five bytes left: at most four, each checked against the end. */
  #uint32NearEnd(): number {
    let value = 0;
    for (let i = 0; i < 4; i++) {
      if (this.pos >= this.len) this.outOfRange();
      const byte = this.buf[this.pos++];
      value = (value | ((byte & 127) << (i * 7))) >>> 0;
      if (byte < 128) return value;
    }
    this.outOfRange();
  }

  /**
   * Steps over an int64 varint (its value is not needed). Mirrors protobufjs's readLongVarint:
   * up to ten bytes; with four or fewer left, the fourth byte ends it whatever its top bit says,
   * even one past the end, which then leaves the position beyond the message.
   */
  skipInt64(): void {
    const { buf } = this;
    if (this.len - this.pos > 4) {
      for (let i = 0; i < 5; i++) if (buf[this.pos++] < 128) return;
      for (let i = 0; i < 5; i++) {
        if (this.pos >= this.len) this.outOfRange();
        if (buf[this.pos++] < 128) return;
      }
      throw new MalformedProtobuf("invalid varint encoding");
    }
    for (let i = 0; i < 3; i++) {
      if (this.pos >= this.len) this.outOfRange();
      if (buf[this.pos++] < 128) return;
    }
    this.pos++;
  }

  /** A length-delimited string. */
  string(): string {
    const length = this.uint32();
    const start = this.pos;
    const end = start + length;
    if (end > this.len) this.outOfRange();
    this.pos = end;
    return Buffer.from(this.buf.buffer, this.buf.byteOffset + start, length).toString("utf8");
  }

  skip(length: number): void {
    if (this.pos + length > this.len) this.outOfRange();
    this.pos += length;
  }

  skipVarint(): void {
    do {
      if (this.pos >= this.len) this.outOfRange();
    } while (this.buf[this.pos++] & 128);
  }

  /** Steps over a field's value by its wire type (protobufjs's skipType, groups included). */
  skipType(wireType: number, depth: number): void {
    if (depth > RECURSION_LIMIT) throw new MalformedProtobuf("maximum nesting depth exceeded");
    switch (wireType) {
      case 0:
        this.skipVarint();
        break;
      case 1:
        this.skip(8);
        break;
      case 2:
        this.skip(this.uint32());
        break;
      case 3:
        for (let wire = this.uint32() & 7; wire !== 4; wire = this.uint32() & 7) this.skipType(wire, depth + 1);
        break;
      case 5:
        this.skip(4);
        break;
      default:
        throw new MalformedProtobuf(`invalid wire type ${wireType} at offset ${this.pos}`);
    }
  }

  /**
   * Reads a length-prefixed sub-message with `field` called on each of its fields (by number,
   * whatever the wire type, as protobufjs's decoders do); it must end exactly at its length.
   */
  message(field: (number: number, wireType: number) => void): void {
    const length = this.uint32();
    const end = this.pos + length;
    if (end > this.len) this.outOfRange();
    const outer = this.len;
    this.len = end;
    while (this.pos < end) {
      const tag = this.uint32();
      field(tag >>> 3, tag & 7);
    }
    if (this.pos !== end) this.outOfRange();
    this.len = outer;
  }
}

/**
 * A model's metadata_props as a map (a key given twice keeps its last value; an entry without a
 * key is dropped, one without a value maps to ""). Throws on bytes that are not a well-formed
 * ModelProto header; the graph and the rest are stepped over, not checked.
 */
export function decodeModelMetadata(bytes: Uint8Array): Map<string, string> {
  const cursor = new Cursor(bytes);
  const map = new Map<string, string>();
  const skipOther = (wireType: number): void => cursor.skipType(wireType, 1);
  while (cursor.pos < cursor.len) {
    const tag = cursor.uint32();
    switch (tag >>> 3) {
      case IR_VERSION:
        cursor.skipInt64();
        break;
      case PRODUCER_NAME:
      case PRODUCER_VERSION:
        cursor.string();
        break;
      case OPSET_IMPORT:
        cursor.message((number, wireType) => {
          if (number === 1) cursor.string();
          else if (number === 2) cursor.skipInt64();
          else skipOther(wireType);
        });
        break;
      case METADATA_PROPS: {
        let key: string | undefined;
        let value = "";
        cursor.message((number, wireType) => {
          if (number === 1) key = cursor.string();
          else if (number === 2) value = cursor.string();
          else skipOther(wireType);
        });
        if (key !== undefined) map.set(key, value);
        break;
      }
      default:
        cursor.skipType(tag & 7, 0);
    }
  }
  return map;
}
