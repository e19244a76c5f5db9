/**
 * Collapsed accordion sections and inactive tab panels: hidden by markup (the `hidden` attribute,
 * aria-hidden, an inline display:none or visibility:hidden, a class word) until a reader clicks
 * their header or tab, and text of the page all the same. The page's own text often sits in them
 * (a course's modules, a product's specifications, the answers of a FAQ, install steps per
 * platform), and the gold of WCXB dev keeps it: about 9,500 of its gold words stood in such panels
 * and never reached a block.
 *
 * A hidden element is read as such a panel, and so as visible, when its role is `tabpanel` or a
 * class or id word names an accordion, a collapsible part or a tab pane. Dialogs, modals and
 * aria-modal elements are not panels: they stay hidden whatever their class says.
 */

/** Class or id words of accordion and tab widgets (Bootstrap, Foundation, WordPress page builders, design systems). */
const PANEL_WORDS = /accordion|collaps|tab-?pane|tab-?panel|tabs?-content/i;

/** Whether a class or id value names a collapsed panel (see above). */
export function namesPanel(value: string): boolean {
  return value.length > 0 && PANEL_WORDS.test(value);
}

/** Whether a role attribute's value makes its element a panel that a tab shows. */
export function panelRole(value: string): boolean {
  return value === "tabpanel";
}
