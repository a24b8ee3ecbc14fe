// Derivation formulas as MathML through Temml: small, no fonts to download, and it renders
// into an element with DOM calls (the TeX comes from the core, never from user text).
import temml from 'temml';

export function renderMath(tex, el) {
  try {
    temml.render("\\displaystyle " + tex, el, { displayMode: false, throwOnError: false });
  } catch {
    el.textContent = tex;
  }
  return el;
}
