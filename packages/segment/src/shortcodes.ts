/**
 * CMS shortcodes left in a page's text: WordPress page builders (WPBakery's `[vc_row …]`, Divi's
 * `[et_pb_section]`, Avada's `[fusion_text]`, ...) and core ones (`[caption …]`, `[gallery]`) that
 * a broken theme or an export printed instead of expanding. They are markup, never prose.
 *
 * Only the tags of known shortcode families go: a bracketed word in prose (`[edit]`, `[1]`,
 * `[sic]`) stays. The text between an opening and a closing tag stays too (a caption's words).
 */
const SHORTCODE =
  /\[\/?(?:(?:vc|et_pb|fusion|av|cs|su|mk|tm|ux|gdlr|fl|tdc|td|us|rev)_[a-z0-9_-]*|caption|gallery|embed|playlist|contact-form-7|wpforms|mc4wp_form|ninja_form|gravityforms?|rev_slider|elementor-template)(?:\s[^\]]*)?\/?\]/g;

/** `text` without the shortcode tags it holds, spaces around a removed tag folded to one. */
export function stripShortcodes(text: string): string {
  // Most blocks hold no bracket at all; they cost one indexOf.
  if (text.indexOf("[") < 0) return text;
  const stripped = text.replace(SHORTCODE, " ");
  return stripped.length === text.length ? text : stripped.replace(/ {2,}/g, " ").trim();
}
