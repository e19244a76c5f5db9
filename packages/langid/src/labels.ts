/**
 * The labels lid.176 gives, so that a language code can be checked before a run starts (and
 * without loading the model): `--langs eng` would otherwise drop every document, since no
 * document is ever labelled "eng". langid.test.ts checks this list against the model's own.
 */

/** lid.176's 176 labels, in alphabetical order. */
export const LID176_LABELS: readonly string[] = (
  "af als am an ar arz as ast av az azb ba bar bcl be bg bh bn bo bpy br bs bxr ca cbk ce ceb ckb co cs cv cy da de " +
  "diq dsb dty dv el eml en eo es et eu fa fi fr frr fy ga gd gl gn gom gu gv he hi hif hr hsb ht hu hy ia id ie ilo " +
  "io is it ja jbo jv ka kk km kn ko krc ku kv kw ky la lb lez li lmo lo lrc lt lv mai mg mhr min mk ml mn mr mrj ms mt " +
  "mwl my myv mzn nah nap nds ne new nl nn no oc or os pa pam pfl pl pms pnb ps pt qu rm ro ru rue sa sah sc scn sco sd " +
  "sh si sk sl so sq sr su sv sw ta te tg th tk tl tr tt tyv ug uk ur uz vec vep vi vls vo wa war wuu xal xmf yi yo yue zh"
).split(" ");

const LABELS = new Set(LID176_LABELS);

/** Whether documents can be labelled `code` (compared in lower case). */
export function isLanguageLabel(code: string): boolean {
  return LABELS.has(code.toLowerCase());
}

/**
 * English names of languages by code, from ICU (built into Node): "eng" and "en" both give
 * "English". Made on the first unknown code: making it costs about 15 ms of CPU, which every
 * thread that loads this module (each of a run's workers) would otherwise pay for nothing.
 */
let names: Intl.DisplayNames | undefined;

function nameOf(code: string): string | undefined {
  names ??= new Intl.DisplayNames(["en"], { type: "language", fallback: "none" });
  try {
    return names.of(code);
  } catch {
    return undefined; // not a well-formed language tag
  }
}

let byName: Map<string, string> | undefined;

/**
 * The labels nearest an unknown code: the label of the same language ("eng", "deu", "zho" give
 * "en", "de", "zh"), else labels one letter away ("enn" gives "en"). Empty when none is near.
 */
export function nearestLanguageLabels(code: string): string[] {
  const lower = code.toLowerCase();
  if (byName === undefined) {
    byName = new Map();
    for (const label of LID176_LABELS) {
      const name = nameOf(label);
      if (name !== undefined && !byName.has(name)) byName.set(name, label);
    }
  }
  const name = nameOf(lower);
  const same = name === undefined ? undefined : byName.get(name);
  if (same !== undefined) return [same];
  return LID176_LABELS.filter((label) => oneEditApart(lower, label));
}

/** Whether one insertion, deletion or substitution turns a into b. */
function oneEditApart(a: string, b: string): boolean {
  if (Math.abs(a.length - b.length) > 1 || a === b) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}
