// Derivation formulas as MathML (web/tex.js): the TeX comes from the core, never from user text.
import { toMathML } from './tex.js';

export function renderMath(tex, el) {
  el.replaceChildren(toMathML(tex));
  return el;
}
