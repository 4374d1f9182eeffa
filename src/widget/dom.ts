// Elements made from code: every text goes in as a text node or an attribute, never as HTML.

type Attrs = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>
type Child = Node | string | null | undefined | false

/** An element with its attributes ("on..." functions become listeners, style is set as CSS; false or null leaves one out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Attrs = {},
  ...children: (Child | Child[])[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag)
  for (const [name, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue
    if (typeof value === 'function') el.addEventListener(name.slice(2), value)
    // Through the CSSOM: a host page's Content-Security-Policy may refuse style attributes.
    else if (name === 'style') el.style.cssText = String(value)
    else el.setAttribute(name, value === true ? '' : String(value))
  }
  append(el, children)
  return el
}

/** Appends children, skipping the empty ones. */
export function append(el: ParentNode, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    // A string as a text node.
    if (child != null && child !== false) el.append(child)
  }
}

let lastId = 0
/** An id no other element on the page has, for label and ARIA references. */
export const uniqueId = (stem: string): string => `sl-${stem}-${++lastId}`
