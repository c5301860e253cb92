/**
 * llama.cpp's own layer assignment for a --tensor-split, re-done in 32-bit floats as its source does it
 * (src/llama-model.cpp load_tensors, https://github.com/ggml-org/llama.cpp/blob/a5410f046c01d01330c8a42f13b64a211fedf2c3/src/llama-model.cpp):
 * cumulative split fractions, and slot il to the first device whose fraction exceeds il ÷ (n_layer + 1).
 */
/** llama.cpp's device of each slot 0..n_layer for a -ts vector, in float32 as load_tensors computes it. */
export function llamacppSlots(split: readonly number[], layers: number): number[] {
  const f = Math.fround;
  const cum: number[] = [];
  let sum = f(0);
  for (const s of split) {
    sum = f(sum + f(s));
    cum.push(sum);
  }
  const fractions = cum.map((c) => f(c / sum));
  const act = layers + 1;
  const out: number[] = [];
  for (let il = 0; il <= layers; il++) {
    const v = f(il / act);
    let d = fractions.findIndex((x) => x > v);
    if (d < 0) d = split.length;
    out.push(d);
  }
  return out;
}

/** The layer range a card row names ("box/0: layers 0–43"). */
export function rangeOf(role: string): [number, number] {
  const m = /layers (\d+)–(\d+)/.exec(role);
  if (!m) throw new Error(`no layer range in "${role}"`);
  return [Number(m[1]), Number(m[2])];
}
